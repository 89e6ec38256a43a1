"""`pocha serve`: the whole service on one machine, with nothing else installed, kept alive.
How it works: docs/operating.md, `tools.serve`.
"""

from __future__ import annotations

import contextlib
import fcntl
import http.client
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from types import FrameType

import click

from core.jobs.queues import NAMES, TURNS_ONLY
from core.network import answers, is_loopback, network_address
from tools.embedded_redis import RedisServer, RedisServerError, unix_url
from tools.migrate_keys import migrate
from tools.processes import die_with_parent, stop_processes

# A unix socket path must fit in sun_path (108 bytes); longer data dirs use TCP.
_MAX_SOCKET_PATH = 100
#: The unix socket, in the data dir, that its private Redis listens on.
SOCKET_FILE = "redis.sock"

#: The file in the data dir whose lock says a `pocha serve` owns it (and holds its pid).
LOCK_FILE = "pocha-serve.lock"
#: A child that lived less than this long died young: the next start waits longer.
YOUNG_SECONDS = 30.0
FIRST_BACKOFF_SECONDS = 1.0
MAX_BACKOFF_SECONDS = 30.0
#: After this many young deaths in a row, a child is not started again.
GIVE_UP_AFTER = 5
#: How long each child may take to stop before it is killed (seconds). The API ends its
#: event streams when told to stop and finishes the requests in hand within its grace.
API_STOP_SECONDS = 5.0
WORKER_STOP_SECONDS = 30.0
REDIS_STOP_SECONDS = 10.0
#: How long a new `pocha serve` waits for the children of a dead one to let go of the lock.
LOCK_WAIT_SECONDS = 20.0


def data_path(data_dir: str | os.PathLike[str]) -> Path:
    """The data dir `--data-dir` names, as `pocha serve` and the commands that look for its
    Redis both read it (relative to the directory the command runs in)."""
    return Path(data_dir).resolve()


def redis_socket(data: Path) -> Path | None:
    """Where the private Redis of data dir `data` listens: a unix socket in it, or None
    when that path is too long for one (its Redis then takes a free TCP port)."""
    socket = data / SOCKET_FILE
    return socket if len(str(socket)) <= _MAX_SOCKET_PATH else None


def redis_for(data_dir: Path, pass_fds: tuple[int, ...] = ()) -> RedisServer:
    """The private Redis of a data dir: on a unix socket there when the path allows."""
    socket = redis_socket(data_dir)
    if socket is not None:
        return RedisServer(data_dir / "redis", unix_socket=socket, appendonly=True,
                           pass_fds=pass_fds)  # fmt: skip
    return RedisServer(data_dir / "redis", appendonly=True, pass_fds=pass_fds)


def store_url(data_dir: str | os.PathLike[str]) -> str | None:
    """The address of the Redis a `pocha serve` of `data_dir` keeps on this machine, when
    its socket is there (None otherwise: no `pocha serve` ran there, or its Redis is on
    TCP), for the commands that work on its store beside it."""
    data = data_path(data_dir)
    socket = redis_socket(data)
    if socket is None or not socket.is_socket():
        return None
    return unix_url(socket)


def gunicorn_command(
    host: str, port: int, processes: int | None = None, graceful: int | None = None
) -> list[str]:
    """gunicorn with the shipped settings; `graceful`: seconds a stop waits for the
    requests in hand (`pocha serve` waits little)."""
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "--config",
        "python:service.gunicorn_conf",
        "--bind",
        f"{host}:{port}",
    ]
    if processes is not None:
        command += ["--workers", str(processes)]
    if graceful is not None:
        command += ["--graceful-timeout", str(graceful)]
    return [*command, "service.wsgi:app"]


def worker_command(queues: Sequence[str] = NAMES) -> list[str]:
    """`pocha worker` on `queues`, named on its command line so that `ps` shows its role:
    general (`NAMES`) or reserved for bot turns (`TURNS_ONLY`)."""
    return [sys.executable, "-m", "cli.main", "worker", "--queues", ",".join(queues)]


# -- the data dir's lock ---------------------------------------------------------------


class DataDirInUse(click.ClickException):
    """Another `pocha serve` holds the data dir."""


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@contextlib.contextmanager
def data_dir_lock(data: Path) -> Iterator[int]:
    """Hold the data dir's lock for the life of the block; its file descriptor, for the
    children to inherit. Refuses (`DataDirInUse`) while another `pocha serve` holds it; waits
    a little when the holder is dead and only its children are still stopping."""
    path = data / LOCK_FILE
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = time.monotonic() + LOCK_WAIT_SECONDS
        told = False
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                holder = os.pread(fd, 32, 0).decode(errors="replace").strip()
                if holder.isdigit() and _pid_alive(int(holder)):
                    raise DataDirInUse(
                        f"{data} is in use by another pocha serve (pid {holder}): stop it "
                        "first, or give this one another --data-dir"
                    ) from None
                if time.monotonic() > deadline:
                    raise DataDirInUse(
                        f"{data} is still locked by the processes of a pocha serve that "
                        f"ended (pid {holder or '?'}): stop them, or give another --data-dir"
                    ) from None
                if not told:
                    click.echo("pocha: waiting for the last pocha serve's processes to stop",
                               err=True)  # fmt: skip
                    told = True
                time.sleep(0.2)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield fd
    finally:
        os.close(fd)


# -- supervised children ---------------------------------------------------------------


def _how_it_ended(code: int) -> str:
    if code < 0:
        with contextlib.suppress(ValueError):
            return f"killed by {signal.Signals(-code).name}"
        return f"killed by signal {-code}"
    return f"exited with status {code}"


@dataclass
class Child:
    """One supervised part: how to start it, whether it runs, and its run of young deaths."""

    name: str
    start: Callable[[], object]
    poll: Callable[[], int | None]
    started_at: float = 0.0
    young_deaths: int = 0
    restart_at: float | None = None

    def launch(self) -> None:
        self.start()
        self.started_at = time.monotonic()
        self.restart_at = None


class GaveUp(Exception):
    """A child kept dying young; the message says which and how."""


def check(child: Child, now: float) -> None:
    """Notice a dead child and start it again when its pause is over; `GaveUp` when it has
    died young too often."""
    if child.restart_at is None:
        code = child.poll()
        if code is None:
            return
        lived = now - child.started_at
        child.young_deaths = child.young_deaths + 1 if lived < YOUNG_SECONDS else 1
        how = _how_it_ended(code)
        if child.young_deaths >= GIVE_UP_AFTER:
            raise GaveUp(
                f"the {child.name} {how}, the {child.young_deaths}th time in a row within "
                f"{YOUNG_SECONDS:.0f} s of starting"
            )
        pause = min(MAX_BACKOFF_SECONDS, FIRST_BACKOFF_SECONDS * 2 ** (child.young_deaths - 1))
        click.echo(f"pocha: the {child.name} {how} after {lived:.1f} s; starting it again "
                   f"in {pause:.0f} s", err=True)  # fmt: skip
        child.restart_at = now + pause
        return
    if now >= child.restart_at:
        try:
            child.launch()
        except (RedisServerError, OSError) as exc:
            child.young_deaths += 1
            if child.young_deaths >= GIVE_UP_AFTER:
                raise GaveUp(f"the {child.name} does not start: {exc}") from exc
            click.echo(f"pocha: the {child.name} did not start ({exc}); trying again", err=True)
            child.restart_at = now + MAX_BACKOFF_SECONDS
        else:
            click.echo(f"pocha: the {child.name} is running again", err=True)


class _Process:
    """A child command in its own session, tied to us, holding the data dir's lock."""

    def __init__(self, command: list[str], env: dict[str, str], lock_fd: int) -> None:
        self.command = command
        self.env = env
        self.lock_fd = lock_fd
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            self.command,
            env=self.env,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=die_with_parent(),
            pass_fds=(self.lock_fd,),
        )

    def poll(self) -> int | None:
        return None if self.process is None else self.process.poll()


_stop_asked: list[int] = []


def _ask_to_stop(signum: int, frame: FrameType | None) -> None:
    _stop_asked.append(signum)


def log_form(asked: str | None) -> str:
    """The children's log form: as asked, else `text` when a person watches the console
    (stdout is a terminal) and `json` when it goes anywhere else."""
    if asked is not None:
        return asked
    return "text" if sys.stdout.isatty() else "json"


def children_env(log: str) -> dict[str, str]:
    """The environment of the API and the workers: ours, with nothing pointing at another
    Redis, and their log form; in text form only warnings and errors unless
    `POCHA_LOG_LEVEL` says otherwise (a line per request or bot job would bury the rest)."""
    elsewhere = ("POCHA_QUEUE_REDIS_URL", "POCHA_REDIS_CLUSTER", "POCHA_QUEUE_GROUP")
    env = {k: v for k, v in os.environ.items() if k not in elsewhere}
    env["POCHA_LOG_FORMAT"] = log
    if log == "text" and not env.get("POCHA_LOG_LEVEL"):
        env["POCHA_LOG_LEVEL"] = "warning"
    return env


def addresses(host: str, port: int) -> tuple[str, str | None]:
    """Where to open the game: on this machine, and from another one (None when the API
    listens on loopback only, or this machine has no network address)."""
    if not is_loopback(host):
        return f"http://{_in_url(host)}:{port}/", None
    here = f"http://localhost:{port}/"
    if host not in ("0.0.0.0", "::"):
        return here, None
    found = network_address()
    return here, None if found is None else f"http://{found}:{port}/"


def _in_url(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _parts_line(bot_workers: int, turn_workers: int, data: Path) -> str:
    workers = bot_workers + turn_workers
    return (
        f"pocha: starting Redis, the API and {workers} bot worker{'s' if workers > 1 else ''}; "
        f"the games are kept in {data}"
    )


def _ready_lines(host: str, port: int) -> list[str]:
    here, elsewhere = addresses(host, port)
    if elsewhere is not None:
        where = f"pocha: open {here} here, or {elsewhere} from another machine on your network"
    elif is_loopback(host):
        where = f"pocha: open {here} (this machine only: --host 0.0.0.0 lets others in)"
    else:
        where = f"pocha: open {here}"
    return [where, f"pocha: API docs at {here}api/docs; Ctrl-C stops everything"]


def _knock_at(host: str) -> str:
    """Where to reach a server that listens on `host` from this machine."""
    return {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)


def _api_is_up(host: str, port: int) -> bool:
    """Whether our API answers its health check (not merely something on the port)."""
    connection = http.client.HTTPConnection(_knock_at(host), port, timeout=2)
    try:
        connection.request("GET", "/healthz")
        return connection.getresponse().status == 200
    except (OSError, http.client.HTTPException):
        return False
    finally:
        connection.close()


def serve(
    host: str,
    port: int,
    data_dir: str,
    api_processes: int | None = None,
    bot_workers: int = 1,
    turn_workers: int = 1,
    log: str | None = None,
) -> int:
    """Run Redis, the API, `bot_workers` general workers and `turn_workers` workers reserved
    for bot turns until SIGINT or SIGTERM: 0 then, 1 when a part could not be kept running.
    `log`: the children's log form, `text` or `json` (default: `log_form`)."""
    data = data_path(data_dir)
    data.mkdir(parents=True, exist_ok=True)
    _stop_asked.clear()
    previous = {sig: signal.signal(sig, _ask_to_stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    redis_server: RedisServer | None = None
    api: _Process | None = None
    workers: list[_Process] = []
    try:
        with data_dir_lock(data) as lock_fd:
            if answers(_knock_at(host), port, timeout=1):
                raise click.ClickException(
                    f"port {port} is in use by another program: stop it, or give another --port"
                )
            redis_server = redis_for(data, pass_fds=(lock_fd,))
            env = children_env(log_form(log))
            env.update(REDIS_URL=redis_server.url, POCHA_BOT_RUNNER="rq")
            api = _Process(gunicorn_command(host, port, api_processes, graceful=3), env, lock_fd)
            roles = [
                ("bot worker", NAMES, bot_workers),
                ("bot-turn worker", TURNS_ONLY, turn_workers),
            ]
            children = [
                Child("Redis", partial(_start_store, redis_server), redis_server.poll),
                Child("API", api.start, api.poll),
            ]
            for role, queues, count in roles:
                for i in range(count):
                    process = _Process(worker_command(queues), env, lock_fd)
                    workers.append(process)
                    name = f"{role} {i + 1}" if count > 1 else role
                    children.append(Child(name, process.start, process.poll))
            click.echo(_parts_line(bot_workers, turn_workers, data), err=True)
            for child in children:
                if _stop_asked:
                    break
                child.launch()
            status = 0
            told_ready = False
            try:
                while not _stop_asked:
                    now = time.monotonic()
                    for child in children:
                        check(child, now)
                    if not told_ready and api.poll() is None and _api_is_up(host, port):
                        for line in _ready_lines(host, port):
                            click.echo(line, err=True)
                        told_ready = True
                    time.sleep(0.25)
            except GaveUp as exc:
                click.echo(f"pocha: {exc}; stopping everything", err=True)
                status = 1
            else:
                click.echo("pocha: stopping", err=True)
            _stop_in_order(api, workers, redis_server)
            return status
    except RedisServerError as exc:
        _stop_in_order(api, workers, redis_server)
        raise click.ClickException(f"Redis did not start: {exc}") from exc
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _start_store(redis_server: RedisServer) -> None:
    """Start Redis; a data dir an earlier Pocha wrote gets this version's key names (and its
    games' score sheets stored apart) before the API or a worker reads it (nothing to do on
    later starts)."""
    redis_server.start()
    if redis_server.unix_socket is None:
        # Not on the data dir's socket, where the operator commands look: say where.
        click.echo(
            f"pocha: Redis listens on {redis_server.url} (the data dir's path is too long for "
            "a unix socket): give the operator commands --redis-url with it",
            err=True,
        )
    client = redis_server.client()
    try:
        done = migrate(client)
    finally:
        client.close()
    if done.keys:
        click.echo(f"pocha: renamed {done.keys} keys of an earlier version's store", err=True)
    if done.sheets:
        games = "1 game" if done.sheets == 1 else f"{done.sheets} games"
        click.echo(f"pocha: took the score sheet of {games} out of its state", err=True)


def _stop_in_order(
    api: _Process | None, workers: list[_Process], redis_server: RedisServer | None
) -> None:
    """The API, then the bot workers side by side (each after the job in hand), then Redis."""
    if api is not None:
        stop_processes([api.process], API_STOP_SECONDS)
    stop_processes([w.process for w in workers], WORKER_STOP_SECONDS)
    if redis_server is not None:
        redis_server.stop(REDIS_STOP_SECONDS)
