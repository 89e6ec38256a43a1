"""Fixtures of the web page's browser tests: a page checked at a laptop's and a phone's size
shares `Screen` and the `size` and `screens` fixtures; the service is `live_service`
(tests/live.py), or `accounts_service` for a module that signs up more than five times an
hour; `wait_until` waits on a condition in a page.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest

from tests.live import LiveService, serving
from tests.redis_server import fresh_db_url
from tests.waiting import LONG_MS
from tools.embedded_redis import RedisServer


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, launched once a module. An `expect` on its pages waits LONG, as
    every wait of these tests does, not Playwright's 5 s: a page waits on the live service,
    which a busy machine may keep longer. Imported here, where it skips without Playwright
    or Chromium, so that a module's checks of the app alone run anywhere."""
    from tests.service.web.test_web_browser import ARGS, CHROMIUM, sync_api

    sync_api.expect.set_options(timeout=LONG_MS)
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


#: The two sizes a page is checked at: a laptop's, and a phone's (with touch).
SIZES = [{"width": 1280, "height": 800}, {"width": 390, "height": 844}]


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


def wait_until(page: Any, predicate: str, arg: Any = None, timeout: float = LONG_MS) -> None:
    """Wait until the JavaScript function `predicate` holds of `arg` in `page`, checked at
    each frame, for `timeout` ms at most (the page must stay put meanwhile). Not Playwright's
    wait_for_function: that one runs its predicate through `eval`, which the page's
    Content-Security-Policy refuses, as it should."""
    page.evaluate(
        "([arg, ms]) => new Promise((resolve, reject) => {"
        f" const holds = {predicate};"
        " const until = Date.now() + ms;"
        " const check = () => {"
        "  try {"
        "   if (holds(arg)) resolve(true);"
        "   else if (Date.now() > until) reject(new Error(`not within ${ms} ms: ${holds}`));"
        "   else requestAnimationFrame(check);"
        "  } catch (error) { reject(error); }"
        " };"
        " check();"
        "})",
        [arg, timeout],
    )


@pytest.fixture(params=SIZES, ids=lambda s: f"{s['width']}x{s['height']}")
def size(request: pytest.FixtureRequest) -> dict[str, int]:
    return request.param  # type: ignore[no-any-return]


@pytest.fixture
def screens(browser: Any) -> Iterator[list[Screen]]:
    """The screens a test opens (it appends them), closed after it; `browser` is the test
    module's own (tests.service.web.test_web_browser's)."""
    opened: list[Screen] = []
    yield opened
    for screen in opened:
        screen.context.close()


@contextlib.contextmanager
def accounts_service(
    redis_server: RedisServer, tmp_path_factory: pytest.TempPathFactory, db: int, name: str
) -> Iterator[LiveService]:
    """A live service of a module's own, on logical DB `db` of the session's Redis, whose
    sign-ups and new keys are not limited to the five an hour a person gets (its logs in a
    directory named after `name`)."""
    with serving(
        fresh_db_url(redis_server, db),
        tmp_path_factory.mktemp(f"{name}-service"),
        POCHA_RATE_LIMIT_ACCOUNTS="100/hour",
        POCHA_RATE_LIMIT_ACCOUNT_KEYS="100/hour",
    ) as service:
        yield service
