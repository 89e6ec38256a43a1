"""The random Poch bot: a uniformly chosen legal action, the floor of strength.

Every bet amount it may pay is as likely as passing or any other, so it bets
big and often: that is what a floor is.
"""

from __future__ import annotations

import random

from ai.poch.bot import Budget, Decision, legal_actions
from engine.poch.observation import Observation


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
