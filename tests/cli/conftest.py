"""Fixtures of the command-line tests: the service's app on a fresh Redis DB and its test
client (`tests/service`'s), for the commands that read what the service gives."""

from __future__ import annotations

from tests.service.conftest import app, client  # noqa: F401  (fixtures used here)
