"""Every error the service reports, and the one function that turns any of them into JSON.
How it works: docs/internals.md, `service.errors`.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import marshmallow as ma
from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException
from werkzeug.http import HTTP_STATUS_CODES

from core.errors import REDIS_DOWN, ServiceError, TokenMissing, is_store_full
from engine.errors import GameError
from engine.i18n import N_, _
from service.accounts import HEADER as ACCOUNT_HEADER
from service.answers import Answer
from service.i18n import translate_known, translate_tree
from service.request_language import request_language
from service.web import ERROR_PAGES, error_page, for_people, wants_page

log = logging.getLogger(__name__)

#: When a full store is worth asking again: space comes back as games end and expire.
STORE_FULL_RETRY_SECONDS = 30

# The engine's machine codes and the HTTP status each one is reported with. Acting out
# of turn or phase conflicts with the game's state (409); a bid or card the rules refuse
# is a well-formed request with unacceptable content (422).
ENGINE_STATUS: dict[str, int] = {
    "not_your_turn": 409,
    "wrong_phase": 409,
    "illegal_move": 422,
    "invalid_bid": 422,
    "invalid_card": 422,
    "invalid_suit": 422,
    "invalid_rules": 422,
}

# Machine codes of errors that werkzeug, webargs or flask-smorest raise by status.
_CODE_BY_STATUS: dict[int, str] = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    409: "conflict",
    412: "stale_version",
    413: "body_too_large",
    415: "unsupported_media_type",
    422: "validation_error",
    428: "precondition_required",
    429: "rate_limited",
    500: "internal_error",
    503: "unavailable",
}

_MESSAGE_BY_STATUS: dict[int, str] = {
    400: _("The request is malformed."),
    # Statuses our own code reports with a sentence of its own (a ServiceError's); these
    # are for the rare time werkzeug or flask-smorest raise them, so that they too have a
    # sentence in every language rather than werkzeug's English description.
    401: _("This request needs a valid token: Authorization: Bearer <token>."),
    403: _("This request is not allowed with this token."),
    404: _("There is nothing at this address."),
    405: _("This address does not accept that method."),
    406: _("This address cannot answer in a format the request accepts."),
    409: _("The request conflicts with the game's state now; reload it and try again."),
    412: _("The request's precondition (If-Match) does not hold."),
    413: _("The request body is too large."),
    415: _("Send the body as JSON, with the header Content-Type: application/json."),
    422: _("The request has invalid fields: see errors."),
    428: _("This request needs a precondition header (If-Match)."),
    429: _("Too many requests from your address; try again later."),
    500: _("Something went wrong on our side; the game is unchanged."),
    503: _("The game store is unavailable right now; try again shortly."),
}


#: marshmallow's and webargs' own fixed sentences, as they put them in `errors`: listed
#: here only so that Babel extracts them into the catalogues, where `translate_known` finds
#: them by their English text. (Those they fill with values, such as a range's bounds,
#: are `service.i18n.FOREIGN_TEMPLATES`.)
FIELD_MESSAGES = (
    N_("Missing data for required field."),
    N_("Field may not be null."),
    N_("Invalid value."),
    N_("Not a valid integer."),
    N_("Not a valid number."),
    N_("Number too large."),
    N_("Special numeric values (nan or infinity) are not permitted."),
    N_("Not a valid string."),
    N_("Not a valid utf-8 string."),
    N_("Not a valid boolean."),
    N_("Not a valid list."),
    N_("Not a valid tuple."),
    N_("Not a valid mapping type."),
    N_("Invalid type."),
    N_("Invalid input type."),
    N_("Unknown field."),
)


#: How the document describes the Retry-After header of a refusal that may pass later
#: (429, 503).
RETRY_AFTER = {
    "description": "Seconds to wait before asking again.",
    "schema": {"type": "integer", "minimum": 0, "example": 30},
}


#: What the server's HTTP layer (gunicorn) may answer any request with, before the app
#: reads it, for the operations that document no 4xx of their own.
UNREAD = {
    "4XX": {
        "description": "bad_request (400), too_many_connections (429), uri_too_long (414) or "
        "headers_too_large (431): the server refused a request it could not read.",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    }
}


class ErrorSchema(Answer):
    """The body of every error response (documentation only: errors are built by hand)."""

    OPTIONAL = frozenset({"errors", "rule", "version"})

    code = ma.fields.Integer(
        metadata={"description": "HTTP status code, repeated.", "example": 409}
    )
    status = ma.fields.String(metadata={"description": "HTTP status name.", "example": "Conflict"})
    error = ma.fields.String(
        metadata={
            "description": "Stable machine code, the same in every language (each "
            "operation's responses say which it may answer). Moves: not_your_turn, "
            "wrong_phase, wrong_game, not_started, illegal_move, invalid_bid, invalid_card, "
            "invalid_suit, stale_version, conflict, idempotency_key_reused, not_replicated. "
            "Games and tables: invalid_rules, invalid_position, game_not_found, "
            "game_not_over, table_not_found, table_full, one_seat_each, too_many_changes, "
            "too_many_tables, removed_by_host, name_taken (a seat's name that looks like "
            "another's at the table). Jobs, matches, analyses: job_not_found, "
            "match_not_found, analysis_not_found. Accounts and bots: account_required, "
            "unknown_account, account_not_found, account_disabled, not_your_account, "
            "one_seat_per_account, name_taken, accounts_full, not_a_bot, no_webhook, "
            "webhook_refused, bot_paused, challenge_not_found, challenge_closed, "
            "not_in_challenge, too_many_challenges, challenge_refused, too_many_blocks, "
            "seat_refused. "
            "Requests: unauthorized, forbidden, "
            "unknown_key, validation_error, bad_json, bad_request, body_too_large, body_too_slow, "
            "unsupported_media_type, not_acceptable, precondition_required, "
            "expectation_failed, rate_limited, over_think_budget, too_many_streams, "
            "too_many_connections, "
            "uri_too_long, headers_too_large, not_found, method_not_allowed, "
            "not_implemented. The service: unavailable, store_full, busy, internal_error.",
            "example": "not_your_turn",
        }
    )
    message = ma.fields.String(
        metadata={
            "description": "A sentence to show a person: English, or Spanish with "
            "Accept-Language: es or ?lang=es (Content-Language says which).",
            "example": "it is seat 2's turn, not seat 0's",
        }
    )
    errors = ma.fields.Dict(
        metadata={
            "description": "Per-field messages for validation errors, by location then "
            'field, e.g. {"json": {"bid": ["Not a valid integer."]}}; the first 50 fields '
            "at most.",
        }
    )
    rule = ma.fields.String(
        metadata={
            "description": "For a refused move: the rule it breaks (turn, bid_range, "
            "dealer_restriction, asistir, montar, fallar, pisar, ...).",
            "example": "montar",
        }
    )
    version = ma.fields.Integer(
        metadata={
            "description": "For stale_version: the version the game is at now.",
            "example": 13,
        }
    )


# What a seat or host token looks like (43 url-safe base64 characters), and anything as long:
# no id, card, level or rule name of ours comes near 32 characters.
_TOKEN_LIKE = re.compile(r"[A-Za-z0-9_-]{32,}")
_REDACTED = "[redacted]"


def _scrub(value: Any) -> Any:
    """`value` with every token-like run of characters replaced, keys of dicts included.

    Messages quote what the client sent (an unknown level, a card that is no card), so a
    token pasted into the wrong field would come back in the error body, and from there
    into whatever logs the client or a proxy keeps. An error body never carries one."""
    if isinstance(value, str):
        return _TOKEN_LIKE.sub(_REDACTED, value)
    if isinstance(value, dict):
        return {_scrub(k): _scrub(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_scrub(v) for v in value]
    return value


def error_response(
    status: int,
    error: str,
    message: str | None = None,
    errors: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
    **extra: Any,
) -> Response:
    """The one JSON error shape, for every status, its sentences in the request's language
    (the machine codes never change)."""
    lang = request_language()
    payload: dict[str, Any] = {
        "code": status,
        "status": HTTP_STATUS_CODES.get(status, "Error"),
        "error": error,
        "message": _scrub(
            translate_known(
                message or _MESSAGE_BY_STATUS.get(status) or HTTP_STATUS_CODES.get(status), lang
            )
        ),
    }
    if errors:
        payload["errors"] = _scrub(translate_tree(errors, lang))
    payload.update({k: _scrub(v) for k, v in extra.items() if v is not None})
    response = jsonify(payload)
    response.status_code = status
    if status == 401:
        response.headers["WWW-Authenticate"] = "Bearer"
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def _from_http_exception(exc: HTTPException) -> Response:
    status = exc.code or 500
    if status >= 500:
        return _from_unexpected(getattr(exc, "original_exception", None) or exc)
    if status in ERROR_PAGES and wants_page():
        # A person's browser at an address that names no page, or that is a page to open
        # and not to send to: a page that says so.
        page = error_page(status)
        if status == 405 and _allowed(exc):
            page.headers["Allow"] = _allowed(exc)
        return page
    data = getattr(exc, "data", None) or {}
    errors = _first_fields(data.get("errors") or data.get("messages"))
    error = _CODE_BY_STATUS.get(status, "http_error")
    message = data.get("message")
    if status == 400 and isinstance(errors, dict) and "json" in errors:
        # webargs reports a body that is not JSON this way.
        error, message, errors = "bad_json", _("The request body is not valid JSON."), None
    elif status == 422 and not message:
        # Summed up from the field messages in the request's language, so that the
        # sentence around them and they agree.
        summary = _summarise(translate_tree(errors, request_language()))
        message = _("The request has invalid fields: {summary}", summary=summary)
    elif message is None and status not in _MESSAGE_BY_STATUS:
        message = exc.description
    headers = {}
    if status in ERROR_PAGES and for_people(request.path):
        # The same address answers a browser with a page (`error_page`).
        headers["Vary"] = "Accept"
    if status == 405 and _allowed(exc):
        headers["Allow"] = _allowed(exc)
    return error_response(status, error, message, errors, headers)


def _allowed(exc: HTTPException) -> str:
    """The methods a 405's address allows, as its `Allow` header says them ("" if none)."""
    return dict(exc.get_headers()).get("Allow") or ""


#: The most fields a refusal's `errors` names: a body of thousands of unknown fields would
#: otherwise come back as megabytes, translated and scrubbed field by field while the
#: process answers nobody else.
MOST_FIELDS = 50


def _first_fields(errors: Any, most: int = MOST_FIELDS) -> Any:
    """`errors` (webargs' messages by location, then field, nested) with its first `most`
    fields' messages only, in the same shape."""
    left = most

    def keep(node: Any) -> Any:
        nonlocal left
        if isinstance(node, dict):
            kept = {}
            for key, value in node.items():
                if left <= 0:
                    break
                kept[key] = keep(value)
            return kept
        left -= 1
        return node

    return keep(errors) if isinstance(errors, dict) else errors


def _summarise(errors: Any) -> str:
    """`json.players.1.bot: Not a level.` from webargs' nested messages, for people."""
    parts: list[str] = []

    def walk(prefix: str, node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                walk(f"{prefix}.{key}" if prefix else str(key), value)
        elif isinstance(node, list) and all(isinstance(x, str) for x in node):
            parts.append(f"{prefix.removeprefix('json.')}: {' '.join(node)}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(f"{prefix}.{i}", value)
        else:
            parts.append(f"{prefix}: {node}")

    walk("", errors)
    return "; ".join(parts[:5]) if parts else _("see errors.")


def _from_service_error(exc: ServiceError) -> Response:
    headers = None if exc.retry_after is None else {"Retry-After": str(exc.retry_after)}
    return error_response(exc.status, exc.error, exc.message, exc.errors, headers, **exc.extra)


def _from_token_missing(exc: TokenMissing) -> Response:
    # A bot's author who sends its key where every account endpoint takes it, in
    # X-Pocha-Account, is told that a seat takes it as its bearer token instead.
    if request.headers.get(ACCOUNT_HEADER) and not request.headers.get("Authorization"):
        exc = TokenMissing(
            _(
                "An account's key opens its seats as a seat's token does: send it in "
                "Authorization: Bearer pa_..., not in X-Pocha-Account."
            )
        )
    return _from_service_error(exc)


def _from_engine_error(exc: GameError) -> Response:
    status = ENGINE_STATUS.get(exc.code)
    if status is None:
        # invalid_state and anything new: a stored game the engine refuses is our fault.
        return _from_unexpected(exc)
    return error_response(status, exc.code, exc.message, rule=exc.rule)


def _from_unexpected(exc: BaseException) -> Response:
    if is_store_full(exc):
        log.warning("redis is full: a write was refused")
        return error_response(
            503,
            "store_full",
            _(
                "The game store is full: nothing new can be saved until games end or are "
                "deleted. Try again later."
            ),
            headers={"Retry-After": str(STORE_FULL_RETRY_SECONDS)},
        )
    if isinstance(exc, REDIS_DOWN):
        log.warning("redis unavailable: %s", type(exc).__name__)
        return error_response(503, "unavailable", headers={"Retry-After": "1"})
    log.error("unexpected error", exc_info=exc)
    return error_response(500, "internal_error")


def register_error_handlers(app: Flask) -> None:
    """Route every exception through `error_response` (call after flask-smorest's Api)."""
    app.register_error_handler(HTTPException, _from_http_exception)
    app.register_error_handler(ServiceError, _from_service_error)
    app.register_error_handler(TokenMissing, _from_token_missing)
    app.register_error_handler(GameError, _from_engine_error)
    app.register_error_handler(Exception, _from_unexpected)
