"""The HTTP API and the web page, and nothing else: flask-smorest blueprints and their
schemas, the edge (body limits, proxies, CORS), rate limits, metrics, error responses and
the static page.

Views stay thin and call `core`, which holds the games, the bot turns and the queues in
Redis; this package never imports `worker`. `create_app(config)` builds the Flask app
(imported on first use, so that importing `service` costs nothing until then).
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
