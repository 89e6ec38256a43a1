"""The Poch table's list of what happened, opened in the middle of a long game in a real
headless Chromium, reads only the game's latest events (`after` near the view's last), not
the whole game, and lists the very lines a read of every event gives.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from client.api import PochaClient
from tests.live import LiveService
from tests.service.web.test_web_browser import (
    DESKTOP,
    Tab,
    open_seat,
    seat_saved,
)

#: The events a table of three people has after a few deals played out by the API.
LONG_GAME = 60
#: The events' list, not their stream (EventSource asks for the stream at the same path).
EVENTS = re.compile(r"/api/v1/games/[^/]+/events\?after=\d+$")


@pytest.fixture
def tabs(browser: Any) -> Iterator[list[Tab]]:
    opened: list[Tab] = []
    yield opened
    for tab in opened:
        tab.close()


def long_poch_game(api: PochaClient) -> tuple[dict[str, Any], dict[str, Any]]:
    """A Poch game of three people played by the API, each its first legal decision, until
    it has `LONG_GAME` events and waits on a person: the game made, and its view."""
    created = api.create_game(["Ana", "Bruno", "Bea"], game="poch", rules={"deals": 20})
    game_id = created["id"]
    seats = [api.seat(created, s) for s in range(3)]
    while (view := api.view(game_id))["last_event"] < LONG_GAME:
        assert view["phase"] != "over", view
        player = seats[view["turn"]]
        player.poch_act(game_id, player.view(game_id)["you"]["legal"][0])
    return created, view


def opened(tabs: list[Tab], browser: Any, url: str, created: dict[str, Any], *,
           whole: bool) -> tuple[list[str], list[int]]:  # fmt: skip
    """The list of what happened a tab shows on opening the game, and the `after` of each
    read of the events' list; with `whole`, each read is of every event instead."""
    tab = Tab(browser, DESKTOP, f"poch-log-{len(tabs)}")
    tabs.append(tab)
    page = tab.page
    asked: list[int] = []

    def read(route: Any) -> None:
        parts = urlsplit(route.request.url)
        if route.request.headers.get("accept") == "text/event-stream":
            route.continue_()
            return
        asked.append(int(parse_qs(parts.query)["after"][0]))
        every = parts._replace(query="after=0").geturl()
        route.continue_(url=every if whole else route.request.url)

    page.route(EVENTS, read)
    open_seat(page, url, seat_saved(created, 2))
    page.wait_for_selector(".poch-log li")
    lines = page.eval_on_selector_all(".poch-log li", "ls => ls.map(l => l.textContent)")
    assert tab.errors == []
    return lines, asked


def test_the_list_reads_only_the_latest_events(
    browser: Any, live_service: LiveService, tabs: list[Tab]
) -> None:
    api = PochaClient(live_service.url)
    created, view = long_poch_game(api)
    lines, asked = opened(tabs, browser, live_service.url, created, whole=False)
    assert asked and asked[0] > 0, asked
    assert asked[0] >= view["last_event"] - 40, (asked, view["last_event"])
    every, _ = opened(tabs, browser, live_service.url, created, whole=True)
    assert lines == every
