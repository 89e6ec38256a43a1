"""What every request leaves behind for operators: its request id, one JSON log line, and
its count and latency in the metrics.
How it works: docs/internals.md, `service.telemetry`.
"""

from __future__ import annotations

import logging
import time

from flask import Flask, Response, g

from core import logs
from core.config import is_on
from core.store.keys import is_game_id
from service.api_keys import current_key
from service.context import current_request
from service.metrics import UNMATCHED, ProcessMetrics, method_label, status_label
from service.metrics import install as install_metrics

log = logging.getLogger("service.request")

#: Endpoints whose 200 means a person's move was applied, and what the move was.
MOVES = {"games.Bids": "bid", "games.Plays": "card"}

#: A game id's length (`secrets.token_urlsafe(12)`); a token is longer, so a token in a
#: game's place in the path is never logged as its id.
GAME_ID_LENGTH = 16

#: The environ's key of the request id's header.
_REQUEST_ID_KEY = "HTTP_" + logs.REQUEST_ID_HEADER.upper().replace("-", "_")


def install(app: Flask) -> None:
    """Register the hooks (first, so that a request refused by a later hook, such as a
    rate limit, still gets its id, its line and its count; `run_first` puts the request's
    start back at the head of the hooks once others have been put there)."""
    metrics = install_metrics(app)
    request_log = is_on(app.config.get("REQUEST_LOG", "on"))
    app.before_request(_start)

    @app.after_request
    def finish(response: Response) -> Response:
        return _finish(response, metrics, request_log)

    @app.teardown_request
    def clear(_: BaseException | None) -> None:
        # gunicorn's threads serve one request after another: a line written between two
        # must not carry the last one's id.
        logs.REQUEST_ID.set(None)


def run_first(app: Flask) -> None:
    """Make the request's start the first of `app`'s before-request hooks again: hooks that
    refuse a request before its limit is counted (`service.ratelimits`, `service.api_keys`,
    a hint's or a seat change's token) put themselves at the head, and a request one of them
    refused would otherwise answer with an id of its own rather than the caller's, and be
    logged and timed without it."""
    hooks = app.before_request_funcs.setdefault(None, [])
    hooks.remove(_start)
    hooks.insert(0, _start)


def _start() -> None:
    # The header read from the environ as `request.headers` would (no parsed headers object
    # is built for it).
    started = time.perf_counter()
    request_id = logs.request_id_from(current_request().environ.get(_REQUEST_ID_KEY))
    found = g._get_current_object()
    found.pocha_started = started
    found.pocha_request_id = request_id
    logs.REQUEST_ID.set(request_id)


def _finish(response: Response, metrics: ProcessMetrics, request_log: bool) -> Response:
    found = g._get_current_object()
    request = current_request()
    request_id = found.get("pocha_request_id") or logs.request_id_from(None)
    response.headers[logs.REQUEST_ID_HEADER] = request_id
    started = found.get("pocha_started")
    seconds = time.perf_counter() - started if started is not None else 0.0
    rule = request.url_rule
    route = rule.rule if rule is not None else UNMATCHED
    status = response.status_code
    metrics.observe(request.method, route, status, seconds)
    key = current_key()
    if key is not None:
        metrics.key_requests.labels(metrics.key_label(key.name), status_label(status)).inc()
    if status == 200:
        action = MOVES.get(request.endpoint or "")
        if action is not None:
            metrics.count_move(action)
    if request_log and log.isEnabledFor(logging.INFO):
        extra: dict[str, object] = {
            "method": method_label(request.method),
            "route": route,
            "status": status,
            "duration_ms": round(seconds * 1000, 2),
        }
        game_id = (request.view_args or {}).get("game_id")
        if isinstance(game_id, str) and len(game_id) == GAME_ID_LENGTH and is_game_id(game_id):
            extra["game"] = game_id
        log.info("request", extra=extra)
    return response
