"""Stateless AI moves, for front ends that keep their own game: `POST /api/v1/ai/move`.
How it works: docs/internals.md, `service.api.ai`.
"""

from __future__ import annotations

from typing import Any

from flask import request
from flask.views import MethodView

from core.errors import ServiceError
from core.jobs.advice import Thinking, ask_move, job_report
from engine.errors import InvalidStateError
from engine.registry import DEFAULT_GAME, KINDS
from service.api.ai_schemas import JobSchema
from service.api.jobs import JOB_LOCATION, ON_DEMAND_ERRORS, accepted, asker, document_errors
from service.api.links import JOB, responses
from service.api.wire.games import FORMS
from service.context import services
from service.json_bodies import Blueprint

blp = Blueprint(
    "ai",
    __name__,
    url_prefix="/api/v1/ai",
    description="Ask the bots for a move in a position you send (no stored game needed).",
)


class InvalidPosition(ServiceError):
    status = 422
    error = "invalid_position"


def _body() -> dict[str, Any]:
    """The body, read by the AI move schema of the game its `game` names (its wire forms,
    `service.api.wire`); a body naming no game with such a schema is read by the default
    game's, which refuses it with the usual 422 `validation_error` unless it is one."""
    sent = request.get_json(silent=True)
    game = sent.get("game") if isinstance(sent, dict) else None
    forms = FORMS.get(game) if isinstance(game, str) else None
    schema = (forms or FORMS[DEFAULT_GAME]).ai_move_request()
    body: dict[str, Any] = blp.ARGUMENTS_PARSER.parse(schema, request, location="json")
    return body


@blp.route("/move")
class Move(MethodView):
    @blp.doc(
        operationId="askAiMove",
        security=[],
        **responses(202, JOB),
        requestBody={
            "required": True,
            "description": "A Pocha position (`AiMoveRequest`: `game` left out or `pocha`) "
            'or a Poch position (`PochAiMoveRequest`: `"game": "poch"`), each with how '
            "hard to think (its game's levels, or a custom budget).",
            "content": {
                "application/json": {
                    "schema": {
                        "oneOf": [
                            {"$ref": "#/components/schemas/AiMoveRequest"},
                            {"$ref": "#/components/schemas/PochAiMoveRequest"},
                        ]
                    }
                }
            },
        },
    )
    @blp.response(202, JobSchema, headers=JOB_LOCATION)
    @document_errors(
        blp,
        {
            **ON_DEMAND_ERRORS,
            422: "invalid_position: no game could reach this position (the message says "
            "why); validation_error: a malformed body, an unknown level (or one of the "
            "other game's only), a budget out of range. over_think_budget: a move that may "
            "think longer than the think budget gives in a minute (ask for less).",
        },
    )
    def post(self) -> Any:
        """Ask for a move in a position

        Pocha (the default): the seat in `seat` must be the one to act. Cards are codes
        (`O1`, `B12`); `plays` lists every card of this hand in the order played, with its
        seat. Poch (`"game": "poch"`): the fields of the seat's view (`PochGameView`)
        without its envelope, `you` holding the seat (the one to act) and its hand; the
        legal actions are computed from the position. The answer is a job; its result is
        the action in the game's wire form (Pocha: a bid or a card; Poch: `pass`, `hold`, a
        bet, a start card or a suit) and the analysis.
        """
        body = _body()
        game = body.get("game", DEFAULT_GAME)
        kind = KINDS[game]
        position = {k: v for k, v in body.items() if k in kind.position_fields}
        try:
            kind.position_from_dict(position)
        except InvalidStateError as exc:
            raise InvalidPosition(exc.message) from exc
        thinking = Thinking(
            body.get("level"), body.get("iterations"), body.get("milliseconds"), game=game
        )
        connection = services().redises.queues
        job_id = ask_move(connection, position, thinking, asker())
        report = job_report(connection, job_id)
        assert report is not None
        return accepted(report)
