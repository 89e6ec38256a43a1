"""Where the API meets the internet: how big a body may be, which client address to believe
behind proxies, and which other sites' pages may call it from a browser (CORS).
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

from service.context import current_request

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

#: What a page may send. Not X-Pocha-Key: an integrator's key is for servers, never a page.
ALLOW_HEADERS = [
    "Authorization",
    "Content-Type",
    "Idempotency-Key",
    "If-Match",
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


#: Set in the WSGI environ by `BoundedBody` when a chunked body was over the limit.
TOO_LARGE = "pocha.body_too_large"
#: Paths whose bodies may be larger than `POCHA_MAX_BODY` (bytes): a game record sent to be
#: analysed (`service.api.analyses`) holds every hand and card of a whole game.
LARGER_BODIES = {"/api/v1/analyses": 512 * 1024}


class BoundedBody:
    """WSGI middleware: a body without Content-Length is read here, up to `limit` + 1
    bytes, and passed on with its length; a longer one is marked for a 413."""

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
            while size <= limit:
                chunk = stream.read(limit + 1 - size)
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
            if size > limit:
                environ[TOO_LARGE] = True
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


def _refuse_large_chunked_body() -> None:
    request = current_request()
    if request.environ.get(TOO_LARGE):
        raise RequestEntityTooLarge()
    larger = LARGER_BODIES.get(request.path)
    if larger is not None:
        request.max_content_length = larger


def install(app: Flask, settings: dict[str, Any]) -> None:
    limit = settings.get("MAX_CONTENT_LENGTH")
    if limit:
        app.wsgi_app = BoundedBody(app.wsgi_app, int(limit))  # type: ignore[method-assign]
        app.before_request(_refuse_large_chunked_body)
    proxies = int(settings["TRUSTED_PROXIES"])
    if proxies < 0:
        raise ValueError(f"POCHA_TRUSTED_PROXIES must be 0 or more, not {proxies}")
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
