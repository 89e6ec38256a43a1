"""Requests that carry an integrator's key (`core.store.api_keys`) in the `X-Pocha-Key`
header: looked up before any limit is counted, refused with 401 `unknown_key` when it is no
key, else counted against instead of the client's address.
How it works: docs/internals.md, `service.api_keys`.
"""

from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict
from collections.abc import Collection
from typing import Any

import redis
from apispec import APISpec
from flask import Flask, g
from flask_limiter.util import get_remote_address

from core.errors import ServiceError
from core.store.api_keys import ApiKey, find, hash_key
from engine.i18n import _
from service.context import current_request
from service.metrics import ProcessMetrics

#: The header a key travels in.
HEADER = "X-Pocha-Key"
#: Its key in the WSGI environ.
_HEADER_KEY = "HTTP_" + HEADER.upper().replace("-", "_")
#: The key's security scheme in the OpenAPI document.
SCHEME = "integratorKey"
#: How long a process uses a key it found before it looks it up again (seconds).
CACHE_SECONDS = 5.0
#: Keys found that a process remembers at once (there are as many as an operator made).
CACHE_MOST = 1000

EXTENSION = "pocha_api_keys"


class UnknownKey(ServiceError):
    status = 401
    error = "unknown_key"


class KeyBook:
    """The keys this process found lately, by hash, in front of the store."""

    def __init__(self, connection: redis.Redis, seconds: float = CACHE_SECONDS) -> None:
        self.connection = connection
        self.seconds = seconds
        self._found: OrderedDict[str, tuple[float, ApiKey]] = OrderedDict()
        self._lock = threading.Lock()

    def find(self, key: str, now: float | None = None) -> ApiKey | None:
        now = time.monotonic() if now is None else now
        digest = hash_key(key)
        with self._lock:
            found = self._found.get(digest)
        if found is not None and now - found[0] < self.seconds:
            return found[1]
        stored = find(self.connection, key)
        with self._lock:
            if stored is None:
                self._found.pop(digest, None)
                return None
            self._found[digest] = (now, stored)
            self._found.move_to_end(digest)
            while len(self._found) > CACHE_MOST:
                self._found.popitem(last=False)
        return stored


def current_key() -> ApiKey | None:
    """The key the current request carries, once found (None: none, or not looked at)."""
    found: ApiKey | None = g.get("pocha_key")
    return found


def limit_key() -> str:
    """Whose counts the current request spends: its key's, or its client address's (as
    `service.edge` settles on it)."""
    return payer_of(current_key())


def payer_of(key: ApiKey | None) -> str:
    """`limit_key()` for a request that carries `key` (the current request's, found
    already)."""
    return key.payer if key is not None else get_remote_address()


def install(
    app: Flask, connection: redis.Redis, endpoints: Collection[str], metrics: ProcessMetrics
) -> None:
    """Look up the key of every request to `endpoints` that carries one, before the rate
    limits (the first of the app's hooks)."""
    book = KeyBook(connection)
    app.extensions[EXTENSION] = book
    keyed = frozenset(endpoints)

    def know_the_key() -> None:
        request = current_request()
        if request.endpoint not in keyed:
            return
        # The header read from the environ, as `request.headers` would.
        sent = request.environ.get(_HEADER_KEY)
        if sent is None:
            return
        key = book.find(sent.strip())
        if key is None:
            metrics.unknown_keys.inc()
            raise UnknownKey(
                _(
                    "The key in X-Pocha-Key is not a key of this service: it was never "
                    "made, or it was revoked. Ask the service's operator for a key, or send "
                    "the request without one."
                )
            )
        g.pocha_key = key

    app.before_request_funcs.setdefault(None, []).insert(0, know_the_key)


#: What a 401 of a keyed operation means, in the document.
UNKNOWN_KEY = "unknown_key: an X-Pocha-Key that is not a key (never made, or revoked)."

_ERROR = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
_RULE_ARGUMENT = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")


def document(spec: APISpec, app: Flask, endpoints: Collection[str]) -> None:
    """Declare the key in the document: its security scheme, offered beside what each
    operation of `endpoints` accepts already (anonymous callers and seat tokens work as
    before), and its 401."""
    spec.components.security_scheme(
        SCHEME,
        {
            "type": "apiKey",
            "in": "header",
            "name": HEADER,
            "description": "An integrator's key (`pocha keys create`), for a server-side "
            "front end: the request is limited per key, with the key's budgets, instead "
            "of per client address. Never put one in a web page.",
        },
    )
    paths: dict[str, dict[str, Any]] = spec._paths
    for rule in app.url_map.iter_rules():
        if rule.endpoint not in endpoints:
            continue
        path = _RULE_ARGUMENT.sub(r"{\1}", rule.rule)
        for method in sorted(rule.methods or ()):
            operation = paths.get(path, {}).get(method.lower())
            if operation is None or method in ("HEAD", "OPTIONS"):
                continue
            accepted = operation.get("security") or [{}]
            operation["security"] = [*accepted, *({**r, SCHEME: []} for r in accepted)]
            responses = operation.setdefault("responses", {})
            if "401" in responses:
                said = responses["401"]
                responses["401"] = {**said, "description": f"{said['description']} {UNKNOWN_KEY}"}
            else:
                responses["401"] = {"description": UNKNOWN_KEY, "content": _ERROR}
