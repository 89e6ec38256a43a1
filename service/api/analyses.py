"""The analyses resource: a finished game's record sent in and weighed by a level, decision
by decision (`core.jobs.analyses`), as a job to follow. docs/records.md, "Analysing a record".
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask import current_app
from flask.views import MethodView
from marshmallow import fields, validate

from core.errors import InvalidInput, ServiceError
from core.jobs.analyses import AnalysisRefused, analysis_report, ask_analysis
from engine.i18n import _
from service.answers import Answer
from service.api.ai_schemas import ANY_ACTION, JobQuerySchema, JobTimingsSchema
from service.api.fields import AsciiInteger
from service.api.games_schemas import MAX_SEED
from service.api.jobs import ON_DEMAND_ERRORS, asker, document_errors, translate_report
from service.context import services
from service.json_bodies import Blueprint

blp = Blueprint(
    "analyses",
    __name__,
    url_prefix="/api/v1/analyses",
    description="Send a finished game's record and have a level weigh each of its decisions.",
)

#: The largest record an analysis takes (bytes of the request's body).
MAX_BODY = 512 * 1024


class AnalysisRequestSchema(ma.Schema):
    record = fields.Dict(
        required=True,
        metadata={
            "description": "A game record, as `GET /api/v1/games/{id}/record` gives it (its "
            "format: the JSON Schema `GET /api/v1/schemas/game-record.json`). It is read "
            "back from its hands and checked against its game's rules.",
        },
    )
    level = fields.String(
        load_default="hard",
        validate=validate.Length(1, 40),
        metadata={
            "description": "The level that weighs each decision, one of the record's game's "
            "(`GET /api/v1/rules`). An analysis may think 60 s at most: a long game needs a "
            "lower level.",
            "example": "hard",
        },
    )
    seed = AsciiInteger(
        load_default=0,
        validate=validate.Range(0, MAX_SEED),
        metadata={
            "description": "Draws the level's seed for each decision: the same record, "
            "level and seed give the same analysis.",
            "example": 0,
        },
    )


class WeighedSchema(Answer):
    number = fields.Integer(
        metadata={"description": "The decision's number, from 1.", "example": 1}
    )
    seat = fields.Integer(metadata={"description": "Who made it.", "example": 2})
    played = fields.Raw(
        metadata={"description": "The action made, in the game's wire form.", **ANY_ACTION}
    )
    advised = fields.Raw(
        metadata={"description": "What the level would do from that seat's view.", **ANY_ACTION}
    )
    agrees = fields.Boolean(metadata={"description": "`played` is `advised`."})
    played_score = fields.Float(
        allow_none=True,
        metadata={
            "description": "The mean score (Pocha: the hand's points; Poch: chips) the level's "
            "search expected after the action made; null where it does not search or never "
            "tried it.",
            "example": -5.0,
        },
    )
    advised_score = fields.Float(
        allow_none=True,
        metadata={"description": "The same, after its own action.", "example": 5.5},
    )


class SeatWeighedSchema(Answer):
    seat = fields.Integer(metadata={"example": 0})
    decisions = fields.Integer(metadata={"description": "The seat's decisions.", "example": 36})
    agreed = fields.Integer(
        metadata={"description": "Those the level would have made too.", "example": 30}
    )
    score_given_up = fields.Float(
        metadata={
            "description": "The level's expected score minus that of the action made, summed "
            "over the decisions where the search scored both.",
            "example": 12.4,
        }
    )
    scored = fields.Integer(
        metadata={"description": "The decisions where the search scored both.", "example": 36}
    )


class AnalysisResultSchema(Answer):
    level = fields.String(metadata={"example": "hard"})
    seed = fields.Integer(metadata={"example": 0})
    decisions = fields.List(
        fields.Nested(WeighedSchema), metadata={"description": "Every decision, in order."}
    )
    seats = fields.List(fields.Nested(SeatWeighedSchema), metadata={"description": "Per seat."})


class AnalysisSchema(Answer):
    """An analysis: a job on the workers."""

    id = fields.String(
        metadata={"description": "The analysis's id.", "example": "q0v4Wm1nXb2yQ5pLk8TcRz3a"}
    )
    url = fields.String(
        metadata={"description": "Where to poll it.", "example": "/api/v1/analyses/q0v4Wm1nXb2y"}
    )
    kind = fields.String(metadata={"description": "`analysis`.", "enum": ["analysis"]})
    status = fields.String(
        metadata={
            "description": "queued, started, finished or failed.",
            "enum": ["queued", "started", "finished", "failed"],
            "example": "finished",
        }
    )
    result = fields.Nested(
        AnalysisResultSchema,
        allow_none=True,
        metadata={"description": "Once finished: every decision weighed; null before."},
    )
    error = fields.String(
        allow_none=True,
        metadata={"description": "Once failed: why, in a sentence; null otherwise."},
    )
    timings = fields.Nested(JobTimingsSchema, metadata={"description": "When it moved on."})


class AnalysisNotFound(ServiceError):
    status = 404
    error = "analysis_not_found"


def _url(job_id: str) -> str:
    return f"/api/v1/analyses/{job_id}"


@blp.route("")
class Analyses(MethodView):
    @blp.doc(operationId="analyseRecord", security=[])
    @blp.arguments(AnalysisRequestSchema, location="json")
    @blp.response(
        202,
        AnalysisSchema,
        headers={
            "Location": {
                "description": "The analysis's address, to follow it.",
                "schema": {"type": "string", "example": "/api/v1/analyses/q0v4Wm1nXb2y"},
            }
        },
    )
    @document_errors(
        blp,
        {
            **ON_DEMAND_ERRORS,
            413: "body_too_large: a record over 512 KB.",
            422: "validation_error: a record of no game here, one that cannot be read back "
            "(the message says why), a level its game has not, or one that would think "
            "longer than an analysis may. over_think_budget: one that may think longer than "
            "the think budget gives in a minute (choose a lower level).",
        },
    )
    def post(self, body: dict[str, Any]) -> Any:
        """Analyse a game record

        The record is read back from its hands and checked against its game's rules at
        once; then a worker asks `level`, before each decision, what it would do from that
        seat's view alone (the view the seat had), with its search's expected score for its
        action and for the one made. The analysis's thinking counts against the same
        budget as hints and AI moves.
        """
        connection = services().redises.queues
        try:
            job_id, _decisions = ask_analysis(
                connection, body["record"], body["level"], body["seed"], asker()
            )
        except AnalysisRefused as exc:
            raise InvalidInput(exc.message, errors={"json": {exc.field: [exc.message]}}) from exc
        report = analysis_report(connection, job_id)
        assert report is not None
        url = _url(job_id)
        return {**translate_report(report), "url": url}, 202, {"Location": url}


@blp.route(
    "/<analysis_id>",
    parameters=[{"in": "path", "name": "analysis_id", "description": "The analysis's id."}],
)
class AnalysisById(MethodView):
    @blp.doc(operationId="getAnalysis", security=[])
    @blp.arguments(JobQuerySchema, location="query")
    @blp.response(200, AnalysisSchema)
    @document_errors(
        blp,
        {
            404: "analysis_not_found: no such analysis.",
            422: "validation_error: a bad `wait`.",
            503: "unavailable: Redis does not answer.",
        },
    )
    def get(self, query: dict[str, Any], analysis_id: str) -> dict[str, Any]:
        """See an analysis

        Its status, and once finished every decision weighed. Results are kept for 10
        minutes.
        """
        wait = min(query["wait"], float(current_app.config["JOB_WAIT_MAX"]))
        report = analysis_report(services().redises.queues, analysis_id, wait)
        if report is None:
            raise AnalysisNotFound(
                _(
                    "There is no such analysis: it never existed, or its result expired "
                    "(results are kept 10 minutes)."
                )
            )
        return {**translate_report(report), "url": _url(analysis_id)}
