"""Tables people gather at, over HTTP: the lobby, a table by its code, taking a seat, and
the host's and the people's changes of a game's seats (start, a bot in an open seat, come
back, leave, rematch).

The views read the bearer token and hand everything to `core.play.tables.TableService`; each
answers with what the caller needs next: a new seat's token once, or the caller's view of
the game (the same view `GET /api/v1/games/{id}` gives).
"""

from __future__ import annotations

import time
from typing import Any

from flask import Flask, Response, current_app, request
from flask.views import MethodView
from flask_limiter.util import get_remote_address

from core.play.tables import SEEDED_WARNING, shown_code
from core.store.records import client_hash
from service.accounts import HEADER, SCHEME, current_account, key_holder
from service.api.games import (
    _ERRORS,
    _documentation_of,
    _responds_with_view,
    _view_response,
    bearer_token,
)
from service.api.games_schemas import (
    JoinSchema,
    LobbyQuerySchema,
    LobbyTableSchema,
    SeatBotSchema,
    SeatTakenSchema,
    StartSchema,
)
from service.api.links import REMATCH_SEAT, SEAT_TAKEN, responses
from service.context import game_service
from service.errors import ErrorSchema
from service.i18n import translate
from service.json_bodies import Blueprint
from service.ratelimits import limits_on
from service.request_language import request_language

blp = Blueprint(
    "tables",
    __name__,
    url_prefix="/api/v1/tables",
    description="Tables people gather at: the lobby of listed tables still waiting, a table "
    'by its code, and taking a seat. A game made with an open seat (`{"open": true}` in '
    "`POST /api/v1/games`) waits at a table until people take its seats.",
)

seats = Blueprint(
    "seats",
    __name__,
    url_prefix="/api/v1/games",
    description="A game's seats as people come and go: the host starts the game early or "
    "gives an open seat to a bot; a person comes back from being away, leaves, or takes "
    "their seat at the rematch.",
)

_CODE = {
    "in": "path",
    "name": "code",
    "description": "The table's code, in any case, with or without its dash.",
    "example": "K7QM-3XHP",
}
_GAME = {"in": "path", "name": "game_id", "description": "The game's id."}
_SEAT = {"in": "path", "name": "seat", "description": "The seat, 0-based."}
_AUTH: dict[str, Any] = {"security": [{"bearerAuth": []}]}

# What each error status means for these endpoints (the body is always the Error schema).
_TABLE_ERRORS = {
    **_ERRORS,
    401: "unauthorized: no token, or a token that opens no seat of this game; "
    "unknown_account: an account's key that opens no account (replaced, or never made).",
    403: "forbidden: the host's token is needed (start, bot, remove), or the token is not "
    "the seat's (return, leave); removed_by_host: the host removed you from this table; "
    "seat_refused (rematch): an account at the rematch blocks yours, or yours blocks one "
    "there.",
    404: "table_not_found (no table has this code) or game_not_found.",
    409: "table_full (no open seat is left, or the game has started), wrong_phase (the game "
    "has started already, is not over for a rematch, or the seat left), one_seat_each (you "
    "have a seat at this listed table already), too_many_changes (seats at this table were "
    "taken and given up too often), or conflict (too many changes at once: try again).",
    429: "rate_limited: too many table lookups and seats taken from your address "
    "(`POCHA_RATE_LIMIT_TABLES`), or too many changes of one seat "
    "(`POCHA_RATE_LIMIT_SEATS`: its person's comings and goings, and the host's removals "
    "from it, counted apart); wait `Retry-After` seconds.",
}


#: Why taking a seat may be forbidden (`service.accounts` adds the account's own refusal).
_JOIN_REFUSED = (
    "seat_refused: an account at this table (one holding a seat, or the table's maker) "
    "blocks your account, or yours blocks one there; "
    "removed_by_host: the host removed you from this table."
)


def _documents_errors(*statuses: int) -> Any:
    """Document these error responses (all of the Error shape) on a view."""
    return _documentation_of(
        *(blp.alt_response(s, schema=ErrorSchema, description=_TABLE_ERRORS[s]) for s in statuses)
    )


@blp.route("")
class Lobby(MethodView):
    @blp.doc(operationId="getLobby", security=[{}, {SCHEME: []}])
    @blp.arguments(LobbyQuerySchema(), location="query")
    @blp.response(200, LobbyTableSchema(many=True))
    @blp.alt_response(
        401,
        schema=ErrorSchema,
        description="unknown_account: an X-Pocha-Account that is no account's key.",
    )
    @blp.alt_response(
        403,
        schema=ErrorSchema,
        description="account_disabled: the account of the X-Pocha-Account key is disabled.",
    )
    @blp.alt_response(
        429,
        schema=ErrorSchema,
        description="rate_limited: too many reads of the lobby from your address "
        "(`POCHA_RATE_LIMIT_LOBBY`); wait `Retry-After` seconds.",
    )
    @_documents_errors(503)
    def get(self, query: dict[str, Any]) -> Response:
        """The lobby

        Listed tables still waiting for people, newest first (at most 50): their seats,
        names and rules. Never a token. With an account's key (`X-Pocha-Account`), without
        the tables where an account (its maker, or one seated) blocks yours or yours
        blocks one: a seat there would be refused (`seat_refused`).
        """
        tables = game_service().tables
        sent = (request.headers.get(HEADER) or "").strip()
        if not sent:
            body = tables.lobby_page(time.time(), _render_lobby)
        else:
            # A use of the key like any other: noted as seen, so its last use shows.
            body = _render_lobby(tables.lobby_for(time.time(), key_holder().id))
        return Response(body, mimetype="application/json")


def _render_lobby(entries: list[dict[str, Any]]) -> bytes:
    """The lobby's body, through its schema as every answer is."""
    text: str = current_app.json.dumps(LobbyTableSchema(many=True).dump(entries))
    return text.encode()


@blp.route("/<code>", parameters=[_CODE])
class TableByCode(MethodView):
    @blp.doc(operationId="getTable", security=[])
    @blp.response(200, LobbyTableSchema)
    @_documents_errors(404, 429, 503)
    def get(self, code: str) -> dict[str, Any]:
        """A table by its code

        The table as the lobby shows it, listed or not (404 `table_not_found` for a code
        that finds none).
        """
        return game_service().tables.find(code, time.time())


@blp.route("/<code>/seats", parameters=[_CODE])
class TableSeats(MethodView):
    @blp.doc(operationId="joinTable", security=[], **responses(201, SEAT_TAKEN))
    @blp.arguments(JoinSchema(), location="json")
    @blp.response(201, SeatTakenSchema)
    @_documents_errors(400, 404, 408, 409, 413, 415, 429, 503)
    @_documentation_of(blp.alt_response(403, schema=ErrorSchema, description=_JOIN_REFUSED))
    def post(self, body: dict[str, Any], code: str) -> dict[str, Any]:
        """Take a seat

        Takes the first open seat: your seat and its token, shown only here. The game
        starts when the last open seat is taken. 409 `table_full` when no seat is left;
        when two people race for the last seat, exactly one gets it. 409 `name_taken` when
        the name (with an account's key, the account's) looks like the name of a seat taken
        at the table: case, spacing, accents and letters of other alphabets that look alike
        count as the same. With an account's key
        (X-Pocha-Account), 403 `seat_refused` when an account at the table blocks yours or
        yours blocks one there; the answer does not say which account.
        """
        client = client_hash(get_remote_address()) if limits_on() else None
        record, seat, token = game_service().tables.join(
            code, body["name"], client, current_account()
        )
        taken = {
            "game_id": record.id,
            "seat": seat,
            "token": token,
            "table_code": _shown(record.table.code),
            "seeded": record.seeded,
        }
        if record.seeded:
            taken["warning"] = translate(SEEDED_WARNING, request_language())
        return taken


def _shown(code: str | None) -> str | None:
    return None if code is None else shown_code(code)


@seats.route("/<game_id>/start", parameters=[_GAME])
class Start(MethodView):
    @seats.doc(operationId="startGame", **_AUTH)
    @seats.arguments(StartSchema(), location="json")
    @_responds_with_view
    @_documents_errors(401, 403, 404, 408, 409, 413, 415, 503)
    def post(self, body: dict[str, Any], game_id: str) -> Response:
        """Start the game now (host)

        With the host token, while the table waits: bots of level `bots` take the seats
        still open and the game starts. Answers with the spectator's view.
        """
        service = game_service()
        record = service.tables.start(game_id, bearer_token(), body["bots"])
        return _view_response(service.view(record, None))


@seats.route("/<game_id>/seats/<int:seat>/bot", parameters=[_GAME, _SEAT])
class SeatBot(MethodView):
    @seats.doc(operationId="giveSeatToBot", **_AUTH)
    @seats.arguments(SeatBotSchema(), location="json")
    @_responds_with_view
    @_documents_errors(401, 403, 404, 408, 409, 413, 415, 503)
    def post(self, body: dict[str, Any], game_id: str, seat: int) -> Response:
        """Give an open seat to a bot (host)

        With the host token, while the table waits: a bot of `level` takes this open seat
        (the game starts if it was the last one). Answers with the spectator's view.
        """
        service = game_service()
        record = service.tables.seat_to_bot(game_id, bearer_token(), seat, body["level"])
        return _view_response(service.view(record, None))


#: The endpoints that change one seat, each limited per seat (`service.ratelimits`), and
#: whether the host's token sends it (or the seat's own).
_SEAT_CHANGES = {"seats.Remove": True, "seats.Return": False, "seats.Leave": False}


def _changer_first() -> None:
    """A seat change's token, checked first: a request that may not change the seat is
    told so (401, 403, 404) rather than counted against the seat's limit. Those counts
    are the seat's person's and its host's (one each, `service.ratelimits.SEAT_LIMITED`):
    spent by anyone who knows the game's id, they would keep them from leaving, coming
    back or removing."""
    host = _SEAT_CHANGES.get(request.endpoint or "")
    if host is None or request.method != "POST":
        return
    args = request.view_args or {}
    service = game_service()
    record = service.store.load(args.get("game_id", ""), history=False)
    service.tables.may_change(record, bearer_token(), args.get("seat", -1), host=host)


def check_changer_first(app: Flask) -> None:
    """Check a seat change's token before anything else, its rate limit included."""
    app.before_request_funcs.setdefault(None, []).insert(0, _changer_first)


@seats.route("/<game_id>/seats/<int:seat>/remove", parameters=[_GAME, _SEAT])
class Remove(MethodView):
    @seats.doc(operationId="removeFromSeat", **_AUTH)
    @_responds_with_view
    @_documents_errors(401, 403, 404, 409, 429, 503)
    def post(self, game_id: str, seat: int) -> Response:
        """Remove a seat's person (host)

        With the host token, while the table waits: the person in this seat leaves it, the
        seat opens again, their token stops opening it, and they cannot take a seat at this
        table again (the `seat_opened` event says `removed`). Answers with the spectator's
        view.
        """
        service = game_service()
        record = service.tables.remove(game_id, bearer_token(), seat)
        return _view_response(service.view(record, None))


@seats.route("/<game_id>/seats/<int:seat>/return", parameters=[_GAME, _SEAT])
class Return(MethodView):
    @seats.doc(operationId="returnToSeat", **_AUTH)
    @_responds_with_view
    @_documents_errors(401, 403, 404, 409, 429, 503)
    def post(self, game_id: str, seat: int) -> Response:
        """Come back (your seat)

        With your seat's token: the stand-in stops playing your turns, and your clock runs
        again on your next turn. Making a move does the same. Answers with your view.
        """
        service = game_service()
        record = service.tables.come_back(game_id, bearer_token(), seat)
        return _view_response(service.view(record, seat))


@seats.route("/<game_id>/seats/<int:seat>/leave", parameters=[_GAME, _SEAT])
class Leave(MethodView):
    @seats.doc(operationId="leaveSeat", **_AUTH)
    @_responds_with_view
    @_documents_errors(401, 403, 404, 409, 429, 503)
    def post(self, game_id: str, seat: int) -> Response:
        """Leave (your seat)

        With your seat's token. While the table waits, your seat opens again for someone
        else and your token stops opening it; in play, the stand-in plays your seat to the
        end. Answers with the spectator's view.
        """
        service = game_service()
        record = service.tables.leave(game_id, bearer_token(), seat)
        return _view_response(service.view(record, None))


@seats.route("/<game_id>/rematch", parameters=[_GAME])
class Rematch(MethodView):
    @seats.doc(operationId="joinRematch", **_AUTH, **responses(201, REMATCH_SEAT))
    @seats.response(201, SeatTakenSchema)
    @_documents_errors(401, 403, 404, 409, 429, 503)
    def post(self, game_id: str) -> dict[str, Any]:
        """Take your seat at the rematch

        With the token you played the finished game with: a new table with the same rules
        and seats (bots where there were bots), your seat kept for you. The first to ask
        makes the table and gets its host token too; the others find it in their view
        (`table.rematch`) and take their seats the same way. The rematch starts when every
        person has taken their seat, or when its host starts it. An account's seat is kept
        for the account's key: once the key is replaced, a token handed out under the key
        before takes no seat here (401 `unauthorized`), the new key does.
        """
        nxt, seat, token, host_token = game_service().tables.rematch(game_id, bearer_token())
        taken: dict[str, Any] = {
            "game_id": nxt.id,
            "seat": seat,
            "token": token,
            "table_code": _shown(nxt.table.code),
        }
        if host_token is not None:
            taken["host_token"] = host_token
        return taken
