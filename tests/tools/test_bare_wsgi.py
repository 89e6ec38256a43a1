"""The bare WSGI app of `pocha bench api-floor` answers every request with its fixed body."""

from __future__ import annotations

import io
from typing import Any

from tools.bare_wsgi import BODY, app


def test_it_reads_the_body_and_answers_200() -> None:
    started: list[Any] = []
    body = io.BytesIO(b'{"bid": 1}')
    environ = {"CONTENT_LENGTH": "10", "wsgi.input": body}
    answer = app(environ, lambda status, headers: started.append((status, headers)))
    assert b"".join(answer) == BODY and body.read() == b""
    status, headers = started[0]
    assert status == "200 OK" and ("Content-Length", str(len(BODY))) in headers
