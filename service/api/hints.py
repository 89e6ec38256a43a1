"""Hints: a seat asks the bots what they would do in its place.
How it works: docs/internals.md, `service.api.hints`.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, request
from flask.views import MethodView

from ai.registry import levels_of, no_such_level
from core.errors import InvalidInput, NotStarted
from core.jobs.advice import Thinking, ask_hint, job_report
from engine.errors import NotYourTurnError, WrongPhaseError
from engine.i18n import _
from engine.registry import kind_of
from service.api.ai_schemas import HintRequestSchema, JobSchema
from service.api.games import bearer_token
from service.api.jobs import JOB_LOCATION, ON_DEMAND_ERRORS, accepted, asker, document_errors
from service.api.links import JOB, responses
from service.context import game_service, services
from service.json_bodies import Blueprint

blp = Blueprint(
    "hints",
    __name__,
    url_prefix="/api/v1/games",
    description="Ask the bots for a hint on your turn.",
)

_ERRORS = {
    **ON_DEMAND_ERRORS,
    401: "unauthorized: no token, or a token that opens no seat of this game; "
    "unknown_account: an account's key that opens no account (replaced, or never made).",
    403: "forbidden: the host token (a hint is for a seat).",
    404: "game_not_found.",
    409: "not_your_turn, wrong_phase (the game is over) or not_started (the table still "
    "waits for people).",
    422: "validation_error: an unknown level (or one this game's bots have not), or a "
    "budget out of range. over_think_budget: a hint that may think longer than the think "
    "budget gives in a minute (ask for less).",
}


def _seat_first() -> None:
    """A hint's token, checked first: a request that opens no seat of the game is told so
    (401, 404) rather than counted against its rate limit, or its body judged."""
    if request.endpoint != "hints.Hint" or request.method != "POST":
        return
    game_id = (request.view_args or {}).get("game_id", "")
    service = game_service()
    service.seat_for(service.store.load(game_id, history=False), bearer_token(), required=True)


def check_seat_first(app: Flask) -> None:
    """Check a hint's token before anything else: its rate limit (`service.ratelimits`)
    and its body."""
    app.before_request_funcs.setdefault(None, []).insert(0, _seat_first)


@blp.route(
    "/<game_id>/hint",
    parameters=[{"in": "path", "name": "game_id", "description": "The game's id."}],
)
class Hint(MethodView):
    @blp.doc(operationId="askHint", security=[{"bearerAuth": []}], **responses(202, JOB))
    @blp.arguments(HintRequestSchema, location="json", required=False)
    @blp.response(202, JobSchema, headers=JOB_LOCATION)
    @document_errors(blp, _ERRORS)
    def post(self, body: dict[str, Any], game_id: str) -> Any:
        """Ask for a hint

        On your turn: what would a bot do in your seat, and why (per legal action, its
        share of the search and its mean score). The body is optional: a `level` (default
        `hard`) or a custom budget. Follow the job at the returned `url`.
        """
        service = game_service()
        record = service.store.load(game_id)
        seat = service.seat_for(record, bearer_token(), required=True)
        assert seat is not None
        game = record.game
        # The hand is dealt but hidden until the table starts: no hint may analyse it.
        if record.waiting:
            raise NotStarted()
        if game.finished:
            raise WrongPhaseError(_("the game is over: there is nothing left to hint"))
        if game.turn != seat:
            raise NotYourTurnError(
                _("it is seat {turn}'s turn: a hint is for your own turn", turn=game.turn),
                rule="turn",
            )
        # The game's own levels, so that its budget is what the admission weighs.
        kind = kind_of(game).name
        levels = levels_of(kind)
        level = body.get("level")
        if level is not None and level not in levels:
            names = ", ".join(levels)
            raise InvalidInput(
                no_such_level(level, levels),
                errors={"json": {"level": [_("Must be one of: {levels}.", levels=names)]}},
            )
        thinking = Thinking(level, body.get("iterations"), body.get("milliseconds"), game=kind)
        connection = services().redises.queues
        job_id = ask_hint(connection, game_id, seat, record.version, thinking, asker())
        report = job_report(connection, job_id)
        assert report is not None
        return accepted(report)
