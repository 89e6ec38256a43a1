"""The store room's tests reach it through the API, as a client would: the service's
fixtures (tests/service/conftest.py)."""

from tests.service.conftest import app, client, store  # noqa: F401 (fixtures, found by name)
