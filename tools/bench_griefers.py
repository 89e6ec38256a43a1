"""`pocha bench hostile --scenario leave-spam|lobby-flood|heavy-bots`: what griefers at
tables do to an unrelated person's game.
How it works: docs/performance.md, `tools.bench_griefers`.
"""

from __future__ import annotations

import contextlib
import http.client
import http.server
import inspect
import itertools
import json
import multiprocessing
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from engine.pocha.actions import action_to_wire
from tools.bench_api import _Connection
from tools.bench_flood import _Clock, _events, _percentile, _ready, _request
from tools.embedded_redis import free_port
from tools.processes import die_with_parent, stop_processes
from tools.serve import serve
from tools.soak import EventLog, LogViolation

#: The scenarios of this module, in the order `all` runs them.
SCENARIOS = ("leave-spam", "lobby-flood", "heavy-bots", "outside-bots")
#: The target: each p99 under a flood at most this many times the idle one.
TARGET_RATIO = 2.0
#: The unrelated person's address, and the one the bench reads the griefers' games from.
PERSON_ADDRESS = "127.3.0.1"
MONITOR_ADDRESS = "127.3.0.2"
#: Address blocks (127.<block>.x.y) of each scenario's hostile clients: none shares one
#: with another scenario, so no flood inherits another's rate limits.
LEAVE_BLOCK, HEAVY_BLOCK, LOBBY_BLOCK, TABLES_BLOCK, BOTS_BLOCK = 4, 5, 6, 7, 8
#: The shortest pause between games one address creates that the shipped create limit
#: (20 a minute) lets through.
CREATE_EVERY = 3.0
#: Where outside-bots' hostile webhooks listen (`POCHA_BOT_ALLOW_PRIVATE=1` lets the
#: service call loopback).
WEBHOOKS_ADDRESS = "127.9.0.1"
#: The person's seat, and the level of its bots and of the griefers': the web page's.
PERSON_SEAT = 0
LEVEL = "medium"
#: Seconds before the first scenario during which the person plays unmeasured (first
#: forks and imports of the workers).
WARMUP_SECONDS = 5.0
#: A request that takes longer than this has failed.
REQUEST_TIMEOUT = 30.0
#: The shipped workers of `pocha serve`: general ones and ones reserved for bot turns.
SHIPPED_WORKERS = sum(
    int(inspect.signature(serve).parameters[name].default)
    for name in ("bot_workers", "turn_workers")
)


def _address(block: int, index: int) -> str:
    """The `index`th loopback address of a block: 127.<block>.<i // 250>.<i % 250 + 1>."""
    return f"127.{block}.{index // 250}.{index % 250 + 1}"


@dataclass(frozen=True)
class TablesSpec:
    """What to run: the phases, the person, and each flood's size."""

    #: Each phase, idle and flood, of each scenario (seconds).
    seconds: float = 20.0
    #: The person's pause between its turn coming and its move.
    think: float = 0.2
    #: leave-spam: griefer addresses, each with a table of its own and a seat at another's,
    #: and the calls a second each sends (0: as fast as the answers come).
    griefers: int = 3
    leave_rate: float = 0.0
    #: heavy-bots: addresses creating heavy games.
    heavy_addresses: int = 3
    #: lobby-flood: reads of the lobby a second in all, from this many addresses; and
    #: addresses creating listed tables, each this many a second.
    lobby_rate: float = 80.0
    lobby_addresses: int = 40
    table_addresses: int = 20
    table_rate: float = 1.0
    #: outside-bots: bot accounts (one per hostile webhook in `HostileWebhooks.MODES`, in
    #: turn), the games they are seated in, and the addresses creating those tables.
    outside_bots: int = 20
    outside_games: int = 500
    outside_hosts: int = 50
    #: A phase is held on, up to `patience` seconds more, until it has this many samples
    #: of each latency.
    min_samples: int = 3
    patience: float = 60.0
    #: gunicorn worker processes (None: the shipped setting).
    api_processes: int | None = None
    seed: int = 1


# -- the hostile clients (a process of their own) ------------------------------------------


class _Client(_Connection):
    """A keep-alive connection from one loopback address, sending JSON."""

    def __init__(self, port: int, address: str) -> None:
        super().__init__(port)
        self.address = address

    def _connect(self) -> socket.socket:
        sock = socket.create_connection(
            ("127.0.0.1", self.port), timeout=REQUEST_TIMEOUT, source_address=(self.address, 0)
        )
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock, self.buffer = sock, b""
        return sock

    def call(
        self, method: str, path: str, body: Any = None, token: str | None = None,
        account: str | None = None,
    ) -> tuple[int, bytes]:  # fmt: skip
        """The status (0: no answer) and body."""
        headers = ""
        payload = b""
        if body is not None:
            payload = json.dumps(body).encode()
            headers += "Content-Type: application/json\r\n"
        if token is not None:
            headers += f"Authorization: Bearer {token}\r\n"
        if account is not None:
            headers += f"X-Pocha-Account: {account}\r\n"
        reused = self.sock is not None
        status, answer = self.ask(method, path, payload, headers)
        if status == 0 and reused:
            # The server closes a keep-alive connection left idle past its keepalive (5 s),
            # maybe as the request goes out: ask once more on a new one, as browsers do.
            status, answer = self.ask(method, path, payload, headers)
        return status, answer


def _answer(status: int, body: bytes) -> tuple[str, str]:
    """How a request was answered, for counting (`200`, `429 rate_limited`, `no answer`),
    and the error's message (empty for none)."""
    if status == 0:
        return "no answer", ""
    if status < 400:
        return str(status), ""
    try:
        error = json.loads(body)
        code, message = error.get("error"), str(error.get("message", ""))
    except (ValueError, AttributeError):
        code, message = None, body[:200].decode(errors="replace")
    return (f"{status} {code}" if code else str(status)), message


class _Tally:
    """Answers by kind of request (`leave`, `lobby`...): answer -> count, across threads."""

    def __init__(self) -> None:
        self.counts: dict[str, Counter[str]] = {}
        #: The first message of each refusal of each kind: (kind, answer) -> message.
        self.messages: dict[tuple[str, str], str] = {}
        self.lock = threading.Lock()

    def add(self, kind: str, status: int, body: bytes) -> None:
        answer, message = _answer(status, body)
        with self.lock:
            self.counts.setdefault(kind, Counter())[answer] += 1
            if message:
                self.messages.setdefault((kind, answer), message)

    def plain(self) -> dict[str, dict[str, int]]:
        with self.lock:
            return {kind: dict(counts) for kind, counts in self.counts.items()}


@dataclass
class FloodReport:
    """What a flood sent and was answered, and what it saw of its own doing."""

    scenario: str
    #: Kind of request -> answer (`200`, `429 rate_limited`, `no answer`) -> count.
    answers: dict[str, dict[str, int]]
    seconds: float
    notes: list[str] = field(default_factory=list)

    def count(self, predicate: Callable[[str], bool]) -> int:
        return sum(n for by in self.answers.values() for a, n in by.items() if predicate(a))

    @property
    def server_errors(self) -> int:
        return self.count(lambda answer: answer.startswith("5"))

    @property
    def unanswered(self) -> int:
        return self.count(lambda answer: answer == "no answer")


def _paced(every: float, stop: threading.Event, action: Callable[[], None]) -> None:
    """Call `action` every `every` seconds (from a random offset) until `stop`; a late
    call is made at once, but lost time is not caught up in a burst."""
    due = time.monotonic() + random.uniform(0, every)
    while not stop.wait(max(0.0, due - time.monotonic())):
        action()
        due = max(due + every, time.monotonic() - every)


def _threads(targets: Sequence[Callable[[], None]]) -> list[threading.Thread]:
    started = [threading.Thread(target=target, daemon=True) for target in targets]
    for thread in started:
        thread.start()
    return started


class _Flood:
    """One scenario's hostile clients: `run` until `stop`, then `report`, then `clean_up`."""

    scenario = ""

    def __init__(self, port: int, spec: TablesSpec) -> None:
        self.port = port
        self.spec = spec
        self.tally = _Tally()
        self.notes: list[str] = []
        #: The games made: the address that made each, its id and its host token.
        self.made: list[tuple[str, str, str]] = []
        self.lock = threading.Lock()
        self.started = self.ended = 0.0

    def create(
        self, client: _Client, kind: str, body: dict[str, Any]
    ) -> tuple[str, dict[str, Any] | None]:
        """POST /api/v1/games from `client`, counted as `kind`: how it was answered (`201`,
        `429 rate_limited`...), and the game made or None."""
        status, answer = client.call("POST", "/api/v1/games", body)
        self.tally.add(kind, status, answer)
        if status != 201:
            return _answer(status, answer)[0], None
        made: dict[str, Any] = json.loads(answer)
        with self.lock:
            self.made.append((client.address, made["id"], made["host_token"]))
        return "201", made

    def run(self, stop: threading.Event) -> None:
        self.started = time.monotonic()
        try:
            self.flood(stop)
        finally:
            self.ended = time.monotonic()

    def flood(self, stop: threading.Event) -> None:
        raise NotImplementedError

    def report(self) -> FloodReport:
        refusals = [
            f"{kind}, {answer}: {message[:160]!r}"
            for (kind, answer), message in sorted(self.tally.messages.items())
            if not answer.startswith("429")
        ]
        return FloodReport(self.scenario, self.tally.plain(), self.ended - self.started,
                           self.notes + refusals)  # fmt: skip

    def clean_up(self) -> dict[str, int]:
        """Delete the games made (with their host tokens): answers -> count."""
        done: Counter[str] = Counter()
        clients: dict[str, _Client] = {}
        for address, game_id, host_token in self.made:
            client = clients.setdefault(address, _Client(self.port, address))
            status, body = client.call("DELETE", f"/api/v1/games/{game_id}", token=host_token)
            done[_answer(status, body)[0]] += 1
        for client in clients.values():
            client.close()
        return dict(done)


@dataclass
class _GriefSeat:
    game: str
    seat: int
    token: str


class LeaveSpam(_Flood):
    """Griefers at tables of their own, leaving and coming back as fast as they can."""

    scenario = "leave-spam"
    CYCLE = ("leave", "leave", "return", "return")

    def flood(self, stop: threading.Event) -> None:
        addresses = [_address(LEAVE_BLOCK, i) for i in range(self.spec.griefers)]
        clients = [_Client(self.port, a) for a in addresses]
        seats: list[list[_GriefSeat]] = [[] for _ in clients]
        tables: list[dict[str, Any] | None] = []
        for i, client in enumerate(clients):
            body = {
                "players": [{"name": f"Griefer {i}"}, {"open": True}, {"open": True},
                            {"name": "Bot", "bot": LEVEL}],
                "rules": {"schedule": "classic"},
            }  # fmt: skip
            made = self.create(client, "create", body)[1]
            tables.append(made)
            if made is not None:
                seats[i].append(_GriefSeat(made["id"], 0, made["seats"][0]["token"]))
        for i, client in enumerate(clients):
            table = tables[(i + 1) % len(tables)]
            if table is None:
                continue
            status, answer = client.call(
                "POST", f"/api/v1/tables/{table['table_code']}/seats", {"name": f"Griefer {i}b"}
            )
            self.tally.add("join", status, answer)
            if status == 201:
                taken = json.loads(answer)
                seats[i].append(_GriefSeat(taken["game_id"], taken["seat"], taken["token"]))
        for client, table in zip(clients, tables, strict=True):
            if table is not None:
                status, answer = client.call(
                    "POST", f"/api/v1/games/{table['id']}/start", {"bots": LEVEL},
                    token=table["host_token"],
                )  # fmt: skip
                self.tally.add("start", status, answer)
        games = [t["id"] for t in tables if t is not None]
        monitor = _Client(self.port, MONITOR_ADDRESS)
        marks = [("start", self._look(monitor, games))]
        spam = _threads([self._spammer(c, s, stop) for c, s in zip(clients, seats, strict=True)])
        if not stop.wait(self.spec.seconds / 2):
            marks.append(("half-way", self._look(monitor, games)))
        stop.wait()
        for thread in spam:
            thread.join()
        marks.append(("end", self._look(monitor, games)))
        monitor.close()
        for client in clients:
            client.close()
        answers = self.tally.plain()
        sent = sum(sum(answers.get(action, {}).values()) for action in ("leave", "return"))
        seconds = max(1e-9, time.monotonic() - self.started)
        self.notes.append(
            f"leave and return: {sent} calls in {seconds:.1f} s, {sent / seconds:.0f} a second"
        )
        self.notes += self._growth(marks, len(games))

    def _spammer(
        self, client: _Client, seats: list[_GriefSeat], stop: threading.Event
    ) -> Callable[[], None]:
        calls = [(action, seat) for action in self.CYCLE for seat in seats]
        turn = iter(range(1 << 62))

        def once() -> None:
            action, seat = calls[next(turn) % len(calls)]
            status, answer = client.call(
                "POST", f"/api/v1/games/{seat.game}/seats/{seat.seat}/{action}",
                token=seat.token,
            )  # fmt: skip
            self.tally.add(action, status, answer)

        def spam() -> None:
            if not calls:
                return
            if self.spec.leave_rate:
                _paced(1.0 / self.spec.leave_rate, stop, once)
            while not stop.is_set():
                once()

        return spam

    def _look(self, client: _Client, games: list[str]) -> tuple[int, int, int]:
        """The griefers' games now: versions, events and seat events, summed."""
        versions = events = seat_events = 0
        for game_id in games:
            status, answer = client.call("GET", f"/api/v1/games/{game_id}/events")
            self.tally.add("read events", status, answer)
            if status != 200:
                continue
            log = json.loads(answer)
            events += len(log)
            versions += max((e.get("version", 0) for e in log), default=0)
            seat_events += sum(1 for e in log if str(e.get("type", "")).startswith("seat_"))
        return versions, events, seat_events

    @staticmethod
    def _growth(marks: list[tuple[str, tuple[int, int, int]]], games: int) -> list[str]:
        names = " / ".join(name for name, _ in marks)
        lines = [
            f"griefers' {games} games at the flood's {names}: versions "
            + " / ".join(str(m[0]) for _, m in marks)
            + ", events " + " / ".join(str(m[1]) for _, m in marks)
            + ", seat events " + " / ".join(str(m[2]) for _, m in marks)
        ]  # fmt: skip
        if len(marks) == 3:
            first = marks[1][1][2] - marks[0][1][2]
            second = marks[2][1][2] - marks[1][1][2]
            verdict = "still growing" if second > 0 else "stopped growing"
            lines.append(
                f"seat events: +{first} in the flood's first half, +{second} in its second "
                f"({verdict})"
            )
        return lines


def heavy_levels() -> list[str]:
    """The levels heavier than the person's bots, heaviest first (by the milliseconds their
    budget may think a decision, then its iterations)."""
    from ai.pocha.levels import LEVELS

    def weight(name: str) -> tuple[float, int]:
        budget = LEVELS[name].budget
        return (budget.milliseconds or 0.0, budget.iterations or 0)

    return sorted((n for n in LEVELS if weight(n) > weight(LEVEL)), key=weight, reverse=True)


def heavy_bodies(level: str) -> dict[str, dict[str, Any]]:
    """The two heavy games at `level`, by kind: 8 bots over the longest schedule, and 8
    people on the shortest clock with stand-ins, over the same schedule."""
    from engine.pocha.rules import MAX_SCHEDULE_HANDS, TURN_SECONDS, Rules

    players = 8
    most = max(Rules.from_dict({"players": players}).hand_sizes)
    schedule = [most] * MAX_SCHEDULE_HANDS
    return {
        "8 bots": {
            "players": [{"name": f"Heavy {s}", "bot": level} for s in range(players)],
            "rules": {"schedule": schedule},
        },
        "8 people": {
            "players": [{"name": f"Away {s}"} for s in range(players)],
            "rules": {"schedule": schedule, "turn_seconds": max(1, TURN_SECONDS.low)},
            "stand_in_level": level,
        },
    }


class HeavyBots(_Flood):
    """Addresses creating the heaviest games the service takes, as fast as the create
    limit lets them: each kind at the heaviest level first, and at the next heaviest once
    a level is refused (422), as a griefer would."""

    scenario = "heavy-bots"

    def flood(self, stop: threading.Event) -> None:
        levels = heavy_levels()
        sample = heavy_bodies(levels[0])
        schedule = sample["8 bots"]["rules"]["schedule"]
        clock = sample["8 people"]["rules"]["turn_seconds"]
        self.notes.append(
            f"each game: 8 seats, {len(schedule)} hands of {schedule[0]} cards; 8 bots, or 8 "
            f"people on a {clock} s clock with stand-ins; levels tried heaviest first, the "
            f"next once one is refused 422: {', '.join(levels)}"
        )
        kinds = list(sample)
        #: Kind -> the index in `levels` of the level it is created at now.
        at = dict.fromkeys(kinds, 0)

        def creator(index: int) -> Callable[[], None]:
            def create() -> None:
                client = _Client(self.port, _address(HEAVY_BLOCK, index))
                tries = 0
                while not stop.is_set():
                    kind = kinds[tries % len(kinds)]
                    tries += 1
                    with self.lock:
                        level = at[kind]
                    if level >= len(levels):
                        if all(i >= len(levels) for i in at.values()):
                            break
                        continue
                    body = heavy_bodies(levels[level])[kind]
                    label = f"{kind} ({levels[level]})"
                    answer, made = self.create(client, label, body)
                    if made is not None:
                        continue
                    if answer.startswith("422"):
                        with self.lock:
                            at[kind] = max(at[kind], level + 1)
                    else:
                        stop.wait(1.0)  # rate-limited: its window may open again
                client.close()

            return create

        for thread in _threads([creator(i) for i in range(self.spec.heavy_addresses)]):
            thread.join()


class LobbyFlood(_Flood):
    """Many addresses reading the lobby, and many creating listed tables."""

    scenario = "lobby-flood"

    def flood(self, stop: threading.Event) -> None:
        spec = self.spec

        def reader(index: int) -> Callable[[], None]:
            def read() -> None:
                client = _Client(self.port, _address(LOBBY_BLOCK, index))

                def once() -> None:
                    status, answer = client.call("GET", "/api/v1/tables")
                    self.tally.add("lobby", status, answer)

                _paced(spec.lobby_addresses / spec.lobby_rate, stop, once)
                client.close()

            return read

        def maker(index: int) -> Callable[[], None]:
            def make() -> None:
                client = _Client(self.port, _address(TABLES_BLOCK, index))
                body = {
                    "players": [{"name": f"Junk {index}"}, {"open": True}, {"open": True},
                                {"open": True}],
                    "listed": True,
                }  # fmt: skip

                def once() -> None:
                    self.create(client, "listed table", body)

                _paced(1.0 / spec.table_rate, stop, once)
                client.close()

            return make

        readers = [reader(i) for i in range(spec.lobby_addresses if spec.lobby_rate else 0)]
        makers = [maker(i) for i in range(spec.table_addresses if spec.table_rate else 0)]
        for thread in _threads(readers + makers):
            thread.join()
        lobby = sum(self.tally.plain().get("lobby", {}).values())
        seconds = max(1e-9, time.monotonic() - self.started)
        self.notes.append(f"lobby reads: {lobby / seconds:.0f} a second sent")


class HostileWebhooks:
    """A loopback server answering the service's webhook calls as hostile bots would: by
    path, never (`silent`), a byte a second (`drip`), 100 MB (`huge`), a redirect to
    127.0.0.1 (`redirect`), or an action no rule allows (`illegal`)."""

    MODES = ("silent", "drip", "huge", "redirect", "illegal")

    def __init__(self) -> None:
        self.calls: Counter[str] = Counter()
        self.stopping = threading.Event()
        hooks = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                return

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                mode = self.path.strip("/")
                hooks.calls[mode] += 1
                with contextlib.suppress(OSError):  # the service hung up, as it should
                    hooks.answer(self, mode)
                self.close_connection = True

        self.server = http.server.ThreadingHTTPServer((WEBHOOKS_ADDRESS, 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, mode: str) -> str:
        return f"http://{WEBHOOKS_ADDRESS}:{self.server.server_address[1]}/{mode}"

    def answer(self, handler: http.server.BaseHTTPRequestHandler, mode: str) -> None:
        out = handler.wfile
        if mode == "silent":
            self.stopping.wait(REQUEST_TIMEOUT)
        elif mode == "drip":
            for byte in b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}":
                if self.stopping.wait(1.0):
                    return
                out.write(bytes([byte]))
                out.flush()
        elif mode == "huge":
            handler.send_response(200)
            handler.send_header("Content-Type", "application/json")
            handler.send_header("Content-Length", str(100 * 1024 * 1024))
            handler.end_headers()
            chunk = b" " * 65536
            for _ in range(100 * 16):
                if self.stopping.is_set():
                    return
                out.write(chunk)
        elif mode == "redirect":
            handler.send_response(307)
            handler.send_header("Location", "http://127.0.0.1/")
            handler.send_header("Content-Length", "0")
            handler.end_headers()
        else:
            body = json.dumps({"action": "not a card"}).encode()
            handler.send_response(200)
            handler.send_header("Content-Type", "application/json")
            handler.send_header("Content-Length", str(len(body)))
            handler.end_headers()
            out.write(body)

    def close(self) -> None:
        self.stopping.set()
        self.server.shutdown()
        self.server.server_close()


@dataclass
class _OutsideBot:
    client: _Client
    lock: threading.Lock
    id: str
    key: str
    name: str
    #: Played by its webhook (else by its event stream).
    hooked: bool = True


class OutsideBots(_Flood):
    """Bot accounts whose webhooks never answer well, or which hold their event stream and
    never move, seated in as many games as the service lets them join, resuming their
    webhooks as soon as they are paused."""

    scenario = "outside-bots"
    #: Each bot account in turn: a hostile webhook's, or a stream bot that never moves.
    KINDS = (*HostileWebhooks.MODES, "stream")

    def _hold_stream(
        self, index: int, key: str, stop: threading.Event, heard: Counter[str]
    ) -> None:
        """Hold the account's event stream (GET /api/v1/bot/events) until `stop`, counting
        the events by type, and never move; reconnect when it ends."""
        address = _address(BOTS_BLOCK, 500 + index)
        while not stop.is_set():
            connection = http.client.HTTPConnection(
                "127.0.0.1", self.port, timeout=REQUEST_TIMEOUT, source_address=(address, 0)
            )
            try:
                connection.request("GET", "/api/v1/bot/events", headers={
                    "X-Pocha-Account": key, "Accept": "text/event-stream",
                })  # fmt: skip
                answer = connection.getresponse()
                body = b"" if answer.status == 200 else answer.read()
                self.tally.add("bot stream", answer.status, body)
                if answer.status != 200:
                    stop.wait(1.0)
                    continue
                while not stop.is_set():
                    line = answer.fp.readline()
                    if not line:
                        break
                    if line.startswith(b"data:"):
                        with contextlib.suppress(ValueError):
                            heard[str(json.loads(line[5:]).get("type"))] += 1
            except OSError:
                stop.wait(0.5)
            finally:
                connection.close()

    def flood(self, stop: threading.Event) -> None:
        spec = self.spec
        hooks = HostileWebhooks()
        bots: list[_OutsideBot] = []
        heard: Counter[str] = Counter()
        streams: list[threading.Thread] = []
        for i in range(spec.outside_bots):
            mode = self.KINDS[i % len(self.KINDS)]
            client = _Client(self.port, _address(BOTS_BLOCK, i))
            name = f"Hostile {mode} {i}"
            status, answer = client.call("POST", "/api/v1/accounts", {"name": name, "kind": "bot"})
            self.tally.add("sign up", status, answer)
            if status != 201:
                continue
            made = json.loads(answer)
            if mode == "stream":
                streams.append(threading.Thread(
                    target=self._hold_stream, args=(i, made["key"], stop, heard), daemon=True
                ))  # fmt: skip
            else:
                status, answer = client.call(
                    "PUT", f"/api/v1/accounts/{made['id']}/webhook", {"url": hooks.url(mode)},
                    account=made["key"],
                )  # fmt: skip
                self.tally.add("webhook", status, answer)
            bots.append(_OutsideBot(
                client, threading.Lock(), made["id"], made["key"], name, mode != "stream"
            ))  # fmt: skip
        for thread in streams:
            thread.start()
        seated = itertools.count()
        taken: Counter[str] = Counter()

        def host(index: int) -> Callable[[], None]:
            def run() -> None:
                client = _Client(self.port, _address(BOTS_BLOCK, 1000 + index))
                body = {
                    "players": [{"name": f"Host {index}"}, {"open": True},
                                {"name": "Bot", "bot": LEVEL}, {"name": "Bot 2", "bot": LEVEL}],
                    "rules": {"schedule": "classic"},
                }  # fmt: skip
                # Spread over the flood's first half (at most the create limit's pace), so
                # that the games are all sitting at once for its second.
                half = spec.seconds / 2
                every = max(CREATE_EVERY, half * spec.outside_hosts / spec.outside_games)

                def once() -> None:
                    if not bots or sum(taken.values()) >= spec.outside_games:
                        return
                    made = self.create(client, "create", body)[1]
                    if made is None:
                        return  # rate-limited: its window may open again
                    bot = bots[next(seated) % len(bots)]
                    with bot.lock:  # one connection per bot account, shared by the hosts
                        status, joined = bot.client.call(
                            "POST", f"/api/v1/tables/{made['table_code']}/seats",
                            {"name": bot.name}, account=bot.key,
                        )  # fmt: skip
                    self.tally.add("bot joins", status, joined)
                    if status != 201:
                        # Not an outside bot's game: the host's table goes.
                        status, gone = client.call(
                            "DELETE", f"/api/v1/games/{made['id']}", token=made["host_token"]
                        )
                        self.tally.add("delete unjoined", status, gone)
                        return
                    with self.lock:
                        taken[bot.name] += 1
                    # Full, so started: the host leaves and the stand-in plays its seat.
                    status, left = client.call(
                        "POST", f"/api/v1/games/{made['id']}/seats/0/leave",
                        token=made["seats"][0]["token"],
                    )  # fmt: skip
                    self.tally.add("host leaves", status, left)

                _paced(every, stop, once)
                client.close()

            return run

        def resumer() -> None:
            while not stop.wait(2.0):
                for bot in (b for b in bots if b.hooked):
                    with bot.lock:
                        status, answer = bot.client.call(
                            "POST", f"/api/v1/accounts/{bot.id}/webhook/resume",
                            account=bot.key,
                        )  # fmt: skip
                    self.tally.add("resume", status, answer)

        threads = _threads([host(i) for i in range(spec.outside_hosts)] + [resumer])
        for thread in threads:
            thread.join()
        hooks.close()
        for bot in bots:
            bot.client.close()
        self.notes.append(
            f"bot accounts: {len(bots)}, in turn webhooks {', '.join(HostileWebhooks.MODES)} and "
            "a stream bot that never moves; "
            f"seats taken: {sum(taken.values())} ("
            + ", ".join(f"{name} {n}" for name, n in sorted(taken.items()))
            + ")"
        )
        for thread in streams:
            thread.join(1.0)  # daemons: one still waiting on its stream goes with the process
        self.notes.append(
            "stream bots' events heard: "
            + (", ".join(f"{k} {n}" for k, n in sorted(heard.items())) or "none")
        )
        self.notes.append(
            "webhook calls received: "
            + (", ".join(f"{m} {n}" for m, n in sorted(hooks.calls.items())) or "none")
        )


FLOODS: dict[str, type[_Flood]] = {
    f.scenario: f for f in (LeaveSpam, LobbyFlood, HeavyBots, OutsideBots)
}


def _hostile(port: int, scenario: str, spec: TablesSpec, pipe: Connection) -> None:
    """The hostile process: says "ready", floods from "go" until "stop", then sends its
    `FloodReport`, deletes what it made and sends what the deletes were answered."""
    flood = FLOODS[scenario](port, spec)
    pipe.send("ready")
    if pipe.recv() != "go":
        return
    stop = threading.Event()
    thread = threading.Thread(target=flood.run, args=(stop,), daemon=True)
    thread.start()
    pipe.recv()
    stop.set()
    thread.join()
    pipe.send(flood.report())
    pipe.send(flood.clean_up())


# -- the unrelated person -------------------------------------------------------------------


@dataclass
class Figures:
    """The person's samples in one phase (seconds), and the machine's load at its end."""

    move: list[float] = field(default_factory=list)
    bot: list[float] = field(default_factory=list)
    load: float = 0.0
    seconds: float = 0.0
    #: CPU seconds each part used in the phase (`_CpuMeter`).
    cpu: dict[str, float] = field(default_factory=dict)


class _Person:
    """The unrelated person: plays games one after another from its own address in a
    thread, sampling into the phase the conductor sets (`clock.phase`); the conductor
    pauses it at its turn between phases and at the end."""

    def __init__(self, port: int, spec: TablesSpec) -> None:
        self.port = port
        self.spec = spec
        self.clock = _Clock()
        self.figures: dict[str, Figures] = {}
        self.statuses: Counter[str] = Counter()
        self.errors: list[str] = []
        self.games = self.moves = self.events = 0
        #: The game being played and its log so far.
        self.game: tuple[str, EventLog] | None = None
        self.state = threading.Condition()
        self.moving = True
        self.at_turn = False
        self.thread = threading.Thread(target=self._run, daemon=True)

    # -- the conductor's side

    def start(self) -> None:
        self.thread.start()

    def enter(self, phase: str | None) -> None:
        """Sample into `phase` from now (None: nowhere)."""
        if phase is not None:
            self.figures.setdefault(phase, Figures())
        self.clock.phase = phase

    def samples(self, phase: str) -> int:
        with self.state:
            figures = self.figures[phase]
            return min(len(figures.move), len(figures.bot))

    @property
    def failed(self) -> bool:
        return bool(self.errors) or not self.thread.is_alive()

    def pause(self, timeout: float) -> bool:
        """Stop moving, and wait until the bots have played up to the person's turn;
        whether they did within `timeout`."""
        with self.state:
            self.moving = False
            return self.state.wait_for(lambda: self.at_turn or self.failed, timeout) and (
                self.at_turn
            )

    def resume(self) -> None:
        with self.state:
            self.moving = True
            self.state.notify_all()

    def stop(self) -> None:
        self.clock.stop.set()
        with self.state:
            self.state.notify_all()
        self.thread.join(REQUEST_TIMEOUT)

    # -- its thread

    def _add(self, kind: str, seconds: float, began: str | None, ended: str | None) -> None:
        """A sample of `kind` whose start and end fell in phases `began` and `ended`: kept
        when both are the same phase."""
        if began is None or began != ended:
            return
        with self.state:
            figures = self.figures[began]
            (figures.move if kind == "move" else figures.bot).append(seconds)

    def _request(self, method: str, path: str, body: Any = None,
                 headers: dict[str, str] | None = None) -> tuple[int, Any]:  # fmt: skip
        status, answer = _request(self.port, PERSON_ADDRESS, method, path, body, headers)
        self.statuses[str(status)] += 1
        return status, answer

    def _run(self) -> None:
        try:
            self._play()
        except (RuntimeError, LogViolation, OSError, http.client.HTTPException, ValueError) as exc:
            self.errors.append(f"{type(exc).__name__}: {exc}")
        finally:
            with self.state:
                self.state.notify_all()

    def _wait_to_move(self) -> bool:
        """At the person's turn: wait `think`, and while paused; False once stopped."""
        with self.state:
            self.at_turn = True
            self.state.notify_all()
        if self.clock.stop.wait(self.spec.think):
            return False
        with self.state:
            self.state.wait_for(lambda: self.moving or self.clock.stop.is_set())
            self.at_turn = False
        return not self.clock.stop.is_set()

    def _play(self) -> None:
        rng = random.Random(self.spec.seed)
        players = [{"name": "You"}] + [{"name": f"Bot {i}", "bot": LEVEL} for i in range(1, 4)]
        rules: dict[str, Any] = {"schedule": "classic"}
        while not self.clock.stop.is_set():
            seed = rng.randrange(1 << 40)
            status, created = self._request(
                "POST", "/api/v1/games", {"players": players, "rules": rules, "seed": seed}
            )
            if status != 201:
                raise RuntimeError(f"create: HTTP {status} {created}")
            game_id = created["id"]
            auth = {"Authorization": f"Bearer {created['seats'][PERSON_SEAT]['token']}"}
            log = EventLog(rules, len(players), seed)
            self.game = (game_id, log)
            moved_at: float | None = None
            moved_in: str | None = None
            bots = 0
            for arrived, event in _events(self.port, PERSON_ADDRESS, game_id, self.clock):
                seat = log.add(event)
                self.events += 1
                if seat is not None and seat != PERSON_SEAT:
                    bots += 1
                if log.settled and log.replica.finished:
                    self.games += 1
                    break
                if not log.settled or log.replica.turn != PERSON_SEAT:
                    continue
                if moved_at is not None and bots:
                    self._add("bot", (arrived - moved_at) / bots, moved_in, self.clock.phase)
                if not self._wait_to_move():
                    return
                action = action_to_wire(rng.choice(log.replica.legal_actions()))
                path, body = ("bids", {"bid": action}) if isinstance(action, int) else (
                    "plays", {"card": action}
                )  # fmt: skip
                began, phase = time.monotonic(), self.clock.phase
                status, answer = self._request(
                    "POST", f"/api/v1/games/{game_id}/{path}", body,
                    {**auth, "If-Match": f'"{log.version}"'},
                )  # fmt: skip
                moved_at, moved_in, bots = time.monotonic(), self.clock.phase, 0
                if status != 200:
                    raise RuntimeError(f"{path} at version {log.version}: HTTP {status} {answer}")
                self._add("move", moved_at - began, phase, moved_in)
                self.moves += 1

    def whole_stream(self) -> str | None:
        """None when the stream carried every event of the game being played (at the
        person's turn), else what is wrong."""
        if self.game is None:
            return "no game was played"
        game_id, log = self.game
        status, events = self._request("GET", f"/api/v1/games/{game_id}/events")
        if status != 200:
            return f"reading the events answered {status}"
        if [e["seq"] for e in events] != [e["seq"] for e in log.events]:
            return f"the stream carried {len(log.events)} of the game's {len(events)} events"
        return None


# -- the run ----------------------------------------------------------------------------------


@dataclass
class ScenarioResult:
    """One scenario: the person's figures in its two phases and what the flood got."""

    scenario: str
    idle: Figures
    flood: Figures
    report: FloodReport | None
    cleaned: dict[str, int] = field(default_factory=dict)
    #: Set when the person's turn did not come back after the flood, within patience.
    stuck: bool = False

    def ratios(self) -> dict[str, float | None]:
        found: dict[str, float | None] = {}
        for kind in ("move", "bot"):
            idle, flood = getattr(self.idle, kind), getattr(self.flood, kind)
            found[kind] = (
                _percentile(flood, 0.99) / _percentile(idle, 0.99) if idle and flood else None
            )
        return found

    @property
    def server_errors(self) -> int:
        return 0 if self.report is None else self.report.server_errors

    @property
    def unanswered(self) -> int:
        return 0 if self.report is None else self.report.unanswered

    @property
    def sound(self) -> bool:
        """No 5xx, nothing unanswered, a report from the flood."""
        return self.report is not None and not self.server_errors and not self.unanswered

    @property
    def target_met(self) -> bool:
        ratios = self.ratios().values()
        return all(r is not None and r <= TARGET_RATIO for r in ratios)


@dataclass
class TablesResult:
    lines: list[str]
    scenarios: list[ScenarioResult]
    #: None when the person's stream carried every event, else what was wrong.
    stream: str | None
    person_errors: list[str]
    #: The person's answers that were 5xx.
    person_server_errors: int

    @property
    def sound(self) -> bool:
        """Every request answered, none 5xx, the person's stream whole, no error."""
        return (
            all(s.sound for s in self.scenarios) and self.stream is None
            and not self.person_errors and not self.person_server_errors
        )  # fmt: skip

    @property
    def ok(self) -> bool:
        return self.sound and all(s.target_met for s in self.scenarios)


def _serve_env() -> dict[str, str]:
    """`pocha serve`'s environment: ours with the shipped rate limits, quiet logs, and
    each socket's address as the client's."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("POCHA_RATE_LIMIT")}
    return {**env, "POCHA_RATE_LIMITS": "on", "POCHA_TRUSTED_PROXIES": "0",
            "POCHA_LOG_LEVEL": "warning", "POCHA_ACCESS_LOG": "",
            # outside-bots' webhooks listen on loopback, which the shipped service refuses.
            "POCHA_BOT_ALLOW_PRIVATE": "1"}  # fmt: skip


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _part(pid: int) -> str:
    """Which part of `pocha serve` a process of its tree is, from its command line."""
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
    except OSError:
        return "gone"
    if any("redis-server" in arg for arg in argv):
        return "Redis"
    if any("gunicorn" in arg for arg in argv):
        return "API"
    if "worker" in argv:
        queues = argv[argv.index("--queues") + 1] if "--queues" in argv[:-1] else ""
        return "reserved worker" if queues == "pocha-turns" else "general worker"
    return "pocha serve"


#: The parts in the order the report gives them.
PARTS = ("API", "general worker", "reserved worker", "Redis", "pocha serve", "griefers",
         "bench (person)")  # fmt: skip


class _CpuMeter:
    """CPU seconds used so far by each part of `pocha serve` (its process tree), by the
    griefers' process and by the bench's own (the person and the conductor), from /proc:
    so that a flood whose clients take the cores the server needs shows it."""

    def __init__(self, serve_pid: int) -> None:
        self.serve_pid = serve_pid
        self.griefers: int | None = None

    def read(self) -> dict[str, float]:
        used: dict[str, float] = {}
        todo = [self.serve_pid]
        while todo:
            pid = todo.pop()
            todo += _children(pid)
            part = _part(pid)
            used[part] = used.get(part, 0.0) + _cpu_seconds(pid)
        if self.griefers is not None:
            used["griefers"] = _cpu_seconds(self.griefers)
        own = os.times()
        used["bench (person)"] = own.user + own.system
        return used


def _cpu_seconds(pid: int) -> float:
    """CPU time (user + system) of a process, from /proc; 0 once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    # utime and stime are fields 14 and 15 of stat; the split starts at field 3.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextmanager
def _stack(spec: TablesSpec) -> Iterator[tuple[int, _CpuMeter]]:
    """`pocha serve` on a free port and a temporary data dir, once its API is ready and
    its shipped workers are alive; the port, and the meter of its CPU."""
    with tempfile.TemporaryDirectory(prefix="pocha-griefers-", dir="/tmp") as tmp:
        port = free_port()
        log_path = Path(tmp) / "serve.log"
        command = [sys.executable, "-m", "cli.main", "serve", "--host", "127.0.0.1",
                   "--port", str(port), "--data-dir", str(Path(tmp) / "data")]  # fmt: skip
        if spec.api_processes is not None:
            command += ["--api-processes", str(spec.api_processes)]
        with log_path.open("wb") as log:
            process = subprocess.Popen(
                command, env=_serve_env(), stdout=log, stderr=subprocess.STDOUT,
                preexec_fn=die_with_parent(),  # nothing outlives a killed bench
            )  # fmt: skip
        try:
            deadline = time.monotonic() + 120
            while not _ready(port, workers=SHIPPED_WORKERS):
                if process.poll() is not None or time.monotonic() > deadline:
                    said = log_path.read_text(errors="replace")[-2000:]
                    raise RuntimeError(f"pocha serve did not start: {said}")
                time.sleep(0.2)
            yield port, _CpuMeter(process.pid)
        finally:
            stop_processes([process], 60)


def _hold(person: _Person, phase: str, spec: TablesSpec, meter: _CpuMeter) -> None:
    """Keep `phase` for `spec.seconds`, and on up to `spec.patience` more while it has
    fewer than `spec.min_samples` of either latency."""
    before = meter.read()
    person.enter(phase)
    began = time.monotonic()
    while not person.failed:
        elapsed = time.monotonic() - began
        if elapsed >= spec.seconds and (
            person.samples(phase) >= spec.min_samples or elapsed >= spec.seconds + spec.patience
        ):
            break
        time.sleep(0.1)
    figures = person.figures[phase]
    figures.seconds = time.monotonic() - began
    figures.load = os.getloadavg()[0]
    after = meter.read()
    figures.cpu = {part: max(0.0, used - before.get(part, 0.0)) for part, used in after.items()}


def _scenario(
    port: int, spec: TablesSpec, scenario: str, person: _Person, meter: _CpuMeter
) -> ScenarioResult:
    context = multiprocessing.get_context("spawn")
    receiver, sender = context.Pipe()
    process = context.Process(target=_hostile, args=(port, scenario, spec, sender), daemon=True)
    process.start()
    meter.griefers = process.pid
    report: FloodReport | None = None
    cleaned: dict[str, int] = {}
    stuck = False
    try:
        if not receiver.poll(90) or receiver.recv() != "ready":
            raise RuntimeError(f"the {scenario} process did not start")
        # The person's turn first, so that nothing left by the last flood is measured.
        stuck = not person.pause(spec.patience)
        person.resume()
        _hold(person, f"{scenario} idle", spec, meter)
        receiver.send("go")
        _hold(person, f"{scenario} flood", spec, meter)
        person.enter(None)
        receiver.send("stop")
        if receiver.poll(REQUEST_TIMEOUT * 2):
            report = receiver.recv()
        if receiver.poll(REQUEST_TIMEOUT * 4):
            cleaned = receiver.recv()
        stuck = stuck or not person.pause(spec.patience)
        person.resume()
    finally:
        person.enter(None)
        process.join(10)
        if process.is_alive():
            process.kill()
    return ScenarioResult(scenario, person.figures.get(f"{scenario} idle", Figures()),
                          person.figures.get(f"{scenario} flood", Figures()), report, cleaned,
                          stuck)  # fmt: skip


def run(spec: TablesSpec, scenarios: Sequence[str] = SCENARIOS) -> TablesResult:
    """Start `pocha serve`, let the person play, run each scenario's idle and flood
    phases in turn, then check the person's stream; the report."""
    unknown = [s for s in scenarios if s not in FLOODS]
    if unknown:
        raise ValueError(f"unknown scenarios {unknown}; the scenarios are {SCENARIOS}")
    results: list[ScenarioResult] = []
    with _stack(spec) as (port, meter):
        person = _Person(port, spec)
        person.start()
        try:
            began = time.monotonic()
            while not person.failed and (
                time.monotonic() - began < WARMUP_SECONDS or person.moves < 1
            ):
                if time.monotonic() - began > WARMUP_SECONDS + spec.patience:
                    break
                time.sleep(0.1)
            for scenario in scenarios:
                if person.failed:
                    break
                results.append(_scenario(port, spec, scenario, person, meter))
            stream = "the person failed" if person.failed else (
                person.whole_stream() if person.pause(spec.patience) else
                f"the person's turn did not come within {spec.patience:g} s"
            )  # fmt: skip
        finally:
            person.stop()
    server_errors = sum(n for status, n in person.statuses.items() if status.startswith("5"))
    result = TablesResult([], results, stream, person.errors, server_errors)
    result.lines = _report(spec, result, person)
    return result


# -- the report ---------------------------------------------------------------------------------


def _ms(values: list[float], fraction: float) -> str:
    return f"{_percentile(values, fraction) * 1000:7.1f} ms" if values else "    none  "


def _latency_line(label: str, idle: list[float], flood: list[float]) -> str:
    ratio = (
        f"{_percentile(flood, 0.99) / _percentile(idle, 0.99):5.2f}x" if idle and flood else "  n/a"
    )
    return (
        f"  {label:<9} idle p50 {_ms(idle, 0.5)} p99 {_ms(idle, 0.99)} (n={len(idle)})   "
        f"flood p50 {_ms(flood, 0.5)} p99 {_ms(flood, 0.99)} (n={len(flood)})   "
        f"p99 {ratio}"
    )


def _cpu_line(label: str, figures: Figures) -> str:
    """The CPU each part used in a phase, against what the machine's cores had."""
    cores = os.cpu_count() or 1
    shown = ", ".join(
        f"{part} {figures.cpu.get(part, 0.0):.1f}" for part in PARTS if part in figures.cpu
    )
    total = sum(figures.cpu.values())
    return (
        f"  cpu {label:<5} (s): {shown}; {total:.1f} of the {cores * figures.seconds:.1f} "
        f"the {cores} cores had"
    )


def _answers_line(kind: str, answers: dict[str, int]) -> str:
    shown = ", ".join(f"{n} {answer}" for answer, n in sorted(answers.items()))
    return f"  {kind}: {sum(answers.values())} sent: {shown}"


def _headline(spec: TablesSpec, scenario: str) -> str:
    if scenario == "leave-spam":
        return (
            f"leave-spam: {spec.griefers} griefer addresses (127.{LEAVE_BLOCK}.x.y), each "
            "with a table of its own and a seat at the next one's, sending leave, leave, "
            "return, return for both seats "
            + (f"{spec.leave_rate:g} times a second" if spec.leave_rate else
               "as fast as the answers come")
        )  # fmt: skip
    if scenario == "heavy-bots":
        return (
            f"heavy-bots: {spec.heavy_addresses} addresses (127.{HEAVY_BLOCK}.x.y) creating "
            "heavy games as fast as the create limit lets them"
        )
    if scenario == "outside-bots":
        return (
            f"outside-bots: {spec.outside_bots} bot accounts (127.{BOTS_BLOCK}.0.x) with hostile "
            f"webhooks on {WEBHOOKS_ADDRESS} or silent event streams, seated at tables "
            f"{spec.outside_hosts} addresses "
            f"(127.{BOTS_BLOCK}.x.y) make, up to {spec.outside_games} games, hosts leaving "
            "at the start; webhooks resumed every 2 s"
        )
    return (
        f"lobby-flood: {spec.lobby_rate:g} GET /api/v1/tables a second from "
        f"{spec.lobby_addresses} addresses (127.{LOBBY_BLOCK}.x.y); listed tables from "
        f"{spec.table_addresses} addresses (127.{TABLES_BLOCK}.x.y), {spec.table_rate:g} a "
        "second each"
    )


def _report(spec: TablesSpec, result: TablesResult, person: _Person) -> list[str]:
    lines = [
        f"tables: pocha serve as shipped ({SHIPPED_WORKERS} bot workers: general and reserved "
        f"for bot turns; rate limits on; POCHA_TRUSTED_PROXIES=0) on {os.cpu_count()} cores "
        "shared with every client",
        f"person ({PERSON_ADDRESS}): you + 3 {LEVEL} bots, moving {spec.think:g} s after its "
        f"turn comes; {spec.seconds:g} s idle then {spec.seconds:g} s of flood per scenario "
        f"(longer until {spec.min_samples} samples, up to {spec.patience:g} s more); target: "
        f"p99 under flood within {TARGET_RATIO:g}x idle",
    ]
    for s in result.scenarios:
        lines.append(_headline(spec, s.scenario))
        lines.append(
            f"  phases: idle {s.idle.seconds:.1f} s (load {s.idle.load:.1f}), flood "
            f"{s.flood.seconds:.1f} s (load {s.flood.load:.1f})"
        )
        lines.append(_latency_line("move", s.idle.move, s.flood.move))
        lines.append(_latency_line("bot turn", s.idle.bot, s.flood.bot))
        lines.append(_cpu_line("idle", s.idle))
        lines.append(_cpu_line("flood", s.flood))
        if s.report is None:
            lines.append("  the flood sent no report")
        else:
            for kind, answers in s.report.answers.items():
                lines.append(_answers_line(kind, answers))
            lines += [f"  {note}" for note in s.report.notes]
        if s.cleaned:
            lines.append(_answers_line("clean-up deletes", s.cleaned))
        if s.stuck:
            lines.append(f"  the person's turn did not come back within {spec.patience:g} s")
        ratios = s.ratios()
        shown = ", ".join(
            f"{kind} {'n/a' if r is None else f'{r:.2f}x'}"
            for kind, r in (("move", ratios["move"]), ("bot turn", ratios["bot"]))
        )
        verdict = "PASS" if s.target_met and s.sound else "FAIL"
        lines.append(
            f"  {verdict}: p99 flood/idle {shown} (target {TARGET_RATIO:g}x); 5xx "
            f"{s.server_errors}, unanswered {s.unanswered}"
        )
    lines.append(
        f"person: {person.games} games finished, {person.moves} moves, {person.events} events "
        f"on its stream; answers {dict(sorted(person.statuses.items()))}"
    )
    lines.append(
        "person's stream: every event of its game, in order"
        if result.stream is None else f"person's stream: {result.stream}"
    )  # fmt: skip
    for error in result.person_errors[:5]:
        lines.append(f"  error: {error}")
    if result.ok:
        lines.append("every scenario within target; no 5xx, nothing unanswered")
    elif result.sound:
        lines.append("TARGET MISSED (no 5xx, nothing unanswered)")
    else:
        lines.append("FAILED: a 5xx, an unanswered request or a broken stream (see above)")
    return lines
