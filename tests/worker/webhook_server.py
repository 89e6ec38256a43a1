"""A tiny webhook bot the tests start on loopback, in a thread: it answers as it is told
(`behaviour`): the first legal action (checking the signature with `examples/webhook_bot`'s
own check), or one of the hostile answers a webhook may give. Each call's body is held to
the document's `WebhookCall`."""

from __future__ import annotations

import importlib.util
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from tests.contract import Contract

#: How often a dripping bot sends a byte (seconds): well within a call's 1 s deadline, so
#: that no single read times out and only the deadline of the whole call can cut it.
DRIP = 0.25
_EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "webhook_bot.py"
#: The document, which says what a webhook is called with (`WebhookCall`).
CONTRACT = Contract.load()


def example_bot() -> Any:
    """The example bot's module (examples/ is no package)."""
    spec = importlib.util.spec_from_file_location("webhook_bot_example", _EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class WebhookBot:
    """The server and what it saw: each call's body, headers and whether it verified."""

    def __init__(self) -> None:
        self.behaviour = "legal"
        self.secret = ""
        self.calls: list[dict[str, Any]] = []
        self.released = threading.Event()
        self.verify = example_bot().verified
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/move"

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        bot = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                headers = dict(self.headers.items())
                ok = bot.verify(
                    bot.secret,
                    headers.get("X-Pocha-Timestamp", ""),
                    body,
                    headers.get("X-Pocha-Signature", ""),
                )
                view = json.loads(body)
                # Held to the document's `WebhookCall` once the server stops (`webhook_bot`).
                problems = CONTRACT.component_problems("WebhookCall", view)
                bot.calls.append(
                    {"body": view, "headers": headers, "verified": ok, "problems": problems}
                )
                getattr(self, "answer_" + bot.behaviour)(json.loads(body))

            def _send(self, status: int, payload: bytes, **headers: str) -> None:
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name.replace("_", "-"), value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def answer_legal(self, view: dict[str, Any]) -> None:
                self._send(200, json.dumps({"action": view["you"]["legal"][0]}).encode())

            def answer_illegal(self, view: dict[str, Any]) -> None:
                self._send(200, b'{"action": 9999}')

            def answer_bad_json(self, view: dict[str, Any]) -> None:
                self._send(200, b'{"action": ')

            def answer_redirect(self, view: dict[str, Any]) -> None:
                self._send(302, b"", Location="http://127.0.0.1:1/")

            def answer_error(self, view: dict[str, Any]) -> None:
                self._send(500, b"{}")

            def answer_silent(self, view: dict[str, Any]) -> None:
                bot.released.wait()

            def answer_drip(self, view: dict[str, Any]) -> None:
                self.send_response(200)
                self.send_header("Content-Length", "100")
                self.end_headers()
                # A byte at a time, until the caller hangs up or the test ends.
                while not bot.released.wait(DRIP):
                    try:
                        self.wfile.write(b" ")
                        self.wfile.flush()
                    except OSError:
                        return

            def answer_drip_status(self, view: dict[str, Any]) -> None:
                # Even the status line comes a byte at a time, each sooner than any one read's
                # timeout, so only the whole call's deadline can end it.
                # A whole, legal answer: a per-read timeout alone would take it in the end.
                answer = json.dumps({"action": view["you"]["legal"][0]}).encode()
                head = f"HTTP/1.1 200 OK\r\nContent-Length: {len(answer)}\r\n\r\n".encode()
                for byte in head + answer:
                    if bot.released.wait(DRIP):
                        return
                    try:
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                    except OSError:
                        return

            def answer_huge(self, view: dict[str, Any]) -> None:
                # 100 MB, no length announced: only reading it would tell how long it is.
                self.send_response(200)
                self.send_header("Connection", "close")
                self.end_headers()
                piece = b"x" * 65536
                try:
                    for _ in range(100 * 16):
                        self.wfile.write(piece)
                except OSError:
                    return

        return Handler


@contextmanager
def webhook_bot() -> Iterator[WebhookBot]:
    bot = WebhookBot()
    thread = threading.Thread(target=bot.server.serve_forever, daemon=True)
    thread.start()
    try:
        yield bot
    finally:
        bot.released.set()
        bot.server.shutdown()
        bot.server.server_close()
    # Every call as the registration's callback documents it (not on a test's failure).
    assert [call["problems"] for call in bot.calls if call["problems"]] == []
