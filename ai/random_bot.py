"""The random bot: a uniformly chosen legal action, the floor of strength."""

from __future__ import annotations

import random

from ai.bot import Budget, Decision, legal_actions
from engine.observation import Observation


class RandomBot:
    name = "random"

    def decide(
        self,
        obs: Observation,
        budget: Budget | None = None,
        seed: int | None = None,
        analyse: bool = False,
    ) -> Decision:
        actions = legal_actions(obs)
        return Decision(action=random.Random(seed).choice(actions))
