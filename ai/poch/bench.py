"""Poch's part of ``pocha bench ismcts``: the search's iterations a second and the ``hard``
level's mean time per decision, on the Python engine and search and on the compiled ones
(when built), side by side in one run.

The positions are every decision with a choice in the first deal of 4-player games from
fixed seeds (betting, the start card, the suits), played by the heuristic; each is searched
with the default bot for a share of the time, and the figure is iterations done over time
taken. Each implementation searches in a process of its own, in rounds that take turns, so
that both meet the same load.
"""

from __future__ import annotations

import random
import statistics
import time

from ai.bot import Budget
from ai.poch.heuristic import HeuristicBot
from ai.poch.ismcts import ISMCTSBot
from ai.poch.levels import LEVELS
from engine.implementation import ACTIVE, available, load_average, run_in
from engine.poch.game import Game
from engine.poch.observation import Observation, observe
from engine.poch.rules import Rules

POSITION_GAMES = 4


def positions(seed: int, games: int = POSITION_GAMES) -> list[Observation]:
    """The decisions with a choice in the first deal of ``games`` 4-player games."""
    found = []
    heuristic = HeuristicBot(samples=20)
    for g in range(games):
        game = Game.new(Rules(players=4, deals=1), seed + g)
        step = 0
        while game.phase != "over":
            seat = game.turn
            assert seat is not None
            obs = observe(game, seat)
            if len(game.legal_actions()) > 1:
                found.append(obs)
            game.apply(seat, heuristic.decide(obs, seed=random.Random(step).getrandbits(32)).action)
            step += 1
    return found


def implementation() -> str:
    kinds = {ACTIVE["engine.poch"], ACTIVE["ai.poch"]}
    return kinds.pop() if len(kinds) == 1 else "mixed"


def iterations_per_second(seconds: float, seed: int) -> dict[str, object]:
    """Search every position for a share of ``seconds`` in this process, and make the
    ``hard`` level's decision at each: the implementation, the iterations a second, the
    hard decisions' mean milliseconds and the decisions (the same on both)."""
    bot = ISMCTSBot()
    found = positions(seed)
    hard = LEVELS["hard"].budget
    decisions = []
    start = time.perf_counter()
    for i, obs in enumerate(found):
        decisions.append(bot.decide(obs, hard, seed + i).action)
    hard_ms = (time.perf_counter() - start) * 1000.0 / len(found)
    iterations, elapsed = 0, 0.0
    share = Budget(milliseconds=seconds * 1000 / len(found))
    for i, obs in enumerate(found):
        _, done, took = bot.search(obs, share, seed + i)
        iterations += done
        elapsed += took
    return {
        "implementation": implementation(),
        "rate": iterations / elapsed,
        "hard_ms": hard_ms,
        "positions": len(found),
        "decisions": decisions,
    }


def run(seconds: float = 2.0, seed: int | None = None, rounds: int = 3) -> list[str]:
    """Search for about ``seconds`` on each implementation, in ``rounds`` alternating rounds;
    a line per implementation for the iterations a second and for the hard level's mean time
    a decision, then their ratios."""
    seed = 1 if seed is None else seed
    kinds = available()
    rates: dict[str, list[float]] = {k: [] for k in kinds}
    hard: dict[str, list[float]] = {k: [] for k in kinds}
    decisions = set()
    count = 0
    for _ in range(rounds):
        for kind in kinds:
            got = run_in(kind, "ai.poch.bench:iterations_per_second",
                         seconds=seconds / rounds, seed=seed)  # fmt: skip
            if got["implementation"] != kind:
                raise RuntimeError(f"asked for the {kind} engine, ran {got['implementation']}")
            rates[kind].append(got["rate"])
            hard[kind].append(got["hard_ms"])
            decisions.add(tuple(got["decisions"]))
            count = got["positions"]
    if len(decisions) != 1:
        raise RuntimeError("the implementations decided differently on Poch")
    lines = [f"poch ismcts, {count} decisions of the first deal of {POSITION_GAMES} 4-player "
             f"games, {rounds} rounds each"]  # fmt: skip
    for kind in kinds:
        rounds_text = ", ".join(f"{r:.0f}" for r in rates[kind])
        lines.append(f"poch ismcts, {kind}: {statistics.median(rates[kind]):.0f} iterations/s "
                     f"(median of rounds {rounds_text})")  # fmt: skip
    for kind in kinds:
        rounds_text = ", ".join(f"{r:.1f}" for r in hard[kind])
        lines.append(f"poch hard ({LEVELS['hard'].budget.iterations} iterations), {kind}: "
                     f"{statistics.median(hard[kind]):.1f} ms a decision "
                     f"(median of rounds {rounds_text})")  # fmt: skip
    if len(kinds) == 2:
        ratio = statistics.median(rates["compiled"]) / statistics.median(rates["python"])
        lines.append(f"poch ismcts, compiled / python: {ratio:.2f}x")
        faster = statistics.median(hard["python"]) / statistics.median(hard["compiled"])
        lines.append(f"poch hard, python / compiled time a decision: {faster:.2f}x")
    else:
        lines.append("the compiled engine is not built here: the Python one alone")
    lines.append(f"{load_average()} at the end")
    return lines
