"""One whole game against two bots, played through the typed views: the example an
integrator reads, and what tests/clients/test_python_client_types.py plays under
`mypy --strict`. On each of its seat's turns it tells the view apart by `game`, then by
`phase`, after which `you["legal"]` already has the phase's type (bids, card codes; Poch's
calls, start cards, suits), and sends one entry of it to that phase's endpoint.

    played = play(PochaClient("http://127.0.0.1:8000"), "poch")
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Literal, TypeVar

from client.api import PochaClient, Seat, View
from client.models import GameView, PochGameView

T = TypeVar("T")

#: How often a seat waiting for its turn reads its view again, in seconds.
POLL_SECONDS = 0.1


@dataclass
class Played:
    """How a game went for the seat that played it."""

    game: str
    phase: str = ""
    moves: int = 0
    acted: set[str] = field(default_factory=set)
    winners: list[int] = field(default_factory=list)


def play(api: PochaClient, game: Literal["pocha", "poch"], turn_wait: float = 120.0) -> Played:
    """Create a short game of `game` with seat 0 for us and bots in the others, and play
    it to the end; `TimeoutError` if a turn takes longer than `turn_wait` seconds."""
    seats: list[Seat] = ["Ana", {"name": "B", "bot": "easy"}, {"name": "C", "bot": "random"}]
    if game == "pocha":
        created = api.create_game(seats, rules={"schedule": [1, 2]})
    else:  # each game's rules are its own type: the call is told apart by `game`
        created = api.create_game(seats, rules={"chips": 30, "deals": 2}, game="poch")
    me = api.seat(created, 0)
    played = Played(game)
    while True:
        view = await_turn(me, created["id"], turn_wait)
        if view["game"] == "pocha":
            over = decide_pocha(me, view, played)
        else:
            over = decide_poch(me, view, played)
        if over:
            played.phase = view["phase"]
            return played
        played.acted.add(view["phase"])
        played.moves += 1


def await_turn(me: PochaClient, game_id: str, turn_wait: float) -> View:
    """The view once this seat has something to decide, or the game is over."""
    deadline = time.monotonic() + turn_wait
    while True:
        view = me.view(game_id)
        you = view.get("you")
        if view["phase"] in ("finished", "over") or (you is not None and you["legal"]):
            return view
        if time.monotonic() > deadline:
            raise TimeoutError(f"no turn came in {turn_wait:g} s (phase {view['phase']})")
        time.sleep(POLL_SECONDS)


def pick(legal: list[T], move: int) -> T:
    """An entry of `legal`, a different one from move to move."""
    return legal[move % len(legal)]


def decide_pocha(me: PochaClient, view: GameView, played: Played) -> bool:
    """Make this seat's decision in a Pocha view; whether the game is over instead."""
    if view["phase"] == "finished":
        played.winners = view["winners"]
        return True
    if view["phase"] == "bidding":
        bids: list[int] = view["you"]["legal"]
        me.bid(view["id"], pick(bids, played.moves))
    elif view["phase"] == "playing":
        cards: list[str] = view["you"]["legal"]
        me.play(view["id"], pick(cards, played.moves))
    else:
        raise RuntimeError("the game waits for people to take its seats")
    return False


def decide_poch(me: PochaClient, view: PochGameView, played: Played) -> bool:
    """The same for a Poch view, in each of its phases."""
    if view["phase"] == "over":
        result = view["result"]
        played.winners = [] if result is None else result["winners"]
        return True
    if view["phase"] == "betting":
        calls: list[Literal["pass", "hold"] | int] = view["you"]["legal"]
        me.bet(view["id"], pick(calls, played.moves))
    elif view["phase"] == "starting":
        starts: list[str] = view["you"]["legal"]
        me.play(view["id"], pick(starts, played.moves))
    elif view["phase"] == "choosing":
        suits: list[Literal["C", "S", "H", "D"]] = view["you"]["legal"]
        me.choose_suit(view["id"], pick(suits, played.moves))
    else:
        raise RuntimeError("the game waits for people to take its seats")
    return False
