"""Master whose card plays near the hand's end are solved, not searched: ``ismcts-endgame``.
With at most ``ENDGAME_TRICKS`` tricks left it draws deals of the unseen cards as master's
search draws them (weighed by the reading of the bids), solves each deal exactly, every
seat playing from there the card best for its own hand score with every hand known (max-n,
ties to the lowest card), and plays the card of best mean score over the deals: perfect
information Monte Carlo where ISMCTS's playouts and fused opponents are weakest. Earlier
plays and every bid are master's (docs/bots.md, "The endgame solved").
"""

from __future__ import annotations

import random
import time
from bisect import bisect_right
from collections import Counter
from typing import Any

from ai.bot import Budget, Decision, legal_actions
from ai.pocha.ismcts import READING_POOL, ISMCTSBot
from ai.pocha.reading import BidReading
from engine.pocha.cards import CardSet
from engine.pocha.deals import DealSampler, state_from_observation
from engine.pocha.hand import HandState, hand_points
from engine.pocha.observation import Observation

#: The most tricks left at which a play is solved rather than searched.
ENDGAME_TRICKS = 3
#: Deals drawn (by the reading's weights, with replacement) for each solved play.
ENDGAME_DEALS = 100


def solve(st: HandState, points: list[list[int]]) -> list[int]:
    """The tricks each seat ends the hand with when, from ``st`` on, every seat plays the
    card that gives itself the best hand score (``points[seat][tricks]``), every hand known
    to all: max-n, ties to the lowest card."""
    while True:
        if not st.tricks_left:
            return st.tricks
        legal = st.legal_mask()
        if legal & (legal - 1):
            break
        # A forced card: no choice, no copy.
        st = st.copy()
        st.apply_card(legal.bit_length() - 1)
    seat = st.turn
    row = points[seat]
    have = st.tricks[seat]
    # No later card can beat a card that reaches the best score still open to the seat, and
    # ties go to the lowest card, so the search of this seat's cards may stop there.
    ceiling = max(row[have : have + st.tricks_left + 1])
    best: list[int] = []
    best_v = -1 << 30
    while legal:
        low = legal & -legal
        legal ^= low
        nxt = st.copy()
        nxt.apply_card(low.bit_length() - 1)
        result = solve(nxt, points)
        v = row[result[seat]]
        if v > best_v:
            best_v = v
            best = result
            if v >= ceiling:
                break
    return best


def card_scores(
    base: HandState, hands: tuple[CardSet, ...], points: list[list[int]]
) -> dict[int, int]:
    """Each legal card of the seat to move in ``base``, with the hand score it gives that
    seat when the unseen cards lie as in ``hands`` and every seat plays on as ``solve``
    plays."""
    seat = base.turn
    row = points[seat]
    st = base.copy()
    st.hands = list(hands)
    legal = st.legal_mask()
    scores = {}
    while legal:
        low = legal & -legal
        legal ^= low
        card = low.bit_length() - 1
        nxt = st.copy()
        nxt.apply_card(card)
        scores[card] = row[solve(nxt, points)[seat]]
    return scores


class EndgameBot(ISMCTSBot):
    """An ``ISMCTSBot`` that solves each drawn deal exactly once ``endgame_tricks`` or fewer
    tricks are left, and plays the card of best mean score over the deals."""

    def __init__(
        self,
        endgame_tricks: int = ENDGAME_TRICKS,
        endgame_deals: int = ENDGAME_DEALS,
        **options: Any,
    ) -> None:
        super().__init__(**options)
        self.endgame_tricks = endgame_tricks
        self.endgame_deals = endgame_deals

    def decide(
        self,
        obs: Observation,
        budget: Budget | None = None,
        seed: int | None = None,
        analyse: bool = False,
    ) -> Decision:
        actions = legal_actions(obs)
        if (
            analyse
            or obs.bidding
            or len(actions) == 1
            or obs.hand.bit_count() > self.endgame_tricks
        ):
            return super().decide(obs, budget, seed, analyse)
        start = time.perf_counter()
        deadline = (
            start + budget.milliseconds / 1000.0
            if budget is not None and budget.milliseconds is not None
            else None
        )
        deals = self.draw_deals(obs, random.Random(seed))
        base = state_from_observation(obs, list(next(iter(deals))))
        points = [
            [hand_points(obs.rules, b, w) for w in range(obs.cards_per_player + 1)]
            for b in base.bids
        ]
        totals: dict[int, float] = {}
        solved = 0
        # Deal by deal, so that a time budget stops the solving, never the decision.
        for hands, count in deals.items():
            if deadline is not None and solved and time.perf_counter() >= deadline:
                break
            for card, score in card_scores(base, hands, points).items():
                totals[card] = totals.get(card, 0.0) + count * score
            solved += count
        values = {card: total / solved for card, total in totals.items()}
        best = max(values, key=lambda card: (values[card], -card))
        return Decision(
            action=best,
            iterations=solved,
            elapsed_ms=(time.perf_counter() - start) * 1000,
        )

    def draw_deals(self, obs: Observation, rng: random.Random) -> Counter[tuple[CardSet, ...]]:
        """``endgame_deals`` deals of the unseen cards, counted by how often each was drawn:
        from master's pool weighed by the reading of the bids when there are bids to read,
        uniform over what the seat knows otherwise."""
        sampler = DealSampler(self.knowledge(obs))
        own = obs.hand
        deals: Counter[tuple[CardSet, ...]] = Counter()
        reading = BidReading(obs, self.bid_models) if self.reading else None
        if reading is not None and reading.informative:
            pool = [sampler.sample(own, rng) for _ in range(READING_POOL)]
            cum = reading.cumulative_weights(pool)
            total = cum[-1]
            for _ in range(self.endgame_deals):
                deals[tuple(pool[bisect_right(cum, rng.random() * total)])] += 1
        else:
            for _ in range(self.endgame_deals):
                deals[tuple(sampler.sample(own, rng))] += 1
        return deals
