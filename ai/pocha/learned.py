"""The learned bot: bids by expected score from the model of tricks taken, plays by ISMCTS.
How it works: docs/internals.md, ``ai.pocha.learned``.
"""

from __future__ import annotations

from ai.bot import ActionStat, Budget, Decision, legal_actions
from ai.pocha.bid_model import expected_scores
from ai.pocha.ismcts import ISMCTSBot
from engine.pocha.actions import bid_action
from engine.pocha.observation import Observation


class LearnedBot:
    """Bids from the learned model, plays by ISMCTS."""

    def __init__(self, name: str = "learned") -> None:
        self.name = name
        self.player = ISMCTSBot()

    def decide(
        self,
        obs: Observation,
        budget: Budget | None = None,
        seed: int | None = None,
        analyse: bool = False,
    ) -> Decision:
        actions = legal_actions(obs)
        if not obs.bidding:
            return self.player.decide(obs, budget, seed, analyse)
        if len(actions) == 1 and not analyse:
            return Decision(action=actions[0])
        scores = expected_scores(obs)
        best = max(scores, key=lambda b: (scores[b], -b))
        analysis: tuple[ActionStat, ...] = ()
        if analyse:
            # No search behind a bid: each bid's share is 1 for the chosen one, and its
            # mean score is the model's expected hand score.
            analysis = tuple(
                ActionStat(bid_action(b), 0, 1.0 if b == best else 0.0, s)
                for b, s in sorted(scores.items())
            )
        return Decision(action=bid_action(best), analysis=analysis)
