"""The gunicorn worker the API runs in: gevent's, with a cap on connections per client
address, a deadline for each request's body, and gunicorn's own error answers in the API's
JSON shape.
How it works: docs/internals.md, `service.gunicorn_worker`.
"""

from __future__ import annotations

import collections
import socket
import time
from typing import Any

import gevent
import orjson
from gunicorn import util  # type: ignore[import-untyped]
from gunicorn.workers.ggevent import GeventWorker  # type: ignore[import-untyped]
from werkzeug.http import HTTP_STATUS_CODES

from core.config import load_config
from core.network import client_of
from engine.i18n import N_, ngettext
from service.edge import BodyTooSlow
from service.events import close_all_streams

#: When a client over the connection cap may try again: by then gunicorn has closed the
#: idle keep-alive connections that may have filled it (`keepalive` is 5 s).
CONNECTIONS_RETRY_AFTER = 5

#: How long a connection closed after its answer (a refusal, a body too slow) is read from,
#: and what it sent dropped, before closing.
LINGER_SECONDS = 1.0

#: Machine codes and sentences of the statuses gunicorn answers by itself.
GUNICORN_ERRORS: dict[int, tuple[str, str]] = {
    400: ("bad_request", N_("The request is not valid HTTP/1.1.")),
    403: ("forbidden", N_("The request is refused.")),
    414: (
        "uri_too_long",
        N_("The request line (method, path and query) is too long: at most {line} bytes."),
    ),
    417: ("expectation_failed", N_("The Expect header names something this server cannot do.")),
    431: (
        "headers_too_large",
        N_(
            "The request's headers are too large: at most {fields} header lines, each of at "
            "most {size} bytes."
        ),
    ),
    500: ("internal_error", N_("Something went wrong on our side; the game is unchanged.")),
    501: ("not_implemented", N_("The request's Transfer-Encoding is not supported.")),
}


def error_bytes(status: int, error: str, message: str, headers: dict[str, str]) -> bytes:
    """A whole HTTP/1.1 answer in the API's error shape that closes the connection."""
    reason = HTTP_STATUS_CODES.get(status, "Error")
    body = orjson.dumps({"code": status, "status": reason, "error": error, "message": message})
    head = [f"HTTP/1.1 {status} {reason}", "Connection: close",
            "Content-Type: application/json", f"Content-Length: {len(body)}"]  # fmt: skip
    head += [f"{name}: {value}" for name, value in headers.items()]
    return ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body


class _ErrorPage:
    """Stands in for the client's socket while gunicorn writes one of its error pages, to
    learn the status gunicorn chose (gunicorn picks it from its own exception classes)."""

    def __init__(self) -> None:
        self.written = b""

    def gettimeout(self) -> float:
        return 0.0

    def sendall(self, data: bytes) -> None:
        self.written += data

    def status(self) -> int:
        first = self.written.split(b"\r\n", 1)[0].split()
        return int(first[1]) if len(first) > 1 and first[1].isdigit() else 500


def close_lingering(client: Any) -> None:
    """Close a connection whose answer is sent, reading what else the client sends for a
    moment first: a socket closed with unread bytes is reset, and the answer may be lost
    with it."""
    try:
        client.shutdown(socket.SHUT_WR)
        with gevent.Timeout(LINGER_SECONDS, False):
            while client.recv(65536):
                pass
    except OSError:
        pass
    finally:
        util.close(client)


class BodyDeadline:
    """Stands in for a request's body reader (gunicorn's), giving up `seconds` after the
    request's head arrived: a read still waiting then raises `BodyTooSlow`, which the app
    answers 408, and the request is marked to close its connection (the rest of the body
    may never come, and where the next request would start is unknown). Each read waits
    only as long as is left, so a greenlet that waits yields to the others as any read
    does."""

    def __init__(self, req: Any, seconds: int) -> None:
        self.req = req
        self.reader = req.body.reader
        self.seconds = seconds
        self.deadline = time.monotonic() + seconds
        self.missed = False

    def read(self, size: int) -> bytes:
        with gevent.Timeout(max(0.0, self.deadline - time.monotonic())) as timer:
            try:
                data: bytes = self.reader.read(size)
            except gevent.Timeout as timeout:
                if timeout is not timer:
                    raise
                self.missed = True
                self.req.force_close()
                raise BodyTooSlow(self.seconds) from None
        return data


class ApiWorker(GeventWorker):
    """gunicorn's gevent worker, with the cap, the body deadline and the JSON errors above."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        settings = load_config()
        behind_proxies = int(settings["TRUSTED_PROXIES"]) > 0
        self.max_per_address = 0 if behind_proxies else int(settings["MAX_CONNECTIONS_PER_ADDRESS"])
        self.body_seconds = int(settings["BODY_SECONDS"])
        self.ipv6_prefix = int(settings["IPV6_PREFIX"])
        self.open_by_address: collections.Counter[str] = collections.Counter()

    def handle_exit(self, sig: int, frame: Any) -> None:
        # Told to stop: gunicorn stops accepting and waits for open connections up to its
        # graceful timeout; the event streams end now, and their clients resume elsewhere.
        super().handle_exit(sig, frame)
        gevent.spawn(close_all_streams)

    def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> bool:
        # The head has arrived: the body's time starts now. A request that has no body
        # never reads, and an event stream (a GET) never starts the clock.
        body = req.body
        reader = body.reader
        deadline = BodyDeadline(req, self.body_seconds) if self.body_seconds else None
        if deadline is not None:
            body.reader = deadline
        try:
            return bool(super().handle_request(listener_name, req, sock, addr))
        finally:
            # Whatever of the body the app left unread, gunicorn drains before the next
            # request under its own keepalive timeout. One that missed its deadline is not
            # waited for again: its 408 is sent, and the connection closed.
            body.reader = reader
            if deadline is not None and deadline.missed:
                close_lingering(sock)
            # The other connections' turn. A client quick to send its next request has it
            # waiting by now, and a gevent socket reads what is there without yielding: its
            # greenlet would answer request after request while the others wait.
            gevent.sleep(0)

    def handle(self, listener: Any, client: Any, addr: Any) -> None:
        # A unix socket's peer has no address: nothing to count.
        address = addr[0] if isinstance(addr, tuple) and addr else ""
        if not (self.max_per_address and address):
            super().handle(listener, client, addr)
            return
        # An IPv6 subscriber's network is one client, as for the API's limits.
        address = client_of(address, self.ipv6_prefix)
        if self.open_by_address[address] >= self.max_per_address:
            self._refuse(client, address)
            return
        self.open_by_address[address] += 1
        try:
            super().handle(listener, client, addr)
        finally:
            self.open_by_address[address] -= 1
            if not self.open_by_address[address]:
                del self.open_by_address[address]

    def _refuse(self, client: Any, address: str) -> None:
        self.log.warning(
            "Connection refused: %s holds %d connections, the most one address may",
            address,
            self.max_per_address,
        )
        answer = error_bytes(
            429,
            "too_many_connections",
            ngettext(
                "Your address holds {n} connection to this server, the most it may: close "
                "it (or reuse it) and try again.",
                "Your address holds {n} connections to this server, the most it may: "
                "close some (or reuse them) and try again.",
                self.max_per_address,
            ),
            {"Retry-After": str(CONNECTIONS_RETRY_AFTER)},
        )
        try:
            client.setblocking(1)
            client.sendall(answer)
        except OSError:
            pass
        # What the client sent already is read and dropped before closing.
        close_lingering(client)

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        page = _ErrorPage()
        super().handle_error(req, page, addr, exc)
        status = page.status()
        error, sentence = GUNICORN_ERRORS.get(status, GUNICORN_ERRORS[500])
        message = sentence.format(
            line=self.cfg.limit_request_line,
            fields=self.cfg.limit_request_fields,
            size=self.cfg.limit_request_field_size,
        )
        try:
            util.write_nonblock(client, error_bytes(status, error, message, {}))
        except Exception:
            self.log.debug("Failed to send error message.")
