"""The tests of challenges and accounts' event streams, with the store on a Redis Cluster:
the challenges' scripts in the accounts' hash slot, and the streams woken by the games'
and the accounts' channels, which a cluster's nodes all hear."""

from tests.service.test_service_challenges import *  # noqa: F403
