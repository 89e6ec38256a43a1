"""Poch's bots and levels, by name: a level is a bot and a budget.

``hard`` is the budget the arena measured against the heuristic (docs/poch.md, Bots);
``easy`` and ``medium`` search a sixteenth and a quarter as much. ``ai.poch.kind`` gives
these to the registry, whose ``BotKind.decide`` is the one door to them.
"""

from __future__ import annotations

from collections.abc import Callable

from ai.bot import Bot, Budget, Level
from ai.poch.heuristic import HeuristicBot
from ai.poch.ismcts import ISMCTSBot
from ai.random_bot import RandomBot
from engine.i18n import N_

LEVELS: dict[str, Level] = {
    "random": Level("random", "random", Budget(), N_("a uniformly random legal action")),
    "heuristic": Level(
        "heuristic", "heuristic", Budget(), N_("bets on its set's odds, sheds to go out first")
    ),
    "easy": Level("easy", "ismcts", Budget(iterations=25), N_("ISMCTS, 25 iterations")),
    "medium": Level("medium", "ismcts", Budget(iterations=100), N_("ISMCTS, 100 iterations")),
    "hard": Level("hard", "ismcts", Budget(iterations=400), N_("ISMCTS, 400 iterations")),
}

#: Each bot by name, made anew for each decision.
_MAKERS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "ismcts": ISMCTSBot,
}
BOTS = tuple(_MAKERS)


def make_bot(name: str) -> Bot:
    if name not in _MAKERS:
        raise ValueError(f"unknown Poch bot {name!r}; the bots are {', '.join(BOTS)}")
    return _MAKERS[name]()
