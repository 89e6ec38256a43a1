"""Requests that carry an account's key (`core.store.accounts`) in the `X-Pocha-Account`
header, on the endpoints that seat someone (making a game, taking a seat at a table): the
account is looked up before the view runs (one round trip), refused with 401
`unknown_account` when the key opens none and 403 `account_disabled` when it is disabled,
and noted as seen. How it works: docs/api.md, "Accounts, rated tables and the ladder".
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Collection
from typing import Any

import redis
from apispec import APISpec
from flask import Flask, g, request

from core.errors import REDIS_DOWN, AccountDisabled, UnknownAccount
from core.store.accounts import Account, find, note_seen

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
    409: "one_seat_per_account: at a rated table, an account or a bot level a second time.",
}

_ERROR = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
_RULE_ARGUMENT = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")


def current_account() -> Account | None:
    """The account whose key the current request carries (None: none sent)."""
    found: Account | None = g.get("pocha_account")
    return found


def install(app: Flask, connection: redis.Redis, endpoints: Collection[str] = SEATING) -> None:
    """Look up the account of every POST to `endpoints` that carries a key."""

    def know_the_account() -> None:
        if request.endpoint not in endpoints or request.method != "POST":
            return
        sent = request.headers.get(HEADER)
        if sent is None:
            return
        account = find(connection, sent.strip())
        if account is None:
            raise UnknownAccount()
        if account.disabled:
            raise AccountDisabled()
        # When it was last seen is worth no refusal.
        with contextlib.suppress(*REDIS_DOWN):
            note_seen(connection, account.id)
        g.pocha_account = account

    app.before_request(know_the_account)


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
