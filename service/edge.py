"""Where the API meets the internet: which client address to believe behind proxies, and
which other sites' pages may call it from a browser (CORS).

Behind a load balancer every request comes from the balancer's address; the client's is in
`X-Forwarded-For`, which any client can also write itself. So the header is believed only
for as many hops as `POCHA_TRUSTED_PROXIES` says proxies add (werkzeug's ProxyFix), and
rate limits key on the address that results. With 0 (the default) the header is ignored.

CORS: the page at `/` is served by the API itself and needs none. Other front ends are
allowed by origin with `POCHA_CORS_ORIGINS` (comma-separated, or `*`); by default none
is. Since seats authenticate with a bearer token that a page must hold itself, never with
a cookie, `*` lets no site act for a visitor; listing origins is still the tighter choice.
Preflights allow the headers a client sends (Authorization, If-Match, Last-Event-ID,
X-Request-ID, Content-Type), and responses expose ETag, Location, Retry-After and
X-Request-ID to the page's script.
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask_cors import CORS
from werkzeug.middleware.proxy_fix import ProxyFix

ALLOW_HEADERS = ["Authorization", "Content-Type", "If-Match", "Last-Event-ID", "X-Request-ID"]
EXPOSE_HEADERS = ["ETag", "Location", "Retry-After", "X-Request-ID"]
#: Browsers cache a preflight this long (seconds), so a move costs one request, not two.
PREFLIGHT_MAX_AGE = 600


def cors_origins(setting: str) -> list[str]:
    """The origins of POCHA_CORS_ORIGINS: `*`, or each one without a trailing slash (a
    browser's Origin header has none)."""
    return [o.strip().rstrip("/") for o in setting.split(",") if o.strip()]


def install(app: Flask, settings: dict[str, Any]) -> None:
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
            methods=["GET", "POST", "DELETE", "OPTIONS"],
            max_age=PREFLIGHT_MAX_AGE,
            supports_credentials=False,
        )
