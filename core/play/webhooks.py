"""Calling an outside bot's webhook for one decision, on the workers only: the URL checked
(http or https, every address it resolves to public unless the operator allows private
ones) at registration and again at each call, the body signed with HMAC-SHA256, one
pooled HTTP client per process, redirects never followed, the answer read in small pieces
up to a cap and the whole call cut at one total deadline (so a bot dripping a byte a second
is cut too). Any failure is a `WebhookFailure` with a short reason; the caller has the
stand-in play and counts it. How it works: docs/bots-api.md.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import ipaddress
import json
import socket
import threading
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import urllib3

from core.config import is_on, load_config
from core.store import webhooks
from core.store.accounts import is_disabled as account_is_disabled
from engine.errors import GameError
from engine.registry import kind_of

#: The headers of a call.
SIGNATURE = "X-Pocha-Signature"
TIMESTAMP = "X-Pocha-Timestamp"
DEADLINE = "X-Pocha-Deadline"
#: The longest URL a webhook may have.
LONGEST_URL = 2000
#: The longest deadline a call may have (seconds), whatever the setting says: a bot turn's
#: job must end within its RQ timeout (`core.jobs.queues.TURN_TIMEOUT`) with the call in it.
LONGEST_CALL = 5.0
#: How much of an answer one read takes.
_PIECE = 4096


class WebhookFailure(Exception):
    """A call that gave no usable answer; `reason` is one of the documented words
    (`timeout`, `connection`, `status_404`, `redirect`, `too_large`, `bad_json`,
    `no_action`, `illegal`, `refused_address`)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class UnsafeUrl(ValueError):
    """A URL that may not be called; `reason`: `scheme`, `url`, `unresolved` or
    `private_address`."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Settings:
    """The operator's settings of webhook calls (`core.config`)."""

    allow_private: bool = False
    seconds: float = 2.0
    max_bytes: int = 64 * 1024
    pause_after: int = 5

    @classmethod
    def from_config(cls, config: dict[str, Any] | None = None) -> Settings:
        c = config or load_config()
        return cls(
            allow_private=is_on(c["BOT_ALLOW_PRIVATE"]),
            seconds=min(LONGEST_CALL, max(1, int(c["BOT_WEBHOOK_MS"])) / 1000),
            max_bytes=int(c["BOT_WEBHOOK_MAX_BYTES"]),
            pause_after=int(c["BOT_PAUSE_AFTER"]),
        )


def _public(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        elif ip.sixtofour is not None and not _public(str(ip.sixtofour)):
            # A 6to4 address reaches the IPv4 address it wraps.
            return False
    # `is_global` refuses what `is_private` lets through: the shared address space
    # (100.64.0.0/10), carriers' and clouds' inner networks.
    return ip.is_global and not (
        ip.is_private
        or ip.is_loopback
        or ip.is_link_local
        or ip.is_multicast
        or ip.is_reserved
        or ip.is_unspecified
    )


@dataclass(frozen=True)
class Target:
    """Where a checked URL is called: the address it resolved to (connected to as it is,
    so that the name cannot resolve elsewhere between the check and the call)."""

    scheme: str
    host: str
    port: int
    address: str
    path: str


def check_url(url: str, allow_private: bool) -> Target:
    """Where `url` is to be called, or `UnsafeUrl`: http or https with a host, every
    address the host resolves to public (unless `allow_private`)."""
    if len(url) > LONGEST_URL:
        raise UnsafeUrl("url")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise UnsafeUrl("url") from None
    if parts.scheme not in ("http", "https"):
        raise UnsafeUrl("scheme")
    host = parts.hostname
    if not host or parts.username is not None or parts.password is not None:
        raise UnsafeUrl("url")
    # Port 0 names no port a connection can reach: taken for the scheme's own, the calls
    # would go to a port the owner never gave.
    if port == 0:
        raise UnsafeUrl("url")
    port = port or (443 if parts.scheme == "https" else 80)
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise UnsafeUrl("unresolved") from None
    addresses = [str(info[4][0]) for info in found]
    if not addresses:
        raise UnsafeUrl("unresolved")
    if not allow_private and not all(_public(a) for a in addresses):
        raise UnsafeUrl("private_address")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(parts.scheme, host, port, addresses[0], path)


# The connections a call in this thread sends its request on, so that the call's deadline
# can cut them whatever stage they are at (a status line dripped a byte a second included:
# urllib3's timeouts are per read, never for a whole answer).
_watch = threading.local()


class _Watched:
    """Notes the connection a request goes out on in the calling thread's watch."""

    def request(self, *args: Any, **kwargs: Any) -> None:
        held: list[Any] | None = getattr(_watch, "held", None)
        if held is not None:
            held.append(self)
        super().request(*args, **kwargs)  # type: ignore[misc]


class _HTTPConnection(_Watched, urllib3.connection.HTTPConnection):
    pass


class _HTTPSConnection(_Watched, urllib3.connection.HTTPSConnection):
    pass


class _HTTPPool(urllib3.HTTPConnectionPool):
    ConnectionCls = _HTTPConnection


class _HTTPSPool(urllib3.HTTPSConnectionPool):
    ConnectionCls = _HTTPSConnection


@functools.cache
def client() -> urllib3.PoolManager:
    """The process's pooled HTTP client: made once, on the first call (a forked work horse
    makes its own)."""
    manager = urllib3.PoolManager(num_pools=64, maxsize=4, retries=False)
    manager.pool_classes_by_scheme = {"http": _HTTPPool, "https": _HTTPSPool}
    return manager


class _Deadline:
    """Cuts the connections of a call once its deadline passes: a timer shuts their
    sockets, so that whatever read is waiting ends at once."""

    def __init__(self, seconds: float) -> None:
        self.held: list[Any] = []
        self.passed = False
        self._timer = threading.Timer(max(0.0, seconds), self._cut)
        self._timer.daemon = True

    def _cut(self) -> None:
        self.passed = True
        for connection in self.held:
            sock = getattr(connection, "sock", None)
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)

    def __enter__(self) -> _Deadline:
        _watch.held = self.held
        self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()
        _watch.held = None


def _host_header(target: Target) -> str:
    host = f"[{target.host}]" if ":" in target.host else target.host
    return host if target.port in (80, 443) else f"{host}:{target.port}"


def signature(secret: str, timestamp: str, body: bytes) -> str:
    """The signature header's value: `sha256=` and the hex HMAC-SHA256, under the secret,
    of the timestamp, a dot and the body."""
    mac = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()


def call(url: str, secret: str, document: dict[str, Any], settings: Settings) -> Any:
    """POST `document` to the webhook at `url`, signed with `secret`; the `action` of its
    answer (not yet checked against the rules), or `WebhookFailure`."""
    deadline = time.monotonic() + settings.seconds
    try:
        target = check_url(url, settings.allow_private)
    except UnsafeUrl:
        raise WebhookFailure("refused_address") from None
    body = json.dumps(document, separators=(",", ":")).encode()
    timestamp = str(int(time.time()))
    headers = {
        "Content-Type": "application/json",
        "Host": _host_header(target),
        "User-Agent": "pocha-webhook/1",
        TIMESTAMP: timestamp,
        DEADLINE: str(int(settings.seconds * 1000)),
        SIGNATURE: signature(secret, timestamp, body),
    }
    pool_kwargs: dict[str, Any] = {}
    if target.scheme == "https":
        pool_kwargs = {"server_hostname": target.host, "assert_hostname": target.host}
    pool = client().connection_from_host(
        target.address, target.port, target.scheme, pool_kwargs=pool_kwargs
    )
    with _Deadline(deadline - time.monotonic()) as cut:
        try:
            answer = _exchange(pool, target, body, headers, deadline, settings.max_bytes)
        except WebhookFailure as failure:
            raise WebhookFailure("timeout" if cut.passed else failure.reason) from None
    try:
        parsed = json.loads(answer)
    except (ValueError, UnicodeDecodeError):
        raise WebhookFailure("bad_json") from None
    if not isinstance(parsed, dict) or "action" not in parsed:
        raise WebhookFailure("no_action")
    return parsed["action"]


def _exchange(
    pool: Any, target: Target, body: bytes, headers: dict[str, str], deadline: float, most: int
) -> bytes:
    """Send the call and read its answer's body (`WebhookFailure` for anything else)."""
    left = deadline - time.monotonic()
    try:
        response = pool.urlopen(
            "POST", target.path, body=body, headers=headers, redirect=False, retries=False,
            timeout=urllib3.Timeout(connect=left, read=left), preload_content=False,
            assert_same_host=False,
        )  # fmt: skip
    except urllib3.exceptions.NewConnectionError:
        # urllib3 makes a refused connection a kind of timeout; the bot's owner must be
        # told it was refused, not slow.
        raise WebhookFailure("connection") from None
    except (urllib3.exceptions.TimeoutError, TimeoutError):
        raise WebhookFailure("timeout") from None
    except (urllib3.exceptions.HTTPError, OSError):
        raise WebhookFailure("connection") from None
    read_whole = False
    try:
        status = response.status
        if 300 <= status < 400:
            raise WebhookFailure("redirect")
        if not 200 <= status < 300:
            raise WebhookFailure(f"status_{status}")
        declared = response.headers.get("Content-Length")
        if declared is not None and declared.isdigit() and int(declared) > most:
            raise WebhookFailure("too_large")
        answer = _read(response, deadline, most)
        read_whole = True
    finally:
        # An answer not read to its end cannot go back to the pool: drop its connection.
        if read_whole:
            response.release_conn()
        else:
            _drop(response)
    return answer


def _drop(response: urllib3.BaseHTTPResponse) -> None:
    connection = getattr(response, "connection", None)
    response.close()
    if connection is not None:
        connection.close()
    response.release_conn()


def _read(response: urllib3.BaseHTTPResponse, deadline: float, most: int) -> bytes:
    """The answer's body, piece by piece: `too_large` past `most` bytes, `timeout` past the
    deadline however slowly the bytes come."""
    pieces: list[bytes] = []
    size = 0
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise WebhookFailure("timeout")
        sock = getattr(getattr(response, "connection", None), "sock", None)
        if sock is not None:
            sock.settimeout(left)
        try:
            piece = response.read1(_PIECE)
        except (urllib3.exceptions.TimeoutError, TimeoutError):
            raise WebhookFailure("timeout") from None
        except (urllib3.exceptions.HTTPError, OSError):
            raise WebhookFailure("connection") from None
        if not piece:
            return b"".join(pieces)
        size += len(piece)
        if size > most:
            raise WebhookFailure("too_large")
        pieces.append(piece)


def ask(
    connection: Any,
    account_id: str,
    game: Any,
    seat: int,
    document: dict[str, Any],
    settings: Settings,
) -> tuple[int | None, str | None]:
    """The decision of the bot `account_id` in `seat` of `game`, asked of its webhook with
    `document` (the seat's view), and counted on its account: the action, or None and why
    (`disabled`, `paused`, `no_webhook` or a `WebhookFailure`'s reason), for the stand-in to
    play. A disabled account is never called: the operator's word holds in the games it
    already sits in, not only for the moves its key sends."""
    if account_is_disabled(connection, account_id):
        return None, "disabled"
    hook = webhooks.get(connection, account_id)
    if hook is None:
        return None, "no_webhook"
    if hook.paused:
        return None, "paused"
    started = time.perf_counter()
    try:
        wire = call(hook.url, hook.secret, document, settings)
        try:
            action = kind_of(game).action_from_wire(wire)
        except (GameError, ValueError, TypeError, KeyError):
            raise WebhookFailure("illegal") from None
        if action not in game.legal_actions():
            raise WebhookFailure("illegal")
    except WebhookFailure as failure:
        webhooks.count(
            connection, account_id, ok=False, reason=failure.reason,
            pause_after=settings.pause_after,
        )  # fmt: skip
        return None, failure.reason
    spent = (time.perf_counter() - started) * 1000
    webhooks.count(connection, account_id, ok=True, milliseconds=spent)
    return int(action), None
