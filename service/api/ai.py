"""Stateless AI moves, for front ends that keep their own game.

`POST /api/v1/ai/move` takes a position as one seat sees it (rules, its hand, trump and
holder, dealer, bids, the cards played so far in this hand by whom) and how hard to think.
The position is checked at once by `engine.position`: an impossible one gets a `422`
`invalid_position` whose message says what is inconsistent. A possible one is queued for a
worker, and the answer is `202` with the job to follow at `GET /api/v1/jobs/{id}`, unless
`core.admission` refuses it at once: `429 rate_limited` over the address's think budget
(shared with hints), `503 busy` behind too long a queue, both with `Retry-After`.
"""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from core.advice import Thinking, ask_move, job_report
from core.errors import ServiceError
from engine.errors import InvalidStateError
from engine.position import FIELDS, position_from_dict
from service.api.ai_schemas import AiMoveRequestSchema, JobSchema
from service.api.jobs import ON_DEMAND_ERRORS, accepted, asker, document_errors
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


@blp.route("/move")
class Move(MethodView):
    @blp.arguments(AiMoveRequestSchema, location="json")
    @blp.response(202, JobSchema, headers={"Location": {"description": "The job's address."}})
    @document_errors(
        blp,
        {
            **ON_DEMAND_ERRORS,
            422: "invalid_position: no game could reach this position (the message says "
            "why); validation_error: a malformed body, an unknown level, a budget out of "
            "range.",
        },
    )
    def post(self, body: dict[str, Any]) -> Any:
        """Ask for a move in a position

        The seat in `seat` must be the one to act. Cards are codes (`O1`, `B12`); `plays`
        lists every card of this hand in the order played, with its seat. The answer is a
        job; its result is the action (a bid or a card) and the analysis.
        """
        position = {k: v for k, v in body.items() if k in FIELDS}
        try:
            position_from_dict(position)
        except InvalidStateError as exc:
            raise InvalidPosition(exc.message) from exc
        thinking = Thinking(body.get("level"), body.get("iterations"), body.get("milliseconds"))
        connection = services().redises.queues
        job_id = ask_move(connection, position, thinking, asker())
        report = job_report(connection, job_id)
        assert report is not None
        return accepted(report)
