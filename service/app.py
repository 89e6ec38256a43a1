"""The Flask app factory: configuration, the Redis client, the store, the bot runner, and
the flask-smorest Api with one blueprint per resource.

Every process that serves the API (gunicorn workers, tests, `pocha openapi`) builds its
app here; nothing is kept between requests except in Redis, so any number of processes can
serve any game.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from inspect import CO_COROUTINE
from types import FunctionType
from typing import TYPE_CHECKING, Any

import marshmallow as ma
import redis
from flask import Flask
from flask.ctx import RequestContext
from flask_smorest import Api
from redis.backoff import NoBackoff
from redis.retry import Retry
from werkzeug.routing import IntegerConverter, Rule
from werkzeug.wsgi import get_content_length

from core.config import load_config
from core.errors import ServiceError
from core.jobs.admission import Admission
from core.play.bots import BotRunner
from core.play.games import GameService
from core.play.turns import InlineBotRunner, RQBotRunner
from core.store.redises import Redises, connect
from core.store.store import GameStore
from engine.i18n import _
from service import (
    accounts,
    api_keys,
    edge,
    events,
    metrics,
    ratelimits,
    request_language,
    telemetry,
    web,
)
from service.api import accounts as account_api
from service.api import (
    ai,
    analyses,
    challenges,
    games,
    health,
    hints,
    jobs,
    json_schemas,
    matches,
    rules,
    tables,
    webhooks,
)

# Its routes join the accounts' blueprints, so importing it is what registers them.
from service.api import blocks as _blocks  # noqa: F401
from service.api.ai_schemas import SCHEMA_ADDITIONS
from service.api.games_schemas import BOT_LEVEL
from service.api.wire.games import documented_by_reference, views_by_phase
from service.context import EXTENSION, Services, current_request
from service.errors import ErrorSchema, register_error_handlers
from service.json_bodies import JsonProvider

API_DESCRIPTION = """\
Play Pocha (the Spanish Oh Hell) over HTTP.

1. `POST /api/v1/games` with the players (and optionally rules and a seed). Keep each
   seat's `token` for that player and the `host_token` for yourself.
2. Each player polls `GET /api/v1/games/{id}` with `Authorization: Bearer <token>`, or
   follows `GET /api/v1/games/{id}/events` (JSON, or Server-Sent Events with
   `Accept: text/event-stream`).
3. On its turn (`turn` equals `you.seat`), a player posts `{"bid": n}` to `.../bids` or
   `{"card": "O1"}` to `.../plays`, choosing from `you.legal`.

Every error has the same shape, with a stable machine code in `error` and a sentence
for a person in `message`. A refused move leaves the game untouched.

Sentences for people (every `message`, and `you.refused[].message` in views) are in
English, or in Spanish with `Accept-Language: es` or `?lang=es` (the query parameter wins);
answers say which in `Content-Language`. Machine codes (`error`, `rule`) never change.

A server-side front end that relays many people may carry an integrator's key in
`X-Pocha-Key` (the operator makes one with `pocha keys create`): its requests are then
limited per key, with the key's budgets, instead of per address.

A person or a bot may make an account (`POST /api/v1/accounts`) and send its key in
`X-Pocha-Account` when making a game or taking a seat: the account takes the seat. A rated
game (`"rated": true`) changes its players' OpenSkill ratings, shown on the ladder
(`GET /api/v1/ladder`).
"""

if TYPE_CHECKING:
    from _typeshed.wsgi import WSGIEnvironment

# Connections one API process may open to Redis (see create_app).
REDIS_MAX_CONNECTIONS = 10_000


class UnsupportedBody(ServiceError):
    status = 415
    error = "unsupported_media_type"


class AsciiInteger(IntegerConverter):
    """`<int:...>` in an address, in ASCII digits only: werkzeug's takes the digits of any
    script, which `int()` reads ("١", an Arabic-Indic one, would name seat 1 where a proxy's
    rule or a log sees something else)."""

    regex = r"[0-9]+"


#: Routes a process remembers (`RoutedContext`): a game's moves and reads come back to
#: the same few paths, each game's its own.
ROUTES_KEPT = 4096


class RoutedContext(RequestContext):
    """Flask's request context, remembering the routes it matched.

    Matching a path against the API's rules (werkzeug's state machine, a dozen calls a
    path part) costs about as much as a hook. What it finds depends on the method, the
    path and the host and scheme it is matched under alone, the rules being fixed once
    the app serves: a match found is kept by those (its arguments copied at each use,
    since a request may change its own). A path that matches nothing, or redirects, is
    matched every time, as before."""

    def match_request(self) -> None:
        adapter = self.url_adapter
        if adapter is None:
            super().match_request()
            return
        routes: dict[tuple[Any, ...], tuple[Rule, dict[str, Any]]] = self.app.routes_matched  # type: ignore[attr-defined]
        key = (
            adapter.default_method,
            adapter.path_info,
            adapter.server_name,
            adapter.subdomain,
            adapter.url_scheme,
            adapter.websocket,
        )
        found = routes.get(key)
        if found is not None:
            self.request.url_rule, view_args = found
            self.request.view_args = dict(view_args)
            return
        super().match_request()
        rule = self.request.url_rule
        if rule is not None and self.request.routing_exception is None:
            if len(routes) >= ROUTES_KEPT:
                # Crude but cheap, as the store's caches: routes in use come straight back.
                routes.clear()
            routes[key] = (rule, dict(self.request.view_args or {}))


class ServiceFlask(Flask):
    """Flask, asking whether a hook or a view is `async def` by its code's flag alone, and
    matching each request's route once for all its like (`RoutedContext`).

    Flask asks that of every hook and view at every request (`ensure_sync`), through
    `inspect.iscoroutinefunction`'s unwrapping: a move has some sixteen of them. A plain
    function or method answers from its code object; anything else is Flask's to judge."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: The routes `RoutedContext` found, by what they were matched under.
        self.routes_matched: dict[tuple[Any, ...], tuple[Rule, dict[str, Any]]] = {}

    def request_context(self, environ: WSGIEnvironment) -> RequestContext:
        return RoutedContext(self, environ)

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        target = getattr(func, "__func__", func)
        if type(target) is FunctionType and not target.__code__.co_flags & CO_COROUTINE:
            return func
        return super().ensure_sync(func)


class PochaApi(Api):
    """flask-smorest's Api with our error shape, documented and handled."""

    ERROR_SCHEMA = ErrorSchema

    def _register_error_handlers(self) -> None:
        register_error_handlers(self._app)


#: The document's license field (OpenAPI's info.license): the project publishes none.
LICENSE = {
    "name": "All rights reserved: no license is granted",
    "url": "https://en.wikipedia.org/wiki/All_rights_reserved",
}


def nullable_reference(
    converter: Any, field: ma.fields.Field, ret: dict[str, Any], **kwargs: Any
) -> dict[str, Any]:
    """A nullable nested schema as `{"type": "object", "nullable": true, "allOf": [{"$ref":
    ...}]}`, the schema or null, where apispec writes `anyOf` the schema or *any* nullable
    object (which lets anything through). An apispec attribute function: it runs after
    apispec's own and rewrites `ret` in place."""
    nested = ret.get("anyOf")
    if field.allow_none and isinstance(nested, list) and len(nested) == 2:
        refs = [s for s in nested if "$ref" in s]
        if len(refs) == 1 and {"type": "object", "nullable": True} in nested:
            del ret["anyOf"]
            ret.update(type="object", nullable=True, allOf=refs)
    return {}


def default_in_words(
    converter: Any, field: ma.fields.Field, ret: dict[str, Any], **kwargs: Any
) -> dict[str, Any]:
    """A request field's default said in its description rather than as `default`: code
    generators (openapi-typescript's defaults) read a property with a `default` as one the
    sender must give, which would make callers send what the server assumes anyway. An
    apispec attribute function, like `nullable_reference`."""
    if "default" in ret and field.load_default is not ma.missing:
        said = json.dumps(ret.pop("default"))
        description = ret.get("description", "")
        ret["description"] = f"{description} Default: `{said}`.".strip()
    return {}


def make_bot_runner(kind: str, store: GameStore, redises: Redises) -> BotRunner:
    """The bot runner named by the BOT_RUNNER setting."""
    if kind == "rq":
        return RQBotRunner(redises)
    if kind == "inline":
        return InlineBotRunner(store)
    raise ValueError(f"unknown BOT_RUNNER {kind!r}; known: rq, inline")


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """A new app; `config` overrides the environment (see `core.config.SETTINGS`)."""
    settings = load_config(config)
    app = ServiceFlask("service")
    app.json = JsonProvider(app)
    # Before any blueprint's rules are made with it.
    app.url_map.converters["int"] = AsciiInteger
    # An empty segment ("/api/v1//games", or an id holding "%2F") names no address: merged,
    # werkzeug would answer a redirect with an HTML body where every other unknown address
    # gets a JSON 404 (the rules read by each Rule as it is bound, so set before any is).
    app.url_map.merge_slashes = False
    app.config.update(
        API_TITLE="Pocha",
        API_VERSION="1",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/api",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="/docs",
        OPENAPI_SWAGGER_UI_URL=web.SWAGGER_UI_URL,
        # Bodies are small and kept in the order the schemas give.
        JSON_SORT_KEYS=False,
    )
    app.config.update(settings)
    app.json.sort_keys = False
    app.json.compact = True

    redises = connect(
        settings,
        socket_connect_timeout=settings["REDIS_CONNECT_TIMEOUT"],
        socket_timeout=settings["REDIS_SOCKET_TIMEOUT"],
        # redis-py caps a pool at 100 connections and then refuses (a 503 here). Each
        # connection a client keeps open to a gunicorn worker keeps one for its moves (a
        # greenlet's own, see GameStore), so a process with many clients needs more:
        # Redis's own limit (maxclients, 10000 by default) is the one that should apply.
        # Event streams hold none: they share the process's one pub/sub connection.
        max_connections=REDIS_MAX_CONNECTIONS,
        # A connection Redis closed (it restarted, or dropped an idle client) is found
        # dead only on use; the pool checks its connections when lending them, but a
        # thread's own connection (see GameStore) is not lent, so its first command after
        # a restart would fail. One retry on a fresh connection makes that invisible. A
        # move sent twice cannot be applied twice: its compare-and-set refuses the copy.
        retry=Retry(NoBackoff(), 1, supported_errors=(redis.ConnectionError,)),
    )
    store = GameStore.from_settings(redises.store, settings)
    bots = make_bot_runner(settings["BOT_RUNNER"], store, redises)
    app.extensions[EXTENSION] = Services(
        redises,
        store,
        bots,
        GameService(store, bots, lobby_away_seconds=float(settings["LOBBY_AWAY_SECONDS"])),
        Admission.from_settings(settings),
    )
    app.extensions[events.EXTENSION] = events.EventStreams(
        redises.store,
        store,
        max_seconds=settings["SSE_MAX_SECONDS"],
        keepalive_seconds=settings["SSE_KEEPALIVE_SECONDS"],
        max_per_address=int(settings["MAX_STREAMS_PER_ADDRESS"]),
    )

    api = PochaApi(
        app,
        spec_kwargs={
            "info": {"description": API_DESCRIPTION, "license": LICENSE},
            "servers": [{"url": "/", "description": "The service the document was read from."}],
        },
    )
    api.ma_plugin.converter.add_attribute_function(nullable_reference)
    api.ma_plugin.converter.add_attribute_function(default_in_words)
    # flask-smorest's pagination is not used: its schema would be an unused component.
    api.spec.components.schemas.pop("PaginationMetadata", None)
    api.spec.components.security_scheme(
        "bearerAuth",
        {
            "type": "http",
            "scheme": "bearer",
            "description": "A seat's token (or, to delete, the host token) from the "
            "creation response.",
        },
    )
    # Schemas the documents name by reference only (a response of either game's schema).
    for name, schema in documented_by_reference().items():
        api.spec.components.schema(name, schema=schema)
    # The account stream's events, each a `data:` line's JSON: `BotEvent`, `oneOf` them.
    for component, event in challenges.BOT_EVENTS.values():
        api.spec.components.schema(component, schema=event)
    api.spec.components.schema("BotEvent", challenges.bot_event_union())
    api.spec.components.schema("BotLevel", BOT_LEVEL)
    # What a bot's webhook is called with and answers (named by the registration's callback).
    api.spec.components.schema("WebhookCall", schema=webhooks.WebhookCallSchema)
    api.spec.components.schema("WebhookAnswer", schema=webhooks.WebhookAnswerSchema)
    # Each game's view is `oneOf` its phases' views (registered just above).
    for name, union in views_by_phase().items():
        api.spec.components.schema(name, union)
    # First, so that every request, even one refused by a later hook, is counted and logged.
    telemetry.install(app)
    for blueprint in (
        games.blp,
        tables.blp,
        tables.seats,
        hints.blp,
        jobs.blp,
        ai.blp,
        matches.blp,
        analyses.blp,
        rules.blp,
        json_schemas.blp,
        account_api.blp,
        account_api.own,
        account_api.ladders,
        challenges.blp,
        challenges.bot,
        health.blp,
    ):
        api.register_blueprint(blueprint)
    # The web front end at `/` and the metrics for Prometheus: plain blueprints, kept out of
    # the OpenAPI document.
    for name, addition in SCHEMA_ADDITIONS.items():
        api.spec.components.schemas[name].update(addition)
    app.register_blueprint(web.blp)
    app.register_blueprint(metrics.blp)
    app.before_request(_require_json_body)
    edge.install(app, settings)
    request_language.install(app)
    # Before the limits, so that they wrap it: a request is counted before its account.
    accounts.install(app, redises.store)
    ratelimits.install(app, redises.store, settings)
    # After the limits' hooks, and before them in the order they run.
    api_keys.install(app, redises.store, ratelimits.KEYED, app.extensions[metrics.EXTENSION])
    api_keys.document(api.spec, app, ratelimits.KEYED)
    accounts.document(api.spec, app)
    hints.check_seat_first(app)
    tables.check_changer_first(app)
    # Ahead of the hooks just put first: a request they refuse keeps its id.
    telemetry.run_first(app)
    return app


def _require_json_body() -> None:
    """Refuse a body that is not declared JSON, instead of reading it as no body at all
    (which would report every field as missing and confuse the sender)."""
    request = current_request()
    if (
        request.method in ("POST", "PUT", "PATCH")
        # `request.content_length`, read from the environ without its headers' object.
        and get_content_length(request.environ)
        and not (request.is_json)
    ):
        raise UnsupportedBody(
            _("Send the body as JSON, with the header Content-Type: application/json.")
        )
