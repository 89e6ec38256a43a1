"""Where the API meets the internet: how big a body may be and how long it may take to
arrive, which client address to believe behind proxies, and which other sites' pages may
call it from a browser (CORS).
How it works: docs/internals.md, `service.edge`.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from flask import Flask
from flask_cors import CORS
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.middleware.proxy_fix import ProxyFix

from core.errors import ServiceError
from core.network import client_of
from engine.i18n import _
from service.context import current_request

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

#: What a page may send. Not X-Pocha-Key: an integrator's key is for servers, never a page.
ALLOW_HEADERS = [
    "Authorization",
    "Content-Type",
    "Idempotency-Key",
    "If-Match",
    "If-None-Match",
    "Last-Event-ID",
    "X-Pocha-Account",
    "X-Request-ID",
]
#: Every method the API answers to.
ALLOW_METHODS = ["DELETE", "GET", "OPTIONS", "PATCH", "POST", "PUT"]
EXPOSE_HEADERS = ["ETag", "Idempotent-Replayed", "Location", "Retry-After", "X-Request-ID"]
#: Browsers cache a preflight this long (seconds), so a move costs one request, not two.
PREFLIGHT_MAX_AGE = 600


def cors_origins(setting: str) -> list[str]:
    """The origins of POCHA_CORS_ORIGINS: `*`, or each one without a trailing slash (a
    browser's Origin header has none)."""
    return [o.strip().rstrip("/") for o in setting.split(",") if o.strip()]


#: Set in the WSGI environ by `BoundedBody` to the error a chunked body is refused with.
BODY_REFUSED = "pocha.body_refused"
#: Paths whose bodies may be larger than `POCHA_MAX_BODY` (bytes): a game record sent to be
#: analysed (`service.api.analyses`) holds every hand and card of a whole game.
LARGER_BODIES = {"/api/v1/analyses": 512 * 1024}


class BodyTooSlow(ServiceError):
    """A body not whole `seconds` after its request's head (`POCHA_BODY_SECONDS`): raised
    by the body's reader under gunicorn (`service.gunicorn_worker`)."""

    status = 408
    error = "body_too_slow"

    def __init__(self, seconds: int) -> None:
        super().__init__(
            _(
                "The request body did not arrive whole within {seconds} s of its headers: "
                "send it all at once.",
                seconds=seconds,
            )
        )


class BoundedBody:
    """WSGI middleware: a body without Content-Length is read here, up to `limit` + 1
    bytes, and passed on with its length; a longer one is marked for a 413, one too slow
    to arrive for a 408."""

    def __init__(self, app: WSGIApplication, limit: int) -> None:
        self.app = app
        self.limit = limit

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("CONTENT_LENGTH") in (None, "") and environ.get("REQUEST_METHOD") in (
            "POST",
            "PUT",
            "PATCH",
        ):
            limit = max(self.limit, LARGER_BODIES.get(environ.get("PATH_INFO", ""), 0))
            stream = environ["wsgi.input"]
            chunks: list[bytes] = []
            size = 0
            refused: Exception | None = None
            try:
                while size <= limit:
                    chunk = stream.read(limit + 1 - size)
                    if not chunk:
                        break
                    chunks.append(chunk)
                    size += len(chunk)
            except BodyTooSlow as too_slow:
                # Outside the app here: its error handlers answer it once the request runs.
                refused = too_slow
            if size > limit:
                refused = RequestEntityTooLarge()
            if refused is not None:
                environ[BODY_REFUSED] = refused
                body = b""
            else:
                body = b"".join(chunks)
            # Now a body of known length, as if it had come with a Content-Length (werkzeug
            # ignores the length while Transfer-Encoding says chunked).
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
            environ.pop("wsgi.input_terminated", None)
            environ.pop("HTTP_TRANSFER_ENCODING", None)
        return self.app(environ, start_response)


class ClientAddress:
    """WSGI middleware: the client's address (`REMOTE_ADDR`, after the proxies' header is
    read) becomes the client it is counted as (`core.network.client_of`), so that every
    limit per address, and everything keyed by it, counts an IPv6 subscriber's network as
    one client."""

    def __init__(self, app: WSGIApplication, ipv6_prefix: int) -> None:
        self.app = app
        self.ipv6_prefix = ipv6_prefix

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        address = environ.get("REMOTE_ADDR")
        if address and ":" in address:
            environ["REMOTE_ADDR"] = client_of(address, self.ipv6_prefix)
        return self.app(environ, start_response)


def _refuse_chunked_body() -> None:
    request = current_request()
    refused = request.environ.get(BODY_REFUSED)
    if refused is not None:
        raise refused
    larger = LARGER_BODIES.get(request.path)
    if larger is not None:
        request.max_content_length = larger


def install(app: Flask, settings: dict[str, Any]) -> None:
    limit = settings.get("MAX_CONTENT_LENGTH")
    if limit:
        app.wsgi_app = BoundedBody(app.wsgi_app, int(limit))  # type: ignore[method-assign]
        app.before_request(_refuse_chunked_body)
    # Enforced by gunicorn's worker, which reads it too: a bad value fails here, at start.
    body_seconds = int(settings["BODY_SECONDS"])
    if body_seconds < 0:
        raise ValueError(f"POCHA_BODY_SECONDS must be 0 or more, not {body_seconds}")
    proxies = int(settings["TRUSTED_PROXIES"])
    if proxies < 0:
        raise ValueError(f"POCHA_TRUSTED_PROXIES must be 0 or more, not {proxies}")
    prefix = int(settings["IPV6_PREFIX"])
    if not 0 < prefix <= 128:
        raise ValueError(f"POCHA_IPV6_PREFIX must be from 1 to 128, not {prefix}")
    # Inside the proxies' header reader, which sets the address this one counts.
    app.wsgi_app = ClientAddress(app.wsgi_app, prefix)  # type: ignore[method-assign]
    if proxies:
        # x_proto too: Location headers and redirects keep the client's scheme.
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies
        )
    origins = cors_origins(str(settings["CORS_ORIGINS"]))
    if origins:
        anyone = "*" in origins
        CORS(
            app,
            resources={r"/api/*": {}, r"/healthz": {}, r"/readyz": {}},
            origins="*" if anyone else origins,
            # A plain `*` rather than the caller's origin echoed: caches need no Vary.
            send_wildcard=anyone,
            allow_headers=ALLOW_HEADERS,
            expose_headers=EXPOSE_HEADERS,
            methods=ALLOW_METHODS,
            max_age=PREFLIGHT_MAX_AGE,
            supports_credentials=False,
        )
