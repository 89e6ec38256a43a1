"""`pocha play --game poch` in a real terminal (a pty) against the real service (a live
gunicorn, Redis and a worker, as tests/client/test_terminal.py has them): a short game of
Poch against two bots played to the end by answering its prompts as a person would (a bad
bet and a hint on the way), its end checked against the game the API holds; and a Poch
table made in one terminal (`--open 1`) and joined from another (`--join CODE`, which finds
the game from the table), both playing it to the end; a seat whose clock runs out until
it is away, and comes back; options and levels of the wrong game refused. What the
terminal says line by line, without a service: tests/client/test_poch_terminal_lines.py."""

from __future__ import annotations

import re
import time
from typing import Any

from click.testing import CliRunner

from cli.main import pocha
from client.api import PochaClient
from tests.client.test_terminal import Terminal, away_and_back
from tests.live import POCHA, LiveService
from tests.waiting import LONG, scaled

PROMPT = re.compile(
    r"(?:Your bet \[(?P<bets>[^\]]+)\]|Your start card \[(?P<starts>[^\]]+)\]"
    r"|Next suit \[(?P<suits>[^\]]+)\]) \([^)]*\): "
)
REMATCH = "A rematch, same seats and rules? (y/N): "
TABLE = re.compile(r"Table (?P<code>[2-9A-Z]{4}-[2-9A-Z]{4}) is waiting for 1 player")
FINAL = re.compile(r"Final chips: (?P<chips>.+)\.")


def answer(terminal: Terminal, bets: list[str] | None = None) -> bool:
    """Answer the terminal's newest prompt as a person would: the next of `bets` (typed
    as they are, wrong ones too), else pass; the first start card; the first suit left;
    no to a rematch. False if it shows none yet."""
    prompt = PROMPT.search(terminal.screen, terminal.read_to)
    rematch = terminal.screen.find(REMATCH, terminal.read_to)
    if rematch >= 0 and (prompt is None or rematch < prompt.start()):
        terminal.read_to = rematch + len(REMATCH)
        terminal.type("n")
        return True
    if prompt is None:
        return False
    terminal.read_to = prompt.end()
    if prompt["bets"] is not None:
        terminal.type(bets.pop(0) if bets else "pass")
    elif prompt["starts"] is not None:
        terminal.type("1")
    else:
        terminal.type(prompt["suits"].split("/")[0])
    return True


def final_chips(screen: str) -> list[int]:
    found = FINAL.search(screen)
    assert found, screen[-2000:]
    return [int(part.rsplit(" ", 1)[1]) for part in found["chips"].split(", ")]


def test_a_short_poch_game_in_the_terminal(live_service: LiveService) -> None:
    terminal = Terminal(
        [str(POCHA), "play", "--game", "poch", "--url", live_service.url, "--players", "3",
         "--level", "random", "--deals", "2", "--chips", "20", "--seed", "2"]
    )  # fmt: skip
    # No name given: the person sits as You, and is told whom they play, not "you are You".
    # A bet of more than anyone holds (refused here, asked again), a hint, then 1 chip
    # (a bet if nobody has bet, else a raise if it is legal: else refused here, too).
    bets = ["9999", "?", "1"]
    deadline = time.monotonic() + scaled(LONG)
    try:
        while terminal.read(0.2):
            assert time.monotonic() < deadline, terminal.screen[-3000:]
            answer(terminal, bets)
        assert terminal.process.wait(timeout=scaled(LONG)) == 0
    finally:
        terminal.close()
    screen = terminal.screen
    created = re.search(r"Game (\S+) created: you play against 2 random bots\. Type \?", screen)
    assert created, screen[:2000]
    assert not bets, "fewer bet prompts than answers"
    # The 9999 refused here (the amounts Ana may pay, or none if a bot bet more).
    assert re.search(r"You have \d+ chips: (bet|raise to) |You cannot pay more than", screen)
    assert re.search(r"Hint \(\w+\): (pass|hold|bet \d+)", screen), screen
    for deal in (1, 2):
        assert f"Deal {deal} of 2." in screen
    assert re.search(r"Trump: [♣♠♥♦] (Kreuz|Pik|Herz|Karo)\.", screen)
    assert re.search(
        r"Board: Ass \d+ · König \d+ · Dame \d+ · Bube \d+ · Zehn \d+ · Mariage \d+ · "
        r"Sequenz \d+ · Poch \d+ · pot \(Kasse\) \d+",
        screen,
    )
    assert "Your turn to bet" in screen and "Your hand:" in screen
    assert re.search(r"Bot [12] (passes|bets \d+|holds at \d+|raises to \d+)", screen)
    # The seed's deals (and its bots' seeded choices) give Ana a start and a suit to choose.
    assert re.search(r"Start with: 1\) \w+ \(\w+-(Sieben|Ass)\), (up|down)wards", screen)
    assert re.search(r"You start the shedding (upwards|downwards)", screen)
    assert re.search(r"Suits left: ", screen) and re.search(r"You choose [♣♠♥♦] \w+\.", screen)
    assert len(re.findall(r"(has|have) no cards left and wins? deal \d", screen)) == 2
    assert re.search(r"Game over\. Winners?: .+\.", screen)
    # The end the terminal told is the game's, as the API holds it.
    view = PochaClient(live_service.url).view(created[1])
    assert view["game"] == "poch" and view["phase"] == "over"
    assert final_chips(screen) == view["result"]["chips"]


def test_a_poch_table_opened_in_one_terminal_and_joined_from_another(
    live_service: LiveService,
) -> None:
    """Ana opens a Poch table with a seat for a person and a bot; Bea joins it by the
    code Ana's terminal shows, without saying the game (the table's view does); both play
    it to the end, each in their own terminal, with the clock of a table of two people."""
    ana = Terminal(
        [str(POCHA), "play", "--game", "poch", "--url", live_service.url, "--players", "3",
         "--level", "random", "--deals", "1", "--chips", "16", "--open", "1", "--name", "Ana",
         "--seed", "8"]
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
                bea = Terminal(
                    [str(POCHA), "play", "--url", live_service.url, "--join", code,
                     "--name", "Bea"]
                )  # fmt: skip
        running = {"ana": True, "bea": True}
        bets = {"ana": ["1"], "bea": ["1"]}  # each opens with 1 chip if it may, once
        while any(running.values()):
            assert time.monotonic() < deadline, ana.screen[-2000:] + bea.screen[-2000:]
            for who, terminal in (("ana", ana), ("bea", bea)):
                if running[who]:
                    running[who] = terminal.read(0.1)
                    answer(terminal, bets[who])
        assert ana.process.wait(timeout=scaled(LONG)) == 0
        assert bea.process.wait(timeout=scaled(LONG)) == 0
    finally:
        ana.close()
        if bea is not None:
            bea.close()
    assert "Bea takes seat 2." in ana.screen
    assert f"You sit at table {code} as Bea, in seat 2." in bea.screen
    for screen in (ana.screen, bea.screen):
        assert "The game starts: Ana, Bea and Bot 2." in screen
        # The deal dealt while the table waited is told once, after the start.
        assert screen.count("Deal 1 of 1.") == 1
        assert screen.index("The game starts") < screen.index("Deal 1 of 1.")
        assert re.search(r"Your bet \[[^\]]+\] \((hold costs \d+; )?\d+ s left; ", screen)
        assert re.search(r"Game over\. Winners?: .+\.", screen)
    assert final_chips(ana.screen) == final_chips(bea.screen)
    assert re.search(r"Bea (passes|bets \d+|holds at \d+|raises to \d+)", ana.screen)
    assert re.search(r"Ana (passes|bets \d+|holds at \d+|raises to \d+)", bea.screen)
    assert "stand-in" not in ana.screen + bea.screen


def test_away_at_a_poch_table_and_back_by_typing(live_service: LiveService) -> None:
    """Ana (a terminal) and Bea (the Python client) at a Poch table with a clock of 2 s.
    Ana leaves her first prompt unanswered: the stand-in decides for her, twice, and her
    seat is away; what she types then comes too late, and brings her back. Both play on
    to the end; Ana's terminal told it all."""
    ana = Terminal(
        [str(POCHA), "play", "--game", "poch", "--url", live_service.url, "--players", "3",
         "--level", "random", "--deals", "3", "--chips", "30", "--open", "1",
         "--turn-seconds", "2", "--stand-in", "random", "--name", "Ana", "--seed", "3"]
    )  # fmt: skip

    def bea_moves(bea: PochaClient, game_id: str, view: dict[str, Any]) -> None:
        if view["you"]["legal"]:
            bea.poch_act(game_id, view["you"]["legal"][0], version=view["version"])

    away_and_back(ana, live_service.url, PROMPT, answer, bea_moves, over="over")
    assert re.search(
        r"Your stand-in (passes|bets \d+|holds at \d+|raises to \d+|starts the shedding"
        r"|chooses)",
        ana.screen,
    ), ana.screen


def test_the_other_games_options_and_levels_are_clean_errors(live_service: LiveService) -> None:
    runner = CliRunner(env={"COLUMNS": "200"})
    url = ["--url", live_service.url]
    result = runner.invoke(pocha, ["play", *url, "--game", "poch", "--schedule", "1,2"])
    assert result.exit_code == 2, result.output
    assert "Cannot create the game: schedule is Pocha's option; Poch has chips, ante and " in (
        result.output
    )
    result = runner.invoke(pocha, ["play", *url, "--chips", "30", "--deals", "2"])
    assert result.exit_code == 2, result.output
    assert "Cannot create the game: chips, deals: Poch's options, not Pocha's." in result.output
    result = runner.invoke(pocha, ["play", *url, "--game", "poch", "--level", "grandmaster"])
    assert result.exit_code == 2, result.output
    assert "Cannot create the game: bot: " in result.output and "heuristic" in result.output
    result = runner.invoke(pocha, ["play", *url, "--game", "poch", "--chips", "7"])
    assert result.exit_code == 2, result.output
    assert "Cannot create the game: " in result.output and "chips" in result.output
