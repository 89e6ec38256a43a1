"""Fixtures of the command-line tests: the service's app on a fresh Redis DB and its test
client (`tests/service`'s), for the commands that read what the service gives, and an
in-process worker (`tests/worker`'s `drain`) for those that read a match's games."""

from __future__ import annotations

from tests.service.conftest import app, client  # noqa: F401  (fixtures used here)
from tests.worker.conftest import connection, drain  # noqa: F401  (a match's games, played)
