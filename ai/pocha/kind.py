"""Pocha's bots as the registry (``ai.registry``) reaches them: a match's game is a whole game
of the rules' schedule."""

from __future__ import annotations

import engine.pocha.kind
from ai.kind import BotKind
from ai.pocha.arena import ARENA, decision_seed, game_record
from ai.pocha.ismcts import DEFAULT_ITERATIONS
from ai.pocha.levels import make_bot

KIND = BotKind(
    game=engine.pocha.kind.KIND,
    arena=ARENA,
    make_bot=make_bot,
    decision_seed=decision_seed,
    record=game_record,
    searches=lambda bot: bot.startswith("ismcts") or bot == "learned",
    default_iterations=DEFAULT_ITERATIONS,
    # A typical machine's ISMCTS speed (timeouts assume a slower one); the rule-based bots
    # take well under a millisecond, bookkeeping included.
    iterations_per_second=10_000,
    fallback_level="heuristic",
)
