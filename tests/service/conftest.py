"""Fixtures of the service tests: an app on a fresh Redis DB, its test client and store."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from core.store.store import GameStore
from service import create_app
from service.context import EXTENSION


@pytest.fixture
def app(redis_url: str) -> Flask:
    # Bots play inline here: these tests are about the API; tests/worker runs real workers.
    app = create_app(
        {"REDIS_URL": redis_url, "TESTING": True, "SSE_MAX_SECONDS": 5, "BOT_RUNNER": "inline"}
    )
    return app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def store(app: Flask) -> GameStore:
    found: GameStore = app.extensions[EXTENSION].store
    return found
