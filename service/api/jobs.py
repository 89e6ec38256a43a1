"""The jobs resource: how a hint or an AI move is coming along, and its result.
How it works: docs/internals.md, `service.api.jobs`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from flask import current_app
from flask.views import MethodView
from flask_limiter.util import get_remote_address

from core.errors import ServiceError
from core.jobs.advice import Asker, wait_for_report
from engine.i18n import _
from service.api.ai_schemas import JobQuerySchema, JobSchema
from service.api_keys import current_key
from service.context import services
from service.errors import RETRY_AFTER, ErrorSchema
from service.i18n import translate
from service.json_bodies import Blueprint
from service.request_language import request_language

F = TypeVar("F", bound=Callable[..., Any])

blp = Blueprint(
    "jobs",
    __name__,
    url_prefix="/api/v1/jobs",
    description="Follow a hint or an AI move that a worker is thinking about.",
)


#: What the errors every POST with a JSON body can get mean (all such POSTs are the
#: rate-limited AI requests: hints, AI moves, matches).
BODY_ERRORS = {
    400: "bad_json: the body is not JSON.",
    408: "body_too_slow.",
    413: "body_too_large.",
    415: "unsupported_media_type: the body is not sent as application/json.",
    429: "rate_limited: too many of these requests from your address; wait `Retry-After` seconds.",
    503: "unavailable: Redis does not answer.",
}


#: The errors of the requests that queue a hint or an AI move (`core.jobs.admission`).
ON_DEMAND_ERRORS = {
    **BODY_ERRORS,
    429: "rate_limited: too many of these requests from your address, or too much thinking "
    "(hints and AI moves share a budget of seconds of thinking a minute); wait "
    "`Retry-After` seconds.",
    503: "busy: more thinking is queued for hints and AI moves than the bots can start "
    "soon; wait `Retry-After` seconds. unavailable: Redis does not answer.",
}


#: The Location header of a 202 that queued a job.
JOB_LOCATION = {
    "Location": {
        "description": "The job's address, to follow it.",
        "schema": {"type": "string", "example": "/api/v1/jobs/q0v4Wm1nXb2yQ5pLk8TcRz3a"},
    }
}


def asker() -> Asker:
    """Who asks for the AI on demand in this request: the client's address as the rate
    limits see it (`service.edge`), the integrator's key it carries if any, and this app's
    admission."""
    return Asker(get_remote_address(), services().admission, key=current_key())


def document_errors(blp: Blueprint, errors: dict[int, str]) -> Callable[[F], F]:
    """Document these error responses (all of the one Error shape) on a view, with
    Retry-After where they send it (429, 503)."""

    def decorate(view: F) -> F:
        for status, description in sorted(errors.items()):
            headers = {"Retry-After": RETRY_AFTER} if status in (429, 503) else None
            view = blp.alt_response(
                status, schema=ErrorSchema, description=description, headers=headers
            )(view)
        return view

    return decorate


def document_each_error(blp: Blueprint, *errors: tuple[int, str]) -> Callable[[F], F]:
    """`document_errors` from (status, description) pairs, several of one status said one
    after another: the refusals every operation of a blueprint shares, then a view's own."""
    said: dict[int, str] = {}
    for status, description in errors:
        said[status] = f"{said[status]} {description}" if status in said else description
    return document_errors(blp, said)


class JobNotFound(ServiceError):
    status = 404
    error = "job_not_found"


def job_url(job_id: str) -> str:
    return f"/api/v1/jobs/{job_id}"


def accepted(report: dict[str, Any]) -> tuple[dict[str, Any], int, dict[str, str]]:
    """The 202 answer to a request that queued a job: the job, and where to follow it."""
    url = job_url(report["id"])
    return {**translate_report(report), "url": url}, 202, {"Location": url}


def translate_report(report: dict[str, Any]) -> dict[str, Any]:
    """A job's report with its `error` (why the job could not advise) in the request's
    language."""
    if report.get("error") is None:
        return report
    return {**report, "error": translate(report["error"], request_language())}


@blp.route(
    "/<job_id>",
    parameters=[{"in": "path", "name": "job_id", "description": "The job's id."}],
)
class JobById(MethodView):
    @blp.doc(operationId="getJob", security=[])
    @blp.arguments(JobQuerySchema, location="query")
    @blp.response(200, JobSchema)
    @document_errors(
        blp,
        {
            404: "job_not_found: no such job.",
            422: "validation_error: a bad `wait`.",
            503: "unavailable: Redis does not answer.",
        },
    )
    def get(self, query: dict[str, Any], job_id: str) -> dict[str, Any]:
        """See a job

        Its status, and once finished its result (the suggested action and the analysis).
        Results are kept for 10 minutes.
        """
        wait = min(query["wait"], float(current_app.config["JOB_WAIT_MAX"]))
        report = wait_for_report(services().redises.queues, job_id, wait)
        if report is None:
            raise JobNotFound(
                _(
                    "There is no such job: it never existed, or its result expired (results "
                    "are kept 10 minutes)."
                )
            )
        return {**translate_report(report), "url": job_url(job_id)}
