"""The JSON Schemas the API's documents name, served by the service itself: the game
record's (`GET /api/v1/schemas/game-record.json`, draft 2020-12), the whole format that
`GET /api/v1/games/{id}/record` gives and `POST /api/v1/analyses` takes, which the OpenAPI
document states only in outline. The file ships in the package (service/json_schemas), so
an installed service answers it as a clone does, byte for byte."""

from __future__ import annotations

import hashlib
from importlib.resources import files

from flask import Response, request
from flask.views import MethodView

from service.errors import UNREAD
from service.json_bodies import Blueprint

blp = Blueprint(
    "schemas",
    __name__,
    url_prefix="/api/v1/schemas",
    description="The JSON Schemas of the documents the API gives and takes in full.",
)

#: JSON Schema's own media type (registered by draft 2020-12): tools that fetch a schema by
#: URL ask for it, and a browser saves it rather than guessing.
SCHEMA_TYPE = "application/schema+json"

#: The game record's schema as the package ships it (read once: it changes only with a new
#: version of the service).
GAME_RECORD = (files("service") / "json_schemas" / "game-record.schema.json").read_bytes()
#: Its entity tag: the content's digest, so every process of one version gives the same.
GAME_RECORD_ETAG = hashlib.sha256(GAME_RECORD).hexdigest()[:32]

_SCHEMA_ANSWER = {
    "type": "object",
    "description": "A JSON Schema (draft 2020-12) document.",
    "required": ["$schema", "$id", "title"],
    "properties": {
        "$schema": {"type": "string", "example": "https://json-schema.org/draft/2020-12/schema"},
        "$id": {"type": "string", "example": "urn:pocha:game-record:1"},
        "title": {"type": "string", "example": "Game record"},
    },
}

_ETAG = {
    "description": "The schema's version, for `If-None-Match`.",
    "schema": {"type": "string"},
}


@blp.route("/game-record.json")
class GameRecordSchema(MethodView):
    @blp.doc(
        operationId="getGameRecordSchema",
        security=[],
        responses={
            "200": {
                "description": "The game record's JSON Schema, with an `ETag`; "
                "`Cache-Control: no-cache`: revalidate, which the `ETag` makes cheap.",
                "headers": {"ETag": _ETAG},
                "content": {SCHEMA_TYPE: {"schema": _SCHEMA_ANSWER}},
            },
            "304": {
                "description": "Not modified: the `ETag` sent in `If-None-Match` is still "
                "the schema's.",
                "headers": {"ETag": _ETAG},
            },
            **UNREAD,
        },
    )
    def get(self) -> Response:
        """Read the game record's JSON Schema

        The whole format of a finished game's record (`GET /api/v1/games/{id}/record`,
        and the `record` that `POST /api/v1/analyses` takes), for both games, as one JSON
        Schema (draft 2020-12): `game` says which shape `rules` and `deals` have. Validate
        records with it, or generate types from it.
        """
        # As the page's catalogues (`/i18n/<lang>.json`): the schema changes only with a new
        # version of the service, so a client revalidates, cheaply with the ETag. Only
        # If-None-Match is heeded (werkzeug's make_conditional would also answer If-Match
        # and Range, with statuses a document that is never written has no use for).
        fresh = request.if_none_match.contains_weak(GAME_RECORD_ETAG)
        response = Response(None if fresh else GAME_RECORD, 304 if fresh else 200)
        if not fresh:
            response.mimetype = SCHEMA_TYPE
        response.set_etag(GAME_RECORD_ETAG)
        response.headers["Cache-Control"] = "no-cache"
        return response
