"""The matches resource: bots against bots, many games, and the statistics.
How it works: docs/internals.md, `service.api.matches`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import orjson
from flask import Response, current_app, request
from flask.views import MethodView

from core.errors import (
    AccountDisabled,
    AccountRequired,
    Forbidden,
    InvalidInput,
    ServiceError,
    UnknownAccount,
)
from core.jobs.matches import (
    MatchRefused,
    at_tables,
    cancel_match,
    check_match,
    create_match,
    is_match_id,
    load_spec,
    match_report,
    records,
)
from core.jobs.queues import match_lane_of
from core.play.blocks import check_match_seats
from core.play.games import payer_of_holder
from core.store.accounts import Account
from core.store.accounts import find as find_account
from core.store.accounts import get as get_account
from core.store.webhooks import get as get_webhook
from engine.i18n import _
from service.accounts import HEADER, SCHEME
from service.api.ai_schemas import MatchRequestSchema, MatchSchema
from service.api.jobs import BODY_ERRORS, document_errors
from service.api.links import MATCH, MATCH_SEEN, responses
from service.api_keys import limit_key
from service.context import services
from service.errors import RETRY_AFTER, ErrorSchema
from service.json_bodies import Blueprint
from service.ratelimits import limits_on

blp = Blueprint(
    "matches",
    __name__,
    url_prefix="/api/v1/matches",
    description="Play bots against each other over many games and compare them.",
)

_MATCH_ID = [{"in": "path", "name": "match_id", "description": "The match's id."}]
#: One game record of either game.
_RECORD = {
    "oneOf": [
        {"$ref": "#/components/schemas/GameRecord"},
        {"$ref": "#/components/schemas/PochGameRecord"},
    ]
}


class MatchNotFound(ServiceError):
    status = 404
    error = "match_not_found"

    def __init__(self) -> None:
        super().__init__(_("There is no such match: it never existed or it expired."))


def _links(report: dict[str, Any]) -> dict[str, Any]:
    url = f"/api/v1/matches/{report['id']}"
    return {**report, "url": url, "records_url": f"{url}/records"}


def _report(match_id: str) -> dict[str, Any]:
    report = match_report(services().redises, match_id)
    if report is None:
        raise MatchNotFound()
    return _links(report)


def _refused_seat(message: Any) -> InvalidInput:
    return InvalidInput(message, errors={"json": {"seats": [message]}})


def _key_holder() -> Account | None:
    """The account whose key the request sends, if any (401 or 403 for a wrong one)."""
    sent = request.headers.get(HEADER)
    if not sent:
        return None
    account = find_account(services().redises.store, sent.strip())
    if account is None:
        raise UnknownAccount()
    if account.disabled:
        raise AccountDisabled()
    return account


def _check_accounts(accounts: list[str]) -> bool:
    """Each account seated in a match is enabled, and seated by its own key (sent in
    X-Pocha-Account) unless it is a bot open to matches, and none of them blocks the key's
    account or another of them (`check_match_seats`); whether one of them moves over its
    event stream (then the match is played at tables)."""
    connection = services().redises.store
    streamed = False
    holder: Account | None = None
    for account_id in dict.fromkeys(accounts):
        account = get_account(connection, account_id)
        if account is None:
            raise _refused_seat(
                _(
                    "account:{account}: no account has this id (a seat names an account by "
                    "its id, which GET /api/v1/account tells its key)",
                    account=account_id,
                )
            )
        if account.disabled or account.level is not None:
            raise _refused_seat(
                _("account:{account} is not an enabled account", account=account_id)
            )
        holder = _key_holder()
        if (holder is None or holder.id != account.id) and not (
            account.kind == "bot" and account.open_to_matches
        ):
            raise _refused_seat(
                _(
                    "account:{account} is seated in a match by its own key only (send it in "
                    "X-Pocha-Account), unless it is a bot its owner opened to matches "
                    "(open_to_matches)",
                    account=account_id,
                )
            )
        if account.kind == "bot" and get_webhook(connection, account_id) is not None:
            continue
        streamed = True
    check_match_seats(connection, accounts, None if holder is None else holder.id)
    return streamed


def _check_rated_by_its_bot(accounts: list[str]) -> None:
    """A rated match is asked for with the key of the one bot account it seats: nobody
    spends another's rating, or its webhook's time, on a match of their own."""
    sent = request.headers.get(HEADER)
    if not sent:
        raise AccountRequired(
            _("A rated match is asked for with its bot's key: send it in X-Pocha-Account.")
        )
    account = find_account(services().redises.store, sent.strip())
    if account is None:
        raise UnknownAccount()
    if account.disabled:
        raise AccountDisabled()
    if accounts != [account.id]:
        message = _(
            "A rated match seats one bot account, the one whose key is sent (account:{account}), "
            "and levels of the game.",
            account=account.id,
        )
        raise InvalidInput(message, errors={"json": {"seats": [message]}})


class NotTheMatchesBot(Forbidden):
    error = "not_your_account"


def _check_cancelled_by_its_bot(accounts: list[str]) -> None:
    """A rated match is cancelled with the key of the one bot account it rates."""
    holder = _key_holder()
    if holder is None:
        raise AccountRequired(
            _("A rated match is cancelled with its bot's key: send it in X-Pocha-Account.")
        )
    if accounts != [holder.id]:
        raise NotTheMatchesBot(
            _(
                "A rated match is cancelled with the key of the bot it rates "
                "(account:{account}) only.",
                account=", ".join(accounts),
            )
        )


@blp.route("")
class Matches(MethodView):
    @blp.doc(operationId="createMatch", security=[{}, {SCHEME: []}], **responses(202, MATCH))
    @blp.arguments(MatchRequestSchema, location="json")
    @blp.response(
        202,
        MatchSchema,
        headers={
            "Location": {
                "description": "The match's address.",
                "schema": {"type": "string", "example": "/api/v1/matches/b8VnQ2xKp0aZ"},
            }
        },
    )
    @document_errors(
        blp,
        {
            **BODY_ERRORS,
            401: "account_required: a rated match without its bot's key; unknown_account: a "
            "key that opens no account.",
            403: "account_disabled: the account of the key is disabled; seat_refused: an "
            "account the match seats blocks the key's account, or blocks another account it "
            "seats.",
            422: "validation_error: an unknown game, bots (or another game's level), budgets "
            "or rules, too many games, or more CPU than allowed; a rated match seating "
            "other than the key's bot and levels; an account seated without its key that is "
            "no bot open to matches; at tables, a bot other than a level by name.",
        },
    )
    def post(self, body: dict[str, Any]) -> Any:
        """Start a match

        The bots play `games` games of Pocha, or of Poch with `"game": "poch"` (then each
        game is one deal, as `pocha arena-poch` plays it); with `duplicate`, each deal once
        per distinct rotation of the seats. Every bot's budget is capped, and so is the
        match's total thinking.
        """
        config = current_app.config
        try:
            spec = check_match(
                body["seats"],
                body["games"],
                body.get("rules"),
                body.get("seed"),
                body["duplicate"],
                game=body["game"],
                max_games=int(config["MATCH_MAX_GAMES"]),
                max_cpu_hours=float(config["MATCH_MAX_CPU_HOURS"]),
                rated=body["rated"],
            )
        except MatchRefused as exc:
            raise InvalidInput(exc.message, errors={"json": {exc.field: [exc.message]}}) from exc
        if spec.rated:
            _check_rated_by_its_bot(spec.accounts)
        if _check_accounts(spec.accounts):
            try:
                spec = at_tables(spec)
            except MatchRefused as exc:
                raise _refused_seat(exc.message) from exc
        # Its games queue in a lane of their starter's, which workers serve in turn with
        # the other starters' (with the rate limits off, all in the first).
        starter = payer_of_holder(limit_key()) if limits_on() else None
        spec = replace(spec, lane=match_lane_of(starter))
        match_id = create_match(services().redises, spec)
        report = _report(match_id)
        return report, 202, {"Location": report["url"]}


@blp.route("/<match_id>", parameters=_MATCH_ID)
class MatchById(MethodView):
    @blp.doc(operationId="getMatch", security=[], **responses(200, MATCH_SEEN))
    @blp.response(200, MatchSchema)
    @blp.alt_response(404, schema=ErrorSchema, description="match_not_found.")
    @blp.alt_response(503, schema=ErrorSchema, description="unavailable: Redis does not answer.")
    def get(self, match_id: str) -> dict[str, Any]:
        """See a match

        Games done (and failed) of the total, and per bot: for Pocha the mean score per hand
        with its 95% confidence interval, win rate, exact-bid rate and thinking time per
        decision; for Poch the chips won per deal with its 95% interval, the share of its
        seats that went out first and the thinking time per decision.
        """
        return _report(match_id)

    @blp.doc(operationId="cancelMatch", security=[{}, {SCHEME: []}])
    @blp.response(204)
    @blp.alt_response(
        401,
        schema=ErrorSchema,
        description="account_required: a rated match without its bot's key; unknown_account: "
        "a key that opens no account.",
    )
    @blp.alt_response(
        403,
        schema=ErrorSchema,
        description="not_your_account: a rated match with another account's key; "
        "account_disabled: the account of the key is disabled.",
    )
    @blp.alt_response(404, schema=ErrorSchema, description="match_not_found.")
    @blp.alt_response(503, schema=ErrorSchema, description="unavailable: Redis does not answer.")
    def delete(self, match_id: str) -> None:
        """Cancel a match

        The games not yet played are dropped and the match is forgotten, records included.
        Whoever knows a match's id may read it, and cancel it unless it is rated: a rated
        match's id is public (its bot's rating history links its records), so it is
        cancelled with its bot's key only, sent in X-Pocha-Account as when it was asked for.
        """
        connection = services().redises
        spec = load_spec(connection, match_id) if is_match_id(match_id) else None
        if spec is None:
            raise MatchNotFound()
        if spec.rated:
            _check_cancelled_by_its_bot(spec.accounts)
        if not cancel_match(connection, match_id):
            raise MatchNotFound()


@blp.route("/<match_id>/records", parameters=_MATCH_ID)
class MatchRecords(MethodView):
    @blp.doc(
        operationId="getMatchRecords",
        security=[],
        parameters=[
            {
                "in": "query",
                "name": "format",
                "required": False,
                "description": "`ndjson` (the default): JSON lines, `application/x-ndjson`; "
                "`json`: one JSON array of the same records, `application/json`, for code "
                "generators that read JSON only.",
                "schema": {"type": "string", "enum": ["ndjson", "json"], "default": "ndjson"},
            }
        ],
        responses={
            200: {
                "content": {
                    "application/json": {
                        "schema": {"type": "array", "items": _RECORD},
                    }
                }
            }
        },
    )
    @blp.response(
        200,
        _RECORD,
        description="One game record (JSON: `GameRecord` for Pocha, `PochGameRecord` for "
        "Poch) per line, in game order (`application/x-ndjson`, the default); or, with "
        "`?format=json`, the same records as one JSON array. Only the games done so far; "
        "the list is complete when the match is finished. With duplicate deals and an "
        "account seated, a deal's records show once all its rotations ended.",
        content_type="application/x-ndjson",
    )
    @blp.alt_response(404, schema=ErrorSchema, description="match_not_found.")
    @blp.alt_response(
        422, schema=ErrorSchema, description="validation_error: a `format` other than the two."
    )
    @blp.alt_response(
        429,
        schema=ErrorSchema,
        description="rate_limited: too many reads of matches' records from your address "
        "(`POCHA_RATE_LIMIT_MATCH_RECORDS`); wait `Retry-After` seconds.",
        headers={"Retry-After": RETRY_AFTER},
    )
    @blp.alt_response(503, schema=ErrorSchema, description="unavailable: Redis does not answer.")
    def get(self, match_id: str) -> Response:
        """Download the game records

        As JSON lines (`application/x-ndjson`), the format `pocha arena --records` (or
        `pocha arena-poch --records`) writes, with `game` the game's number in the match;
        with `?format=json`, as one JSON array of the same records.
        """
        connection = services().redises
        if match_report(connection, match_id) is None:
            raise MatchNotFound()
        shape = request.args.get("format", "ndjson")
        if shape not in ("ndjson", "json"):
            must = _("Must be one of: {choices}.", choices="ndjson, json")
            raise InvalidInput(must, errors={"query": {"format": [must]}})
        found = records(connection, match_id)
        if shape == "json":
            return Response(orjson.dumps(found), mimetype="application/json")
        body = b"".join(orjson.dumps(r) + b"\n" for r in found)
        return Response(body, mimetype="application/x-ndjson")
