"""Liveness and readiness: `/healthz` answers while the process runs, `/readyz` only when
Redis answers too (for load balancers and orchestrators)."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask.views import MethodView
from flask_smorest import Blueprint

from service.context import services
from service.errors import ServiceError

blp = Blueprint("health", __name__, description="Is the service alive, and ready?")


class HealthSchema(ma.Schema):
    status = ma.fields.String(metadata={"description": "`ok`.", "example": "ok"})


class NotReady(ServiceError):
    status = 503
    error = "unavailable"


@blp.route("/healthz")
class Health(MethodView):
    @blp.response(200, HealthSchema)
    def get(self) -> dict[str, Any]:
        """Process alive

        Answers without touching Redis.
        """
        return {"status": "ok"}


@blp.route("/readyz")
class Ready(MethodView):
    @blp.response(200, HealthSchema)
    def get(self) -> dict[str, Any]:
        """Ready to serve

        503 `unavailable` when Redis does not answer.
        """
        if not services().redis.ping():
            raise NotReady("Redis does not answer.")
        return {"status": "ok"}
