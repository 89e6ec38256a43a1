"""``pocha bench ismcts``: ISMCTS iterations per second, one process.

The positions are the first card of a 4-player hand of 5 and of 10 cards
(bids made), from fixed seeds, searched with the default bot for a fixed
time; the figure is iterations done over time taken.
"""

from __future__ import annotations

import random

from ai.bot import Budget
from ai.ismcts import ISMCTSBot
from engine.game import Game
from engine.observation import Observation, observe
from engine.rules import Rules


def first_card_position(cards: int, seed: int = 1, players: int = 4) -> Observation:
    """The observation of la mano at the first card of a hand of ``cards``."""
    game = Game.new(Rules(players=players, schedule=[cards]), seed)
    rng = random.Random(seed)
    while game.phase == "bidding":
        seat = game.turn
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_actions()))
    seat = game.turn
    assert seat is not None
    return observe(game, seat)


def run(seconds: float = 2.0, seed: int | None = None, playout: str = "greedy") -> list[str]:
    seed = 1 if seed is None else seed
    bot = ISMCTSBot(playout=playout)
    lines = []
    for cards in (5, 10):
        obs = first_card_position(cards, seed)
        bot.search(obs, Budget(iterations=200), seed)  # warm up
        _, iterations, elapsed = bot.search(obs, Budget(milliseconds=seconds * 1000), seed)
        lines.append(f"ismcts {cards}-card: {iterations / elapsed:.0f} iterations/s")
    return lines
