"""The games resource: create, view, bid, play, follow the events, read the score sheet and
a finished game's record, delete.

Views are thin: they read the bearer token and If-Match, call `GameService`, and let the
schemas and the error handlers do the rest. Every response that shows a game carries an
ETag that starts with its version; the view's own (`GET /api/v1/games/{id}`) is the tag of
that caller's view, and answers If-None-Match with 304 without building the view.
"""

from __future__ import annotations

import functools
import hashlib
import re
import time
from collections.abc import Callable
from importlib import metadata
from typing import Any, TypeVar, cast

import orjson
from flask import Response, current_app, request
from flask.views import MethodView
from werkzeug.datastructures import Headers
from werkzeug.http import quote_etag

from core.errors import ServiceError, TokenMissing, Unauthorized
from core.play.games import PlayerSpec
from core.play.tables import code_shown, shown_code, view_validator
from core.store.records import NO_TABLE, StoredGame
from engine.i18n import _
from engine.protocols import WireAction
from service.accounts import current_account
from service.api.games_schemas import (
    MAX_SEQ,
    CreatedGameSchema,
    CreateGameSchema,
    EventsQuerySchema,
)
from service.api.links import CREATED_GAME, FROM_VIEW, responses
from service.api.wire import MoveBody
from service.api.wire.games import move_body
from service.api_keys import limit_key
from service.context import current_request, game_service, services
from service.errors import RETRY_AFTER, ErrorSchema
from service.events import EXTENSION as EVENTS
from service.events import EventStreams
from service.json_bodies import Blueprint
from service.ratelimits import limits_on, take_move_counters
from service.request_language import request_language, translate_view
from service.share import table_link, with_table_link

F = TypeVar("F", bound=Callable[..., Any])

blp = Blueprint(
    "games",
    __name__,
    url_prefix="/api/v1/games",
    description="Create a game, see it as a seat or a spectator, bid and play, follow its "
    "events. Seats authenticate with `Authorization: Bearer <token>` from the creation "
    "response.",
)

_BEARER: list[dict[str, list[str]]] = [{"bearerAuth": []}]
_SEAT_AUTH: dict[str, Any] = {"security": _BEARER}
_VIEW_AUTH: dict[str, Any] = {"security": [*_BEARER, {}]}
#: An operation anyone may call, without a token.
PUBLIC: dict[str, Any] = {"security": []}
#: The headers of a response that shows a game, and of a move's.
_ETAG = {
    "description": 'The game\'s version, quoted (`"12"`): send it back as If-Match.',
    "schema": {"type": "string", "example": '"12"'},
}
#: The view's own tag (`_view_tag`), on `GET /api/v1/games/{id}`'s answers.
_VIEW_ETAG = {
    "description": "This view's entity tag: the game's version, a dash and a digest of "
    "what else the view depends on (the seat asking, the language, who is present, the "
    'table\'s link), such as `"12-5f0c2a9e1b7d4c36"`; weak (`W/"12-..."`) while a turn\'s '
    "clock runs, as `seconds_left` moves on under it. Send it back as If-None-Match to be "
    "answered 304 while the view is unchanged, or as If-Match with a move (only its "
    "version counts there).",
    "schema": {"type": "string", "example": '"12-5f0c2a9e1b7d4c36"'},
}
_IF_NONE_MATCH = {
    "in": "header",
    "name": "If-None-Match",
    "required": False,
    "description": "The ETag of a view you hold (or several, comma-separated; weak ones "
    "compare too; `*` matches any). While it is still your view's, the answer is 304 with "
    "no body.",
    "schema": {"type": "string", "example": '"12-5f0c2a9e1b7d4c36"'},
}
#: The view's Cache-Control (`GameById.get`), on its 200s and 304s.
_VIEW_CACHE_CONTROL = {
    "description": "`no-cache` while no clock runs (the ETag is strong): a cache may keep "
    "the view but must revalidate it, and a 304 means the very body it holds. `no-store` "
    "while a turn's clock runs (the ETag is weak): no cache may keep the view, since "
    "`seconds_left` moves on and a stored body's would be stale; a client that holds the "
    "view itself still sends its ETag as If-None-Match and is answered 304.",
    "schema": {"type": "string", "enum": ["no-cache", "no-store"]},
}
_NOT_MODIFIED = {
    "description": "Not modified: an ETag sent in If-None-Match is still your view's; no "
    "body (the view you hold stands; while a clock runs, count its `seconds_left` down "
    "from when you got it, or read `deadline`).",
    "headers": {"ETag": _VIEW_ETAG, "Cache-Control": _VIEW_CACHE_CONTROL},
}
_REPLAYED = {
    "description": "`true` when this answers a retry of a move already applied (the same "
    "Idempotency-Key): the game as it is now, the move not applied again.",
    "schema": {"type": "string", "enum": ["true"]},
}

_IF_MATCH = {
    "in": "header",
    "name": "If-Match",
    "required": False,
    "description": "The `version` (or the ETag) of the view the move was decided on; the "
    "move is refused with 412 `stale_version` if the game has changed since (only the "
    "version a view's ETag starts with is compared).",
    "schema": {
        "type": "string",
        "pattern": '^(\\*|(W/)?"?[0-9]{1,18}(-[0-9a-f]{16})?"?)$',
        "example": '"12"',
    },
}
_IDEMPOTENCY_KEY = {
    "in": "header",
    "name": "Idempotency-Key",
    "required": False,
    "description": "Any string of 1 to 255 visible ASCII characters, new for each move you "
    "mean to make. Sent again with the same key (a retry after a lost answer), the move is "
    "not applied twice: the answer is the game as it is now, with `Idempotent-Replayed: "
    "true`. While the first request is still being applied, a retry gets 409 `conflict`. "
    "Sent again with another move (another value or decision), it is refused with 422 "
    "`idempotency_key_reused` and nothing is applied. Remembered for an hour, per seat.",
    "schema": {
        "type": "string",
        "pattern": "^[\\x21-\\x7e]{1,255}$",
        "example": "3f1c9a52-move-17",
    },
}
_LAST_EVENT_ID = {
    "in": "header",
    "name": "Last-Event-ID",
    "required": False,
    "description": "For a stream: resume after this `seq` (EventSource sends it itself). "
    "A value that is not a whole number is ignored: the stream starts after `after`.",
    "schema": {"type": "string", "example": "17"},
}
_AFTER = {
    "in": "query",
    "name": "after",
    "required": False,
    "description": "Only the events with `seq` greater than this (default 0: all). For a "
    "stream, a Last-Event-ID header that is a whole number wins over it.",
    "schema": {"type": "integer", "minimum": 0, "maximum": MAX_SEQ, "default": 0},
}
_GAME_ID = {"description": "The game's id.", "example": "Jm2bS0k4qV7wXc1Z"}
#: The game's id in a route's path.
_GAME_PATH = [{"in": "path", "name": "game_id", **_GAME_ID}]


# What each documented error status means here; the body is always the Error schema.
_ERRORS = {
    400: "bad_json (the body is not JSON) or bad_request (e.g. a malformed If-Match).",
    401: "unauthorized: no token, or a token that opens no seat of this game; "
    "unknown_account: an account's key that opens no account (replaced, or never made).",
    403: "forbidden: the host token used to play, or a seat token used to delete.",
    404: "game_not_found: no such game (never existed, deleted, or expired).",
    409: "not_your_turn, wrong_phase, not_started (the table waits for people), wrong_game "
    "(a decision the game does not make: a bid in Poch, a bet or a suit in Pocha), or "
    "conflict (another request won the race).",
    412: "stale_version: If-Match names a version the game has left.",
    408: "body_too_slow.",
    413: "body_too_large.",
    415: "unsupported_media_type: the body is not sent as application/json.",
    422: "validation_error: a malformed body; illegal_move, invalid_bid, invalid_card or "
    "invalid_suit: a move the rules refuse (`rule` says which); idempotency_key_reused: "
    "an Idempotency-Key sent before with another move (nothing is applied).",
    429: "rate_limited: too many of these requests from your address; wait `Retry-After` seconds.",
    503: "unavailable: the game store does not answer; retry shortly. Or, for a change "
    "(a move, a table's), not_replicated: with POCHA_WAIT_REPLICAS set, no replica confirmed "
    "it in time; it was written and stands unless a failover comes first: read the game "
    "before sending it again.",
}


def _documentation_of(*decorators: Callable[[Any], Any]) -> Callable[[F], F]:
    """What flask-smorest's documenting decorators write on a view, without the wrappers
    they leave around it.

    `blp.doc`, `blp.alt_response` and `blp.response` document a view by wrapping it, one
    call layer each at every request. These layers do nothing at run time for the views
    marked here (`response`'s only passes through the finished `Response` that
    `_view_response` makes), so their documentation is kept and they are dropped. The
    OpenAPI drift test guards the result."""

    def decorate(view: F) -> F:
        documented: Any = view
        for decorator in reversed(decorators):
            documented = decorator(documented)
        view._apidoc = documented._apidoc  # type: ignore[attr-defined]
        return view

    return decorate


def _error_doc(blp: Blueprint, status: int, description: str) -> Callable[[F], F]:
    """`blp.alt_response` of the Error shape, with Retry-After for the statuses that send
    it (429, 503)."""
    headers = {"Retry-After": RETRY_AFTER} if status in (429, 503) else None
    return cast(
        Callable[[F], F],
        blp.alt_response(status, schema=ErrorSchema, description=description, headers=headers),
    )


#: A read's 401: without a token, a read is the spectator's, not refused.
_READ_401 = (
    "unauthorized: a token that opens no seat of this game (without one, the spectator's "
    "answer); unknown_account: an account's key that opens no account (replaced, or never "
    "made)."
)


def _documents_errors(*statuses: int, read: bool = False) -> Callable[[F], F]:
    """Document these error responses (all of the Error shape) on a view; `read`: one that
    answers a caller without a token as a spectator."""
    said = {**_ERRORS, 401: _READ_401} if read else _ERRORS
    return _documentation_of(*(_error_doc(blp, s, said[s]) for s in statuses))


def _doc(**kwargs: Any) -> Callable[[F], F]:
    """`blp.doc`, documentation only."""
    return _documentation_of(blp.doc(**kwargs))


#: `blp.response(200, GameViewSchema)`, documentation only: for views that return
#: `_view_response`.
#: Either game's view, told apart by `game`.
VIEW = {
    "oneOf": [
        {"$ref": "#/components/schemas/GameView"},
        {"$ref": "#/components/schemas/PochGameView"},
    ],
    "discriminator": {
        "propertyName": "game",
        "mapping": {
            "pocha": "#/components/schemas/GameView",
            "poch": "#/components/schemas/PochGameView",
        },
    },
}

_responds_with_view = _documentation_of(
    blp.response(
        200,
        VIEW,
        description="The view: a Pocha game's (`GameView`) or a Poch game's (`PochGameView`), "
        "told apart by `game`.",
        headers={"ETag": _ETAG},
    )
)

#: `getGame`'s answer: the view, with the view's own tag.
_responds_with_own_view = _documentation_of(
    blp.response(
        200,
        VIEW,
        description="The view: a Pocha game's (`GameView`) or a Poch game's (`PochGameView`), "
        "told apart by `game`.",
        headers={"ETag": _VIEW_ETAG, "Cache-Control": _VIEW_CACHE_CONTROL},
    )
)

#: A move's answer: the view, and whether it replays a move already applied.
_responds_to_move = _documentation_of(
    blp.response(
        200,
        VIEW,
        description="Your new view: a Pocha game's (`GameView`) or a Poch game's "
        "(`PochGameView`), told apart by `game`.",
        headers={"ETag": _ETAG, "Idempotent-Replayed": _REPLAYED},
    )
)


def _move_body(endpoint: str) -> Callable[[F], F]:
    """`blp.arguments(schema)` for the one-field body of a move sent to `endpoint` (its
    game's wire forms name its schema, `service.api.wire.MoveBody`), with a short cut.

    webargs and marshmallow cost about a tenth of a move's time for a body of one small
    field. A body that `accepts` (exactly what the schema takes, checked field by field) is
    handed to the view as it is; anything else goes through webargs and the schema, which
    refuse it with their usual answers. The documentation is flask-smorest's own."""

    body_of: MoveBody = move_body(endpoint)
    schema, accepts = body_of.schema(), body_of.accepts

    def decorate(view: F) -> F:
        parsed: Any = blp.arguments(schema, location="json")(view)

        @functools.wraps(view)
        def fast(*args: Any, **kwargs: Any) -> Any:
            body = request.get_json(silent=True)
            if accepts(body):
                return view(*args, body, **kwargs)
            # A move needs a seat's token: without one, that is the answer (401), whatever
            # the body, as for a well-formed move.
            if bearer_token() is None:
                raise TokenMissing(_("Send your seat's token: Authorization: Bearer <token>."))
            return parsed(*args, **kwargs)

        fast._apidoc = parsed._apidoc  # type: ignore[attr-defined]
        return cast(F, fast)

    return decorate


def _move_endpoint(operation_id: str, endpoint: str) -> Callable[[F], F]:
    """A move's view at `endpoint` (bids, plays, bets, suits): its body (`_move_body`) and
    its documentation as `operation_id`, every move's headers, answer and errors."""
    decorators = (
        _doc(operationId=operation_id, parameters=[_IF_MATCH, _IDEMPOTENCY_KEY], **_SEAT_AUTH),
        _move_body(endpoint),
        _responds_to_move,
        _documents_errors(400, 401, 403, 404, 408, 409, 412, 413, 415, 422, 429, 503),
    )

    def decorate(view: F) -> F:
        for decorator in reversed(decorators):
            view = decorator(view)
        return view

    return decorate


def bearer_token() -> str | None:
    """The token of `Authorization: Bearer <token>`, or None when there is no header."""
    # Read from the environ as `request.headers` reads it (this and the next two headers
    # are on every move's path).
    header: str | None = current_request().environ.get("HTTP_AUTHORIZATION")
    if header is None:
        return None
    scheme, _space, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        # An unusable header is refused rather than read as "no token": a client that
        # meant to act as a seat must not silently get the spectator's view.
        raise Unauthorized(_("The Authorization header must be `Bearer <token>`."))
    return token


#: A version or an event's seq as a client may send it back: ASCII digits, and few enough
#: to stay far from the integers Redis and Python refuse (str.isdigit() takes "²" too).
_VERSION = _SEQ = re.compile(r"[0-9]{1,18}")
#: What If-Match may name: a version, or a view's ETag (`_view_tag`), which starts with one.
_MATCHED_VERSION = re.compile(r"([0-9]{1,18})(?:-[0-9a-f]{16})?")
_IDEMPOTENCY = re.compile(r"[\x21-\x7e]{1,255}")


def if_match_version() -> int | None:
    """The version an If-Match header names (`"12"`, `W/"12"` or `12`, or a view's ETag
    such as `"12-5f0c2a9e1b7d4c36"`), if any."""
    header = current_request().environ.get("HTTP_IF_MATCH")
    if header is None or header.strip() == "*":
        return None
    text = header.strip().removeprefix("W/").strip('"')
    matched = _MATCHED_VERSION.fullmatch(text)
    if matched is None:
        raise ServiceError(_('If-Match must be a game version such as "12".'))
    return int(matched[1])


def _release() -> str:
    """The installed service's version (a clone run without installing: "source")."""
    try:
        return metadata.version("pocha")
    except metadata.PackageNotFoundError:
        return "source"


#: The service's release: a new one may draw the same game's view otherwise.
_RELEASE = _release()


def _view_tag(record: StoredGame, seat: int | None, now: float) -> tuple[str, bool, str | None]:
    """The entity tag of the view that `seat` (None: a spectator) gets of `record` at
    `now` in this request, whether it is weak, and the table's link it was made with (the
    view must show that one: the link's address is looked up anew now and then). The tag
    is the version, then a digest of
    everything else the answer depends on: the game, the seat and who is present
    (`view_validator`), the request's language (a refusal's sentences, Content-Language),
    the table's link when the view shows one (it is made at the request's address), and
    the release. Worked out without building the view, so that a 304 costs no view.

    Made only of what this caller sees anyway: never of a hand, so the header tells
    nobody anything about anyone's cards."""
    said, weak = view_validator(record, seat, now)
    parts = [_RELEASE, record.id, said, request_language()]
    code = code_shown(record, seat is not None)
    link = None if code is None else table_link(code)
    if link is not None:
        parts.append(link)
    digest = hashlib.blake2b("\n".join(parts).encode(), digest_size=8).hexdigest()
    return f"{record.version}-{digest}", weak, link


def _view_response(view: dict[str, Any], etag: str | None = None) -> Response:
    """A view as JSON, with `etag` (quoted) as the ETag, by default its version.

    Built here rather than dumped through GameViewSchema: a view is made of plain JSON
    values already, and the dump would be a fifth of a move's time. The schema still
    documents it, and a test checks that dumping through it changes nothing."""
    # A headers object the answer takes as it is (from a dict, werkzeug would copy it
    # through its generic multi-value path).
    headers = Headers()
    headers.add("ETag", f'"{view["version"]}"' if etag is None else etag)
    return Response(
        orjson.dumps(translate_view(with_table_link(view))),
        # The mimetype's content type, as werkzeug would work it out from the mimetype.
        content_type="application/json",
        headers=headers,
    )


@blp.route("")
class Games(MethodView):
    @_doc(operationId="createGame", **PUBLIC, **responses(201, CREATED_GAME))
    @blp.arguments(CreateGameSchema(), location="json")
    @blp.response(
        201,
        CreatedGameSchema,
        headers={
            "Location": {
                "description": "The game's address.",
                "schema": {"type": "string", "example": "/api/v1/games/Jm2bS0k4qV7wXc1Z"},
            }
        },
    )
    @_documents_errors(400, 408, 413, 415, 429, 503)
    @_documentation_of(
        blp.alt_response(
            409,
            schema=ErrorSchema,
            description="too_many_tables: your address has as many listed tables in the "
            "lobby as it may (3); start one, or make this one unlisted.",
        )
    )
    def post(self, body: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
        """Create a game

        Seats are given in playing order. Each person's seat gets a token and the creator
        a host token; they appear only in this response. If a bot is to act first, its
        turn is handed to the bots at once. `Location` is the game's address.

        A seat may be `{"open": true}`: then the game waits (phase `waiting`) at a table
        with a `table_code` until people take its open seats (`POST
        /api/v1/tables/{code}/seats`), or the host starts it. With two people or more,
        each person's turn is timed (`rules.turn_seconds`, 60 s unless given; 0 turns the
        clock off) and a stand-in bot (`stand_in_level`) plays a turn whose clock runs out.
        """
        players = [
            PlayerSpec(p.get("name", ""), p.get("bot"), bool(p.get("open")))
            for p in body["players"]
        ]
        created = game_service().create(
            players,
            body.get("rules"),
            body.get("seed"),
            listed=body["listed"],
            stand_in_level=body["stand_in_level"],
            game_name=body["game"],
            holder=limit_key() if limits_on() else None,
            account=current_account(),
            rated=body["rated"],
        )
        record = created.record
        seats: list[dict[str, Any]] = []
        for i, (seat, token) in enumerate(zip(record.seats, created.seat_tokens, strict=True)):
            entry: dict[str, Any] = {"seat": i, "name": seat.name}
            if seat.bot is not None:
                entry["bot"] = seat.bot
            if seat.open:
                entry["open"] = True
            if token is not None:
                entry["token"] = token
            if seat.account is not None:
                entry["account"] = seat.account
            seats.append(entry)
        code = None if record.table.code is None else shown_code(record.table.code)
        created_game = {
            "id": record.id,
            "version": record.version,
            "host_token": created.host_token,
            "seats": seats,
            "table_code": code,
            "table_link": None if code is None else table_link(code),
        }
        return created_game, {"Location": f"{blp.url_prefix}/{record.id}"}


@blp.route("/<game_id>", parameters=_GAME_PATH)
class GameById(MethodView):
    @_doc(
        operationId="getGame",
        parameters=[_IF_NONE_MATCH],
        **_VIEW_AUTH,
        responses={200: {"links": FROM_VIEW}, 304: _NOT_MODIFIED},
    )
    @_responds_with_own_view
    @_documents_errors(401, 404, 503, read=True)
    def get(self, game_id: str) -> Any:
        """See the game

        With a seat's token, that seat's view (its hand and legal actions under `you`);
        without a token, the spectator's view. A conditional GET: send the ETag of the
        view you hold as If-None-Match and, while it is still your view, the answer is
        304 with no body (cheaper for both sides when you poll).
        """
        found = game_service()
        record, seat = found.seen_by(game_id, bearer_token())
        now = time.time()
        tag, weak, link = _view_tag(record, seat, now)
        if current_request().if_none_match.contains_weak(tag):
            # RFC 9110's weak comparison, as If-None-Match asks; `*` and lists as werkzeug
            # reads them. The view is never built.
            response = Response(status=304)
            response.set_etag(tag, weak)
        else:
            view = found.view(record, seat, now)
            if link is not None:
                view["table"]["link"] = link
            response = _view_response(view, quote_etag(tag, weak))
        # The answer is the token's and the language's. Without a clock, a cache may keep
        # the view and revalidate it every time (the tag makes that cheap; a 304 means the
        # very body it holds). While a clock runs no cache may keep it: a browser's own
        # cache would revalidate by itself and, on the 304, hand the page the body it
        # stored, its `seconds_left` as it was then. A program's If-None-Match still gets
        # its 304: it holds the view itself and counts the clock down.
        response.headers["Cache-Control"] = "no-store" if weak else "no-cache"
        response.vary.update(("Authorization", "Accept-Language"))
        return response

    @_doc(operationId="deleteGame", **_SEAT_AUTH)
    @blp.response(204)
    @_documents_errors(401, 403, 404, 409, 503)
    def delete(self, game_id: str) -> None:
        """Delete the game (host token only; a rated game once counted)"""
        game_service().delete(game_id, bearer_token())


@blp.route("/<game_id>/bids", parameters=_GAME_PATH)
class Bids(MethodView):
    @_move_endpoint("postBid", "bids")
    def post(self, body: dict[str, Any], game_id: str) -> Any:
        """Bid

        On your turn while bidding: how many tricks you will win. Returns your new view.
        """
        return _move(game_id, body["bid"], "bid")


@blp.route("/<game_id>/plays", parameters=_GAME_PATH)
class Plays(MethodView):
    @_move_endpoint("postPlay", "plays")
    def post(self, body: dict[str, Any], game_id: str) -> Any:
        """Play a card

        On your turn while playing. A card the rules forbid is refused with a message
        that says which rule (asistir, montar, fallar, pisar) and what you hold.
        """
        return _move(game_id, body["card"], "play")


@blp.route("/<game_id>/bets", parameters=_GAME_PATH)
class Bets(MethodView):
    @_move_endpoint("postBet", "bets")
    def post(self, body: dict[str, Any], game_id: str) -> Any:
        """Bet, hold or pass (Poch)

        On your turn in a Poch game's betting round: `"pass"`, `"hold"` (pay the highest
        bet so far) or the chips you bet (the first bet, or a raise above the highest).
        Returns your new view. In a Pocha game: `409 wrong_game`.
        """
        return _move(game_id, body["bet"], "bet")


@blp.route("/<game_id>/suits", parameters=_GAME_PATH)
class Suits(MethodView):
    @_move_endpoint("postSuit", "suits")
    def post(self, body: dict[str, Any], game_id: str) -> Any:
        """Choose the next suit (Poch)

        On your turn in a Poch game, when you played a suit's last card: the suit to shed
        next, one of `you.legal`. Returns your new view. In a Pocha game: `409 wrong_game`.
        """
        return _move(game_id, body["suit"], "suit")


def _move(game_id: str, move: WireAction, decision: str | None = None) -> Response:
    """The seat's move as the body gives it (a bid's number or a card's code in Pocha; a
    bet, a start card or a suit in Poch: `decision` names the endpoint; the game service
    reads it as an engine action), at most once per Idempotency-Key when one is sent."""
    key = current_request().environ.get("HTTP_IDEMPOTENCY_KEY")
    if key is not None and not _IDEMPOTENCY.fullmatch(key):
        raise ServiceError(_("Idempotency-Key must be 1 to 255 visible ASCII characters."))
    found = services()
    with found.bots.person_moving(game_id):
        if key is None:
            view, replayed = (
                found.games.act(
                    game_id,
                    bearer_token(),
                    move,
                    if_match_version(),
                    take_move_counters(),
                    decision,
                ),
                False,
            )
        else:
            view, replayed = found.games.act_once(
                game_id, bearer_token(), move, key, if_match_version(), take_move_counters(),
                decision,
            )  # fmt: skip
    response = _view_response(view)
    if replayed:
        response.headers["Idempotent-Replayed"] = "true"
    return response


@blp.route("/<game_id>/events", parameters=_GAME_PATH)
class Events(MethodView):
    @_doc(
        operationId="getEvents",
        parameters=[_AFTER, _LAST_EVENT_ID],
        responses={
            200: {
                "content": {
                    "text/event-stream": {
                        "schema": {
                            "type": "string",
                            "description": "Server-Sent Events: `retry: 1000`, then for each "
                            "event `id: <seq>` and `data: <the event as JSON>` (an `Event` or "
                            "a `PochEvent`), a `: keepalive` comment every 15 s or so, and "
                            "at the start of a stream resumed past the game's last event, "
                            '`event: reset` with `data: {"last_event": N}`.',
                        }
                    }
                },
            },
            204: {
                "description": "With `Accept: text/event-stream`, when the game is over for "
                "good (no table, or its rematch made: a table's finished game may still get "
                "a `rematch` event) and every event after `Last-Event-ID` (or `after`) has "
                "been sent: nothing is left to follow. A standard EventSource stops here "
                "instead of reconnecting.",
            },
        },
        **_VIEW_AUTH,
    )
    @blp.arguments(EventsQuerySchema(), location="query")
    @blp.response(
        200,
        {
            "type": "array",
            "items": {
                "anyOf": [
                    {"$ref": "#/components/schemas/Event"},
                    {"$ref": "#/components/schemas/PochEvent"},
                ]
            },
        },
        description="The events after `after`: a Pocha game's (`Event`), or a Poch game's "
        "(`PochEvent`, and the table's as `Event`). With `Accept: text/event-stream`, the "
        "same events as Server-Sent Events, then new ones as they happen: the stream ends "
        "when the game is over, or after about a minute (an EventSource reconnects with "
        "Last-Event-ID).",
    )
    @_documents_errors(401, 404, read=True)
    @_documentation_of(
        blp.alt_response(
            429,
            schema=ErrorSchema,
            description="too_many_streams: your address holds as many open streams as it "
            "may (`POCHA_MAX_STREAMS_PER_ADDRESS`, 32 by default); close one, or wait "
            "`Retry-After` seconds, or poll with `after`.",
            headers={"Retry-After": RETRY_AFTER},
        )
    )
    @_documents_errors(503)
    def get(self, query: dict[str, Any], game_id: str) -> Any:
        """Follow the events

        Every event in order, each with its `seq`: hand_dealt, bid, card_played,
        trick_won, hand_scored, game_over. Events never carry a hidden card. A stream
        resumed (`Last-Event-ID`) after more events than the game has, which a failover of
        its Redis can cause, starts with an `event: reset` message whose `id` is the game's
        last event: read the game again, and take the events that follow.
        """
        service = game_service()
        after = query["after"]
        if _wants_stream():
            last_id = request.headers.get("Last-Event-ID", "").strip()
            if _SEQ.fullmatch(last_id):
                after = int(last_id)
            # Read before the stream starts, so an unknown game is a JSON 404. A client
            # that saw events the game no longer has (a failover of its Redis lost them)
            # is told to read the game again, and followed from its last event.
            count = service.store.event_count(game_id)
            record = service.store.load(game_id, history=False)
            # Over for good: finished, and no rematch to come (a game people played at a
            # table is told of its rematch by a last event, `rematch`).
            finished = record.game.finished and (
                record.table is NO_TABLE or record.table.rematch is not None
            )
            if finished and after == count:
                # Nothing is left to send, nor ever will be: 204 tells an EventSource to
                # stop rather than reconnect (to this answer) for ever.
                return Response(status=204)
            here = _presence_of(record)
            streams: EventStreams = current_app.extensions[EVENTS]
            stream = streams.open(
                game_id, min(after, count), request.remote_addr,
                request.environ.get("gunicorn.socket"), here, reset=after > count,
                finished=finished,
            )  # fmt: skip
            return Response(
                stream,
                mimetype="text/event-stream",
                headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
            )
        if "Authorization" in request.headers:
            # The events are the same for everyone, but a token sent is checked as a view
            # or a stream checks it: one that opens nothing is refused, not ignored.
            record = service.store.load(game_id, history=False)
            service.seat_for(record, bearer_token(), required=False)
        # The events are stored as JSON: the list is joined, not decoded and encoded again.
        return Response(
            b"[" + b",".join(service.store.events_json(game_id, after)) + b"]",
            mimetype="application/json",
        )


def _presence_of(record: StoredGame) -> Callable[[], None] | None:
    """For a stream sent with a seat's token: what notes that the seat is here (a stream
    held is presence). A token that opens no seat is refused, as for a view."""
    token = bearer_token()
    if token is None:
        return None
    service = game_service()
    seat = service.seat_for(record, token, required=False)
    if seat is None:
        return None
    return functools.partial(service.store.touch, record, seat)


def _wants_stream() -> bool:
    best = request.accept_mimetypes.best_match(["application/json", "text/event-stream"])
    return best == "text/event-stream"


@blp.route("/<game_id>/history", parameters=_GAME_PATH)
class History(MethodView):
    @_doc(operationId="getHistory", **PUBLIC)
    @blp.response(
        200,
        {
            "oneOf": [
                {"$ref": "#/components/schemas/History"},
                {"$ref": "#/components/schemas/PochHistory"},
            ],
            "discriminator": {
                "propertyName": "game",
                "mapping": {
                    "pocha": "#/components/schemas/History",
                    "poch": "#/components/schemas/PochHistory",
                },
            },
        },
        description="A Pocha game's score sheet (`History`) or a Poch game's (`PochHistory`), "
        "told apart by `game`.",
    )
    @_documents_errors(404, 503)
    def get(self, game_id: str) -> Response:
        """Read the score sheet

        Pocha: every finished hand: the cards dealt (all played by then), trump, bids,
        tricks, points and running totals. Poch: every finished deal's winner and
        payments, and the chips now.
        """
        return Response(orjson.dumps(game_service().history(game_id)), mimetype="application/json")


#: A game record's envelope as the OpenAPI document states it: the whole format, each game's
#: deals included, is the JSON Schema the service serves (`service.api.json_schemas`).
_RECORD = {
    "type": "object",
    "description": "A finished game's record, as the JSON Schema (draft 2020-12) at "
    "`/api/v1/schemas/game-record.json` defines it in full: each game's `deals` have that "
    "game's shape, told apart by `game`.",
    "required": [
        "format",
        "game",
        "id",
        "created",
        "players",
        "rules",
        "deals",
        "scores",
        "winners",
    ],
    "properties": {
        "format": {"type": "integer", "enum": [1], "description": "The record format's version."},
        "game": {"type": "string", "description": "The game's name (`GET /api/v1/rules`)."},
        "id": {"type": "string"},
        "created": {"type": "string", "format": "date-time"},
        "players": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["seat", "name", "level"],
                "properties": {
                    "seat": {"type": "integer", "minimum": 0},
                    "name": {"type": "string"},
                    "level": {"type": "string", "nullable": True},
                },
            },
        },
        "stand_in_level": {"type": "string", "nullable": True},
        "rules": {"type": "object"},
        "deals": {"type": "array", "items": {"type": "object"}},
        "scores": {"type": "array", "items": {"type": "integer"}},
        "winners": {"type": "array", "items": {"type": "integer", "minimum": 0}},
        "advice": {
            "type": "array",
            "description": "What our bots thought at their decisions with a choice, where a "
            "level that searches made them (absent when none did): each decision's `number` "
            "among the record's, `seat`, `level`, `action`, its expected `score` and the "
            "`options` the search weighed most, each with its `share` and `score`.",
            "items": {"type": "object"},
        },
    },
}


@blp.route("/<game_id>/record", parameters=_GAME_PATH)
class Record(MethodView):
    @_doc(operationId="getRecord", **PUBLIC)
    @blp.response(200, _RECORD, description="The game's record.")
    @_documentation_of(
        _error_doc(
            blp,
            409,
            "game_not_over: the game has not ended; its record shows every hand, so it is "
            "given once the game is over.",
        ),
        _error_doc(
            blp,
            429,
            "rate_limited: too many reads of records from your address "
            "(`POCHA_RATE_LIMIT_RECORDS`); wait `Retry-After` seconds.",
        ),
    )
    @_documents_errors(404, 503)
    def get(self, game_id: str) -> Response:
        """Read a finished game's record

        One JSON document with everything that happened: the seats, the rules, every deal
        with every hand as dealt, every decision and card in order (who, what, and whether
        the table's stand-in made it), each trick's winner in a game of tricks, and the
        scores after each deal and at the end, and what our bots thought at their
        decisions (`advice`). The format is versioned (`format`) and defined by the JSON
        Schema `GET /api/v1/schemas/game-record.json`; `pocha replay FILE` prints one.
        """
        return Response(orjson.dumps(game_service().record(game_id)), mimetype="application/json")
