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
from service.accounts import SCHEME
from service.answers import Answer
from service.api.accounts import _ACCOUNT_ID, blp, owner_of
from service.context import services
from service.errors import ErrorSchema
from service.ratelimits import spend_webhook_change

_REASONS = {
    "scheme": lambda: _("A webhook's URL is http:// or https://."),
    "url": lambda: _("This is not a URL a webhook can have (a host, no user or password)."),
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
    @blp.doc(operationId="setWebhook", **_SECURITY)
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
