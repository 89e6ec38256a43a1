"""Yardsticks: master's search told what no player may know, to measure what knowing it
is worth.
How it works: docs/internals.md, ``ai.pocha.yardstick``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ai.arena import ArenaGame
from ai.bot import Bot, Player
from ai.pocha.arena import make_player_bot, parse_player, play_game
from ai.pocha.ismcts import ISMCTSBot
from ai.pocha.levels import LEVELS, READING_OPTIONS
from engine.pocha.game import Game
from engine.pocha.inference import Knowledge
from engine.pocha.observation import Observation

# What a told seat may be told: the cards out of play, or every hand; or the cards out of
# play at its bids only, or at its plays only (which of the two the knowing is worth).
TOLD = ("undealt", "all", "undealt-bids", "undealt-plays")


def check_told(told: str) -> None:
    """Refuse, with a sentence, what a seat cannot be told."""
    if told not in TOLD:
        raise ValueError(f"told {told!r}: a told seat is told one of {', '.join(TOLD)}")


def told_label(told: str) -> str:
    """The name a told seat goes by in the tables and records."""
    return f"master-told-{told}"


class ToldBot(ISMCTSBot):
    """Master's search for one seat of ``game``, told the game's ``told`` cards."""

    def __init__(self, told: str, game: Game) -> None:
        check_told(told)
        super().__init__(name=told_label(told), **READING_OPTIONS[LEVELS["master"].bot])
        self.told = told
        self.game = game

    def knowledge(self, obs: Observation) -> Knowledge:
        k = super().knowledge(obs)
        if self.told == "undealt-bids" and not obs.bidding:
            return k
        if self.told == "undealt-plays" and obs.bidding:
            return k
        game = self.game
        hands = game.state.hands
        others = [s for s in range(len(hands)) if s != k.observer]
        if self.told == "all":
            for s in others:
                k.present[s] = hands[s]
                k.absent[s] = k.unseen & ~hands[s]
            return k
        dealt = 0
        for cards in game.dealt:
            dealt |= cards
        undealt = k.unseen & ~dealt
        for s in others:
            k.absent[s] |= undealt
        return k


@dataclass(frozen=True)
class ToldPlayer(Player):
    """A told seat in a line-up: ``told`` is what it is told."""

    told: str = "undealt"


def told_lineup(told: str, against: str | None, players: int) -> list[Player]:
    """Told seats alternating with ``against`` (a level or bot, as the arena reads it)
    round the table, or told seats only (self-play) when ``against`` is None."""
    check_told(told)
    master = LEVELS["master"]
    seat = ToldPlayer(told_label(told), master.bot, master.budget, told=told)
    if against is None:
        return [seat] * players
    other = parse_player(against)
    return [seat if s % 2 == 0 else other for s in range(players)]


def _seat_bots(players: Sequence[Player]) -> Callable[[Game], list[Bot]]:
    def make(game: Game) -> list[Bot]:
        return [
            ToldBot(p.told, game) if isinstance(p, ToldPlayer) else make_player_bot(p)
            for p in players
        ]

    return make


def play_told_game(task: ArenaGame) -> dict[str, Any]:
    """One game of an arena run (``ai.pocha.arena.run_arena(..., play=play_told_game)``), its
    told seats told the truth at every decision."""
    return play_game(task.rules, task.seed, task.players, task.deal, _seat_bots(task.players))
