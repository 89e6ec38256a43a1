"""A browser's own HTTP cache and a game's view, in Chromium against the live service: a
view whose clock runs is never handed back from the cache (Chromium would revalidate it
by itself and, on the 304, give the page the body it stored, with the clock as it was),
while a program's own If-None-Match is still answered 304."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from client.api import PochaClient
from client.models import Rules
from tests.live import LiveService

#: Three people and a long clock: the views' tags are weak, and the clock runs all along.
TIMED: Rules = {"schedule": [1, 2], "turn_seconds": 600}

#: A read of a view by the page's `fetch`, in its default cache mode: its status, the
#: clock the body says, and its ETag.
READ = """async ([path, headers]) => {
    const answer = await fetch(path, { headers });
    const text = await answer.text();
    const left = text ? JSON.parse(text).seconds_left : null;
    return [answer.status, left, answer.headers.get("ETag")];
}"""


@pytest.fixture
def page(browser: Any, live_service: LiveService) -> Iterator[Any]:
    """A tab at the service's address (its health check: a page of the same origin that
    runs no script of its own), whose `fetch` goes through Chromium's HTTP cache."""
    context = browser.new_context()
    tab = context.new_page()
    tab.goto(f"{live_service.url}/healthz")
    yield tab
    context.close()


def test_a_running_clock_is_never_handed_back_from_the_browsers_cache(
    page: Any, live_service: LiveService
) -> None:
    created = PochaClient(live_service.url).create_game(["Ana", "Bea", "Eva"], rules=TIMED)
    path = f"/api/v1/games/{created['id']}"
    status, first, tag = page.evaluate(READ, [path, {}])
    assert status == 200 and first is not None
    time.sleep(0.35)  # the clock moves on by at least this, however long it really takes
    status, again, same = page.evaluate(READ, [path, {}])
    assert status == 200 and same == tag
    assert again < first, "the browser handed back the clock as it was"
    # A program that holds the view sends its tag itself, and gets the 304.
    assert page.evaluate(READ, [path, {"If-None-Match": tag}]) == [304, None, tag]
