"""What the Poch table says, in a real headless Chromium at a laptop's size (1280x800) and
a phone's (390x844, touch): each plate says what wins it when tapped, clicked or pressed
(phones show no hover titles); the betting status names only the calls the seat may make;
the log tells this seat's own moves in the second person ("You bluffed and pay 4"), the
others' with their names; and the ace plate is "Ass", as in the terminal, in both
languages. The table is drawn from seats' views of real engine games (poch.js as app.js
loads it), and the page's sentences come from the service's catalogues.
Screenshots are saved under tests/artifacts/ (ignored by git).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.poch.actions import BET_BASE
from engine.poch.game import Game
from engine.poch.rules import Rules
from tests.live import LiveService
from tests.service.web.conftest import Screen
from tests.service.web.test_web_browser import ARTIFACTS
from tests.service.web.test_web_poch import LOAD_POCH, seat_view

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

NAMES = ["You", "Bot 1", "Bot 2"]


class PochScreen(Screen):
    """A screen that draws the Poch table from a seat's view."""

    def draw(self, view: dict[str, Any]) -> None:
        """The Poch table for `view`, as the page draws it."""
        self.page.evaluate(
            """(view) => {
                window.shownView = view;
                document.getElementById('app').innerHTML = poch.tableHtml(view, pochContext(view));
            }""",
            view,
        )


def open_screen(chromium: Any, url: str, size: dict[str, int], lang: str = "en") -> PochScreen:
    screen = PochScreen(chromium, size, lang)
    screen.page.goto(url)
    screen.page.wait_for_selector("#setup")  # the page's catalogue is loaded
    screen.page.evaluate(LOAD_POCH)
    return screen


def betting_views() -> tuple[dict[str, Any], dict[str, Any]]:
    """Vorhand's view before anyone bets, and the next seat's after Vorhand bet 1 chip."""
    game = Game.new(Rules(players=3), 7)
    assert game.phase == "betting"
    first = game.turn
    assert first is not None
    before = seat_view(game, first, NAMES, 1)
    game.apply(first, BET_BASE + 1)
    second = game.turn
    assert second is not None
    after = seat_view(game, second, NAMES, 2)
    return before, after


def test_a_plate_says_what_wins_it_when_tapped_or_pressed(
    browser: Any,
    live_service: LiveService,
    size: dict[str, int],
    screens: list[Screen],
) -> None:
    screen = open_screen(browser, live_service.url, size)
    screens.append(screen)
    page = screen.page
    view, _ = betting_views()
    screen.draw(view)
    caption = "#board #plate-caption"
    assert page.is_hidden(caption)

    screen.press_on("#board [data-plate=sequence]")
    page.wait_for_selector(f"{caption}:not([hidden])")
    assert "7, 8 and 9 of trumps" in page.inner_text(caption)
    assert page.get_attribute("#board [data-plate=sequence]", "aria-expanded") == "true"
    box = page.locator(caption).bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size["width"], box
    screen.draw(view)  # the table is drawn again on every event: the caption stays
    assert "7, 8 and 9 of trumps" in page.inner_text(caption)
    screen.press_on("#board [data-plate=pot]")
    assert "pot" in page.inner_text(caption).lower()
    screen.press_on("#board [data-plate=pot]")  # the same plate again closes it
    page.wait_for_selector(caption, state="hidden")

    # From the keyboard: each plate is in the tab order, Enter or Space opens, Escape closes.
    page.focus("#board [data-plate=marriage]")
    page.keyboard.press("Enter")
    page.wait_for_selector(f"{caption}:not([hidden])")
    assert "king and queen of trumps" in page.inner_text(caption)
    page.keyboard.press("Escape")
    page.wait_for_selector(caption, state="hidden")
    page.focus("#board [data-plate=ace]")
    page.keyboard.press(" ")
    page.wait_for_selector(f"{caption}:not([hidden])")
    assert page.inner_text(caption).startswith("Ass: the ace of trumps")
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"web-poch-plate-caption-{size['width']}.png"))
    # A tap anywhere else closes it.
    screen.press_on(".status")
    page.wait_for_selector(caption, state="hidden")
    assert screen.errors == []


@pytest.mark.parametrize(
    ("lang", "first", "after", "ace"),
    [
        ("en", "Passe or Poche", "Passe, Halte or Erhöhe", "Ass: the ace of trumps takes it"),
        ("es", "Passe o Poche", "Passe, Halte o Erhöhe", "Ass: se lo lleva el as de triunfo"),
    ],
)
def test_the_betting_status_names_only_the_calls_offered(
    browser: Any,
    live_service: LiveService,
    size: dict[str, int],
    screens: list[Screen],
    lang: str,
    first: str,
    after: str,
    ace: str,
) -> None:
    screen = open_screen(browser, live_service.url, size, lang)
    screens.append(screen)
    page = screen.page
    before, raised = betting_views()
    assert "hold" not in before["you"]["legal"] and "hold" in raised["you"]["legal"]

    screen.draw(before)
    status = page.inner_text(".turn-line")
    assert status.endswith(first) and "Halte" not in status, status
    assert [b.get_attribute("data-bet") for b in page.query_selector_all("[data-bet]")] == [
        "pass",
        "amount",
    ]
    # The ace plate: the German name, as the terminal paints it, in every language.
    assert page.text_content("#board [data-plate=ace] .plate-name") == "Ass"
    assert page.get_attribute("#board [data-plate=ace]", "aria-label") == ace

    screen.draw(raised)
    status = page.inner_text(".turn-line")
    assert status.endswith(after), status
    assert screen.errors == []


# Events of a deal told twice, once about this page's seat (0, named "You", the name the
# setup form offers) and once about another seat; `{n}` etc. as the events carry them.
TOLD: list[tuple[dict[str, Any], str, str, str, str]] = [
    ({"type": "bluff", "paid": 4}, "You bluffed and pay 4 into the pot.",
     "Bot 1 bluffed and pays 4 into the pot.",
     "Has ido de farol y pagas 4 al bote.", "Bot 1 ha ido de farol y paga 4 al bote."),
    ({"type": "pass", "amount": 0, "pot": 0}, "You: Passe (you pass).", "Bot 1: Passe (passes).",
     "Tú: Passe (pasas).", "Bot 1: Passe (pasa)."),
    ({"type": "bet", "amount": 2, "pot": 2}, "You: Poche 2! (you bet 2)",
     "Bot 1: Poche 2! (bets 2)", "Tú: ¡Poche 2! (apuestas 2)", "Bot 1: ¡Poche 2! (apuesta 2)"),
    ({"type": "take_pot", "pot": 6, "pocher": 3},
     "You take the pot (6) and the Poch plate (3).",
     "Bot 1 takes the pot (6) and the Poch plate (3).",
     "Te llevas el bote (6) y el plato Poch (3).",
     "Bot 1 se lleva el bote (6) y el plato Poch (3)."),
    ({"type": "start", "direction": "up"}, "You start the Ausspielen upwards, from a 7.",
     "Bot 1 starts the Ausspielen upwards, from a 7.",
     "Empiezas el Ausspielen hacia arriba, con un 7.",
     "Bot 1 empieza el Ausspielen hacia arriba, con un 7."),
    ({"type": "choose", "suit": "H"}, "You choose hearts.", "Bot 1 chooses hearts.",
     "Eliges corazones.", "Bot 1 elige corazones."),
]  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_log_tells_your_own_moves_in_the_second_person(
    browser: Any,
    live_service: LiveService,
    size: dict[str, int],
    screens: list[Screen],
    lang: str,
) -> None:
    screen = open_screen(browser, live_service.url, size, lang)
    screens.append(screen)
    game = Game.new(Rules(players=3), 7)
    view = seat_view(game, 0, NAMES, 1)
    events: list[dict[str, Any]] = []
    for event, *_ in TOLD:
        for seat in (0, 1):
            events.append({**event, "seat": seat, "seq": len(events) + 2})
    said = screen.page.evaluate(
        """async ([view, events]) => {
            const said = [];
            const ctx = pochContext(view, { say: (text) => said.push(text) });
            const app = document.getElementById('app');
            app.innerHTML = poch.tableHtml(view, ctx);  // the table first, as app.js draws it
            for (const event of events) await poch.showEvent(event, ctx);
            app.innerHTML = poch.tableHtml(view, ctx);
            return said;
        }""",
        [view, events],
    )
    yours, theirs = (1, 2) if lang == "en" else (3, 4)
    expected = [line for told in TOLD for line in (told[yours], told[theirs])]
    assert said == expected
    # The log on the table shows them too, the latest first.
    log = screen.page.inner_text(".poch-log ol").splitlines()
    assert log[:2] == [expected[-1], expected[-2]], log
    assert screen.errors == []
