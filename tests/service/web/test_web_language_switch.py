"""The language picked in the header's menu in the middle of a game, in a real headless
Chromium: the page switches where it is, without a reload (the game and the notice line
stay), and the notice line says again in the new language what it said: the hint, and the
sentence a refused card was refused with (the server's, the view read again in the new
language), the cards' own reasons with it; Poch's list of what happened is drawn again in
it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from client.api import ApiError, PochaClient
from tests.live import LiveService
from tests.service.web.conftest import wait_until
from tests.service.web.test_web_browser import (
    DESKTOP,
    Tab,
    open_seat,
    play_by_api,
    refused_cards,
    seat_saved,
)
from tests.waiting import LONG_MS


@pytest.fixture
def desktop(browser: Any) -> Iterator[Tab]:
    tab = Tab(browser, DESKTOP, "desktop")
    yield tab
    tab.close()


def switch_in_place(page: Any, lang: str) -> None:
    """Pick `lang` in the header's menu, the document marked first: a reload would lose
    the mark."""
    page.evaluate("window.pochaNotReloaded = true")
    page.select_option("#lang", lang)
    wait_until(page, "(lang) => document.documentElement.lang === lang", lang)


def notice(page: Any) -> str:
    return str(page.inner_text("#notice"))


def test_the_hint_is_said_again_in_the_language_picked(
    desktop: Tab, live_service: LiveService
) -> None:
    api = PochaClient(live_service.url)
    created = api.create_game(["Ana", "Bea", "Carla"], rules={"schedule": [1]}, seed=2)
    view = play_by_api(api, created, lambda v: v["phase"] == "playing")
    page = desktop.page
    open_seat(page, live_service.url, seat_saved(created, view["turn"]))
    page.wait_for_selector("#game[data-my-turn=yes] .card-btn.playable")
    page.click("[data-action=hint]")
    page.wait_for_selector(".notice.hint", timeout=LONG_MS)
    english = notice(page)
    assert english.startswith("Hint: play ") and english.endswith(
        ". It is the only move the rules allow."
    ), english

    switch_in_place(page, "es")
    wait_until(page, "() => document.querySelector('#notice').textContent.startsWith('Pista')")
    spanish = notice(page)
    assert spanish.startswith("Pista: juega ") and spanish.endswith(
        ". Es la única jugada que permiten las reglas."
    ), spanish
    assert page.locator("#notice.hint").count() == 1
    assert page.evaluate("window.pochaNotReloaded") is True
    # The same game, still this seat's turn, and the hinted card still marked.
    assert page.locator("#game[data-my-turn=yes] .card-btn.playable.hinted").count() == 1
    switch_in_place(page, "en")
    wait_until(page, "() => document.querySelector('#notice').textContent.startsWith('Hint')")
    assert notice(page) == english
    assert desktop.errors == []


def test_a_refusal_is_said_again_in_the_language_picked(
    desktop: Tab, live_service: LiveService
) -> None:
    api = PochaClient(live_service.url)
    created, seats, seat, _, refused = refused_cards(api)
    game_id, card = created["id"], refused[0]
    said = {}
    for lang in ("en", "es"):
        spoken = PochaClient(live_service.url, created["seats"][seat]["token"], language=lang)
        with pytest.raises(ApiError) as caught:
            spoken.play(game_id, card)
        said[lang] = caught.value.message
    assert said["en"] != said["es"]

    page = desktop.page
    open_seat(page, live_service.url, seat_saved(created, seat))
    page.wait_for_selector("#game[data-my-turn=yes] .card-btn.playable")
    page.click(f".card-btn[data-card={card}]", force=True)
    assert said["en"] in page.inner_text(".notice.error")

    switch_in_place(page, "es")
    # Said again with the server's sentence of the view read again in Spanish.
    wait_until(
        page,
        "(why) => document.querySelector('#notice.error').textContent.includes(why)",
        said["es"],
    )
    assert notice(page).startswith("No puedes jugar ")
    assert page.get_attribute(f'.card-btn[data-card="{card}"]', "title") == said["es"]
    assert page.evaluate("window.pochaNotReloaded") is True
    assert seats[seat].view(game_id)["you"]["legal"]  # still its turn: nothing was sent
    assert desktop.errors == []


def test_pochs_list_of_what_happened_is_drawn_again_in_the_language_picked(
    desktop: Tab, live_service: LiveService
) -> None:
    api = PochaClient(live_service.url)
    created = api.create_game(["Ana", "Bruno", "Bea"], game="poch", rules={"deals": 1})
    page = desktop.page
    open_seat(page, live_service.url, seat_saved(created, 2))
    page.wait_for_selector(".poch-log li")
    first = "() => document.querySelector('.poch-log li:last-child').textContent"
    assert page.evaluate(first).startswith("Deal 1: everyone puts ")
    switch_in_place(page, "es")
    wait_until(page, f"() => ({first})().startsWith('Reparto 1: cada uno pone ')")
    assert page.evaluate("window.pochaNotReloaded") is True
    assert page.locator("#game[data-game=poch]").count() == 1
    assert desktop.errors == []
