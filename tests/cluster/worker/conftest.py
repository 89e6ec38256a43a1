"""The worker tests' fixtures of `tests/worker` (the RQ bot runner, `pocha worker`
processes), on the cluster; the in-process worker and its connection come from
`tests/cluster/conftest.py`."""

from tests.worker.conftest import app, client, workers

__all__ = ["app", "client", "workers"]
