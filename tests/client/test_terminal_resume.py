"""`pocha play --resume` in a real terminal (a pty) against the real service: a game against
bots quit with q stays the account's, and the terminal says how to come back; `--resume`
alone plays on the account's only game in play to its end, picks from their list when
there are several (Pocha and Poch), and with a game's id plays on that one; without an
account, or with a game that is not the account's, it is a clean error. `--join` a table
where the account sits already opens its seat the same way."""

from __future__ import annotations

import io
import re
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from cli.main import pocha
from client.account import load_account
from client.api import OPEN, PochaClient, Seat
from client.terminal import pick_game
from tests.client import test_poch_terminal as poch
from tests.client.test_terminal import PROMPT, Terminal, answer_prompt
from tests.live import POCHA, LiveService
from tests.waiting import LONG, scaled

#: A line of the list of games in play: its number, the game and the game's id.
LISTED = re.compile(r"^[^\d\n]*(?P<n>\d+)\s+│?\s*(?P<game>Pocha|Poch) (?P<id>\S+)", re.MULTILINE)
BACK = re.compile(r"Back in game (?P<id>\S+) as (?P<name>.+?), in seat (?P<seat>\d+)\.")


def signed_up(url: str, config: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """An account made with `pocha signup`, its key kept under `config`."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    made = CliRunner().invoke(
        pocha, ["signup", "--url", url, "--name", f"Back{config.parent.name[-6:]}"]
    )
    assert made.exit_code == 0, made.output
    kept = load_account(url)
    assert kept is not None
    return kept


def run(config: Path, *args: str) -> Terminal:
    return Terminal([str(POCHA), "play", *args], {"XDG_CONFIG_HOME": str(config)})


def wait_for(terminal: Terminal, pattern: re.Pattern[str] | str) -> re.Match[str]:
    """What the terminal shows that matches `pattern`, once it shows it."""
    deadline = time.monotonic() + scaled(LONG)
    while True:
        found = re.search(pattern, terminal.screen)
        if found:
            return found
        assert terminal.read(0.2), terminal.screen[-3000:]
        assert time.monotonic() < deadline, terminal.screen[-3000:]


def quit_at_prompt(terminal: Terminal, prompt: re.Pattern[str], game_id: str) -> None:
    """Quit game `game_id` at the terminal's first prompt, as a person typing q: the
    terminal ends (0) saying how to play on."""
    wait_for(terminal, prompt)
    terminal.type("q")
    while terminal.read(0.2):
        pass
    assert terminal.process.wait(timeout=scaled(LONG)) == 0, terminal.screen[-3000:]
    assert f"To play on later: pocha play --resume {game_id}" in terminal.screen


def made_and_quit(config: Path, prompt: re.Pattern[str], *args: str) -> str:
    """A game against bots made by `pocha play` with `args`, quit at its first prompt: its id."""
    terminal = run(config, *args)
    try:
        game_id = wait_for(terminal, r"Game (\S+) created")[1]
        quit_at_prompt(terminal, prompt, game_id)
    finally:
        terminal.close()
    return game_id


def play_out(terminal: Terminal, answer: object) -> None:
    """Answer every prompt until the terminal ends, with 0."""
    deadline = time.monotonic() + scaled(LONG)
    while terminal.read(0.2):
        assert time.monotonic() < deadline, terminal.screen[-3000:]
        answer(terminal)  # type: ignore[operator]
    assert terminal.process.wait(timeout=scaled(LONG)) == 0, terminal.screen[-3000:]


def test_a_game_quit_is_played_on_to_its_end_with_resume(
    live_service: LiveService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url, config = live_service.url, tmp_path / "config"
    kept = signed_up(url, config, monkeypatch)
    game_id = made_and_quit(
        config, PROMPT, "--url", url, "--players", "3", "--level", "random", "--schedule", "1,2"
    )

    # The account's only game in play: --resume alone takes it, and plays it to the end.
    again = run(config, "--url", url, "--resume")
    try:
        back = wait_for(again, BACK)
        assert (back["id"], back["name"], back["seat"]) == (game_id, kept["name"], "1")
        play_out(again, answer_prompt)
    finally:
        again.close()
    assert re.search(r"Game over\. Winners?: .+\.", again.screen), again.screen[-3000:]
    assert "The service says" not in again.screen

    # Finished, it is in play no more.
    none = CliRunner().invoke(pocha, ["play", "--url", url, "--resume"])
    assert none.exit_code == 1 and "no game in play" in none.output, none.output


def test_resume_picks_from_the_games_in_play_or_takes_the_one_named(
    live_service: LiveService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url, config = live_service.url, tmp_path / "config"
    signed_up(url, config, monkeypatch)
    bots = ["--url", url, "--players", "3", "--level", "random"]
    ids = {
        "poch": made_and_quit(config, poch.PROMPT, *bots, "--game", "poch", "--deals", "1"),
        "pocha": made_and_quit(config, PROMPT, *bots, "--schedule", "1"),
    }

    # Two games: listed, the latest first; Poch is picked by its number, and quit again.
    picking = run(config, "--url", url, "--resume")
    try:
        wait_for(picking, r"Which game\? \[1-2, q to quit\]: ")
        listed = {m["id"]: (m["n"], m["game"]) for m in LISTED.finditer(picking.screen)}
        assert listed == {ids["pocha"]: ("1", "Pocha"), ids["poch"]: ("2", "Poch")}, listed
        picking.type("2")
        assert wait_for(picking, BACK)["id"] == ids["poch"]
        quit_at_prompt(picking, poch.PROMPT, ids["poch"])
    finally:
        picking.close()

    # Named, that game: Poch, played to its end.
    named = run(config, "--url", url, "--resume", ids["poch"])
    try:
        assert wait_for(named, BACK)["id"] == ids["poch"]
        play_out(named, poch.answer)
    finally:
        named.close()
    assert re.search(r"Game over\. Winners?: .+\.", named.screen), named.screen[-3000:]


def test_resume_needs_the_account_and_one_of_its_games(
    live_service: LiveService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = live_service.url
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "nobody"))
    without = CliRunner().invoke(pocha, ["play", "--url", url, "--resume"])
    assert without.exit_code == 2 and "pocha signup" in without.output, without.output

    signed_up(url, tmp_path / "config", monkeypatch)
    other = CliRunner().invoke(pocha, ["play", "--url", url, "--resume", "NoSuchGame0000"])
    assert other.exit_code == 2 and "Cannot resume" in other.output, other.output


def test_the_pick_takes_a_number_of_the_list_and_nothing_else(live_service: LiveService) -> None:
    """A digit that is no number (`²`) or a number past the list is asked again, not read as
    the game's number nor ended with Python's error."""
    account = PochaClient(live_service.url).create_account(f"Pick{time.time_ns() % 10**6}")
    api = PochaClient(live_service.url, account_key=account["key"])
    bots: list[Seat] = [{"name": "R", "bot": "random"}, {"name": "S", "bot": "random"}]
    made = [api.create_game([{"name": "Ana"}, *bots])["id"] for _ in range(2)]
    answers = iter(["²", "3", "2"])
    shown = Console(file=io.StringIO(), width=200)
    assert pick_game(api, account["id"], shown, lambda _prompt: next(answers)) == made[0]
    assert next(answers, None) is None


def test_joining_a_table_where_the_account_sits_opens_its_seat(
    live_service: LiveService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The account took a seat at a table elsewhere (the web page, another terminal): an
    account sits once at a table, so `pocha play --join CODE` opens that seat with its key,
    as --resume would, rather than failing or taking another: while the table waits, and
    once its game has started (no seat left)."""
    url, config = live_service.url, tmp_path / "config"
    kept = signed_up(url, config, monkeypatch)
    host = PochaClient(url)
    made = host.create_game([OPEN, OPEN, {"name": "Bot", "bot": "random"}])
    taken = PochaClient(url, account_key=kept["key"]).join(made["table_code"], kept["name"])
    assert taken["seat"] == 0

    for started in (False, True):
        if started:
            assert host.join(made["table_code"], "Bea")["seat"] == 1
            assert host.view(made["id"])["phase"] != "waiting"
        joining = run(config, "--url", url, "--join", made["table_code"])
        try:
            back = wait_for(joining, BACK)
            assert (back["id"], back["name"], back["seat"]) == (made["id"], kept["name"], "1")
        finally:
            joining.close()
        seats = host.view(made["id"])["players"]
        assert (seats[0]["open"], seats[0].get("account")) == (False, kept["id"])
        assert (seats[1]["open"], seats[1].get("account")) == (not started, None)
