"""A bot account's webhook over HTTP, under its own key (`X-Pocha-Account`): registering
it (its signing secret answered once), reading its count, resuming it once paused, and
removing it. The URL is checked here and again at each call the workers make.
How it works: docs/bots-api.md.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask import current_app
from flask.views import MethodView
from marshmallow import fields, validate

from core.errors import (
    NotABot,
    NoWebhook,
    UnknownAccount,
    WebhookRefused,
)
from core.play.webhooks import LONGEST_URL, Settings, UnsafeUrl, check_url
from core.store import webhooks
from engine.i18n import _
from engine.registry import KINDS
from service.accounts import SCHEME
from service.answers import Answer
from service.api.accounts import _ACCOUNT_ID, blp, owner_of
from service.context import services
from service.errors import ErrorSchema
from service.ratelimits import spend_webhook_change

_REASONS = {
    "scheme": lambda: _("A webhook's URL is http:// or https://."),
    "url": lambda: _(
        "This is not a URL a webhook can have (a host, a port from 1 to 65535 if any, no "
        "user or password)."
    ),
    "unresolved": lambda: _("The webhook's host name does not resolve to any address."),
    "private_address": lambda: _(
        "The webhook's host resolves to a private, loopback, link-local, multicast or "
        "reserved address, which the service does not call."
    ),
}


class WebhookBodySchema(ma.Schema):
    url = fields.String(
        required=True,
        validate=validate.Length(1, LONGEST_URL),
        metadata={
            "description": "Where the bot's decisions are asked for: http or https, on a "
            "public address.",
            "example": "https://bot.example.org/pocha",
        },
    )


class WebhookStatusSchema(Answer):
    url = fields.String(metadata={"description": "The webhook's URL."})
    paused = fields.Boolean(
        metadata={
            "description": "Paused after too many failures in a row: the stand-in plays its "
            "seats until its owner resumes it."
        }
    )
    decisions = fields.Integer(metadata={"description": "Decisions its webhook answered."})
    mean_decision_ms = fields.Float(
        allow_none=True,
        metadata={"description": "Their mean time, call to answer (ms); null before the first."},
    )
    failures = fields.Integer(metadata={"description": "Calls that failed, in all."})
    failures_in_a_row = fields.Integer(metadata={"description": "The latest failures in a row."})
    last_failure = fields.String(
        allow_none=True,
        metadata={
            "description": "Why the last failed call failed: `timeout`, `connection`, "
            "`status_NNN`, `redirect`, `too_large`, `bad_json`, `no_action`, `illegal` or "
            "`refused_address`.",
            "example": "timeout",
        },
    )


class WebhookRegisteredSchema(WebhookStatusSchema):
    secret = fields.String(
        metadata={
            "description": "The secret each call is signed with (HMAC-SHA256), shown only "
            "here: registering again makes a new one.",
            "example": "whsec_3q9V...",
        }
    )


#: An action in its wire form, as the view's `legal` lists it (each game's own, under
#: its view's schema): a number or a string.
_ACTION = {"oneOf": [{"type": "integer"}, {"type": "string"}]}


class WebhookSeatSchema(Answer):
    class Meta:
        # And what else its game's view says of it (`refused`, ...).
        unknown = ma.INCLUDE

    seat = fields.Integer(metadata={"description": "The bot's seat."})
    hand = fields.List(fields.String(), metadata={"description": "Its cards' codes."})
    legal = fields.List(
        fields.Raw(metadata=_ACTION),
        metadata={
            "description": "What it may do now, in the wire form its game's endpoints take "
            "(a bid's number, a card's code, a Poch bet, ...): answer one of them.",
            "example": [0, 1, 2],
        },
    )


class WebhookMatchSchema(Answer):
    id = fields.String(metadata={"description": "The match's id."})
    game = fields.Integer(
        metadata={"description": "The game's number in it (the `match_game` of the history)."}
    )


class WebhookCallSchema(Answer):
    """What a webhook is POSTed: the seat's view, of which the fields any bot needs."""

    OPTIONAL = frozenset({"id", "version", "match"})

    class Meta:
        # The rest of the view comes too, as its game's view schema has it.
        unknown = ma.INCLUDE

    game = fields.String(
        metadata={"description": "The game: `pocha` or `poch`.", "enum": list(KINDS)}
    )
    phase = fields.String(
        metadata={"description": "The phase, as in the game's view.", "example": "bidding"}
    )
    turn = fields.Integer(metadata={"description": "The seat whose turn it is: the bot's."})
    you = fields.Nested(WebhookSeatSchema, metadata={"description": "The bot's own seat."})
    id = fields.String(metadata={"description": "The game's id: at a table only."})
    version = fields.Integer(metadata={"description": "The game's version: at a table only."})
    match = fields.Nested(
        WebhookMatchSchema,
        metadata={"description": "In a match only, whose games have no id: which one it is."},
    )


class WebhookAnswerSchema(Answer):
    class Meta:
        unknown = ma.INCLUDE  # anything else is not read

    action = fields.Raw(
        metadata={**_ACTION, "description": "One entry of `you.legal`, as it is.", "example": 1}
    )


def _call_header(name: str, description: str) -> dict[str, Any]:
    return {"in": "header", "name": name, "required": True, "description": description,
            "schema": {"type": "string"}}  # fmt: skip


#: The call the workers make at each of the bot's turns, as an OpenAPI callback of the
#: registration (docs/bots-api.md, "A call").
TURN_CALLBACK = {
    "turn": {
        "{$request.body#/url}": {
            "post": {
                "operationId": "botTurn",
                # Signed with the secret (`X-Pocha-Signature`), which no scheme names.
                "security": [],
                "summary": "A turn of the bot",
                "description": "Made by a worker at each of the bot's turns, at the URL "
                "registered. The body is the seat's view: at a table, `GET "
                "/api/v1/games/{id}` with the seat's token (its game's view schema) less "
                "`table.link`; in a match, the game's part of it and `match`. Answer within "
                "the deadline, or the stand-in plays and the failure is counted.",
                "parameters": [
                    _call_header("X-Pocha-Timestamp", "Unix time of the call, in seconds."),
                    _call_header(
                        "X-Pocha-Signature",
                        "`sha256=` and the hex HMAC-SHA256, under the secret, of the "
                        "timestamp, a dot, and the body's bytes.",
                    ),
                    _call_header(
                        "X-Pocha-Deadline",
                        "How long the whole call may take, in milliseconds.",
                    ),
                ],
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/WebhookCall"}}
                    },
                },
                "responses": {
                    "200": {
                        "description": "The bot's decision.",
                        "content": {
                            "application/json": {
                                "schema": {"$ref": "#/components/schemas/WebhookAnswer"}
                            }
                        },
                    },
                    "4XX": {
                        "description": "A call refused (a signature that does not verify, "
                        "a stale timestamp): the stand-in plays, and the failure is "
                        "counted (`status_NNN`).",
                    },
                },
            }
        }
    }
}


_SECURITY: dict[str, Any] = {"security": [{SCHEME: []}]}
_ERRORS = (
    (401, "account_required: no key; unknown_account: a key that opens no account."),
    (403, "not_your_account: another account's key; account_disabled."),
    (404, "account_not_found; no_webhook."),
    (503, "unavailable: retry shortly."),
)


_LIMITED = (
    "rate_limited: the bot's webhook was registered or resumed too often "
    "(`POCHA_RATE_LIMIT_WEBHOOKS`, per bot account; only its owner's requests count, a "
    "URL refused too)."
)


def _documented(extra: tuple[tuple[int, str], ...] = ()) -> Any:
    def decorate(view: Any) -> Any:
        for status, description in (*_ERRORS, *extra):
            view = blp.alt_response(status, schema=ErrorSchema, description=description)(view)
        return view

    return decorate


def _status(account_id: str) -> dict[str, Any]:
    hook = webhooks.get(services().redises.store, account_id)
    if hook is None:
        raise NoWebhook()
    return hook.public()


@blp.route("/<account_id>/webhook", parameters=_ACCOUNT_ID)
class AccountWebhook(MethodView):
    @blp.doc(operationId="setWebhook", callbacks=TURN_CALLBACK, **_SECURITY)
    @blp.arguments(WebhookBodySchema(), location="json")
    @blp.response(200, WebhookRegisteredSchema)
    @_documented(
        (
            (409, "not_a_bot: a person's account has no webhook."),
            (
                422,
                "webhook_refused: not http(s), no host, or an address the service does not "
                "call; validation_error: no url.",
            ),
            (400, "bad_json: the body is not JSON."),
            (408, "body_too_slow."),
            (413, "body_too_large."),
            (415, "unsupported_media_type."),
            (429, _LIMITED),
        )
    )
    def put(self, body: dict[str, Any], account_id: str) -> dict[str, Any]:
        """Register the bot's webhook

        With the bot account's own key. When it is the bot's turn, a worker POSTs the
        seat's view there, signed with the secret answered here (shown only now), and plays
        the `action` it answers. Registering again replaces the URL and the secret and
        resumes a paused bot.
        """
        account = owner_of(account_id)
        if account.kind != "bot":
            raise NotABot()
        settings = Settings.from_config(dict(current_app.config))
        # Counted before the URL is checked: the check looks its host up in the DNS, which
        # a refused URL would otherwise have the API do without limit, on names (and name
        # servers) of the caller's choosing.
        spend_webhook_change(account.id)
        try:
            check_url(body["url"], settings.allow_private)
        except UnsafeUrl as refused:
            message = _REASONS[refused.reason]()
            raise WebhookRefused(message, errors={"json": {"url": [message]}}) from None
        connection = services().redises.store
        secret = webhooks.register(connection, account.id, body["url"], account.key_hash)
        if secret is None:
            # Its key was replaced between the look-up and now.
            raise UnknownAccount()
        return {**_status(account.id), "secret": secret}

    @blp.doc(operationId="getWebhook", **_SECURITY)
    @blp.response(200, WebhookStatusSchema)
    @_documented()
    def get(self, account_id: str) -> dict[str, Any]:
        """The bot's webhook and its count

        With the bot account's own key: its URL, whether it is paused, its decisions and
        their mean time, and its failures.
        """
        return _status(owner_of(account_id).id)

    @blp.doc(operationId="deleteWebhook", **_SECURITY)
    @blp.response(204)
    @_documented()
    def delete(self, account_id: str) -> None:
        """Remove the bot's webhook

        Its seats are played by the stand-in from then on.
        """
        if not webhooks.remove(services().redises.store, owner_of(account_id).id):
            raise NoWebhook()


@blp.route("/<account_id>/webhook/resume", parameters=_ACCOUNT_ID)
class AccountWebhookResume(MethodView):
    @blp.doc(operationId="resumeWebhook", **_SECURITY)
    @blp.response(200, WebhookStatusSchema)
    @_documented(((429, _LIMITED),))
    def post(self, account_id: str) -> dict[str, Any]:
        """Resume a paused bot

        Its failures in a row are forgotten and its webhook is asked again at its next
        turn.
        """
        account_id = owner_of(account_id).id
        spend_webhook_change(account_id)
        if not webhooks.resume(services().redises.store, account_id):
            raise NoWebhook()
        return _status(account_id)
