"""`pocha serve` as the supervisor of its parts: one instance per data dir, an orderly and
quiet stop on SIGINT and SIGTERM (also when started in the background), nothing left
behind when it is killed, and a dead Redis, API or bot worker (general or reserved for bot
turns) started again.

Every test runs the real `pocha serve` command and kills its parts with SIGKILL, as a
crash or the kernel's OOM killer would.
"""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.resilience.conftest import Processes, call, check_finished, create, play_turns, ready
from tests.waiting import LONG, scaled, wait_until
from tools.embedded_redis import free_port
from tools.serve import LOCK_FILE, WORKER_STOP_SECONDS

#: What an orderly stop never prints.
NOISE = ("Traceback", "could not connect", "SIGKILL", "Error 111", "Connection refused")


@pytest.fixture
def data() -> Iterator[Path]:
    # A short path, so that Redis listens on a unix socket in the data dir.
    with tempfile.TemporaryDirectory(prefix="pocha-", dir="/tmp") as short:
        yield Path(short) / "data"


def children(pid: int) -> dict[int, str]:
    """The direct children of `pid`: their command lines, by pid."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        # The command name is in parentheses and may hold spaces: the ppid follows it.
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == pid:
            found[int(entry)] = cmdline.decode(errors="replace")
    return found


def child(serve: subprocess.Popen[bytes], part: str) -> int:
    """The pid of `pocha serve`'s child whose command line holds `part`."""
    matches = [pid for pid, cmd in children(serve.pid).items() if part in cmd]
    assert len(matches) == 1, children(serve.pid)
    return matches[0]


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie has exited: only its parent's wait is missing.
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"


def stops_cleanly(serve: subprocess.Popen[bytes], sig: int, processes: Processes) -> float:
    """Send `sig`; assert the stop is quiet and leaves no part running; its duration."""
    parts = list(children(serve.pid))
    # Redis, gunicorn, a general bot worker and one reserved for bot turns.
    assert len(parts) == 4, children(serve.pid)
    started = time.monotonic()
    serve.send_signal(sig)
    status = serve.wait(timeout=scaled(LONG))
    assert status == 0, processes.log(serve_name(serve, processes))[-3000:]
    took = time.monotonic() - started
    log = processes.log(serve_name(serve, processes))
    assert "pocha: stopping" in log
    for noise in NOISE:
        assert noise not in log, log[-3000:]
    wait_until(lambda: not any(alive(pid) for pid in parts), LONG, "every part to be gone")
    return took


def serve_name(serve: subprocess.Popen[bytes], processes: Processes) -> str:
    return next(name for name, process in processes.started if process is serve)


def test_a_second_serve_on_the_same_data_dir_refuses_and_leaves_the_first_alone(
    data: Path, processes: Processes
) -> None:
    port = free_port()
    first = processes.serve(port, data)
    second = processes.serve(free_port(), data, name="second", wait=False)
    assert second.wait(timeout=scaled(LONG)) == 1
    said = processes.log("second")
    assert f"in use by another pocha serve (pid {first.pid})" in said, said
    # The first one's Redis socket and lock are untouched, and it serves on.
    assert (data / "redis.sock").exists()
    assert (data / LOCK_FILE).read_text().strip() == str(first.pid)
    people = create(port, [None, None, None], [1, 1], seed=3)
    play_turns([port], people)
    check_finished(port, people)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["sigint", "sigterm"])
def test_a_stop_goes_in_order_quietly_and_in_seconds(
    data: Path, processes: Processes, sig: int
) -> None:
    port = free_port()
    serve = processes.serve(port, data)
    # Bots at work while it stops: the worker finishes the job in hand.
    create(port, [None, "easy", "easy", "easy"], [3, 3], seed=5)
    took = stops_cleanly(serve, sig, processes)
    # Seconds, with room for a loaded machine, yet short of the 30 s after which pocha serve
    # kills a worker that has not stopped.
    assert took < WORKER_STOP_SECONDS - 5, took


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["sigint", "sigterm"])
def test_a_serve_started_in_the_background_stops_on_sigint_and_sigterm(
    data: Path, processes: Processes, sig: int
) -> None:
    serve = processes.serve(free_port(), data, ignore_sigint=True)
    stops_cleanly(serve, sig, processes)


def test_killing_serve_leaves_nothing_behind_and_the_next_serve_starts(
    data: Path, processes: Processes
) -> None:
    port = free_port()
    serve = processes.serve(port, data)
    people = create(port, [None, None, None], [1, 1], seed=7)
    parts = list(children(serve.pid))
    serve.kill()
    serve.wait()
    wait_until(lambda: not any(alive(pid) for pid in parts), LONG, "every part to die with it")
    wait_until(lambda: not ready(port), LONG, "the port to be free")
    processes.serve(port, data, name="serve-again")
    play_turns([port], people)
    check_finished(port, people)


@pytest.mark.parametrize(
    ("part", "name"),
    [
        ("redis-server", "Redis"),
        ("gunicorn", "API"),
        ("worker --queues pocha-turns,pocha-high,pocha-low", "bot worker"),
        # The command line ends with the queue (children() writes its NULs as spaces).
        ("worker --queues pocha-turns ", "bot-turn worker"),
    ],
    ids=["redis", "api", "worker", "turn-worker"],
)
def test_a_killed_part_is_started_again(
    data: Path, processes: Processes, part: str, name: str
) -> None:
    port = free_port()
    serve = processes.serve(port, data)
    versus = create(port, [None, "easy", "easy"], [1, 1], seed=11)
    os.kill(child(serve, part), signal.SIGKILL)
    wait_until(
        lambda: f"the {name} is running again" in processes.log("serve"),
        LONG,
        f"the {name} back",
    )
    wait_until(lambda: ready(port), LONG, "the service ready again")
    assert serve.poll() is None
    # The game goes on: its bots play (the worker) and its person's moves are taken.
    play_turns([port], versus)
    check_finished(port, versus)
    assert f"the {name} killed by SIGKILL" in processes.log("serve")
    assert call(port, "GET", "/healthz").status == 200
