"""`pocha bench webhook`: what asking a webhook bot adds to a turn, against a bot on
loopback that answers at once: the address checked, the seat's view signed and POSTed on the
pooled client, the answer read and checked legal, and the call counted on the account in
Redis (everything the worker does beyond an ordinary move). How it works: docs/bots-api.md.
"""

from __future__ import annotations

import json
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from core.play.webhooks import Settings, ask
from core.store import accounts, webhooks
from core.store.redises import connect_store
from engine.registry import KINDS
from tools.embedded_redis import RedisServer


class _AtOnce(BaseHTTPRequestHandler):
    """A bot that answers the first legal action as soon as it has read the view."""

    protocol_version = "HTTP/1.1"
    # Headers and body are written apart: without this, Nagle's algorithm holds the body
    # back for the client's delayed ACK (40 ms), which is the bot's delay, not ours.
    disable_nagle_algorithm = True

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        view = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        answer = json.dumps({"action": view["you"]["legal"][0]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)


def _percentile(sorted_ms: list[float], share: float) -> float:
    return sorted_ms[min(len(sorted_ms) - 1, int(share * len(sorted_ms)))]


def run(decisions: int = 2000) -> list[str]:
    """Ask the loopback bot for `decisions` decisions of Pocha games, one at a time; the
    report lines (p50, p99 and the mean of the time each ask took)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _AtOnce)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    settings = Settings(allow_private=True)
    kind = KINDS["pocha"]
    spent: list[float] = []
    try:
        with (
            tempfile.TemporaryDirectory(prefix="pocha-bench-webhook-") as tmp,
            RedisServer(Path(tmp) / "redis") as redis_server,
        ):
            store = connect_store(redis_server.url)
            _key, account = accounts.create(store, "BenchBot", "bot")
            url = f"http://127.0.0.1:{server.server_address[1]}/"
            webhooks.register(store, account.id, url)
            seed = 0
            game = kind.new(kind.rules_from_dict({"players": 4}), seed)
            while len(spent) < decisions:
                if game.finished:
                    seed += 1
                    game = kind.new(kind.rules_from_dict({"players": 4}), seed)
                seat = game.turn
                view = kind.view(game, seat, False)
                started = time.perf_counter()
                action, why = ask(store, account.id, game, seat, view, settings)
                spent.append((time.perf_counter() - started) * 1000)
                if action is None:
                    raise RuntimeError(f"the loopback bot failed: {why}")
                game.apply(seat, action)
            counted = webhooks.get(store, account.id)
    finally:
        server.shutdown()
        server.server_close()
    spent.sort()
    assert counted is not None
    return [
        f"webhook decisions: {len(spent)} (counted on the account: {counted.decisions}, "
        f"failures {counted.failures})",
        f"added per turn: p50 {_percentile(spent, 0.50):.2f} ms, "
        f"p99 {_percentile(spent, 0.99):.2f} ms, mean {sum(spent) / len(spent):.2f} ms",
    ]
