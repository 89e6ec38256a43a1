"""The API's fixtures of `tests/service` (bots play inline), on the cluster."""

from tests.service.conftest import app, client, store

__all__ = ["app", "client", "store"]
