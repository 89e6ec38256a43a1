"""Requests that carry an account's key (`core.store.accounts`) in the `X-Pocha-Account`
header, on the endpoints that seat someone (making a game, taking a seat at a table): the
account is looked up as the view starts (one round trip), refused with 401
`unknown_account` when the key opens none and 403 `account_disabled` when it is disabled,
and noted as seen; and the operations of an account alone (its challenges, its stream,
the accounts it blocks, `GET /api/v1/account`), which find the account the key opens the
same way (`key_holder`).
How it works: docs/api.md, "Accounts, rated tables and the ladder".
"""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Callable, Collection
from typing import Any

import redis
from apispec import APISpec
from flask import Flask, g, request

from core.errors import REDIS_DOWN, AccountDisabled, AccountRequired, UnknownAccount
from core.store.accounts import Account, find, note_seen
from engine.i18n import _
from service.context import services

#: The header an account's key travels in.
HEADER = "X-Pocha-Account"
#: The key's security scheme in the OpenAPI document.
SCHEME = "accountKey"
#: The endpoints that seat the account whose key a request carries.
SEATING = ("games.Games", "tables.TableSeats")

#: What the account's errors mean, in the document, by status.
MEANING = {
    401: "unknown_account: an X-Pocha-Account that is no account's key; account_required: "
    "a rated table without an account's key.",
    403: "account_disabled: the account of the X-Pocha-Account key is disabled.",
    409: "one_seat_per_account: an account a second time at a table, or a bot level a second "
    "time at a rated table.",
}

_ERROR = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
_RULE_ARGUMENT = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")


def sent_key() -> str:
    """The account's key the request sends, for an operation that needs one: without one
    (or a blank one), 401 `account_required` says where to send it; whether it opens an
    account is the caller's to ask."""
    sent = (request.headers.get(HEADER) or "").strip()
    if not sent:
        raise AccountRequired(
            _(
                "This needs your account's key: send it in X-Pocha-Account (POST "
                "/api/v1/accounts makes an account)."
            )
        )
    return sent


def key_holder() -> Account:
    """The account the request's key opens, for an operation of that account alone:
    refused as `sent_key` says without a key, 401 `unknown_account` when it opens none and
    403 `account_disabled` when its account is disabled; noted as seen."""
    account = find(services().redises.store, sent_key())
    if account is None:
        raise UnknownAccount()
    if account.disabled:
        raise AccountDisabled()
    # When it was last seen is worth no refusal.
    with contextlib.suppress(*REDIS_DOWN):
        note_seen(services().redises.store, account.id)
    return account


def current_account() -> Account | None:
    """The account whose key the current request carries (None: none sent)."""
    found: Account | None = g.get("pocha_account")
    return found


def install(app: Flask, connection: redis.Redis, endpoints: Collection[str] = SEATING) -> None:
    """Look up the account of every POST to `endpoints` that carries a key: their views are
    wrapped (no hook runs for any other request, a move least of all). Installed before the
    rate limits, which wrap the views again, so that a request is counted before its key is
    looked up."""
    for endpoint in endpoints:
        app.view_functions[endpoint] = _knowing_the_account(
            app.view_functions[endpoint], connection
        )


def _knowing_the_account(view: Callable[..., Any], connection: redis.Redis) -> Callable[..., Any]:
    @functools.wraps(view)
    def known(*args: Any, **kwargs: Any) -> Any:
        sent = request.headers.get(HEADER) if request.method == "POST" else None
        if sent is not None:
            account = find(connection, sent.strip())
            if account is None:
                raise UnknownAccount()
            if account.disabled:
                raise AccountDisabled()
            # When it was last seen is worth no refusal.
            with contextlib.suppress(*REDIS_DOWN):
                note_seen(connection, account.id)
            g.pocha_account = account
        return view(*args, **kwargs)

    return known


def document(spec: APISpec, app: Flask, endpoints: Collection[str] = SEATING) -> None:
    """Declare the account's key: its security scheme, offered beside what each operation
    of `endpoints` accepts already, and its errors."""
    spec.components.security_scheme(
        SCHEME,
        {
            "type": "apiKey",
            "in": "header",
            "name": HEADER,
            "description": "An account's key (`POST /api/v1/accounts`): the account takes "
            "the seat, under its name, and a rated table's result changes its rating.",
        },
    )
    paths: dict[str, dict[str, Any]] = spec._paths
    for rule in app.url_map.iter_rules():
        if rule.endpoint not in endpoints:
            continue
        path = _RULE_ARGUMENT.sub(r"{\1}", rule.rule)
        operation = paths.get(path, {}).get("post")
        if operation is None:
            continue
        accepted = operation.get("security") or [{}]
        operation["security"] = [*accepted, *({**r, SCHEME: []} for r in accepted)]
        responses = operation.setdefault("responses", {})
        for status, meaning in MEANING.items():
            said = responses.get(str(status))
            if said is None:
                responses[str(status)] = {"description": meaning, "content": _ERROR}
            else:
                responses[str(status)] = {**said, "description": f"{said['description']} {meaning}"}
