"""``pocha bench ismcts``: ISMCTS iterations per second, one process.

The positions are the first card of a 4-player hand of 5 and of 10 cards
(bids made), from fixed seeds, searched with the default bot for a fixed
time; the figure is iterations done over time taken.
"""

from __future__ import annotations

import random
import time

from ai.bot import Budget
from ai.pocha.ismcts import ISMCTSBot
from engine.pocha.game import Game
from engine.pocha.observation import Observation, observe
from engine.pocha.rules import Rules


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


def decision_times(
    level: str, games: int = 1, seed: int = 1, rules: Rules | None = None
) -> list[float]:
    """Milliseconds of every decision of ``level`` playing all seats of ``games`` games
    (the classic game by default): the whole spread, from forced cards to first leads of
    ten-card hands, so that its percentiles are those a player at the table meets."""
    from ai.pocha.arena import decision_seed
    from ai.pocha.levels import LEVELS, make_bot

    spec = LEVELS[level]
    times = []
    for g in range(games):
        game = Game.new(rules or Rules(), seed + g)
        bots = [make_bot(spec.bot) for _ in range(game.players)]
        step = 0
        while game.phase != "finished":
            seat = game.turn
            assert seat is not None
            obs = observe(game, seat)
            t0 = time.perf_counter()
            decision = bots[seat].decide(obs, spec.budget, decision_seed(seed + g, seat, step))
            times.append((time.perf_counter() - t0) * 1000.0)
            game.apply(seat, decision.action)
            step += 1
    return times


def percentiles(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    return {
        "decisions": len(ordered),
        "mean": sum(ordered) / len(ordered),
        "p50": at(0.50),
        "p90": at(0.90),
        "p99": at(0.99),
        "max": ordered[-1],
    }
