"""Reading the other seats' hands from their bids: how likely a deal is.
How it works: docs/internals.md, ``ai.pocha.reading``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from ai.pocha.hand_value import SIDE_VALUES, TRUMP_VALUES, hand_estimate
from engine.pocha.bidding import bidding_order, dealer_forbidden_bid
from engine.pocha.cards import BIT, CardSet
from engine.pocha.hand import HandState
from engine.pocha.observation import Observation

MODEL_PATH = Path(__file__).with_name("models") / "bid_reading.json"

#: The model's weights, by name: the hand's features (``hand_features``), then the
#: situation's (``situation_features``).
HAND_FEATURES = (
    *(f"trump_{k}" for k in range(10)),  # the trump suit's ranks held, weakest first
    "trump_length",
    "trump_length_past_3",
    "side_aces",
    "side_threes_with_ace",
    "side_threes_alone",
    "side_kings",
    "side_voids_x_trumps",  # a short side suit is worth as much as the trumps to ruff with
    "side_singletons_x_trumps",
    "long_side_aces",  # an ace of a side suit of five or more, likelier to be ruffed
    "estimate",  # ai.pocha.hand_value's estimate
)
SITUATION_FEATURES = ("bias", "cards", "earlier_bids_per_card", "dealer", "holds_trump_card")

#: The estimate's tables count tricks as four players take them; with more players a
#: side card takes fewer (the heuristic's scaling, relative to four players).
PLAYERS_FACTOR = {3: 1.2, 4: 1.0, 5: 0.93, 6: 0.79, 7: 0.74, 8: 0.74}


def hand_features(hand: CardSet, trump: int) -> list[float]:
    """The hand's part of the bid model's features, in ``HAND_FEATURES`` order."""
    trumps = hand >> (10 * trump) & 1023
    length = trumps.bit_count()
    sides = [hand >> (10 * s) & 1023 for s in range(4) if s != trump]
    ruff = min(length, 3)
    return [
        *(float(trumps >> k & 1) for k in range(10)),
        float(length),
        float(max(0, length - 3)),
        float(sum(p >> 9 & 1 for p in sides)),
        float(sum(1 for p in sides if p >> 8 & 1 and p >> 9 & 1)),
        float(sum(1 for p in sides if p >> 8 & 1 and not p >> 9 & 1)),
        float(sum(p >> 7 & 1 for p in sides)),
        float(ruff * sum(1 for p in sides if not p)),
        float(ruff * sum(1 for p in sides if p.bit_count() == 1)),
        float(sum(1 for p in sides if p >> 9 & 1 and p.bit_count() >= 5)),
        hand_estimate(hand, trump),
    ]


def situation_features(
    cards: int, earlier_bids: int, dealer: bool, holds_trump_card: bool
) -> list[float]:
    """The rest of the bid model's features, in ``SITUATION_FEATURES`` order."""
    return [1.0, float(cards), earlier_bids / cards, float(dealer), float(holds_trump_card)]


class BidModel:
    """How a seat bids: a normal spread around a linear function of its features,
    over the bids it may make; fitted to ISMCTS self-play (``ai.pocha.reading_training``)."""

    def __init__(self, weights: dict[str, float], spread: float) -> None:
        self.weights = weights
        self.spread = spread
        hand_w = [weights[name] for name in HAND_FEATURES]
        # The hand's part is a sum over its suits but for the ruffing terms, so it is
        # tabled per suit pattern: a bid's mean then costs a few lookups.
        self.trump_table = [0.0] * 1024
        self.side_table = [0.0] * 1024
        for pattern in range(1024):
            length = pattern.bit_count()
            self.trump_table[pattern] = (
                sum(hand_w[k] for k in range(10) if pattern >> k & 1)
                + weights["trump_length"] * length
                + weights["trump_length_past_3"] * max(0, length - 3)
                + weights["estimate"] * TRUMP_VALUES[pattern]
            )
            ace = pattern >> 9 & 1
            three = pattern >> 8 & 1
            self.side_table[pattern] = (
                weights["side_aces"] * ace
                + weights["side_threes_with_ace"] * (three and ace)
                + weights["side_threes_alone"] * (three and not ace)
                + weights["side_kings"] * (pattern >> 7 & 1)
                + weights["long_side_aces"] * (ace and length >= 5)
                + weights["estimate"] * SIDE_VALUES[pattern]
            )
        self.situation_w = [weights[name] for name in SITUATION_FEATURES]
        self.void_w = weights["side_voids_x_trumps"]
        self.singleton_w = weights["side_singletons_x_trumps"]

    def situation_mean(
        self, cards: int, earlier_bids: int, dealer: bool, holds_trump_card: bool
    ) -> float:
        """The part of a bid's mean that does not depend on the hand."""
        w = self.situation_w
        # situation_features, written out: the search asks this at every modelled bid.
        return (
            w[0]
            + w[1] * cards
            + w[2] * earlier_bids / cards
            + (w[3] if dealer else 0.0)
            + (w[4] if holds_trump_card else 0.0)
        )

    def hand_mean(self, hand: CardSet, trump: int) -> float:
        """The hand's part of a bid's mean (four players)."""
        trumps = hand >> (10 * trump) & 1023
        ruff = min(trumps.bit_count(), 3)
        mean = self.trump_table[trumps]
        voids = 0
        singletons = 0
        for s in range(4):
            if s != trump:
                p = hand >> (10 * s) & 1023
                mean += self.side_table[p]
                if not p:
                    voids += 1
                elif not p & (p - 1):
                    singletons += 1
        return mean + ruff * (self.void_w * voids + self.singleton_w * singletons)


class BidModels:
    """A ``BidModel`` for each range of hand sizes: ``by_cards`` maps the smallest
    hand size of each range to its model; the ranges reach up to the next one."""

    def __init__(self, by_cards: dict[int, BidModel]) -> None:
        self.by_cards = dict(sorted(by_cards.items()))
        top = max(self.by_cards)
        first = min(self.by_cards)
        # A hand of any size the rules allow finds its model by index.
        self.table: list[BidModel] = []
        current = self.by_cards[first]
        for cards in range(top + 1):
            current = self.by_cards.get(cards, current)
            self.table.append(current)

    def for_cards(self, cards: int) -> BidModel:
        return self.table[min(cards, len(self.table) - 1)]

    @classmethod
    def load(cls, path: Path | str = MODEL_PATH) -> BidModels:
        """The models of a file written by ``pocha train-reading``; a file of one
        model (``weights`` and ``spread``) serves every hand size."""
        return cls.load_data(json.loads(Path(path).read_text()))

    @classmethod
    def load_data(cls, data: dict[str, Any]) -> BidModels:
        """The models of such a file's contents."""
        if "by_cards" not in data:
            return cls({1: BidModel(data["weights"], data["spread"])})
        return cls(
            {
                part["cards_from"]: BidModel(part["weights"], part["spread"])
                for part in data["by_cards"]
            }
        )


def as_models(model: BidModel | BidModels | None) -> BidModels:
    """``model`` as models by hand size (one model serves all); the shipped ones if
    None."""
    if model is None:
        return shipped_model()
    if isinstance(model, BidModel):
        return BidModels({1: model})
    return model


@cache
def shipped_model() -> BidModels:
    return BidModels.load()


class BidReading:
    """The likelihood of the other seats' bids under a deal of the unseen cards."""

    def __init__(self, obs: Observation, model: BidModel | BidModels | None = None) -> None:
        seat = obs.seat
        assert seat is not None
        n = obs.players
        cards = obs.cards_per_player
        self.model = model = as_models(model).for_cards(cards)
        played = [0] * n
        for s, card in obs.plays:
            played[s] |= BIT[card]
        self.trump = obs.trump
        self.factor = PLAYERS_FACTOR[n]
        # (seat, cards it played, its bid, the bids it was allowed, the mean's part that
        # does not depend on the hand) for every other seat that has bid.
        self.bids: list[tuple[int, CardSet, int, tuple[int, ...], float]] = []
        before = 0
        for s in bidding_order(obs.dealer, n):
            bid = obs.bids[s]
            if bid is None:
                break
            allowed = tuple(range(cards + 1))
            if s == obs.dealer and obs.rules.dealer_restriction:
                forbidden = dealer_forbidden_bid(cards, before)
                allowed = tuple(b for b in allowed if b != forbidden)
            if s != seat:
                situation = model.situation_mean(
                    cards, before, s == obs.dealer, obs.trump_holder == s
                )
                self.bids.append((s, played[s], bid, allowed, situation))
            before += bid

    @property
    def informative(self) -> bool:
        """Whether any other seat has bid: else every deal is as likely."""
        return bool(self.bids)

    def log_weight(self, hands: list[CardSet]) -> float:
        """The log-likelihood of the bids made, had the seats held ``hands`` (with the
        cards they have played since), up to a constant."""
        total_log = 0.0
        exp = math.exp
        trump = self.trump
        factor = self.factor
        hand_mean = self.model.hand_mean
        k = -0.5 / (self.model.spread * self.model.spread)
        for s, played, bid, allowed, situation in self.bids:
            mu = factor * (hand_mean(hands[s] | played, trump) + situation)
            total = 0.0
            for b in allowed:
                total += exp(k * (b - mu) * (b - mu))
            total_log += k * (bid - mu) * (bid - mu) - math.log(total)
        return total_log

    def cumulative_weights(self, deals: list[list[CardSet]]) -> list[float]:
        """Running sums of the deals' likelihoods, scaled so that the likeliest is 1:
        draw a deal in proportion to its likelihood with ``bisect`` on a uniform draw
        times the last sum."""
        return cumulative_weights([self.log_weight(h) for h in deals])


def cumulative_weights(logs: list[float]) -> list[float]:
    """Running sums of the likelihoods whose logs are ``logs``, scaled so that the
    likeliest is 1."""
    top = max(logs)
    out = []
    running = 0.0
    exp = math.exp
    for lw in logs:
        running += exp(lw - top)
        out.append(running)
    return out


def modelled_bid(
    st: HandState,
    rand: Callable[[], float],
    whole_deck: bool,
    model: BidModel | BidModels | None = None,
) -> int:
    """A bid for the seat to move drawn from the same model: how the reading expects
    a seat with this hand to bid.  ``whole_deck``: every card was dealt, so the dealer
    holds the face-up trump card.  The search passes the hand size's ``BidModel``, so
    that the lookup is not paid at every modelled bid."""
    if not isinstance(model, BidModel):
        model = as_models(model).for_cards(st.cards)
    seat = st.turn
    dealer = seat == st.dealer
    mu = PLAYERS_FACTOR[st.n] * (
        model.hand_mean(st.hands[seat], st.trump)
        + model.situation_mean(st.cards, st.bid_sum, dealer, dealer and whole_deck)
    )
    k = -0.5 / (model.spread * model.spread)
    bids = st.legal_bids()
    weights = [math.exp(k * (b - mu) * (b - mu)) for b in bids]
    r = rand() * sum(weights)
    for b, w in zip(bids, weights, strict=True):
        r -= w
        if r < 0:
            return b
    return bids[-1]
