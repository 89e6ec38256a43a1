"""The jobs room's tests run real RQ workers: the workers' fixtures (tests/worker/conftest.py)."""

from tests.worker.conftest import app, client, connection, drain, workers  # noqa: F401 (fixtures)
