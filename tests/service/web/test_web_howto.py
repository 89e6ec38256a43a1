"""The "How to play" pages in a real headless Chromium, at 1280x800 and 390x844 (touch), in
English and Spanish: the page header leads to them; Pocha's shows the card order as cards,
a hand and a hand worked through with its score; Poch's the Pochbrett with its plates
(each saying what wins it when tapped), the sets, the betting, the shedding and a deal
worked through. Everything comes from this service (no other host is asked), nothing is
wider than the screen, and an unknown game is not found.
Screenshots are saved under tests/artifacts/ (ignored by git).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.poch.rules import PLATES
from tests.live import LiveService
from tests.service.web.conftest import SIZES, Screen
from tests.service.web.test_web_browser import ARTIFACTS

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

WORDS = {
    "en": {"link": "How to play", "pocha": "How to play Pocha", "poch": "How to play Poch",
           "bid": "Bid", "missed": "missed by 1: -5", "sets": "Pärchen"},
    "es": {"link": "Cómo se juega", "pocha": "Cómo se juega a la Pocha",
           "poch": "Cómo se juega al Poch", "bid": "Pide", "missed": "falla por 1: -5",
           "sets": "Pärchen"},
}  # fmt: skip
POCHA_ORDER = ["O1", "O3", "O12", "O11", "O10", "O7", "O6", "O5", "O4", "O2"]
POCH_ORDER = ["HA", "HK", "HQ", "HJ", "H10", "H9", "H8", "H7"]


# The elements that reach past the right edge of the screen, for a failure's message.
TOO_WIDE = """(width) => [...document.querySelectorAll('body *')]
    .filter((e) => e.getBoundingClientRect().right > width + 0.5)
    .slice(0, 5).map((e) => `${e.tagName}.${e.className} ${e.getBoundingClientRect().right}`)"""


def fits(screen: Screen) -> None:
    width = screen.page.evaluate("document.documentElement.scrollWidth")
    wide = screen.page.evaluate(TOO_WIDE, screen.size["width"])
    assert width <= screen.size["width"], f"{width} px wide on a {screen.size['width']} px: {wide}"


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_rules_of_both_games_from_the_header(
    browser: Any,
    live_service: LiveService,
    size: dict[str, int],
    screens: list[Screen],
    lang: str,
) -> None:
    words = WORDS[lang]
    screen = Screen(browser, size, lang)
    screens.append(screen)
    page = screen.page
    elsewhere: list[str] = []
    page.on(
        "request",
        lambda r: (
            None if r.url.startswith((live_service.url, "data:")) else elsewhere.append(r.url)
        ),
    )
    page.goto(live_service.url)
    page.wait_for_selector("#setup")
    assert page.inner_text("#howto-link") == words["link"]
    page.click("#howto-link")

    # Pocha: the order of the cards, as cards, and a hand worked through with its score.
    page.wait_for_selector(".howto[data-game=pocha]")
    assert page.url == f"{live_service.url}/how-to-play/pocha"
    assert page.inner_text(".howto h2") == words["pocha"]
    order = page.eval_on_selector_all("#order figure", "fs => fs.map(f => f.dataset.card)")
    assert order == POCHA_ORDER
    assert page.eval_on_selector_all("#example figure", "fs => fs.map(f => f.dataset.card)") == [
        "C3", "C5", "O4", "O10",
    ]  # fmt: skip
    table = page.inner_text("#example table")
    assert words["bid"] in table and words["missed"] in table.replace("−", "-"), table
    assert len(page.query_selector_all("#example tbody tr")) == 4
    for part in ("#cards", "#hand", "#score"):
        assert page.inner_text(part).strip(), part
    fits(screen)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(
        path=str(ARTIFACTS / f"web-howto-pocha-{lang}-{size['width']}.png"), full_page=True
    )

    # Poch, one tap away: the board and its plates, the sets, the betting, the shedding.
    screen.press_on(".howto-games a[data-game=poch]")
    page.wait_for_selector(".howto[data-game=poch]")
    assert page.inner_text(".howto h2") == words["poch"]
    order = page.eval_on_selector_all("#order figure", "fs => fs.map(f => f.dataset.card)")
    assert order == POCH_ORDER
    plates = page.eval_on_selector_all("#board [data-plate]", "ps => ps.map(p => p.dataset.plate)")
    assert plates == [*PLATES, "pot"]
    assert len(page.query_selector_all("#board ~ ul.plates li")) == 8
    assert words["sets"] in page.inner_text("#sets")
    assert len(page.query_selector_all("#sets figure")) == 9
    for part in ("#betting", "#shedding", "#example"):
        assert page.inner_text(part).strip(), part
    screen.press_on("#board [data-plate=marriage]")
    page.wait_for_selector("#plate-caption:not([hidden])")
    assert page.inner_text("#plate-caption").startswith("Mariage")
    fits(screen)
    page.screenshot(
        path=str(ARTIFACTS / f"web-howto-poch-{lang}-{size['width']}.png"), full_page=True
    )

    # Back to the game.
    page.click(".play-now")
    page.wait_for_selector("#setup")
    assert elsewhere == []
    assert screen.errors == []


def test_an_unknown_game_has_no_rules_page(
    browser: Any,
    live_service: LiveService,
    screens: list[Screen],
) -> None:
    screen = Screen(browser, SIZES[0], "en")
    screens.append(screen)
    response = screen.page.goto(f"{live_service.url}/how-to-play/chess")
    assert response is not None and response.status == 404
    response = screen.page.goto(f"{live_service.url}/how-to-play")
    assert response is not None and response.status == 200
    screen.page.wait_for_selector(".howto[data-game=pocha]")
