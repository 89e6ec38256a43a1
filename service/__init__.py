"""The HTTP service: flask-smorest blueprints, schemas and the Redis-backed store.

Views stay thin and call a small service layer; games, jobs and matches live
in Redis. Together with `worker`, this is the only package that touches Redis.
`create_app(config)` builds the Flask app (imported on first use, so that
`service.embedded_redis` and `service.store` load without Flask's import cost).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """The Flask app of the API; see `service.app.create_app`."""
    from service.app import create_app as _create_app

    return _create_app(config)
