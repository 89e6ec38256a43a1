"""The random bot of every game: a uniformly chosen legal action, the floor of strength.

In Poch every bet amount it may pay is as likely as passing or any other, so it bets big
and often: that is what a floor is.
"""

from __future__ import annotations

import random

from ai.bot import Budget, Decision, legal_actions
from engine.protocols import Observation


class RandomBot:
    name = "random"

    def decide(
        self,
        obs: Observation,
        budget: Budget | None = None,
        seed: int | None = None,
        analyse: bool = False,
    ) -> Decision:
        return Decision(action=random.Random(seed).choice(legal_actions(obs)))
