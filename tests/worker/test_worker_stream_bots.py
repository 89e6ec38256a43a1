"""A stream bot through a challenge, with real `pocha worker` processes: a person challenges
a bot account and one of our levels to a rated table; the bot, reading its event stream
(`GET /api/v1/bot/events`) in a thread, accepts and plays each of its turns with its key
until the game ends; the person plays theirs with their own key; the rated result then
shows on the ladder. And the example bot of examples/ does the same over real HTTP, given
its key alone, against gunicorn (its gevent workers) and a `pocha worker`: it declines a
Poch challenge, and when its stream is cut and the service's port closed for a while (a
restart, as a client sees it) it connects again and answers the challenge made meanwhile."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.live import serving
from tests.redis_server import fresh_db_url
from tests.service.helpers import bearer, move
from tests.waiting import LONG, scaled
from tests.worker.conftest import WorkerProcesses, wait_until
from tools.embedded_redis import RedisServer, free_port

#: This module's own logical DB on the session's Redis, for its live service.
STREAM_DB = 13
_EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "stream_bot.py"


def sign_up(client: FlaskClient, name: str, kind: str) -> dict[str, Any]:
    made = client.post("/api/v1/accounts", json={"name": name, "kind": kind})
    assert made.status_code == 201, made.json
    return dict(made.json)


def events(app: Flask, key: str) -> Iterator[dict[str, Any]]:
    """The account's stream, read as a bot reads it: each event's JSON; reconnecting
    whenever the stream ends."""
    while True:
        response = app.test_client().get(
            "/api/v1/bot/events",
            headers={"X-Pocha-Account": key, "Accept": "text/event-stream"},
            buffered=False,
        )
        assert response.status_code == 200, response.get_data()
        try:
            for chunk in response.response:
                for block in chunk.decode().split("\n\n"):
                    for line in block.splitlines():
                        if line.startswith("data: "):
                            yield json.loads(line.removeprefix("data: "))
        finally:
            response.close()


class StreamBot:
    """Plays as the example bot does: accepts every challenge, moves the first legal
    action on each of its turns, stops when its game ends."""

    def __init__(self, app: Flask, key: str) -> None:
        self.app = app
        self.key = key
        self.seen: list[dict[str, Any]] = []
        self.moves = 0
        self.finished = threading.Event()
        self.failure: BaseException | None = None

    def run(self) -> None:
        client = self.app.test_client()
        try:
            for event in events(self.app, self.key):
                self.seen.append(event)
                if event["type"] == "challenge" and event["challenge"]["status"] == "open":
                    url = f"/api/v1/challenges/{event['challenge']['id']}/accept"
                    answer = client.post(url, headers={"X-Pocha-Account": self.key})
                    assert answer.status_code == 200, answer.json
                elif event["type"] == "your_turn":
                    game_id = event["game_id"]
                    view = client.get(f"/api/v1/games/{game_id}", headers=bearer(self.key)).json
                    if view["turn"] != event["seat"]:
                        continue  # told late: the stand-in played it
                    answer = move(client, game_id, self.key, view["you"]["legal"][0])
                    assert answer.status_code in (200, 409), answer.json
                    self.moves += answer.status_code == 200
                elif event["type"] == "game_finished":
                    self.finished.set()
                    return
        except BaseException as exc:  # the test reports it
            self.failure = exc
            self.finished.set()


def test_a_stream_bot_through_a_challenge_reaches_the_ladder(
    app: Flask, client: FlaskClient, workers: WorkerProcesses
) -> None:
    workers.start()
    ana = sign_up(client, "Ana", "person")
    streamy = sign_up(client, "Streamy", "bot")
    bot = StreamBot(app, streamy["key"])
    threading.Thread(target=bot.run, daemon=True).start()
    # The bot is listening before the challenge comes (it would hear it on connecting too).
    wait_until(lambda: bool(app.extensions["pocha_events"].hub._feeds), LONG, "the stream")

    made = client.post(
        "/api/v1/challenges",
        json={"game": "pocha", "rules": {"schedule": [1, 2]}, "rated": True,
              "opponents": [{"account": "Streamy"}, {"bot": "easy"}]},
        headers={"X-Pocha-Account": ana["key"]},
    )  # fmt: skip
    assert made.status_code == 201, made.json
    assert made.json["status"] == "open"
    challenge_url = f"/api/v1/challenges/{made.json['id']}"

    def accepted() -> bool:
        return bool(client.get(challenge_url).json["status"] == "accepted")

    wait_until(accepted, LONG, "the bot to accept")
    game_id = client.get(challenge_url).json["game_id"]

    def ana_or_over() -> bool:
        view = client.get(f"/api/v1/games/{game_id}").json
        return bool(view["phase"] == "finished" or view["turn"] == 0)

    while True:
        wait_until(ana_or_over, LONG, "the others' turns", explain=lambda: repr(bot.seen[-3:]))
        view = client.get(f"/api/v1/games/{game_id}", headers=bearer(ana["key"])).json
        if view["phase"] == "finished":
            break
        assert move(client, game_id, ana["key"], view["you"]["legal"][0]).status_code == 200

    assert bot.finished.wait(scaled(LONG)), "the bot never heard the game end"
    assert bot.failure is None, bot.failure
    types = [e["type"] for e in bot.seen]
    assert types[0] == "challenge" and "game_started" in types and types[-1] == "game_finished"
    # Every bid and card of the bot's seat was its own (no stand-in: no clock ran out).
    played = client.get(f"/api/v1/games/{game_id}/events").json
    its_moves = [e for e in played if e["type"] in ("bid", "card_played") and e["seat"] == 1]
    assert bot.moves == len(its_moves) >= (1 + 1) + (1 + 2)
    assert all("by" not in e for e in its_moves)
    view = client.get(f"/api/v1/games/{game_id}").json
    assert [p.get("account") for p in view["players"]][:2] == [ana["id"], streamy["id"]]

    def on_the_ladder() -> bool:
        bots = client.get("/api/v1/ladder", query_string={"kind": "bot"}).json["entries"]
        return any(e["id"] == streamy["id"] and e["games"] == 1 for e in bots)

    wait_until(on_the_ladder, LONG, "the rated game to be counted")


def _http(url: str, method: str = "GET", body: object = None, key: str = "") -> Any:
    headers = {"Content-Type": "application/json"}
    if key:
        headers |= {"X-Pocha-Account": key, "Authorization": f"Bearer {key}"}
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data, headers, method=method)
    with urllib.request.urlopen(request, timeout=scaled(30)) as answer:
        return json.load(answer)


class Cuttable:
    """A TCP forwarder to `target` on a port of its own, whose connections can all be cut
    and its port closed until `open` again: a service restarting, as its clients see it."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.port = free_port()
        self.links: list[socket.socket] = []
        self.lock = threading.Lock()
        self.listener: socket.socket | None = None
        self.open()

    def open(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(16)
        self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
                server = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                return  # cut
            with self.lock:
                self.links += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        if self.listener is not None:
            with contextlib.suppress(OSError):
                self.listener.shutdown(socket.SHUT_RDWR)  # wakes its accept()
            self.listener.close()
            self.listener = None
        with self.lock:
            links, self.links = self.links, []
        for link in links:
            with contextlib.suppress(OSError):
                link.shutdown(socket.SHUT_RDWR)
            link.close()


def test_the_example_stream_bot_plays_a_challenge_over_http(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    with serving(fresh_db_url(redis_server, STREAM_DB), tmp_path, POCHA_RATE_LIMITS="off") as live:
        api = f"{live.url}/api/v1"
        ana = _http(f"{api}/accounts", "POST", {"name": "Ana", "kind": "person"})
        robo = _http(f"{api}/accounts", "POST", {"name": "Example", "kind": "bot"})
        log = (tmp_path / "example.log").open("wb")

        def said() -> str:
            return (tmp_path / "example.log").read_text()

        # Its key alone: the example asks the service whose key it is (`GET /api/v1/account`).
        given = {k: v for k, v in os.environ.items() if k != "POCHA_ACCOUNT"}
        line = Cuttable(int(live.url.rsplit(":", 1)[1]))
        example = subprocess.Popen(
            [sys.executable, str(_EXAMPLE), f"http://127.0.0.1:{line.port}"],
            env={**given, "POCHA_KEY": robo["key"]},
            stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            # Its account's own challenge is said on its stream too: not one for it to answer.
            its_own = {"opponents": [{"account": ana["id"]}, {"bot": "easy"}]}
            _http(f"{api}/challenges", "POST", its_own, key=robo["key"])
            # A game it does not play is declined.
            poch = _http(
                f"{api}/challenges", "POST",
                {"game": "poch", "opponents": [{"account": robo["id"]}, {"bot": "easy"}]},
                key=ana["key"],
            )  # fmt: skip
            url = f"{api}/challenges/{poch['id']}"
            wait_until(lambda: _http(url)["status"] == "declined", LONG, "Poch declined",
                       explain=said)  # fmt: skip
            # The service away: its stream cut, its port closed. A challenge made meanwhile
            # is said on the stream it makes once the port is open again.
            line.cut()
            wait_until(lambda: "no stream (" in said(), LONG, "the example to find no service")
            made = _http(
                f"{api}/challenges", "POST",
                {"rules": {"schedule": [1, 2], "turn_seconds": 0},
                 "opponents": [{"account": robo["id"]}, {"bot": "easy"}]},
                key=ana["key"],
            )  # fmt: skip
            line.open()
            url = f"{api}/challenges/{made['id']}"
            wait_until(lambda: _http(url)["status"] == "accepted", LONG, "the example to accept",
                       explain=said)  # fmt: skip
            game = f"{api}/games/{_http(url)['game_id']}"

            def ana_or_over() -> bool:
                view = _http(game)
                return bool(view["phase"] == "finished" or view["turn"] == 0)

            while True:
                wait_until(ana_or_over, LONG, "the others' turns",
                           explain=lambda: (tmp_path / "example.log").read_text())  # fmt: skip
                view = _http(game, key=ana["key"])
                if view["phase"] == "finished":
                    break
                action = view["you"]["legal"][0]
                path, field = ("bids", "bid") if isinstance(action, int) else ("plays", "card")
                _http(f"{game}/{path}", "POST", {field: action}, key=ana["key"])
            played = _http(f"{game}/events")
            its = [e for e in played if e["type"] in ("bid", "card_played") and e["seat"] == 1]
            assert len(its) >= (1 + 1) + (1 + 2) and all("by" not in e for e in its)
            assert example.poll() is None, said()
            # Nothing refused (a refusal is printed): no challenge of its own answered, no
            # move sent out of turn; only the stream it could not have while cut.
            assert all(s.startswith("no stream (") for s in said().splitlines()), said()
        finally:
            example.kill()
            example.wait(timeout=scaled(30))
            line.cut()
