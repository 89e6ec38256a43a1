"""Liveness and readiness: `/healthz` answers while the process runs, `/readyz` only when
Redis answers too (for load balancers and orchestrators), and then also says how the bot
workers are doing.

Readiness does not depend on the workers: they are shared by every API process, so a
balancer that took every API process out when the workers died would stop people's moves
as well as the bots'. `/readyz` reports them (`workers`, `queues`) for whoever watches."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask.views import MethodView

from core.errors import ServiceError
from core.jobs.status import work_status
from core.store.store import is_full
from engine.i18n import _
from service.answers import Answer
from service.context import services
from service.errors import STORE_FULL_RETRY_SECONDS, UNREAD, ErrorSchema
from service.json_bodies import Blueprint

blp = Blueprint("health", __name__, description="Is the service alive, and ready?")


class HealthSchema(Answer):
    status = ma.fields.String(metadata={"description": "`ok`.", "example": "ok"})


class ReadySchema(HealthSchema):
    redis = ma.fields.String(metadata={"description": "`ok`: Redis answered.", "example": "ok"})
    workers = ma.fields.Integer(
        metadata={
            "description": "Bot workers alive (RQ's registry, by heartbeat). With none, "
            "people can still play, but bots, hints and matches wait.",
            "example": 2,
        }
    )
    queues = ma.fields.Dict(
        keys=ma.fields.String(),
        values=ma.fields.Integer(),
        metadata={
            "description": "Jobs waiting in each queue (`pocha-turns`: bot turns of "
            "people's games; `pocha-high`: hints and AI moves; `pocha-low`: match games).",
            "example": {"pocha-turns": 0, "pocha-high": 3, "pocha-low": 12},
        },
    )


class NotReady(ServiceError):
    status = 503
    error = "unavailable"


class StoreFull(ServiceError):
    status = 503
    error = "store_full"
    retry_after = STORE_FULL_RETRY_SECONDS


@blp.route("/healthz")
class Health(MethodView):
    @blp.doc(operationId="getHealth", security=[], responses=UNREAD)
    @blp.response(200, HealthSchema)
    def get(self) -> dict[str, Any]:
        """Process alive

        Answers without touching Redis.
        """
        return {"status": "ok"}


@blp.route("/readyz")
class Ready(MethodView):
    @blp.doc(operationId="getReadiness", security=[], responses=UNREAD)
    @blp.response(200, ReadySchema)
    @blp.alt_response(
        503,
        schema=ErrorSchema,
        description="unavailable: Redis does not answer; store_full: Redis is out of memory.",
    )
    def get(self) -> dict[str, Any]:
        """Ready to serve

        200 while Redis answers, with the workers alive and the queue depths; 503
        `unavailable` when Redis does not answer.
        """
        redises = services().redises
        # Each Redis once (on one Redis, the store is the queues).
        clients = {id(c): c for c in (redises.store, *redises.groups)}.values()
        if not all(client.ping() for client in clients):
            raise NotReady(_("Redis does not answer."))
        if is_full(redises.store):
            raise StoreFull(
                _(
                    "Redis is full (maxmemory, evicting nothing): games can be read and "
                    "deleted, not created or played."
                )
            )
        status = work_status(redises)
        return {
            "status": "ok",
            "redis": "ok",
            "workers": status.workers_alive,
            "queues": status.queued,
        }
