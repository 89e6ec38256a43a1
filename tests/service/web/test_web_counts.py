"""The page's sentences about a count, in real headless Chromium (as test_web_browser.py)
against the live service: `tn` gives each count the form its language's catalogue has for
it, chosen by the browser's `Intl.PluralRules` (1 card, 2 cards; 1 carta, 0 cartas), in the
lines the page draws with them (a Poch table's rules in the lobby, a seat leaving a Poch game,
a hand's cards each, a table's open seats, the waiting room's players to come, a match's
hand on the replay page).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.live import LiveService
from tests.service.web.test_web_browser import DESKTOP

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"]

#: The page's own modules, loaded as the page loads them (one catalogue, one language).
SAID = """async () => {
  const i18n = await import("/static/i18n.js");
  const tables = await import("/static/tables.js");
  await i18n.loadCatalogue();
  const poch = { players: 3, chips: 20, ante: 1, turn_seconds: 0 };
  return [0, 1, 2].map((n) => [
    i18n.tn("seat.cards", n),
    i18n.tn("poch.chipsN", n),
    i18n.tn("account.games", n),
    tables.rulesLine({ ...poch, deals: n }),
    i18n.tn("poch.ev.leave", n, { name: "Ana" }),
    i18n.tn("hand.cards", n),
    i18n.tn("lobby.openSeats", n),
    i18n.tn("waiting.lead", n),
    i18n.tn("replay.match.where", n, { hand: 1, hands: 3 }),
  ]);
}"""


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", [["0 cards", "0 chips", "0 rated games", "0 deals", "with 0 chips.",
                 "0 cards each", "0 open seats", "Waiting for 0 more players.",
                 "Hand 1 of 3 · 0 cards each"],
                ["1 card", "1 chip", "1 rated game", "1 deal", "with 1 chip.",
                 "1 card each", "1 open seat", "Waiting for 1 more player.",
                 "Hand 1 of 3 · 1 card each"],
                ["2 cards", "2 chips", "2 rated games", "2 deals", "with 2 chips.",
                 "2 cards each", "2 open seats", "Waiting for 2 more players.",
                 "Hand 1 of 3 · 2 cards each"]]),
        ("es", [["0 cartas", "0 fichas", "0 partidas puntuadas", "0 repartos", "con 0 fichas.",
                 "0 cartas cada uno", "0 asientos libres", "Faltan 0 jugadores.",
                 "Mano 1 de 3 · 0 cartas cada uno"],
                ["1 carta", "1 ficha", "1 partida puntuada", "1 reparto", "con 1 ficha.",
                 "1 carta cada uno", "1 asiento libre", "Falta 1 jugador.",
                 "Mano 1 de 3 · 1 carta cada uno"],
                ["2 cartas", "2 fichas", "2 partidas puntuadas", "2 repartos", "con 2 fichas.",
                 "2 cartas cada uno", "2 asientos libres", "Faltan 2 jugadores.",
                 "Mano 1 de 3 · 2 cartas cada uno"]]),
    ],
)  # fmt: skip
def test_a_count_reads_right_on_the_page(
    browser: Any, live_service: LiveService, lang: str, said: list[list[str]]
) -> None:
    context = browser.new_context(viewport=DESKTOP, locale=lang)
    context.add_init_script(f"localStorage.setItem('pocha.lang', '{lang}')")
    try:
        page = context.new_page()
        page.goto(live_service.url + "/")
        lines = page.evaluate(SAID)
    finally:
        context.close()
    for count, (line, expected) in enumerate(zip(lines, said, strict=True)):
        assert line[:3] == expected[:3], (lang, count)
        # The lobby's line of a Poch table's rules: "Poch · 3 players · ... · 1 deal · ...".
        assert f" · {expected[3]} · " in line[3], (lang, count, line[3])
        # A Poch seat leaving the game, told in the log.
        assert line[4].startswith("Ana ") and line[4].endswith(expected[4]), line[4]
        # A hand's cards each (the game's header), a table's open seats (the lobby), the
        # waiting room's lead, and a match's hand on the replay page.
        assert [line[5], line[6], line[8]] == [expected[5], expected[6], expected[8]], line
        assert line[7].startswith(expected[7]), line[7]
