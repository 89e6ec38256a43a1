"""A WSGI app that answers every request at once with a fixed JSON body: served by the API's
own gunicorn settings, it measures what gunicorn's gevent worker alone costs a request
(`pocha bench api-floor`; docs/performance.md, `tools.profile_api`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

BODY = b'{"status": "ok"}'
# Content-Length first: the bench's client reads the length from a header line that ends.
HEADERS = [("Content-Length", str(len(BODY))), ("Content-Type", "application/json")]


def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    """Read the body, if any, and answer 200 with `BODY`."""
    length = int(environ.get("CONTENT_LENGTH") or 0)
    if length:
        environ["wsgi.input"].read(length)
    start_response("200 OK", HEADERS)
    return [BODY]
