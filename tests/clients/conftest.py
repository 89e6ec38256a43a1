"""Fixtures of the client tests: the real service over real HTTP, as `pocha serve` runs it.

One gunicorn (the shipped config, one process) and one `pocha worker` subprocess share a
logical DB of the session's private Redis, for the whole session: the clients under test
(Python, terminal, browser) know the service only by its URL, as they would in production,
and bots think on the worker, as they do under `pocha serve`. The browser tests that check a
page at a laptop's and a phone's size share `Screen` and the `size` and `screens` fixtures.
"""

from __future__ import annotations

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

#: The two sizes a page is checked at: a laptop's, and a phone's (with touch).
SIZES = [{"width": 1280, "height": 800}, {"width": 390, "height": 844}]


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
    logs = tmp_path_factory.mktemp("live-service")
    redis_url = fresh_db_url(redis_server, CLIENTS_DB)
    port = free_port()
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "POCHA_BOT_RUNNER": "rq",
        "POCHA_SSE_MAX_SECONDS": "20",
        # The clients' tests find and join tables from one address, more than a person
        # would in a minute (30 by default); the limit itself is the API's tests' business.
        "POCHA_RATE_LIMIT_TABLES": "600/minute",
        # Clocks run out on the worker's watchdog: swept often, so that a test's clock of a
        # few seconds ends soon after its deadline.
        "POCHA_WATCHDOG_SWEEP": "0.5",
    }
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


class Screen:
    """A tab at one size (a phone's with touch), its console errors collected."""

    def __init__(self, chromium: Any, size: dict[str, int], lang: str) -> None:
        self.touch = size["width"] < 500
        self.size = size
        self.context = chromium.new_context(
            viewport=size, has_touch=self.touch, is_mobile=self.touch, locale=lang
        )
        self.context.add_init_script(f"localStorage.setItem('pocha.lang', '{lang}')")
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)

    def press_on(self, selector: str) -> None:
        """A finger's tap on a phone, a mouse's click elsewhere."""
        if self.touch:
            self.page.tap(selector)
        else:
            self.page.click(selector)


@pytest.fixture(params=SIZES, ids=lambda s: f"{s['width']}x{s['height']}")
def size(request: pytest.FixtureRequest) -> dict[str, int]:
    return request.param  # type: ignore[no-any-return]


@pytest.fixture
def screens(browser: Any) -> Iterator[list[Screen]]:
    """The screens a test opens (it appends them), closed after it; `browser` is the test
    module's own (tests.clients.test_web_browser's)."""
    opened: list[Screen] = []
    yield opened
    for screen in opened:
        screen.context.close()
