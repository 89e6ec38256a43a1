"""A table's link to share (`/t/CODE`): at the address the request came in on (its Host,
or the server's own address when the Host names no host, as when none was sent), unless
that reaches only this machine (localhost, 127.0.0.1); then at this machine's network
address when the API answers there on the port serving the request, else still loopback,
which the page and the terminal say opens on this machine only."""

from __future__ import annotations

import threading
import time
from typing import Any
from urllib.parse import urlsplit

from flask import request
from werkzeug.sansio.utils import get_host

from core.network import answers, is_loopback, network_address

#: How long a finding of this machine's network address, and whether the API answers
#: there, is kept (seconds): the address rarely changes, and each look costs a connection.
LOOK_AGAIN_SECONDS = 60.0
#: How long to wait for the API to answer on the network address (seconds).
KNOCK_SECONDS = 0.3

_DEFAULT_PORTS = {"http": 80, "https": 443}
_found: dict[int, tuple[float, str | None]] = {}
_finding = threading.Lock()


def _host() -> str:
    """The request's `host[:port]`: its Host header's, or the address the server listens
    on when it sent none or one that names no host (characters no host name has, a port out
    of range), which werkzeug reads as empty: a link made from it would lead nowhere."""
    if request.host:
        return request.host
    environ = request.environ
    port = str(environ.get("SERVER_PORT") or "")
    server = (str(environ.get("SERVER_NAME") or ""), int(port)) if port.isdigit() else None
    return get_host(request.scheme, None, server)


def share_origin() -> str:
    """`scheme://host[:port]` of the links this request's caller shares."""
    scheme = request.scheme
    given = f"{scheme}://{_host()}"
    parts = urlsplit(given)
    if parts.hostname is None or not is_loopback(parts.hostname):
        return given
    port = parts.port or _DEFAULT_PORTS.get(scheme, 80)
    # Only the port this server listens on is knocked at: a port named in the Host
    # header alone would let any caller probe this machine's ports through the link.
    if str(port) != request.environ.get("SERVER_PORT"):
        return given
    reachable = _network_address_answering(port)
    if reachable is None:
        return given
    shown_port = "" if port == _DEFAULT_PORTS.get(scheme) else f":{port}"
    return f"{scheme}://{reachable}{shown_port}"


def table_link(code: str) -> str:
    """The link to the table `code` (as shown: `K7QM-3XHP`)."""
    return f"{share_origin()}/t/{code}"


def with_table_link(view: dict[str, Any]) -> dict[str, Any]:
    """A view whose table shows its code gets the link to share too (`table.link`), unless
    it has it already (the one its ETag was made with)."""
    table = view.get("table")
    if isinstance(table, dict) and table.get("code") and "link" not in table:
        table["link"] = table_link(table["code"])
    return view


def _network_address_answering(port: int) -> str | None:
    """This machine's network address if the API answers on it at `port`, else None."""
    now = time.monotonic()
    seen = _found.get(port)
    if seen is not None and now - seen[0] < LOOK_AGAIN_SECONDS:
        return seen[1]
    with _finding:
        seen = _found.get(port)
        if seen is not None and now - seen[0] < LOOK_AGAIN_SECONDS:
            return seen[1]  # found by whoever held the lock before
        address = network_address()
        reachable = address if address and answers(address, port, KNOCK_SECONDS) else None
        _found[port] = (now, reachable)
    return reachable
