"""`pocha play` in a real terminal (a pty) against the real service: a short game against
bots played to the end by answering its prompts as a person would, a bad bid, a hint and a
card marked ✗ on the way; and a clean error when no service answers. At tables with
people: two terminals playing one table to the end, a terminal whose seat goes away and
comes back, `pocha lobby` (an account's without its blockers' tables), and joining a
full table. Then what the terminal says, line by line, for views and events shaped as the
API sends them."""

from __future__ import annotations

import contextlib
import io
import json
import os
import platform
import random
import re
import select
import signal
import subprocess
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from rich.console import Console

from cli.main import pocha
from client.account import config_file, load_account
from client.api import OPEN, ApiError, PochaClient
from client.terminal import Quit, TerminalGame, join_by_a_name, refusal, refusals
from core.play.games import view_of
from engine.errors import IllegalActionError
from engine.pocha.actions import action_from_wire
from engine.pocha.game import Game
from engine.pocha.rules import Rules
from tests.live import POCHA, LiveService
from tests.waiting import LONG, scaled
from tools.embedded_redis import free_port

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")
# The prompts and the hand in English, or in Spanish where the locale asks for it.
PROMPT = re.compile(r"(?:Your|Tu) (?:(?:bid|apuesta) \[(?P<bids>[\d/]+)\]|card|carta) \([^)]*\): ")
HAND = re.compile(r"(?:Your hand|Tus cartas):(?P<cards>.*)")


# The system calls a process's main thread waits for a line from its terminal in (x86-64's
# and arm64's numbers: read, poll, select, pselect6, ppoll), as /proc/PID/syscall shows them.
_READING = {"x86_64": {0, 7, 23, 270, 271}, "aarch64": {63, 72, 73}}


def waiting_for_a_line(pid: int) -> bool:
    """Whether process `pid`'s main thread is blocked in a read of its input (True where
    /proc does not say: nothing better to wait for there)."""
    try:
        called = Path(f"/proc/{pid}/syscall").read_text().split()
    except OSError:
        return True
    reading = _READING.get(platform.machine())
    if reading is None:
        return True
    return bool(called) and called[0].isdigit() and int(called[0]) in reading


class Terminal:
    """A process on a pty: read what it shows, type answers."""

    def __init__(self, command: list[str], environ: dict[str, str] | None = None) -> None:
        self.master, slave = os.openpty()
        env = {**os.environ, "COLUMNS": "120", "LINES": "50", "TERM": "xterm", "NO_COLOR": "1"}
        env.update(environ or {})
        self.process = subprocess.Popen(
            command, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True
        )
        os.close(slave)
        self.screen = ""
        self.read_to = 0  # how much of `screen` has been answered already

    def read(self, timeout: float) -> bool:
        """Read what arrived within `timeout`; False once the process has gone."""
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return self.process.poll() is None
        try:
            chunk = os.read(self.master, 65536)
        except OSError:  # EIO: the other end closed
            return False
        if not chunk:
            return False
        self.screen += ANSI.sub("", chunk.decode("utf-8", "replace"))
        return True

    def type(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def interrupt(self) -> None:
        """Press Ctrl-C at the prompt shown, once the process waits for its line. Python acts
        on a signal between bytecodes, and a read already blocked is woken by it, but one
        that arrives in the instant between the prompt drawn and the read begun waits for
        the next key or signal: a person pressing Ctrl-C at a prompt they read seldom meets
        that instant, a test sending it the moment the prompt shows may."""
        deadline = time.monotonic() + scaled(LONG)
        while not waiting_for_a_line(self.process.pid):
            assert self.process.poll() is None, self.screen[-3000:]
            assert time.monotonic() < deadline, f"never waited for a line:\n{self.screen[-3000:]}"
            time.sleep(0.01)
        os.killpg(self.process.pid, signal.SIGINT)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=scaled(LONG))
        os.close(self.master)


def test_a_short_game_in_the_terminal(live_service: LiveService) -> None:
    terminal = Terminal(
        [str(POCHA), "play", "--url", live_service.url, "--players", "3", "--level", "random",
         "--schedule", "1,3", "--seed", "11", "--name", "Ana"]
    )  # fmt: skip
    bid_prompts = 0
    tried_barred = False  # a card marked ✗ has been typed, to hear the server refuse it
    deadline = time.monotonic() + scaled(LONG)
    try:
        while terminal.read(0.2):
            assert time.monotonic() < deadline, terminal.screen[-3000:]
            prompt = PROMPT.search(terminal.screen, terminal.read_to)
            if prompt is None:
                continue
            terminal.read_to = prompt.end()
            if prompt["bids"] is not None:
                bid_prompts += 1
                if bid_prompts == 1:
                    terminal.type("9")  # out of range: refused here, asked again
                elif bid_prompts == 2:
                    terminal.type("?")  # a hint, then asked again
                else:
                    terminal.type(prompt["bids"].split("/")[0])
            else:
                # As a person would: the first card found marked ✗ is tried once, to see
                # the server refuse it; otherwise the first card not marked.
                hands = HAND.findall(terminal.screen, 0, prompt.start())
                cards = re.findall(r"(\d+)\) (✗ )?", hands[-1])
                barred = [n for n, mark in cards if mark]
                if barred and not tried_barred:
                    tried_barred = True
                    terminal.type(barred[0])
                else:
                    terminal.type(next(n for n, mark in cards if not mark))
        assert terminal.process.wait(timeout=scaled(LONG)) == 0
    finally:
        terminal.close()
    screen = terminal.screen
    assert "Bid from 0 to 1" in screen
    assert re.search(
        r"Hint \(hard\): bid \d — (the bot bid it in \d+% of \d+ simulated deals; expected "
        r"[+-]\d+\.\d points this hand|the only bid you may make)\.",
        screen,
    )
    assert "Score sheet" in screen and "Trump" in screen
    assert "Your hand:" in screen and "On the table:" in screen
    # The one card refused is the ✗ one tried: the marks and the server agree.
    assert tried_barred
    refusals = re.findall(r"^(You must .+|You have no .+)$", screen, re.MULTILINE)
    assert len(refusals) == 1, refusals
    assert re.search(r"Game over\. Winners?: .+\.", screen)
    assert re.search(r"Final scores: Ana -?\d+, Bot 1 -?\d+, Bot 2 -?\d+\.", screen)


def test_no_service_is_a_clean_error() -> None:
    port = free_port()
    result = CliRunner().invoke(pocha, ["play", "--url", f"http://127.0.0.1:{port}"])
    assert result.exit_code == 2
    assert "Cannot reach the Pocha service" in result.output
    assert "pocha serve" in result.output


# -- what the terminal says -----------------------------------------------------------------


def seated(names: list[str], seat: int = 0, width: int = 140) -> tuple[TerminalGame, Console]:
    """A game at a terminal that records what it prints, `seat` being the player's."""
    console = Console(record=True, width=width, no_color=True)
    game = TerminalGame(PochaClient("http://127.0.0.1:9"), console)
    game.names, game.seat = names, seat
    return game, console


def a_view(**changes: Any) -> dict[str, Any]:
    """A seat's view as the API sends it (GameView): seat 0 of 3, to play, 3 cards each."""
    view: dict[str, Any] = {
        "id": "g1", "version": 9, "last_event": 9, "seat": 0, "phase": "playing",
        "turn": 0, "hand_number": 2, "hands_total": 4, "cards_per_player": 3,
        "dealer": 2, "mano": 0, "trump": {"card": "E3", "holder": None},
        "bids": [1, 0, 1], "tricks_won": [0, 0, 0], "trick": [], "plays": [],
        "last_trick": [], "hand_sizes": [3, 3, 3], "scores": [10, -5, 15], "winners": [],
        "winning": None, "tiebreak_hand": None,
        "rules": {"montar": True, "fallar": True, "pisar": True, "dealer_restriction": True},
        "players": [{"seat": i, "name": n, "bot": None} for i, n in enumerate("ABC")],
        "you": {"seat": 0, "hand": ["O1", "O4", "C7"], "legal": ["O1", "O4", "C7"],
                "refused": []},
    }  # fmt: skip
    view.update(changes)
    return view


def dealt(cards: int, dealer: int, holder: int | None = None) -> dict[str, Any]:
    return {
        "seq": 1, "type": "hand_dealt", "hand_number": 1, "hands_total": 2,
        "cards_per_player": cards, "dealer": dealer, "mano": (dealer + 1) % 3,
        "trump": {"card": "E3", "holder": holder},
    }  # fmt: skip


def test_the_deal_is_told_in_good_english() -> None:
    game, _ = seated(["Ana", "Bot 1", "Bot 2"])
    said = game.describe(dealt(1, dealer=0))
    assert said is not None and said.plain == (
        "\nHand 1 of 2: 1 card each. You deal. Trump: E3 (3 de espadas)."
    )
    said = game.describe(dealt(3, dealer=2, holder=2))
    assert said is not None and said.plain == (
        "\nHand 1 of 2: 3 cards each. Bot 2 deals. Trump: E3 (3 de espadas), held by Bot 2."
    )
    said = game.describe(dealt(12, dealer=0, holder=0))
    assert said is not None and said.plain.endswith(
        "You deal. Trump: E3 (3 de espadas), held by you."
    )


def test_the_table_counts_the_cards_in_good_english() -> None:
    game, console = seated(["Ana", "Bot 1", "Bot 2"])
    console.print(
        game.table(
            a_view(
                cards_per_player=1,
                dealer=0,
                trump={"card": "E3", "holder": 0},
                you={"seat": 0, "hand": ["O1"], "legal": ["O1"]},
            )
        )
    )
    shown = console.export_text()
    assert "Hand 2 of 4 · 1 card each · trump: E3 (3 de espadas) (held by you)" in shown
    console.print(game.table(a_view()))
    assert "3 cards each" in console.export_text()


def test_the_table_says_who_is_winning_the_trick() -> None:
    game, console = seated(["Ana", "Bot 1", "Bot 2"])
    trick = [{"seat": 1, "card": "O3"}, {"seat": 2, "card": "E5"}]
    console.print(game.table(a_view(trick=trick, plays=trick, winning=2)))
    trick = [{"seat": 0, "card": "E1"}]
    console.print(game.table(a_view(trick=trick, plays=trick, winning=0, turn=1)))
    shown = console.export_text()
    assert "On the table: Bot 1 O3 (3 de oros), Bot 2 E5 (5 de espadas) — Bot 2 is winning it" in (
        shown
    )
    assert "On the table: Ana E1 (as de espadas) — you are winning it" in shown


def test_a_tiebreak_hand_says_so() -> None:
    game, console = seated(["Ana", "Bot 1", "Bot 2"])
    view = a_view(hand_number=5, hands_total=5, cards_per_player=1, tiebreak_hand=1)
    console.print(game.table(view))
    shown = console.export_text()
    assert "Tiebreak 1 · 1 card each · trump: E3" in shown
    assert "Hand 5" not in shown


def test_the_winners_are_named_in_good_english() -> None:
    game, console = seated(["Ana", "Bot 1", "Bot 2"])
    game.finish(a_view(phase="finished", turn=None, winners=[1]))
    game.finish(a_view(phase="finished", turn=None, winners=[0, 2]))
    game.finish(a_view(phase="finished", turn=None, winners=[0, 1, 2]))
    shown = console.export_text()
    assert "Game over. Winner: Bot 1." in shown
    assert "Game over. Winners: Ana and Bot 2." in shown
    assert "Game over. Winners: Ana, Bot 1 and Bot 2." in shown


def test_a_card_number_out_of_range_is_asked_again_in_good_english() -> None:
    game, console = seated(["Ana", "Bot 1", "Bot 2"])
    assert game.parse("2", a_view(you={"seat": 0, "hand": ["O1"], "legal": ["O1"]})) is None
    assert game.parse("4", a_view()) is None
    shown = console.export_text()
    assert "Type 1, or a card's code." in shown
    assert "Pick a card from 1 to 3, or a card's code." in shown


def test_an_empty_answer_for_a_card_is_asked_again_in_words() -> None:
    game, console = seated(["Ana", "Bot 1", "Bot 2"])
    assert game.parse("", a_view()) is None
    shown = console.export_text()
    assert shown == "Pick a card from 1 to 3, or a card's code.\n"


def test_ctrl_c_or_ctrl_d_at_a_prompt_leaves_off_the_prompts_line() -> None:
    """The goodbye that follows is said on a line of its own, not after the prompt."""
    for key in (KeyboardInterrupt, EOFError):
        game, console = seated(["Ana", "Bot 1", "Bot 2"])

        def pressed(_prompt: str, key: type[BaseException] = key) -> str:
            raise key

        game.ask = pressed
        with pytest.raises(Quit):
            game.take_turn(a_view())
        assert console.export_text() == "\n"


def test_leaving_a_game_against_bots_says_how_to_come_back_only_if_one_can() -> None:
    game, console = seated(["Ana", "Bot 1", "Bot 2"])
    game.game_id = "g1"
    game.leave()
    game.tell_resume()
    assert console.export_text() == (
        "Left game g1. Only an account plays on in a game left: pocha signup makes one, then "
        "pocha play --resume.\n"
    )
    game, console = seated(["Ana", "Bot 1", "Bot 2"])
    game.game_id, game.saved_key = "g1", lambda: "pa_key"
    game.leave()
    game.tell_resume()
    assert console.export_text() == "Left game g1.\nTo play on later: pocha play --resume g1\n"


def test_the_last_trick_of_an_earlier_hand_is_not_shown() -> None:
    game, console = seated(["Ana", "Bot 1", "Bot 2"])
    last = [{"seat": s, "card": c} for s, c in ((1, "O3"), (2, "E5"), (0, "C7"))]
    console.print(game.table(a_view(last_trick=last, tricks_won=[0, 0, 0])))
    console.print(game.table(a_view(last_trick=last, tricks_won=[0, 0, 0], phase="bidding")))
    assert "Last trick" not in console.export_text()
    console.print(game.table(a_view(last_trick=last, tricks_won=[0, 1, 0])))
    assert "Last trick: Bot 1 O3 (3 de oros), Bot 2 E5 (5 de espadas), Ana C7" in (
        console.export_text()
    )


def test_eight_players_score_sheet_fits_an_80_column_terminal_whole() -> None:
    """Too wide for the terminal, the sheet keeps every bid, trick and total (bid/won over
    the total) rather than cutting them to an ellipsis."""
    names = ["Guillermina", *(f"Bot {i}" for i in range(1, 8))]
    game, console = seated(names, width=80)
    totals = [[10, -5, 15, 10, -5, -5, 10, -5], [20, -10, 10, 20, 5, -10, 5, -150]]
    hands = [
        {"hand_number": n, "cards": 1, "tiebreak": False, "trump": {"card": "C7"},
         "bids": [0, 1] * 4, "tricks": [0, 0, 1, 0] * 2, "points": [10] * 8, "totals": t}
        for n, t in enumerate(totals, 1)
    ]  # fmt: skip
    console.print(game.score_sheet({"hands": hands}))
    shown = console.export_text()
    assert "…" not in shown, shown
    assert max(len(line) for line in shown.splitlines()) <= 80
    assert "bid/won over the total; * tiebreak" in shown
    assert "Guillermi" in shown and "-150" in shown  # a long name folds, never cut
    rows = [line.split() for line in shown.splitlines()]
    assert ["2", "1", "C7", "0/0", "1/0", "0/1", "1/0", "0/0", "1/0", "0/1", "1/0"] in rows
    assert [str(t) for t in totals[1]] in rows, shown


def test_barred_cards_are_marked_with_the_servers_reason() -> None:
    game, console = seated(["Ana", "Bot 1", "Bot 2"])
    trick = [{"seat": 2, "card": "O3"}]
    console.print(game.table(a_view(trick=trick, plays=trick, you={
        "seat": 0, "hand": ["O1", "O4", "C7", "C2"], "legal": ["O1"], "refused": [
            {"card": "O4", "rule": "montar", "message": "you must beat the O3: you hold O1"},
            {"card": "C7", "rule": "asistir", "message": "you must follow oros: you hold O1, O4"},
            {"card": "C2", "rule": "asistir", "message": "you must follow oros: you hold O1, O4"},
        ]})))  # fmt: skip
    shown = console.export_text()
    assert "1) O1 (as de oros)  2) ✗ O4 (4 de oros)  3) ✗ C7 (7 de copas)" in shown
    assert "✗ Not 2) O4: you must beat the O3: you hold O1 (montar)." in shown
    assert "✗ Not 3) C7, 4) C2: you must follow oros: you hold O1, O4 (asistir)." in shown


def test_the_dealers_barred_bid_is_marked() -> None:
    game, console = seated(["Ana", "Bot 1", "Bot 2"])
    said = "as dealer you may not bid 1: the bids would add up to the 3 cards in play"
    view = a_view(phase="bidding", dealer=0, bids=[None, 1, 1], you={
        "seat": 0, "hand": ["O1", "O4", "C7"], "legal": [0, 2, 3],
        "refused": [{"bid": 1, "rule": "dealer_restriction", "message": said}]})  # fmt: skip
    console.print(game.table(view))
    shown = console.export_text()
    # Said once: the server's sentence names the bid.
    assert "✗ As dealer you may not bid 1: the bids would add up to the 3 cards in play." in shown
    assert "Not 0" not in shown and "Not 2" not in shown and "✗ O" not in shown


def test_the_marks_are_the_servers_refusals() -> None:
    """Over random deals under every obligation, with the views the service sends: the
    cards (or bids) marked ✗ are just those the engine refuses, each shown with the sentence
    and the rule the engine refuses it with."""
    rng = random.Random(5)
    barred: dict[str, int] = {}
    for flags in range(8):
        options = {"montar": bool(flags & 1), "fallar": bool(flags & 2), "pisar": bool(flags & 4)}
        for _ in range(8):
            rules = Rules.from_dict({"players": 4, "schedule": [8, 3], **options})
            game = Game.new(rules, rng.randrange(1 << 30))
            while not game.finished:
                seat = game.turn
                assert seat is not None
                view = view_of(game, seat)
                you = view["you"]
                bidding = view["phase"] == "bidding"
                tries = range(view["cards_per_player"] + 1) if bidding else you["hand"]
                if all(action in you["legal"] for action in tries):
                    assert refusals(view) == {}
                    game.apply(seat, action_from_wire(rng.choice(you["legal"])))
                    continue
                # The hand and the lines under it, wide enough that none wraps.
                shown, console = seated(["Ana", "Bot 1", "Bot 2", "Bot 3"], seat, width=400)
                console.print(shown.hand_text(view), *shown.barred(view), sep="\n")
                text = console.export_text()
                marked = set(re.findall(r"\d+\) ✗ (\w+)", text))
                for action in tries:
                    if action in you["legal"]:
                        assert str(action) not in marked
                        continue
                    with pytest.raises(IllegalActionError) as refused:
                        game.copy().apply(seat, action_from_wire(action))
                    rule, sentence = refused.value.rule, refused.value.message
                    assert refusals(view)[action] == (rule, sentence)
                    if bidding:
                        assert f"✗ {sentence[:1].upper()}{sentence[1:]}." in text
                    else:
                        assert action in marked
                        assert f": {sentence} ({rule})." in text
                    barred[str(rule)] = barred.get(str(rule), 0) + 1
                game.apply(seat, action_from_wire(rng.choice(you["legal"])))
    assert set(barred) == {"asistir", "montar", "fallar", "pisar", "dealer_restriction"}


class Hints(PochaClient):
    """The API as far as a hint goes: every hint job finishes with `advice`."""

    def __init__(self, advice: dict[str, Any]) -> None:
        super().__init__("http://127.0.0.1:9")
        self.advice = advice

    def hint(self, game_id: str, **_: Any) -> dict[str, Any]:
        return {"id": "j1", "kind": "hint", "status": "finished", "result": self.advice}


def hint_said(advice: dict[str, Any], view: dict[str, Any]) -> str:
    console = Console(record=True, width=140, no_color=True)
    game = TerminalGame(Hints(advice), console)
    game.names = ["Ana", "Bot 1", "Bot 2"]
    game.hint(view)
    return console.export_text()


def stat(action: int | str, visits: int, of: int, mean: float) -> dict[str, Any]:
    return {"action": action, "visits": visits, "share": visits / of, "mean_score": mean}


def test_a_hint_says_the_card_and_why_in_words() -> None:
    advice = {
        "action": "O1", "level": "hard", "iterations": 60, "seat": 0,
        "analysis": [stat("O4", 10, 60, -3.0), stat("O1", 37, 60, 5.24), stat("C7", 13, 60, 1.0)],
    }  # fmt: skip
    said = hint_said(advice, a_view())
    assert (
        "Hint (hard): play O1 (as de oros) — the bot played it in 62% of 60 simulated deals; "
        "expected +5.2 points this hand.\n"
        "  Other choices: C7, expected +1.0; O4, expected -3.0." in said
    )


def test_a_hint_says_the_bid_and_why_in_words() -> None:
    advice = {
        "action": 1, "level": "hard", "iterations": 60, "seat": 0,
        "analysis": [stat(0, 9, 60, 1.7), stat(1, 51, 60, 6.8), stat(2, 0, 60, 0.0)],
    }  # fmt: skip
    view = a_view(phase="bidding", you={"seat": 0, "hand": ["O1", "O4", "C7"], "legal": [0, 1, 2]})
    said = hint_said(advice, view)
    assert "Hint (hard): bid 1 — the bot bid it in 85% of 60 simulated deals; " in said
    assert "expected +6.8 points this hand.\n  Other choices: bid 0, expected +1.7.\n" in said


def test_a_hint_with_no_choice_or_no_search_says_so() -> None:
    only = a_view(you={"seat": 0, "hand": ["O1", "C7"], "legal": ["O1"]})
    advice = {
        "action": "O1",
        "level": "hard",
        "iterations": 60,
        "analysis": [stat("O1", 60, 60, 10)],
    }
    assert "Hint (hard): play O1 (as de oros) — your only legal card." in hint_said(advice, only)
    advice = {"action": "C7", "level": "heuristic", "analysis": []}
    assert (
        hint_said(advice, a_view()) == "Asking the bots…\nHint (heuristic): play C7 (7 de copas).\n"
    )


def test_a_bad_schedule_is_a_clean_error() -> None:
    result = CliRunner().invoke(pocha, ["play", "--url", "http://127.0.0.1:9", "--schedule", "1,x"])
    assert result.exit_code == 2, result.output
    assert "Cannot create the game: schedule: 'classic', 'pyramid' or counts like 1,2,3" in (
        " ".join(result.output.split())
    )


def test_an_unknown_level_is_said_once(live_service: LiveService) -> None:
    result = CliRunner(env={"COLUMNS": "200"}).invoke(
        pocha, ["play", "--url", live_service.url, "--players", "4", "--level", "grandmaster"]
    )
    assert result.exit_code == 2, result.output
    assert result.output.count("grandmaster") == 1, result.output
    assert "Cannot create the game: bot: " in result.output
    assert all(level in result.output for level in ("easy", "medium", "hard")), result.output
    result = CliRunner(env={"COLUMNS": "200"}).invoke(
        pocha, ["play", "--url", live_service.url, "--name", "Ana" * 20, "--schedule", ","]
    )
    assert result.exit_code == 2, result.output
    assert "name: " in result.output and "schedule: " in result.output


class Refuses(PochaClient):
    """The API as far as a move goes: every move is refused with `body`."""

    def __init__(self, body: dict[str, Any]) -> None:
        super().__init__("http://127.0.0.1:9")
        self.body = body

    def act(self, game_id: str, action: int | str, *, version: int | None = None) -> Any:
        raise ApiError(422, self.body)


def test_a_refused_card_is_told_as_a_sentence() -> None:
    console = Console(record=True, width=140, no_color=True)
    answers = iter(["C7", "q"])
    refused = {
        "error": "illegal_move",
        "rule": "asistir",
        "message": "you must follow oros: you hold O1, O4",
    }
    game = TerminalGame(Refuses(refused), console, ask=lambda _: next(answers))
    game.names = ["Ana", "Bot 1", "Bot 2"]
    trick = [{"seat": 2, "card": "O3"}]
    with pytest.raises(Quit):
        game.take_turn(a_view(trick=trick, plays=trick, you={
            "seat": 0, "hand": ["O1", "O4", "C7"], "legal": ["O1", "O4"]}))  # fmt: skip
    assert console.export_text() == "You must follow oros: you hold O1, O4.\n"


def test_brackets_typed_or_in_a_name_print_as_themselves() -> None:
    game, console = seated(["Ana [/]", "Bot 1", "Bot 2"])
    assert game.parse("[/x]", a_view()) is None
    console.print(game.table(a_view()))
    console.print(game.score_sheet({"hands": []}))
    shown = console.export_text()
    assert "You do not hold [/x]: pick a number or a code." in shown
    assert "Ana [/] (you)" in shown
    assert shown.count("Ana [/]") == 2


def test_a_refusal_not_blamed_on_a_field_is_said_without_one() -> None:
    refused = ApiError(422, {
        "error": "validation_error", "message": "The request has invalid fields: ...",
        "errors": {"json": {"_schema": ["Two seats share a name."], "name": ["Too long."]}},
    })  # fmt: skip
    assert refusal(refused) == "Two seats share a name. name: Too long."
    assert refusal(ApiError(429, {"error": "rate_limited", "message": "Slow down."})) == (
        "Slow down."
    )


# -- tables with people ------------------------------------------------------------------------

TABLE = re.compile(r"Table (?P<code>[2-9A-Z]{4}-[2-9A-Z]{4}) is waiting for 1 player")
REMATCH = "A rematch, same seats and rules? (y/N): "


def answer_prompt(terminal: Terminal, rematches: int = 0) -> bool:
    """Answer the terminal's newest prompt as a person would (the first bid offered, the
    first card not marked ✗; yes to the first `rematches` rematches, then no); False if
    it shows none yet."""
    prompt = PROMPT.search(terminal.screen, terminal.read_to)
    rematch = terminal.screen.find(REMATCH, terminal.read_to)
    if rematch >= 0 and (prompt is None or rematch < prompt.start()):
        terminal.read_to = rematch + len(REMATCH)
        terminal.type("y" if terminal.screen.count(REMATCH) <= rematches else "n")
        return True
    if prompt is None:
        return False
    terminal.read_to = prompt.end()
    if prompt["bids"] is not None:
        terminal.type(prompt["bids"].split("/")[0])
    else:
        hands = HAND.findall(terminal.screen, 0, prompt.start())
        cards = re.findall(r"(\d+)\) (✗ )?", hands[-1])
        terminal.type(next(n for n, mark in cards if not mark))
    return True


def test_two_people_at_one_table_in_two_terminals(live_service: LiveService) -> None:
    """Ana makes a table with one open seat and a bot; Bea joins it by the code Ana's
    terminal shows; both play it to the end, each in their own terminal, with the clock
    (the default 60 s of a table with two people) on their prompts; then both take their
    seats at the rematch and play that one to the end too."""
    ana = Terminal(
        [str(POCHA), "play", "--url", live_service.url, "--players", "3", "--level", "random",
         "--schedule", "1,2", "--open", "1", "--name", "Ana", "--seed", "21"]
    )  # fmt: skip
    bea: Terminal | None = None
    deadline = time.monotonic() + scaled(LONG)
    try:
        while bea is None:
            assert ana.read(0.2), ana.screen
            assert time.monotonic() < deadline, ana.screen
            found = TABLE.search(ana.screen)
            if found:
                code = found["code"]
                assert f"{live_service.url}/t/{code}" in ana.screen
                assert f"pocha play --join {code}" in ana.screen
                bea = Terminal(
                    [str(POCHA), "play", "--url", live_service.url, "--join", code.lower(),
                     "--name", "Bea"]
                )  # fmt: skip
        running = {"ana": True, "bea": True}
        while any(running.values()):
            assert time.monotonic() < deadline, ana.screen[-2000:] + bea.screen[-2000:]
            for who, terminal in (("ana", ana), ("bea", bea)):
                if running[who]:
                    running[who] = terminal.read(0.1)
                    answer_prompt(terminal, rematches=1)
        assert ana.process.wait(timeout=scaled(LONG)) == 0
        assert bea.process.wait(timeout=scaled(LONG)) == 0
    finally:
        ana.close()
        if bea is not None:
            bea.close()
    assert "Bea takes seat 2." in ana.screen
    assert f"You sit at table {code} as Bea, in seat 2." in bea.screen
    # Ana chose the seed: Bea is warned as she sits down.
    assert "The host chose this table's seed" in " ".join(bea.screen.split())
    for screen in (ana.screen, bea.screen):
        assert screen.count("The game starts: Ana, Bea and Bot 2.") == 2
        assert re.search(r"Your (bid \[[\d/]+\]|card) \(\d+ s left; ", screen)
        assert len(re.findall(r"Game over\. Winners?: .+\.", screen)) == 2
        assert re.search(r"Final scores: Ana -?\d+, Bea -?\d+, Bot 2 -?\d+\.", screen)
        assert re.search(r"Rematch at table [2-9A-Z]{4}-[2-9A-Z]{4}: you keep seat", screen)
    # Each saw the other's moves told as theirs (no clock ran out on anyone), and while
    # waiting, whose turn it was.
    assert re.search(r"Bea (bids|plays) ", ana.screen) and "Bea to " in ana.screen
    assert re.search(r"Ana (bids|plays) ", bea.screen) and "Ana to " in bea.screen
    assert "stand-in" not in ana.screen + bea.screen


def away_and_back(
    ana: Terminal,
    url: str,
    prompt: re.Pattern[str],
    answer: Callable[[Terminal], object],
    bea_moves: Callable[[PochaClient, str, dict[str, Any]], object],
    over: str,
) -> None:
    """Ana's terminal made a table at `url` with a clock of 2 s and one open seat for
    Bea (the Python client), who takes it and, on her turns, moves (`bea_moves(bea,
    game_id, view)`) until the game's phase is `over`. Ana leaves her first `prompt`
    unanswered: the stand-in decides for her, twice, and her seat is away; what she
    `answer`s then comes too late, and brings her back; she answers on to the end. Checks
    that her terminal told it all, and that her seat went away and came back once each."""
    api = PochaClient(url)
    deadline = time.monotonic() + scaled(LONG)
    finished = threading.Event()
    try:
        while not (found := TABLE.search(ana.screen)):
            assert ana.read(0.2) and time.monotonic() < deadline, ana.screen
        taken = api.join(found["code"], "Bea")
        bea, game_id = api.joined(taken), taken["game_id"]

        def play_bea() -> None:
            while not finished.is_set():
                view = bea.view(game_id)
                if view["phase"] == over:
                    return
                if view["turn"] == 1:
                    with contextlib.suppress(ApiError):  # too late: the stand-in played
                        bea_moves(bea, game_id, view)
                time.sleep(0.05)

        other = threading.Thread(target=play_bea, daemon=True)
        other.start()
        # Ana's first prompt: left unanswered until her seat is away.
        while prompt.search(ana.screen) is None:
            assert ana.read(0.2) and time.monotonic() < deadline, ana.screen
        while not api.view(game_id)["players"][0]["away"]:
            assert time.monotonic() < deadline, "Ana was never away"
            ana.read(0.2)
        answer(ana)
        while ana.read(0.1):
            assert time.monotonic() < deadline, ana.screen[-3000:]
            answer(ana)
        assert ana.process.wait(timeout=scaled(LONG)) == 0
        other.join(timeout=scaled(LONG))
    finally:
        finished.set()
        ana.close()
    screen = ana.screen
    assert "Bea takes seat 2." in screen and "The game starts: Ana, Bea and Bot 2." in screen
    assert "You are away: your stand-in plays your turns." in screen
    assert "Too late: your stand-in has been playing for you. You are back now." in screen
    assert "You are back." in screen
    assert re.search(r"Game over\. Winners?: .+\.", screen)
    events = api.events(game_id)
    assert [e["type"] for e in events if e.get("seat") == 0 and e["type"].startswith("seat_")] == [
        "seat_away", "seat_back"
    ]  # fmt: skip


def test_away_in_the_terminal_and_back_by_typing_a_move(live_service: LiveService) -> None:
    """Ana (a terminal) and Bea (the Python client) at one table with a clock of 2 s. Ana
    leaves her first prompt unanswered: the stand-in plays for her, twice, and her seat is
    away; the move she types then comes too late, and brings her back. Both play on to the
    end; Ana's terminal told it all."""
    ana = Terminal(
        [str(POCHA), "play", "--url", live_service.url, "--players", "3", "--level", "random",
         "--schedule", "3", "--open", "1", "--turn-seconds", "2", "--stand-in", "random",
         "--name", "Ana"]
    )  # fmt: skip

    def bea_plays(bea: PochaClient, game_id: str, view: dict[str, Any]) -> None:
        bea.act(game_id, view["you"]["legal"][0], version=view["version"])

    away_and_back(ana, live_service.url, PROMPT, answer_prompt, bea_plays, over="finished")
    assert re.search(r"Your stand-in (bids \d|plays [OCEB]\d)", ana.screen)


def test_the_lobby_in_the_terminal_shows_codes_never_tokens(live_service: LiveService) -> None:
    api = PochaClient(live_service.url)
    created = api.create_game(
        ["Ana", OPEN, OPEN], rules={"schedule": [1], "turn_seconds": 30}, listed=True
    )
    hidden = api.create_game(["Ana", OPEN, {"name": "Bot", "bot": "easy"}])
    result = CliRunner(env={"COLUMNS": "200"}).invoke(pocha, ["lobby", "--url", live_service.url])
    assert result.exit_code == 0, result.output
    assert created["table_code"] in result.output and "30 s a turn" in result.output
    assert "Ana, (open), (open)" in result.output
    assert hidden["table_code"] not in result.output
    assert "pocha play --join CODE" in result.output
    tokens = [created["host_token"], created["seats"][0]["token"]]
    assert not any(token in result.output for token in tokens)
    result = CliRunner().invoke(pocha, ["lobby", "--url", f"http://127.0.0.1:{free_port()}"])
    assert result.exit_code == 2 and "Cannot reach the Pocha service" in result.output


def test_the_lobby_in_the_terminal_is_the_signed_up_accounts(
    live_service: LiveService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Signed up, `pocha lobby` reads the account's lobby (it sends the kept key): a table
    made by an account that blocks it is left out, while a terminal with no account kept
    still lists it; a kept key that opens no account is said with the way back in."""
    url = live_service.url
    config = tmp_path / "config"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    kept = _signed_up(url, config)
    pest = PochaClient(url).create_account(f"Pest{tmp_path.name[-6:]}")
    blocking = urllib.request.Request(
        url + "/api/v1/account/blocks",
        json.dumps({"account": kept["id"]}).encode(),
        {"X-Pocha-Account": pest["key"], "Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(blocking, timeout=scaled(LONG)) as answer:
        assert answer.status == 200
    table = PochaClient(url, account_key=pest["key"]).create_game(
        ["Pest", OPEN, OPEN], listed=True
    )["table_code"]
    runner = CliRunner(env={"COLUMNS": "200"})
    result = runner.invoke(pocha, ["lobby", "--url", url])
    assert result.exit_code == 0, result.output
    assert table not in result.output
    nobody = runner.invoke(
        pocha, ["lobby", "--url", url], env={"XDG_CONFIG_HOME": str(tmp_path / "none")}
    )
    assert nobody.exit_code == 0, nobody.output
    assert table in nobody.output
    PochaClient(url, account_key=kept["key"]).replace_account_key(kept["id"])
    refused = runner.invoke(pocha, ["lobby", "--url", url])
    assert refused.exit_code == 1, refused.output
    assert str(config_file()) in " ".join(refused.output.split())


def test_joining_a_full_table_or_no_table_is_a_clean_error(live_service: LiveService) -> None:
    api = PochaClient(live_service.url)
    created = api.create_game(["Ana", OPEN, {"name": "Bot", "bot": "easy"}])
    api.join(created["table_code"], "Bea")
    runner = CliRunner(env={"COLUMNS": "200"})
    url = ["--url", live_service.url]
    result = runner.invoke(pocha, ["play", *url, "--join", created["table_code"], "--name", "Eva"])
    assert result.exit_code == 2, result.output
    assert "Cannot join the table: " in result.output and "started" in result.output
    result = runner.invoke(pocha, ["play", *url, "--join", "2222-2222"])
    assert result.exit_code == 2, result.output
    assert "Cannot join the table: " in result.output
    result = runner.invoke(pocha, ["play", *url, "--open", "4", "--players", "4"])
    assert result.exit_code == 2, result.output
    assert "Cannot create the game: open seats: 0 to 3 beside yours, not 4." in result.output


# -- what the terminal says at a table ----------------------------------------------------------


def at_table(names: list[str], **seat_states: dict[str, Any]) -> list[dict[str, Any]]:
    """The `players` of a view at a table: everyone here, unless `seat_states` says."""
    players = [
        {"seat": i, "name": n, "bot": None, "open": False, "present": True, "away": False,
         "left": False, "stand_in": None}
        for i, n in enumerate(names)
    ]  # fmt: skip
    for seat, state in seat_states.items():
        players[int(seat[1:])].update(state)
    return players


def test_the_seats_show_the_clock_and_who_is_away_left_or_offline() -> None:
    game, console = seated(["Ana", "Bea", "Carla"])
    players = at_table(
        ["Ana", "Bea", "Carla"],
        s1={"away": True, "stand_in": "medium"},
        s2={"present": False},
    )
    console.print(game.table(a_view(players=players, seconds_left=41.6, deadline=1.0)))
    shown = console.export_text()
    assert "Your turn to play · 42 s on your clock" in shown
    assert re.search(r"▶ +Ana \(you\) .* ⏱ 42 s", shown)
    assert re.search(r"Bea .* away \(stand-in: medium\)", shown)
    assert re.search(r"Carla .* offline", shown)
    game.players = at_table(["Ana", "Bea", "Carla"], s2={"left": True, "stand_in": "easy"})
    said = game.turn_text(a_view(turn=1, phase="bidding", seconds_left=7.2))
    assert said.plain == "Bea to bid · 7 s left · Carla left (stand-in: easy)"


def test_the_stand_in_and_the_comings_and_goings_are_told() -> None:
    game, _ = seated(["Ana", "Bea", "Carla"], seat=1)

    def said(event: dict[str, Any]) -> str:
        told = game.describe({"seq": 1, **event})
        assert told is not None
        return told.plain

    assert said({"type": "bid", "seat": 0, "bid": 1, "by": "stand_in"}) == (
        "Ana's stand-in bids 1."
    )
    assert said({"type": "card_played", "seat": 1, "card": "O1", "by": "stand_in"}) == (
        "Your stand-in plays O1 (as de oros)"
    )
    assert said({"type": "bid", "seat": 1, "bid": 0}) == "You bid 0."
    assert said({"type": "seat_taken", "seat": 2, "name": "Carla"}) == "Carla takes seat 3."
    assert said({"type": "seat_bot", "seat": 2, "bot": "hard"}) == "A hard bot takes seat 3."
    assert said({"type": "seat_opened", "seat": 2}) == "Seat 3 is open again."
    assert said({"type": "game_started"}) == "\nThe game starts: Ana, Bea and Carla."
    assert said({"type": "seat_away", "seat": 0}) == (
        "Ana is away: the stand-in plays their turns."
    )
    assert said({"type": "seat_away", "seat": 1}) == (
        "You are away: your stand-in plays your turns."
    )
    assert said({"type": "seat_back", "seat": 0}) == "Ana is back."
    assert said({"type": "seat_left", "seat": 2}) == (
        "Carla left the table: the stand-in plays that seat to the end."
    )


class Table_(PochaClient):
    """The API as far as a seat at a table goes: what was asked, and a view to answer."""

    def __init__(self, view: dict[str, Any]) -> None:
        super().__init__("http://127.0.0.1:9")
        self.asked: list[str] = []
        self.answer = view

    def view(self, game_id: str) -> dict[str, Any]:
        return self.answer

    def come_back(self, game_id: str, seat: int) -> dict[str, Any]:
        self.asked.append(f"return {seat}")
        return self.answer

    def start(self, game_id: str, bots: str | None = None) -> dict[str, Any]:
        self.asked.append(f"start {bots}")
        return self.answer

    def act(self, game_id: str, action: int | str, *, version: int | None = None) -> Any:
        raise ApiError(412, {"error": "stale_version", "message": "the game is at version 12"})


def test_an_away_seat_comes_back_on_enter() -> None:
    console = Console(record=True, width=140, no_color=True)
    lines = iter([None, ""])
    players = at_table(["Ana", "Bea", "Carla"], s0={"away": True, "stand_in": "medium"})
    view = a_view(players=players, turn=1)
    api = Table_(view)
    game = TerminalGame(api, console, line=lambda _: next(lines))
    game.names, game.players, game.at_table, game.me = ["Ana", "Bea", "Carla"], players, True, api
    game.away(view)  # nothing typed yet
    assert api.asked == []
    game.away(view)  # Enter
    assert api.asked == ["return 0"]
    shown = console.export_text()
    assert shown.count("You are away: your stand-in (medium bot) plays your turns.") == 1
    assert "Press Enter to come back, q to leave the table." in shown


def test_a_move_typed_too_late_says_so_and_comes_back() -> None:
    console = Console(record=True, width=140, no_color=True)
    players = at_table(["Ana", "Bea", "Carla"], s0={"away": True, "stand_in": "medium"})
    api = Table_(a_view(players=players, turn=1))
    game = TerminalGame(api, console, ask=lambda _: "1")
    game.names, game.at_table, game.me = ["Ana", "Bea", "Carla"], True, api
    game.take_turn(a_view(players=at_table(["Ana", "Bea", "Carla"]), seconds_left=3.0))
    assert api.asked == ["return 0"]
    assert "Too late: your stand-in has been playing for you. You are back now." in (
        console.export_text()
    )
    # Not away, the turn gone: the clock ran out once.
    api.answer = a_view(players=at_table(["Ana", "Bea", "Carla"]), turn=2)
    game.take_turn(a_view(players=at_table(["Ana", "Bea", "Carla"]), seconds_left=3.0))
    assert "Too late: your clock ran out, and your stand-in played for you." in (
        console.export_text()
    )


def test_the_waiting_room_fills_and_the_host_starts_it() -> None:
    console = Console(record=True, width=140, no_color=True)
    players = at_table(["Ana", "", ""], s1={"open": True}, s2={"present": False})
    players[2]["name"] = "Bea"
    table = {"code": "K7QM-3XHP", "listed": False, "waiting": True, "open_seats": 1}
    view = a_view(phase="waiting", turn=None, players=players, table=table)
    api = Table_(view)
    lines = iter(["x", "s"])
    game = TerminalGame(api, console, line=lambda _: next(lines))
    game.host, game.level, game.at_table = api, "easy", True
    game.look_at(view)
    game.waiting_room(view)
    game.waiting_room(view)
    assert api.asked == ["start easy"]
    shown = console.export_text()
    assert "Table K7QM-3XHP" in shown
    assert re.search(r"1 │ Ana \(you\) +│ here", shown)
    assert re.search(r"2 │ \(open\) +│ waiting for someone", shown)
    assert re.search(r"3 │ Bea +│ offline", shown)
    assert shown.count("Table K7QM-3XHP") == 1  # the room is shown again only when it changes
    assert "Type s to start now, or q to leave." in shown


def test_a_game_gone_meanwhile_is_a_clean_end() -> None:
    class Gone(PochaClient):
        def events(self, game_id: str, after: int = 0) -> list[dict[str, Any]]:
            raise ApiError(404, {"error": "game_not_found", "message": "no game g1"})

    console = Console(record=True, width=140, no_color=True)
    game = TerminalGame(Gone("http://127.0.0.1:9"), console)
    game.game_id = "g1"
    assert game.run() == 1
    assert console.export_text() == "The service says: No game g1.\n"


def _signed_up(url: str, config: Path) -> dict[str, str]:
    """An account made with `pocha signup`, its key kept under `config`: {id, name, key}."""
    name = f"Keyed{config.parent.name[-6:]}"
    made = CliRunner().invoke(pocha, ["signup", "--url", url, "--name", name])
    assert made.exit_code == 0, made.output
    kept = load_account(url)
    assert kept is not None
    return kept


def _playing_as_account(url: str, config: Path, schedule: str, **env: str) -> Terminal:
    """`pocha play` against two random bots, as the account kept under `config`."""
    return Terminal(
        [str(POCHA), "play", "--url", url, "--players", "3", "--level", "random",
         "--schedule", schedule],
        {"XDG_CONFIG_HOME": str(config), **env},
    )  # fmt: skip


def _first_prompt(terminal: Terminal) -> None:
    """Wait until the terminal asks for its first move (not answered yet)."""
    deadline = time.monotonic() + scaled(LONG)
    while PROMPT.search(terminal.screen) is None:
        assert terminal.read(0.2), terminal.screen[-3000:]
        assert time.monotonic() < deadline, terminal.screen[-3000:]


def test_a_key_replaced_in_another_terminal_mid_game_plays_on(
    live_service: LiveService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ana plays bots in a terminal as her account; at her first prompt, `pocha new-key`
    (another terminal) replaces the key and saves the new one: the seat's token opens
    nothing now, and the version moved on. The move she types goes through with the saved
    key, with nothing said, and she plays to the end."""
    config = tmp_path / "config"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    url = live_service.url
    kept = _signed_up(url, config)
    terminal = _playing_as_account(url, config, "1,2")
    try:
        _first_prompt(terminal)
        replaced = CliRunner().invoke(pocha, ["new-key", "--url", url])
        assert replaced.exit_code == 0, replaced.output
        now = load_account(url)
        assert now is not None and now["key"] != kept["key"]
        deadline = time.monotonic() + scaled(LONG)
        while terminal.read(0.2):
            assert time.monotonic() < deadline, terminal.screen[-3000:]
            answer_prompt(terminal)
        assert terminal.process.wait(timeout=scaled(LONG)) == 0, terminal.screen[-3000:]
    finally:
        terminal.close()
    screen = terminal.screen
    assert re.search(r"Game over\. Winners?: .+\.", screen), screen[-3000:]
    assert "The service says" not in screen and "Error" not in screen, screen[-3000:]
    # Both hands were played at the terminal: the key took the seat, the game went on.
    assert len(PROMPT.findall(screen)) >= 2 + 3


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en_GB.UTF-8", "Your seat in game {game} no longer opens"),
        ("es_ES.UTF-8", "Tu asiento en la partida {game} ya no se abre"),
    ],
)
def test_a_key_replaced_where_the_terminal_never_saw_it_is_told_with_the_way_back_in(
    live_service: LiveService,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    lang: str,
    said: str,
) -> None:
    """The key replaced as the web page does, the file keeping the key before: the seat's
    token and the saved key are both refused at the next move, and the terminal says so in
    its language, with the way back in, and ends."""
    config = tmp_path / "config"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    url = live_service.url
    kept = _signed_up(url, config)
    terminal = _playing_as_account(
        url, config, "1", LANG=lang, LANGUAGE="", LC_ALL="", LC_MESSAGES=""
    )
    try:
        _first_prompt(terminal)
        game_id = re.search(r"(?:Game|Partida) (\S+) (?:created|creada)", terminal.screen)
        assert game_id is not None, terminal.screen
        PochaClient(url, account_key=kept["key"]).replace_account_key(kept["id"])
        assert answer_prompt(terminal)
        deadline = time.monotonic() + scaled(LONG)
        while terminal.read(0.2):
            assert time.monotonic() < deadline, terminal.screen[-3000:]
        assert terminal.process.wait(timeout=scaled(LONG)) == 1, terminal.screen[-3000:]
    finally:
        terminal.close()
    sentence = " ".join(terminal.screen.split())
    assert said.format(game=game_id[1]) in sentence, sentence[-3000:]
    assert str(config_file()) in sentence and "pocha signup --name" in sentence
    assert "pocha new-key" in sentence
    assert load_account(url) == kept  # the file is left as it was


def test_a_digit_that_is_no_number_is_asked_again() -> None:
    # `²` is a digit to str.isdigit but no number to int(): asked again, not a traceback.
    game, _ = seated(["Ana", "Bot 1", "Bot 2"])
    bidding = a_view(phase="bidding", you={"seat": 0, "hand": ["O1"], "legal": [0, 1]})
    assert game.parse("²", bidding) is None
    assert game.parse("²", a_view()) is None


def test_a_name_like_one_at_the_table_is_asked_again(live_service: LiveService) -> None:
    """Two people who both keep the default name, or any two whose names look alike: the
    second is told why and asked for another name in the terminal, and sits by it; giving
    none ends with the refusal."""
    api = PochaClient(live_service.url)
    created = api.create_game(["You", OPEN, OPEN])
    code = created["table_code"]
    runner = CliRunner(env={"COLUMNS": "200"})
    url = ["--url", live_service.url]
    given_up = runner.invoke(pocha, ["play", *url, "--join", code], input="\n")
    assert given_up.exit_code == 2, given_up.output
    said = " ".join(given_up.output.split())
    assert "looks too much like the name of someone at this table already, You" in said
    assert "Another name (Enter to give up):" in said
    assert said.count("Cannot join the table: ") == 1, said
    # Asked again until a name is free (the terminal then sits and plays as `play` does).
    console, answers = Console(file=io.StringIO(), width=200), iter(["yoU", "Eva"])
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        return next(answers)

    taken, name = join_by_a_name(PochaClient(live_service.url), code, "You", console, ask)
    assert (taken["seat"], name) == (1, "Eva")
    assert asked == ["Another name (Enter to give up): "] * 2
    said = " ".join(console.file.getvalue().split())
    assert said.count("looks too much like the name of someone at this table already") == 2
    names = [p["name"] for p in api.view(created["id"])["players"]]
    assert names[:2] == ["You", "Eva"], names
