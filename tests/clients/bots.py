"""What the tests of the clients' bots share: a service of their own that calls loopback
webhooks and limits nothing (`bot_service`, in conftest.py), accounts made with the Python
client, a game played out from a person's side, and a bot run as a process that must accept
a challenge of either game and play it to the end."""

from __future__ import annotations

import contextlib
import os
import subprocess
import time
from collections.abc import Mapping, Sequence
from typing import Literal

from client.api import ApiError, PochaClient, View
from client.models import NewAccountAnswer
from tests.waiting import LONG, scaled, wait_until


def tag() -> str:
    """A suffix that keeps the accounts of one session's tests apart by name."""
    return str(time.time_ns() % 10**9)


def account(url: str, name: str, kind: Literal["person", "bot"]) -> PochaClient:
    """A client acting as a new account (`name` and a tag): its key makes games and
    challenges, and opens its seats as their token."""
    made: NewAccountAnswer = PochaClient(url).create_account(f"{name}{tag()}", kind)
    assert made["kind"] == kind and made["key"].startswith("pa_")
    return PochaClient(url, token=made["key"], account_key=made["key"])


def first_legal(me: PochaClient, view: View) -> None:
    """This seat's first legal action, sent to its phase's endpoint."""
    game, version = view["id"], view["version"]
    if view["game"] == "pocha":
        if view["phase"] == "bidding":
            me.bid(game, view["you"]["legal"][0], version=version)
        elif view["phase"] == "playing":
            me.play(game, view["you"]["legal"][0], version=version)
    elif view["phase"] == "betting":
        me.bet(game, view["you"]["legal"][0], version=version)
    elif view["phase"] == "starting":
        me.play(game, view["you"]["legal"][0], version=version)
    elif view["phase"] == "choosing":
        me.choose_suit(game, view["you"]["legal"][0], version=version)


def played_out(game_id: str, *players: PochaClient) -> View:
    """The game once over, `players` playing their first legal action at each turn."""
    ended: list[View] = []

    def over() -> bool:
        for player in players:
            view = player.view(game_id)
            if view["phase"] in ("finished", "over"):
                ended.append(view)
                return True
            if "you" in view and view["turn"] == view["you"]["seat"]:
                with contextlib.suppress(ApiError):  # a bot or a clock moved first
                    first_legal(player, view)
        return False

    wait_until(over, LONG, f"game {game_id} to end")
    return ended[-1]


def plays_a_challenge(
    url: str,
    command: Sequence[str],
    env: Mapping[str, str],
    game: Literal["pocha", "poch"],
    rules: Mapping[str, object],
) -> str:
    """What the bot `command` said, run with a new bot account's key (`POCHA_KEY`), once it
    accepted a challenge of `game` from a person and played its seat to the end with no
    clock running out on it."""
    ana = account(url, "Ana", "person")
    made = PochaClient(url).create_account(f"Example{tag()}", "bot")
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, **env, "POCHA_KEY": made["key"]},
    )  # fmt: skip
    try:
        challenge = ana.challenge([{"account": made["id"]}, {"bot": "easy"}], rules, game=game)
        wait_until(
            lambda: ana.find_challenge(challenge["id"])["status"] == "accepted",
            LONG, "the bot to accept", explain=lambda: str(process.poll()),
        )  # fmt: skip
        game_id = ana.find_challenge(challenge["id"])["game_id"]
        assert game_id is not None
        assert played_out(game_id, ana)["phase"] in ("finished", "over")
        turns = PochaClient(url).account(made["id"]).get("turns")
        # Every turn of the bot was its own (none left to a clock's stand-in).
        assert turns is not None and turns["decisions"] > 0 and turns["clocks_ran_out"] == 0
    finally:
        process.terminate()
        said = process.communicate(timeout=scaled(10))[0]
    return said
