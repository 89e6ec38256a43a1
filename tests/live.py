"""The real service over real HTTP, as `pocha serve` runs it, for the tests of what only
knows it by its URL (the clients, the web page, the docs' snippets): the `live_service`
fixture, registered by tests/conftest.py for every test.

One gunicorn (the shipped config, one process) and one `pocha worker` subprocess share a
logical DB of the session's private Redis, for the whole session, and bots think on the
worker, as they do under `pocha serve`. A test that fails shows the ends of their logs.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import signal
import subprocess
import sys
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.redis_server import fresh_db_url
from tests.waiting import LONG, scaled, wait_until
from tools.embedded_redis import RedisServer, free_port
from tools.serve import gunicorn_command

POCHA = Path(sys.executable).with_name("pocha")

#: The clients' own logical DB on the session's Redis (the `redis_url` fixture uses DB 1
#: and flushes it per test; the service here lives for the session).
CLIENTS_DB = 5


@dataclass(frozen=True)
class LiveService:
    url: str
    redis_url: str
    logs: Path


def _ready(port: int) -> bool:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=scaled(10))
    try:
        connection.request("GET", "/readyz")
        return connection.getresponse().status == 200
    except OSError:
        return False
    finally:
        connection.close()


def _tail(path: Path, lines: int = 40) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError as exc:
        return f"({exc})"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, Any, None]:
    # A client test that fails (often on a browser's wait) shows what the service and the
    # page were doing then: the ends of the service's logs and each tab's own account.
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed:
        return
    funcargs = getattr(item, "funcargs", {})
    for value in funcargs.values():
        account = getattr(value, "account", None)
        if callable(account):
            report.sections.append((f"tab {getattr(value, 'name', '')}", account()))
    service = funcargs.get("live_service")
    if isinstance(service, LiveService):
        for name in ("api", "worker"):
            report.sections.append((f"{name}.log (end)", _tail(service.logs / f"{name}.log")))


@pytest.fixture(scope="session")
def live_service(
    redis_server: RedisServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveService]:
    with serving(
        fresh_db_url(redis_server, CLIENTS_DB),
        tmp_path_factory.mktemp("live-service"),
        # The clients' tests find and join tables from one address, more than a person
        # would in a minute (30 by default); the limit itself is the API's tests' business.
        POCHA_RATE_LIMIT_TABLES="600/minute",
    ) as service:
        yield service


@contextlib.contextmanager
def serving(
    redis_url: str, logs: Path, cwd: Path | None = None, **settings: str
) -> Iterator[LiveService]:
    """One gunicorn and one `pocha worker` on `redis_url`, with `settings` (environment
    variables) over the service's own, up until the block ends; both run in `cwd` (by
    default the tests' own directory)."""
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "POCHA_BOT_RUNNER": "rq",
        "POCHA_SSE_MAX_SECONDS": "20",
        # Clocks run out on the worker's watchdog: swept often, so that a test's clock of a
        # few seconds ends soon after its deadline.
        "POCHA_WATCHDOG_SWEEP": "0.5",
        **settings,
    }
    port = free_port()
    started: list[subprocess.Popen[bytes]] = []
    try:
        for name, command in (
            ("api", gunicorn_command("127.0.0.1", port, processes=1)),
            ("worker", [str(POCHA), "worker"]),
        ):
            log = (logs / f"{name}.log").open("wb")
            # Each in its own process group, so that gunicorn's workers go with it.
            started.append(
                subprocess.Popen(
                    command,
                    env=env,
                    cwd=cwd,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )
        url = f"http://127.0.0.1:{port}"
        said = lambda: (logs / "api.log").read_text(errors="replace")  # noqa: E731

        def up() -> bool:
            assert all(p.poll() is None for p in started), f"the service exited: {said()}"
            return _ready(port)

        wait_until(up, LONG, "the service to start", every=0.1, explain=said)
        yield LiveService(url, redis_url, logs)
    finally:
        for process in started:
            if process.poll() is None:
                process.terminate()
        for process in started:
            try:
                process.wait(timeout=3)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
