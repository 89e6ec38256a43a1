"""The tests of accounts' lifetime and cap, with the store on a Redis Cluster: the making
script's count, and the forgetting script's keys, all in the accounts' hash slot, run in
one pipeline of scripts by the sweep."""

from tests.service.test_account_lifetime import *  # noqa: F403
