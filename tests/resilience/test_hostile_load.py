"""The API under hostile load, on real gunicorn (the shipped settings, one process).

A flood of event streams, or of slowloris sockets holding half-sent requests, or of
requests trickling their bodies, leaves `/healthz` and moves answering; a body not whole
within `POCHA_BODY_SECONDS` of its head is answered 408 and its connection closed, while
an event stream outlives that deadline; streams and connections are capped per client address
(429 with a machine code and Retry-After beyond the cap, another address unaffected); a
stream whose client closes gives its slot back at once, without waiting for a keepalive to
fail; gunicorn's own refusals (414, 431) are in the API's JSON shape; and a stream over
gunicorn carries every event of a game, in order, to its end, resumes with Last-Event-ID
and survives a Redis restart by ending (its client comes back). These tests assert that
requests succeed, never how fast: `pocha bench hostile` measures that.

Each hostile client has its own loopback address (Linux routes all of 127.0.0.0/8 to the
loopback), so the per-address caps never hide what a flood does.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from core.store.keys import stream_slots_key
from service.events import SLOT_MARGIN_SECONDS
from tests.resilience.conftest import Processes, Table, call, create, play_turns, ready
from tests.waiting import LONG, scaled, wait_until
from tools.embedded_redis import RedisServer, free_port

#: Longest wait for any one answer: far beyond a healthy one on a loaded machine, short of a
#: stuck server's for ever.
PATIENCE = scaled(60.0)


def _address(block: int, index: int) -> str:
    return f"127.{block}.{index // 250}.{index % 250 + 1}"


class Stream:
    """One request for a game's event stream on a socket bound to `address`: its status
    and headers, then its SSE events as they arrive (HTTP/1.1 chunks decoded), until the
    server ends the response."""

    def __init__(self, port: int, game_id: str, address: str, last_event_id: int | None = None):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind((address, 0))
        self.sock.connect(("127.0.0.1", port))
        resume = "" if last_event_id is None else f"Last-Event-ID: {last_event_id}\r\n"
        self.sock.sendall(
            f"GET /api/v1/games/{game_id}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Accept: text/event-stream\r\n{resume}\r\n".encode()
        )
        self.buffer = b""
        self.status = 0
        self.headers: dict[str, str] = {}
        self.body = b""
        self.text = b""
        self.ended = False

    def _recv(self, deadline: float) -> bytes:
        self.sock.settimeout(max(0.01, deadline - time.monotonic()))
        return self.sock.recv(65536)

    def read_head(self, timeout: float = PATIENCE) -> int:
        """The status (reading the whole body of an answer that is not a stream)."""
        deadline = time.monotonic() + timeout
        while b"\r\n\r\n" not in self.buffer:
            chunk = self._recv(deadline)
            if not chunk:
                raise ConnectionError("closed before the head")
            self.buffer += chunk
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        self.status = int(lines[0].split()[1])
        self.headers = {k.lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:])}
        if "content-length" in self.headers:
            while len(self.buffer) < int(self.headers["content-length"]):
                self.buffer += self._recv(deadline)
            self.body, self.ended = self.buffer, True
        return self.status

    @property
    def json(self) -> Any:
        return json.loads(self.body)

    def _decode_chunks(self) -> None:
        while not self.ended:
            size_end = self.buffer.find(b"\r\n")
            if size_end < 0:
                return
            size = int(self.buffer[:size_end], 16)
            if len(self.buffer) < size_end + 2 + size + 2:
                return
            self.text += self.buffer[size_end + 2 : size_end + 2 + size]
            self.buffer = self.buffer[size_end + 2 + size + 2 :]
            self.ended = size == 0

    def events(self) -> list[dict[str, Any]]:
        """The events received so far, each checked against its `id` line."""
        found = []
        for block in self.text.decode().split("\n\n"):
            fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
            if "data" in fields and not block.startswith(":"):
                event = json.loads(fields["data"])
                assert int(fields["id"]) == event["seq"], block
                found.append(event)
        return found

    def read_to_end(self, timeout: float = PATIENCE) -> list[dict[str, Any]]:
        """Every event until the server ends the stream."""
        deadline = time.monotonic() + timeout
        self._decode_chunks()
        while not self.ended:
            chunk = self._recv(deadline)
            if not chunk:
                raise ConnectionError("closed mid-stream")
            self.buffer += chunk
            self._decode_chunks()
        return self.events()

    def read_until(self, count: int, timeout: float = PATIENCE) -> list[dict[str, Any]]:
        """The events received once there are at least `count`."""
        deadline = time.monotonic() + timeout
        self._decode_chunks()
        while len(self.events()) < count:
            chunk = self._recv(deadline)
            if not chunk:
                raise ConnectionError("closed mid-stream")
            self.buffer += chunk
            self._decode_chunks()
        return self.events()

    def close(self) -> None:
        self.sock.close()


def _open_streams(port: int, game_id: str, addresses: list[str]) -> list[Stream]:
    """Streams from each address, every request sent before any answer is awaited."""
    streams = [Stream(port, game_id, address) for address in addresses]
    deadline = time.monotonic() + 2 * PATIENCE
    for stream in streams:
        stream.read_head(max(0.01, deadline - time.monotonic()))
    return streams


def _whole_log(port: int, table: Table) -> list[dict[str, Any]]:
    reply = call(port, "GET", f"/api/v1/games/{table.id}/events")
    assert reply.status == 200, reply.body
    events: list[dict[str, Any]] = reply.json
    return events


class Slowloris:
    """`count` sockets, each from its own address, sending a request head a header line at
    a time and never its end; one the server closes is opened again."""

    def __init__(self, port: int, block: int, count: int) -> None:
        self.port = port
        self.addresses = [_address(block, i) for i in range(count)]
        self.socks: list[socket.socket | None] = [None] * count
        self.reopened = 0
        #: Rounds of header lines sent to every socket.
        self.rounds = 0
        self._stop = threading.Event()
        for i in range(count):
            self._open(i)
        self._thread = threading.Thread(target=self._trickle, daemon=True)
        self._thread.start()

    def _open(self, i: int) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind((self.addresses[i], 0))
        sock.connect(("127.0.0.1", self.port))
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127")
        sock.setblocking(False)
        self.socks[i] = sock

    def _trickle(self) -> None:
        line = 0
        while not self._stop.wait(0.5):
            line += 1
            for i, sock in enumerate(self.socks):
                assert sock is not None
                try:
                    sock.send(b"\r\nX-%d: a" % line)
                    if sock.recv(1) == b"":
                        raise ConnectionError
                except BlockingIOError:
                    pass
                except OSError:
                    sock.close()
                    self.reopened += 1
                    with contextlib.suppress(OSError):
                        self._open(i)
            self.rounds += 1

    def held(self) -> int:
        return sum(1 for sock in self.socks if sock is not None and sock.fileno() >= 0)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()
        for sock in self.socks:
            if sock is not None:
                sock.close()


@pytest.fixture
def slot_counts(redis_url: str) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(redis_url)
    yield client
    client.close()


# -- floods -----------------------------------------------------------------------------


def test_a_flood_of_event_streams_leaves_moves_and_healthz_answering(
    redis_url: str, processes: Processes
) -> None:
    port = processes.api(redis_url)
    table = create(port, [None] * 4, [1, 2], seed=11)
    # Ten times the threads a process had: each of them used to hold one.
    streams = _open_streams(port, table.id, [_address(3, i) for i in range(160)])
    try:
        assert [s.status for s in streams] == [200] * len(streams)
        assert call(port, "GET", "/healthz", timeout=PATIENCE).status == 200
        assert play_turns([port], table) > 0  # every move, to the end of the game
        assert call(port, "GET", "/healthz", timeout=PATIENCE).status == 200
        log = _whole_log(port, table)
        assert log[-1]["type"] == "game_over"
        for stream in streams:
            assert stream.read_to_end() == log
    finally:
        for stream in streams:
            stream.close()


def test_slowloris_sockets_do_not_stop_other_requests(redis_url: str, processes: Processes) -> None:
    port = processes.api(redis_url)
    lorises = Slowloris(port, 6, 100)
    try:
        wait_until(lambda: lorises.rounds > 0, LONG, "every socket's head half sent")
        assert lorises.held() == 100
        assert call(port, "GET", "/healthz", timeout=PATIENCE).status == 200
        table = create(port, [None] * 3, [1, 2], seed=12)
        assert play_turns([port], table) > 0
        assert call(port, "GET", "/readyz", timeout=PATIENCE).status == 200
    finally:
        lorises.stop()


# -- slow bodies ------------------------------------------------------------------------


class Trickle:
    """Requests, each from its own address, sent as a whole head and then a body a byte at
    a time (a byte to each socket every quarter second, from one thread), each read until
    the server closes its connection: `answers[i]` is all that request got, `ended[i]`
    whether its connection is closed."""

    def __init__(self, port: int, requests: list[tuple[str, bytes, bytes]]) -> None:
        self.bodies = [body for _address, _head, body in requests]
        self.socks: list[socket.socket] = []
        for address, head, _body in requests:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.bind((address, 0))
            sock.connect(("127.0.0.1", port))
            sock.sendall(head)
            sock.setblocking(False)
            self.socks.append(sock)
        self.sent = [0] * len(requests)
        self.answers = [b""] * len(requests)
        self.ended = [False] * len(requests)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._trickle, daemon=True)
        self._thread.start()

    def _trickle(self) -> None:
        while not self._stop.wait(0.25):
            for i, sock in enumerate(self.socks):
                if self.ended[i]:
                    continue
                try:
                    while chunk := sock.recv(65536):
                        self.answers[i] += chunk
                    self.ended[i] = True
                except BlockingIOError:
                    pass
                except OSError:  # reset, once the server has closed it
                    self.ended[i] = True
                if not self.ended[i] and self.sent[i] < len(self.bodies[i]):
                    with contextlib.suppress(OSError):
                        self.sent[i] += sock.send(self.bodies[i][self.sent[i] : self.sent[i] + 1])

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()
        for sock in self.socks:
            sock.close()


def _head(length: int | None, language: str = "en") -> bytes:
    """The head of a request to create a game, its body of `length` bytes, or chunked."""
    framing = "Transfer-Encoding: chunked" if length is None else f"Content-Length: {length}"
    return (
        "POST /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Accept-Language: {language}\r\n{framing}\r\n\r\n"
    ).encode()


#: A body to create a game, padded with spaces that JSON allows: whole only after minutes
#: at a byte a quarter second.
SLOW_BODY = json.dumps({"players": [{"name": f"P{i}"} for i in range(3)]}).encode() + b" " * 2000
#: The same, chunked: a chunk of one byte at a time.
SLOW_CHUNKS = b"".join(b"1\r\n%c\r\n" % byte for byte in SLOW_BODY) + b"0\r\n\r\n"


def test_bodies_not_whole_by_their_deadline_are_408_and_closed(
    redis_url: str, processes: Processes
) -> None:
    port = processes.api(redis_url, POCHA_BODY_SECONDS="1")
    table = create(port, [None] * 3, [1, 2], seed=17)
    # An event stream is a GET with no body: it lives on past the deadline.
    stream = Stream(port, table.id, _address(9, 0))
    assert stream.read_head() == 200
    trickles = Trickle(
        port,
        [
            (_address(9, 1), _head(len(SLOW_BODY)), SLOW_BODY),
            (_address(9, 2), _head(None, "es"), SLOW_CHUNKS),
        ],
    )
    try:
        wait_until(lambda: all(trickles.ended), LONG, "the trickled requests' answers")
    finally:
        trickles.stop()
    messages = []
    for answer in trickles.answers:
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408 "), answer
        assert b"\r\nConnection: close\r\n" in head
        error = json.loads(body)
        assert (error["code"], error["error"]) == (408, "body_too_slow")
        messages.append(error["message"])
    english, spanish = messages
    assert "within 1 s of its headers" in english
    assert spanish.startswith("El cuerpo de la petición") and "1 s" in spanish

    # Whole bodies are read as ever, two requests on one connection too.
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=PATIENCE)
    try:
        for _ in range(2):
            connection.request(
                "POST", "/api/v1/games", SLOW_BODY, {"Content-Type": "application/json"}
            )
            response = connection.getresponse()
            assert response.status == 201, response.read()
            response.read()
    finally:
        connection.close()
    play_turns([port], table, moves=2)
    log = _whole_log(port, table)
    assert stream.read_until(len(log)) == log
    stream.close()


def test_trickled_bodies_do_not_stop_other_requests(redis_url: str, processes: Processes) -> None:
    # A deadline no test outlasts: the bodies are still coming while the game is played.
    port = processes.api(redis_url, POCHA_BODY_SECONDS="3600")
    requests = [(_address(10, i), _head(len(SLOW_BODY)), SLOW_BODY) for i in range(50)]
    trickles = Trickle(port, requests)
    try:
        wait_until(lambda: min(trickles.sent) >= 2, LONG, "every body begun")
        assert call(port, "GET", "/healthz", timeout=PATIENCE).status == 200
        table = create(port, [None] * 3, [1, 2], seed=18)
        assert play_turns([port], table) > 0
        assert not any(trickles.ended)
    finally:
        trickles.stop()


# -- caps per address -------------------------------------------------------------------


def test_streams_and_connections_are_capped_per_address(
    redis_url: str, processes: Processes
) -> None:
    port = processes.api(
        redis_url, POCHA_MAX_STREAMS_PER_ADDRESS="2", POCHA_MAX_CONNECTIONS_PER_ADDRESS="3"
    )
    table = create(port, [None] * 3, [1, 2], seed=13)
    held = _open_streams(port, table.id, [_address(4, 0)] * 2)
    idle: list[socket.socket] = []
    try:
        assert [s.status for s in held] == [200, 200]
        over = Stream(port, table.id, _address(4, 0))
        assert over.read_head() == 429
        assert over.json["error"] == "too_many_streams"
        assert "2 event streams" in over.json["message"]
        assert int(over.headers["retry-after"]) >= 1
        other = Stream(port, table.id, _address(4, 1))
        assert other.read_head() == 200
        other.close()

        # Connections: three held idle from one address, the fourth refused before any
        # request is read; another address is served.
        for _ in range(3):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.bind((_address(4, 2), 0))
            sock.connect(("127.0.0.1", port))
            idle.append(sock)
        refused = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        refused.bind((_address(4, 2), 0))
        refused.connect(("127.0.0.1", port))
        refused.settimeout(PATIENCE)
        answer = b""
        while chunk := refused.recv(65536):
            answer += chunk
        refused.close()
        head, body = answer.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 429 "), head
        assert b"\r\nRetry-After: " in head
        assert json.loads(body)["error"] == "too_many_connections"
        assert call(port, "GET", "/healthz", timeout=PATIENCE).status == 200
        for sock in idle:
            sock.close()
        wait_until(
            lambda: _status_from(port, _address(4, 2)) == 200, PATIENCE, "the address served again"
        )
    finally:
        for stream in held:
            stream.close()
        for sock in idle:
            sock.close()


def _status_from(port: int, address: str) -> int:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind((address, 0))
        sock.connect(("127.0.0.1", port))
        sock.settimeout(PATIENCE)
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        return int(sock.recv(65536)[9:12])
    finally:
        sock.close()


def test_a_stream_whose_client_closes_gives_its_slot_back_at_once(
    redis_url: str, processes: Processes, slot_counts: redis.Redis
) -> None:
    # Keepalives far apart: no write can be what reveals that the client has gone.
    port = processes.api(
        redis_url, POCHA_MAX_STREAMS_PER_ADDRESS="1", POCHA_SSE_KEEPALIVE_SECONDS="600"
    )
    table = create(port, [None] * 3, [1, 2], seed=14)
    address = _address(5, 0)
    first = Stream(port, table.id, address)
    assert first.read_head() == 200
    assert first.read_until(1)[0]["type"] == "hand_dealt"
    second = Stream(port, table.id, address)
    assert second.read_head() == 429
    assert slot_counts.zcard(stream_slots_key(address)) == 1

    first.close()
    wait_until(
        lambda: slot_counts.zcard(stream_slots_key(address)) == 0,
        PATIENCE,
        "the closed stream's slot to be given back",
    )
    again = Stream(port, table.id, address)
    assert again.read_head() == 200
    again.close()


def test_a_killed_api_workers_stream_slots_lapse_within_a_keepalive(
    redis_url: str, processes: Processes, slot_counts: redis.Redis
) -> None:
    keepalive = 2
    port = processes.api(
        redis_url, POCHA_MAX_STREAMS_PER_ADDRESS="1", POCHA_SSE_KEEPALIVE_SECONDS=str(keepalive)
    )
    master = processes.started[-1][1].pid
    table = create(port, [None] * 3, [1, 2], seed=15)
    address = _address(5, 1)
    key = stream_slots_key(address)
    stream = Stream(port, table.id, address)
    assert stream.read_head() == 200

    def lease_left() -> float:
        seconds, micros = slot_counts.time()
        score = slot_counts.zrange(key, 0, 0, withscores=True)[0][1]
        return float(score) - (seconds + micros / 1e6)

    # A lease of a keepalive and a margin, not of a whole stream's life (55 s and more).
    first = lease_left()
    assert 0 < first <= keepalive + SLOT_MARGIN_SECONDS
    # The live stream renews it.
    expires = float(slot_counts.zrange(key, 0, 0, withscores=True)[0][1])
    wait_until(
        lambda: float(slot_counts.zrange(key, 0, 0, withscores=True)[0][1]) > expires,
        PATIENCE,
        "the stream to renew its slot",
    )
    # The worker dies with the stream open: nothing gives the slot back, and it lapses.
    worker = int(Path(f"/proc/{master}/task/{master}/children").read_text().split()[0])
    os.kill(worker, signal.SIGKILL)
    stream.close()
    wait_until(lambda: slot_counts.zcard(key) == 0, PATIENCE, "the dead stream's slot to lapse")
    wait_until(lambda: ready(port), PATIENCE, "gunicorn's new worker")
    again = Stream(port, table.id, address)
    assert again.read_head() == 200
    again.close()


# -- gunicorn's own refusals ------------------------------------------------------------


def test_gunicorns_own_refusals_are_json(redis_url: str, processes: Processes) -> None:
    port = processes.api(redis_url)
    long_line = call(port, "GET", "/healthz?q=" + "a" * 5000)
    assert long_line.status == 414
    assert long_line.headers["Content-Type"] == "application/json"
    assert long_line.json["error"] == "uri_too_long"
    assert long_line.json["code"] == 414
    assert "4094 bytes" in long_line.json["message"]

    many = call(port, "GET", "/healthz", headers={f"X-{i}": "a" for i in range(120)})
    assert many.status == 431
    assert many.json["error"] == "headers_too_large"
    large = call(port, "GET", "/healthz", headers={"X-Large": "a" * 9000})
    assert large.status == 431
    assert large.json["error"] == "headers_too_large"
    assert set(large.json) == {"code", "status", "error", "message"}


# -- the stream itself, over gunicorn ----------------------------------------------------


def test_a_stream_carries_a_whole_game_and_resumes_with_last_event_id(
    redis_url: str, processes: Processes
) -> None:
    port = processes.api(redis_url)
    table = create(port, [None] * 4, [1, 2, 1], seed=15)
    followers = _open_streams(port, table.id, [_address(7, i) for i in range(3)])
    play_turns([port], table)
    log = _whole_log(port, table)
    for follower in followers:
        assert follower.read_to_end() == log
    resumed = Stream(port, table.id, _address(7, 9), last_event_id=5)
    assert resumed.read_head() == 200
    assert resumed.read_to_end() == log[5:]


def test_streams_end_when_redis_goes_and_work_again_when_it_is_back(
    tmp_path: Path, processes: Processes
) -> None:
    server = RedisServer(tmp_path / "redis", port=free_port(), appendonly=True)
    server.start(timeout=scaled(LONG))
    try:
        port = processes.api(server.url)
        table = create(port, [None] * 3, [2, 2], seed=16)
        before = Stream(port, table.id, _address(8, 0))
        assert before.read_head() == 200
        assert len(before.read_until(1)) == 1

        server.stop(timeout=scaled(LONG))
        before.read_to_end()  # the stream ends; its client would reconnect
        server.start(timeout=scaled(LONG))
        wait_until(lambda: ready(port), LONG, "the API to be ready again")

        # A stream asked for while the process's pooled connections still find Redis
        # gone may be refused 503 once; its EventSource asks again, as this does.
        after = Stream(port, table.id, _address(8, 1))
        if after.read_head() == 503:
            after = Stream(port, table.id, _address(8, 1))
            after.read_head()
        assert after.status == 200, after.body
        assert len(after.read_until(1)) == 1
        play_turns([port], table, moves=2)
        assert [e["type"] for e in after.read_until(3)[1:3]] == ["bid", "bid"]
        after.close()
    finally:
        server.stop()
