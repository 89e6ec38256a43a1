"""`pocha serve`'s console as a person at a terminal sees it: the real command on a
pseudo-terminal, its output read as the terminal shows it. By default there it says what
starts, where to open the game, what died and came back and how to stop, in a few human
lines, and nothing of the JSON lines the API and the workers write for log collectors;
`--log json` brings those back.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import pty
import signal
import socket
import subprocess
import tempfile
import termios
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.resilience.conftest import POCHA, check_finished, create, play_turns, ready
from tests.resilience.test_serve_supervision import child
from tests.waiting import LONG, scaled, wait_until
from tools.embedded_redis import free_port

#: Ctrl-C as the terminal's keyboard sends it.
CTRL_C = b"\x03"


def _take_the_terminal() -> None:
    # The pty becomes the controlling terminal of the new session, so that its Ctrl-C
    # reaches `pocha serve` as a person's would.
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Console:
    """`pocha serve` on a pseudo-terminal: what it has shown, and keys typed at it."""

    def __init__(self, port: int, data: Path, *options: str) -> None:
        leader, follower = pty.openpty()
        env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "POCHA_LOG_LEVEL")}
        self.process = subprocess.Popen(
            [str(POCHA), "serve", "--port", str(port), "--data-dir", str(data),
             "--api-processes", "1", *options],
            stdin=follower,
            stdout=follower,
            stderr=follower,
            env=env,
            start_new_session=True,
            preexec_fn=_take_the_terminal,
        )  # fmt: skip
        os.close(follower)
        self.leader = leader
        self.shown = bytearray()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.leader, 4096)
            except OSError:  # EIO: every process let go of the terminal
                return
            if not chunk:
                return
            self.shown += chunk

    @property
    def text(self) -> str:
        # The terminal echoes Ctrl-C as ^C, as it does to a person.
        shown = bytes(self.shown).decode(errors="replace")
        return shown.replace("\r\n", "\n").replace("^C", "")

    @property
    def lines(self) -> list[str]:
        return [line for line in self.text.splitlines() if line.strip()]

    def type(self, keys: bytes) -> None:
        os.write(self.leader, keys)

    def close(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=scaled(LONG))
        self.reader.join(timeout=scaled(LONG))
        os.close(self.leader)

    def read_to_the_end(self) -> None:
        """Wait until the reader has all the terminal showed: every process let go of it
        (`pocha serve`'s parts may end a moment after it does)."""
        self.reader.join(timeout=scaled(LONG))
        assert not self.reader.is_alive(), f"the terminal is still held:\n{self.text[-3000:]}"


@pytest.fixture
def data() -> Iterator[Path]:
    # A short path, so that Redis listens on a unix socket in the data dir.
    with tempfile.TemporaryDirectory(prefix="pocha-", dir="/tmp") as short:
        yield Path(short) / "data"


@contextlib.contextmanager
def serving(port: int, data: Path, *options: str) -> Iterator[Console]:
    console = Console(port, data, *options)
    try:
        wait_until(lambda: ready(port), LONG, "pocha serve to answer",
                   explain=lambda: console.text[-3000:])  # fmt: skip
        yield console
    finally:
        console.close()


def test_at_a_terminal_the_console_is_a_few_human_lines(data: Path) -> None:
    port = free_port()
    with serving(port, data) as console:
        wait_until(lambda: "Ctrl-C" in console.text, LONG, "the ready lines",
                   explain=lambda: console.text)  # fmt: skip
        # Requests and bot jobs, each a JSON line in production, show nothing here.
        table = create(port, [None, "easy", "easy"], [2, 2], seed=11)
        play_turns([port], table)
        check_finished(port, table)
        # A part that dies is said, and so is its return.
        os.kill(child(console.process, "pocha-turns,pocha-high"), signal.SIGKILL)
        wait_until(lambda: "the bot worker is running again" in console.text, LONG,
                   "the bot worker back", explain=lambda: console.text)  # fmt: skip
        console.type(CTRL_C)
        assert console.process.wait(timeout=scaled(LONG)) == 0, console.text
        console.read_to_the_end()
        lines = console.lines
        assert f"pocha: open http://localhost:{port}/ here" in lines[1], lines
        assert "pocha: the bot worker killed by SIGKILL" in console.text
        assert lines[-1] == "pocha: stopping", lines
        assert not [line for line in lines if line.lstrip().startswith("{")], lines
        assert len(lines) <= 8, lines


def test_log_json_gives_the_json_lines_at_a_terminal_too(data: Path) -> None:
    port = free_port()
    with serving(port, data, "--log", "json") as console:
        table = create(port, [None, "easy", "easy"], [1], seed=12)
        play_turns([port], table)

        def logged() -> list[dict[str, object]]:
            return [json.loads(line) for line in console.lines if line.startswith("{")]

        wait_until(lambda: any(e["logger"] == "service.request" for e in logged()), LONG,
                   "a request's JSON line", explain=lambda: console.text[-3000:])  # fmt: skip
        assert any(e["logger"] == "rq.worker" for e in logged())
        # Said once the API answers, which the JSON lines of its requests may come before.
        opened = f"pocha: open http://localhost:{port}/ here"
        wait_until(lambda: opened in console.text, LONG, "the line to open the page",
                   explain=lambda: console.text[-3000:])  # fmt: skip


def test_a_port_in_use_is_said_at_once_and_nothing_starts(data: Path) -> None:
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        console = Console(port, data)
        try:
            assert console.process.wait(timeout=scaled(LONG)) == 1, console.text
            console.read_to_the_end()
        finally:
            console.close()
    assert f"port {port} is in use by another program" in console.text, console.text
    assert "pocha: open" not in console.text
    assert not (data / "redis.sock").exists()
