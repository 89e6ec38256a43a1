"""The terminal game when the service goes away in the middle of a game and comes back (a
`pocha serve` restarted, the network): the terminal says so in words, waits, and plays the
game on to its end. The fault is real: a TCP relay in front of the live service closes its
port (connections refused) and opens it again."""

from __future__ import annotations

import re
import socket
import threading
from urllib.parse import urlsplit

from rich.console import Console

from client.api import PochaClient
from client.terminal import TerminalGame
from tests.live import LiveService
from tools.embedded_redis import free_port


class Relay:
    """The live service on a port of its own, that can stop answering (its port closed,
    every connection through it cut) and answer again on the same port."""

    def __init__(self, upstream: int) -> None:
        self.upstream = upstream
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.listener: socket.socket | None = None
        self.open: list[socket.socket] = []
        self.lock = threading.Lock()

    def start(self) -> None:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(16)
        self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def stop(self) -> None:
        assert self.listener is not None
        # Shut down first: a close alone leaves the thread blocked in accept() holding the
        # port open, taking connections still.
        self.listener.shutdown(socket.SHUT_RDWR)
        self.listener.close()
        self.listener = None
        with self.lock:
            for sock in self.open:
                sock.close()
            self.open.clear()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                near, _ = listener.accept()
            except OSError:  # the port was closed
                return
            far = socket.create_connection(("127.0.0.1", self.upstream))
            with self.lock:
                self.open += [near, far]
            for source, sink in ((near, far), (far, near)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while chunk := source.recv(65536):
                sink.sendall(chunk)
            sink.shutdown(socket.SHUT_WR)
        except OSError:
            pass


def test_a_service_that_stops_answering_mid_game_is_waited_for(
    live_service: LiveService,
) -> None:
    """At Ana's first prompt the service goes away; her bid finds nothing there. The
    terminal says why in words and looks again; once the service is back, the bid is asked
    again and the game is played to its end."""
    relay = Relay(int(urlsplit(live_service.url).port or 0))
    relay.start()
    prompts: list[str] = []
    looks_while_gone = 0

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        if len(prompts) == 1:
            relay.stop()  # gone while Ana thinks
        options = re.search(r"\[([\d/]+)\]", prompt)
        return options.group(1).split("/")[0] if options else "1"

    def line(_timeout: float) -> str | None:
        nonlocal looks_while_gone
        looks_while_gone += 1
        if looks_while_gone == 2:
            relay.start()  # back
        return None

    console = Console(record=True, width=140, no_color=True)
    game = TerminalGame(PochaClient(relay.url), console, ask, line)
    game.start("Ana", 3, "random", {"schedule": [1]})
    try:
        assert game.run() == 0
    finally:
        if relay.listener is not None:
            relay.stop()
    shown = " ".join(console.export_text().split())  # the sentences, unwrapped
    assert (
        f"The service at {relay.url} does not answer: nothing answers at that address. The "
        "game is kept there; this terminal tries again every few seconds (q to leave)."
    ) in shown
    assert "The service answers again: the game goes on." in shown
    assert looks_while_gone >= 2
    # The bid that found nothing is asked for again, then the card.
    assert [p.startswith("Your bid") for p in prompts[:2]] == [True, True], prompts
    assert re.search(r"Game over\. Winners?: .+\.", shown)
