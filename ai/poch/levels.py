"""The Poch bots and levels by name, as ``ai.levels`` has them for Pocha.

A level is a bot and a budget; ``make_bot`` and ``decide`` are the one door to
them, so a level means the same wherever it is used.  ``hard`` is the budget
the arena measured against the heuristic (docs/poch.md, Bots); ``easy`` and
``medium`` search a sixteenth and a quarter as much.
"""

from __future__ import annotations

from ai.bot import Level
from ai.poch.bot import Bot, Budget, Decision
from ai.poch.heuristic import HeuristicBot
from ai.poch.ismcts import ISMCTSBot
from ai.poch.random_bot import RandomBot
from engine.poch.observation import Observation

LEVELS: dict[str, Level] = {
    "random": Level("random", "random", Budget(), "a uniformly random legal action"),
    "heuristic": Level(
        "heuristic", "heuristic", Budget(), "bets on its set's odds, sheds to go out first"
    ),
    "easy": Level("easy", "ismcts", Budget(iterations=25), "ISMCTS, 25 iterations"),
    "medium": Level("medium", "ismcts", Budget(iterations=100), "ISMCTS, 100 iterations"),
    "hard": Level("hard", "ismcts", Budget(iterations=400), "ISMCTS, 400 iterations"),
}

BOTS = ("random", "heuristic", "ismcts")


def make_bot(name: str) -> Bot:
    if name == "random":
        return RandomBot()
    if name == "heuristic":
        return HeuristicBot()
    if name == "ismcts":
        return ISMCTSBot()
    raise ValueError(f"unknown Poch bot {name!r}; the bots are {', '.join(BOTS)}")


def decide(
    obs: Observation,
    level: str = "heuristic",
    seed: int | None = None,
    budget: Budget | None = None,
    analyse: bool = False,
) -> Decision:
    """The decision of the named level (or bot with ``budget``) for ``obs``."""
    if level in LEVELS:
        spec = LEVELS[level]
        return make_bot(spec.bot).decide(obs, budget or spec.budget, seed, analyse)
    return make_bot(level).decide(obs, budget, seed, analyse)
