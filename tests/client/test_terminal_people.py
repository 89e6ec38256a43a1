"""`pocha play` at a table with people, where people do what people do, in English and in
Spanish, in a real terminal (a pty) against the real service: the one who made a waiting
table leaves it and the guest left alone is told so, with what they may do; Ctrl-C during
a game asks before the seat goes to the stand-in for good. And what the terminal shows:
two seats of one name told apart by their seat number, the seats fitting a terminal of 40
columns (and of 32, every seat's name shown in both languages and both games), and the
status line stopped as soon as the events it no longer matches arrive."""

from __future__ import annotations

import contextlib
import re
import threading
import time
from typing import Any

import pytest
from rich.console import Console
from rich.text import Text

from client.api import OPEN, ApiError, PochaClient
from client.language import speaking
from client.poch_terminal import PochTerminalGame
from client.terminal import TerminalGame, fitted, told_apart
from engine.poch.game import Game as PochGame
from engine.poch.rules import Rules as PochRules
from tests.client.test_poch_terminal_lines import poch_view
from tests.client.test_terminal import PROMPT, Terminal, a_view, at_table
from tests.live import POCHA, LiveService
from tests.waiting import LONG, scaled, wait_until

#: The user's locale for each language, with nothing else asking for another one.
LOCALES = {
    "en": {"LANG": "C.UTF-8", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""},
    "es": {"LANG": "es_ES.UTF-8", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""},
}
#: What the terminal says, in each language (the catalogue's own sentences, or their start).
SAID = {
    "en": {
        "room": "Bea (you)",
        "alone": "Nobody else is at table {code} now",
        "leave?": "Leave the game? The stand-in plays your seat to the end (y/N): ",
        "on": "You play on.",
        "yes": "y",
        "left": "You left the table: the stand-in plays your seat to the end.",
        "open": "You left the table: your seat is open for someone else.",
    },
    "es": {
        "room": "Bea (tú)",
        "alone": "Ya no hay nadie más en la mesa {code}",
        "leave?": "¿Dejar la partida? El suplente jugará tu asiento hasta el final (s/N): ",
        "on": "Sigues jugando.",
        "yes": "s",
        "left": "Has dejado la mesa: el suplente juega tu asiento hasta el final.",
        "open": "Has dejado la mesa: tu asiento queda libre para otro.",
    },
}


def until(terminal: Terminal, text: str | re.Pattern[str], start: int = 0) -> int:
    """Read the terminal until `text` (a sentence, or a pattern) shows after `start`;
    where it ends."""
    pattern = re.compile(re.escape(text)) if isinstance(text, str) else text
    deadline = time.monotonic() + scaled(LONG)
    while (found := pattern.search(terminal.screen, start)) is None:
        assert terminal.read(0.2), terminal.screen[-3000:]
        assert time.monotonic() < deadline, f"{text!r} never shown:\n{terminal.screen[-3000:]}"
    return found.end()


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_guest_left_alone_at_a_waiting_table_is_told_so(
    live_service: LiveService, language: str
) -> None:
    """Ana makes a table of three, two seats open; Bea takes one in a terminal; then Ana
    leaves. The guest is told, in their language, that nobody can start the table early
    and what they may do; q leaves."""
    said = SAID[language]
    api = PochaClient(live_service.url)
    created = api.create_game(["Ana", OPEN, OPEN], {"schedule": [1]})
    code, game_id = str(created["table_code"]), created["id"]
    host = api.seat(created, 0)
    host.view(game_id)  # Ana looks at her table: she is here
    guest = Terminal(
        [str(POCHA), "play", "--url", live_service.url, "--join", code, "--name", "Bea"],
        LOCALES[language],
    )
    try:
        until(guest, said["room"])
        assert "Ana" in guest.screen
        assert said["alone"].format(code=code) not in guest.screen
        host.leave(game_id, 0)
        until(guest, said["alone"].format(code=code))
        guest.type("q")
        assert guest.process.wait(timeout=scaled(LONG)) == 0
        while guest.read(0.2):
            pass
    finally:
        guest.close()
    assert said["open"] in guest.screen
    assert all(p["open"] for p in api.view(game_id)["players"])


def play_for(seat: PochaClient, game_id: str, number: int, stop: threading.Event) -> None:
    """Play seat `number`'s turns (the first legal move) until the game is over or `stop`."""
    while not stop.is_set():
        view = seat.view(game_id)
        if view["phase"] == "finished":
            return
        if view["turn"] == number:
            with contextlib.suppress(ApiError):  # too late: the stand-in played
                seat.act(game_id, view["you"]["legal"][0], version=view["version"])
        time.sleep(0.05)


@pytest.mark.parametrize("language", ["en", "es"])
def test_ctrl_c_at_a_table_asks_before_the_seat_goes_to_the_stand_in(
    live_service: LiveService, language: str
) -> None:
    """Bea plays at Ana's table in a terminal and presses Ctrl-C: asked whether to leave,
    Enter plays on (her seat still hers, her prompt back); Ctrl-C and yes leaves, the
    stand-in playing her seat to the end."""
    said = SAID[language]
    api = PochaClient(live_service.url)
    created = api.create_game(["Ana", OPEN, {"name": "Bot", "bot": "random"}], {"schedule": [3, 3]})
    game_id, ana = created["id"], api.seat(created, 0)
    bea = Terminal(
        [str(POCHA), "play", "--url", live_service.url, "--join", str(created["table_code"]),
         "--name", "Bea"],
        LOCALES[language],
    )  # fmt: skip
    stop = threading.Event()
    ana_plays = threading.Thread(target=play_for, args=(ana, game_id, 0, stop), daemon=True)
    ana_plays.start()
    try:
        shown = until(bea, PROMPT)
        bea.interrupt()
        asked = until(bea, said["leave?"], shown)
        bea.type("")
        until(bea, said["on"], asked)
        until(bea, PROMPT, asked)
        assert not api.view(game_id)["players"][1]["left"]
        bea.interrupt()
        until(bea, said["leave?"], asked)
        bea.type(said["yes"])
        assert bea.process.wait(timeout=scaled(LONG)) == 0
        while bea.read(0.2):
            pass
    finally:
        stop.set()
        bea.close()
    assert said["left"] in bea.screen
    assert api.view(game_id)["players"][1]["left"]


# -- what the terminal shows ----------------------------------------------------------------


def at_a_table(names: list[str], width: int) -> tuple[TerminalGame, Console, dict[str, Any]]:
    """A terminal `width` columns wide in seat 0 of a table of `names`, its view told."""
    console = Console(record=True, width=width, no_color=True)
    game = TerminalGame(PochaClient("http://127.0.0.1:9"), console)
    players = at_table(names)
    view = a_view(
        players=players, bids=[1, None, 0, 2][: len(names)], tricks_won=[0] * len(names),
        scores=[10, -5, 15, 110][: len(names)], hand_sizes=[3] * len(names),
        seconds_left=42.0, dealer=len(names) - 1, trick=[{"seat": 2, "card": "O3"}], winning=2,
    )  # fmt: skip
    game.look_at(view)
    return game, console, view


def test_two_seats_of_one_name_are_told_apart_everywhere() -> None:
    game, console, view = at_a_table(["Ana", "Bea", "Ana"], width=100)
    assert game.names == ["Ana #1", "Bea", "Ana #3"]
    console.print(game.table(view))
    shown = console.export_text()
    assert "Ana #1 (you)" in shown and re.search(r"^│\s+Ana #3\s", shown, re.MULTILINE)
    assert "On the table: Ana #3 O3" in shown and "Ana #3 is winning it" in shown
    played = game.describe({"seq": 5, "type": "card_played", "seat": 2, "card": "O3"})
    assert played is not None and played.plain == "Ana #3 plays O3 (3 de oros)"
    # Open seats are not numbered: they hold no name.
    assert told_apart(["Ana", "", None, "Ana"])[1:3] == ["(open)", "(open)"]


@pytest.mark.parametrize("width", [40, 32])
def test_the_seats_fit_a_narrow_terminal_a_row_a_seat(width: int) -> None:
    names = ["Ana", "Bernardo Fernández de la Vega", "Ana", "Bot 4"]
    game, console, view = at_a_table(names, width=width)
    console.print(game.table(view))
    lines = console.export_text().splitlines()
    assert all(len(line) <= width for line in lines), lines
    # One line for each seat, its bid, tricks and score whole.
    for score in ("10", "-5", "15", "110"):
        rows = [line for line in lines if re.search(rf"\s{re.escape(score)}(\s|$)", line)]
        assert len(rows) == 1, (score, lines)
    assert any(line.startswith("│ ▶ Ana #1") for line in lines), lines
    assert any("… #3" in line or "Ana #3" in line for line in lines), lines


#: Four seats of names short and long, the last longer than any narrow terminal shows.
NAMES = ["Ana", "Guadalupe", "Maximiliano", "Bernardo Fernández de la Vega"]


@speaking
def seats_shown(game: str, width: int, language: str = "en") -> list[str]:
    """The lines of the table on Ana's turn (seat 0) of `game` with `NAMES` seated, in a
    terminal `width` columns wide speaking `language`; at Poch, seat 3 has bet 12, the
    widest of the bets in Spanish (`apuesta 12`)."""
    console = Console(record=True, width=width, no_color=True)
    if game == "pocha":
        terminal, _console, view = at_a_table(NAMES, width)
        console = _console
    else:
        terminal = PochTerminalGame(PochaClient("http://127.0.0.1:9"), console)
        view = poch_view(PochGame.new(PochRules(players=4, chips=30, deals=6), 4, dealer=3), 0)
        for player, name in zip(view["players"], NAMES, strict=True):
            player.update(name=name, bot=None)
        terminal.look_at(view)
        terminal.rules = {"deals": 6}
        view["turn"], view["seconds_left"] = 0, 12.4
        view["chips"] = [130, 5, 27, 30]
        view["bets"] = [{"seat": 3, "call": "bet", "amount": 12}]
    console.print(terminal.table(view))
    lines: list[str] = console.export_text().splitlines()
    return lines


@pytest.mark.parametrize("game", ["pocha", "poch"])
@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("width", [40, 32])
def test_every_seats_name_shows_in_a_narrow_terminal(game: str, language: str, width: int) -> None:
    """Spanish's figures' headers are wide (`Fichas Cartas Apuesta`): in 32 columns they
    left Poch's names no column at all beside a bet of `apuesta 12`. Short headers give the
    names their room: each seat's row starts with its name whole, or with six letters of it
    at least, then `…`."""
    lines = seats_shown(game, width, language=language)
    assert all(len(line) <= width for line in lines), lines
    you = {"en": "Ana (you)", "es": "Ana (tú)"}[language]
    for seat, name in enumerate([you, *NAMES[1:]]):
        rows = [line for line in lines if re.match(rf"│ [▶ ] {re.escape(name[:6])}", line)]
        assert len(rows) == 1, (name, lines)
        assert rows[0].startswith("│ ▶ " if seat == 0 else "│   "), rows[0]
        cell = rows[0][4:]
        if not re.match(rf"{re.escape(name)}( |$)", cell):
            cut = re.match(r"([^…]{6,})…", cell)
            assert cut is not None and name.startswith(cut[1]), (name, rows[0])


@pytest.mark.parametrize("width", [40, 120])
def test_the_waiting_room_fits_a_narrow_terminal_a_row_a_seat(width: int) -> None:
    game, console, view = at_a_table(["Bernardo Fernández de la Vega", "Ana", "Ana"], width)
    view["players"].append({**view["players"][1], "seat": 3, "name": "", "open": True})
    game.look_at(view)
    console.print(game.room({**view, "phase": "waiting", "table": {"code": "K7QM-3XHP"}}))
    lines = console.export_text().splitlines()
    assert all(len(line) <= width for line in lines), lines
    rows = [line for line in lines if re.match(r"│\s+\d │", line)]
    assert [re.match(r"│\s+(\d)", row)[1] for row in rows] == ["1", "2", "3", "4"], lines
    assert "Ana #2" in rows[1] and "Ana #3" in rows[2] and "(open)" in rows[3]
    assert ("(you)" in rows[0]) and ("Bernardo" in rows[0])


def test_a_long_name_is_cut_keeping_its_seat_number() -> None:
    assert fitted("Bernardo Fernández #2", 12) == "Bernardo… #2"
    assert fitted("Ana #1 (you)", 10) == "Ana #1 (y…"
    assert fitted("Ana", 10) == "Ana"


def test_the_status_line_stops_when_events_arrive(live_service: LiveService) -> None:
    """A line refreshed while others play says whose turn it was: once events arrive that
    it no longer matches, it is stopped before they are told, not left a turn behind."""
    game = TerminalGame(PochaClient(live_service.url), Console(record=True, width=100))
    game.start("Ana", 3, "random", {"schedule": [1]}, seed=3)
    # The bots move until it is Ana's turn; then nothing happens until she moves.
    wait_until(lambda: game.me.view(game.game_id)["turn"] == 0, LONG, "Ana's turn")
    game.show_status(Text("Bot 1 to bid"))
    game.narrate()  # the deal at least
    assert game.status is None and game.seen > 0
    game.show_status(Text("Ana to bid"))
    game.narrate()  # nothing new: the line stays
    assert game.status is not None
    game.idle()
