"""Master whose bids search longer: ``ismcts-deep-bids`` spends ``BID_FACTOR`` times its
budget on each bid, its plays as master's. Most of what knowing the hidden cards is worth
is at the bid, so this bot asks whether master's bids are held back by its search or by
what its seat can know (docs/bots.md, "The student").
"""

from __future__ import annotations

from typing import Any

from ai.bot import Budget, Decision
from ai.pocha.ismcts import DEFAULT_ITERATIONS, ISMCTSBot
from engine.pocha.observation import Observation

#: How many times its budget a bid gets: master's 1,000 iterations become 20,000.
BID_FACTOR = 20


def deeper(budget: Budget, factor: int) -> Budget:
    """``budget`` with ``factor`` times its iterations and its milliseconds."""
    return Budget(
        iterations=None if budget.iterations is None else budget.iterations * factor,
        milliseconds=None if budget.milliseconds is None else budget.milliseconds * factor,
    )


class DeepBidBot(ISMCTSBot):
    """An ``ISMCTSBot`` whose bids get ``bid_factor`` times the budget of its plays."""

    def __init__(self, bid_factor: int = BID_FACTOR, **options: Any) -> None:
        super().__init__(**options)
        self.bid_factor = bid_factor

    def decide(
        self,
        obs: Observation,
        budget: Budget | None = None,
        seed: int | None = None,
        analyse: bool = False,
    ) -> Decision:
        if obs.bidding:
            budget = deeper(budget or Budget(iterations=DEFAULT_ITERATIONS), self.bid_factor)
        return super().decide(obs, budget, seed, analyse)
