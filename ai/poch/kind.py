"""Poch's bots as the registry (``ai.registry``) reaches them. An analysis calls an action's
mean score ``mean_chips``, as the API always has for Poch; a match's game is one deal, as the
Poch arena plays it."""

from __future__ import annotations

import engine.poch.kind
from ai.kind import BotKind
from ai.poch.arena import ARENA, deal_record, decision_seed, one_deal
from ai.poch.ismcts import DEFAULT_ITERATIONS
from ai.poch.levels import make_bot
from engine.i18n import N_

KIND = BotKind(
    game=engine.poch.kind.KIND,
    arena=ARENA,
    make_bot=make_bot,
    decision_seed=decision_seed,
    record=deal_record,
    searches=lambda bot: bot == "ismcts",
    default_iterations=DEFAULT_ITERATIONS,
    # docs/poch.md: 400 iterations in about 100 ms, the heuristic 2-4 ms a decision.
    iterations_per_second=4_000,
    fallback_level="heuristic",
    score_name="mean_chips",
    rule_based_seconds=lambda bot: 0.005 if bot == "heuristic" else 0.001,
    match_rules=one_deal,
    match_deals=1,
    match_deals_refused=N_(
        "each game of a Poch match is one deal, as in the Poch arena: leave "
        "rules.deals out and ask for more games instead of {value} deals"
    ),
)
