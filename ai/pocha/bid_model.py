"""The learned model of tricks taken, and bids chosen by expected score from it.
How it works: docs/internals.md, ``ai.pocha.bid_model``.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from engine.pocha.actions import bid_of
from engine.pocha.bidding import mano_of
from engine.pocha.cards import SUIT_MASK, CardSet
from engine.pocha.observation import Observation

# The most tricks of any hand: 12 cards each with 3 players.
MAX_TRICKS = 12
TRICK_CLASSES = MAX_TRICKS + 1
MODEL_PATH = Path(__file__).with_name("models") / "bid_model.npz"

# The layout of the feature vector, in order, with each part's width; a test holds
# ``FEATURES`` to what ``bid_features`` writes.
_PARTS = (
    ("hand", 40),  # trump suit's 10 strengths, then the side suits, longest first
    ("hand_shape", 4),  # trump length, side voids, side singletons, over cards in hand
    ("face_up_trump", 10),  # the strength of a trump card nobody holds (out of play)
    ("trump_held", 2),  # the whole deck dealt: the dealer holds the trump card; is it us?
    ("deal", 2),  # 36-card deck; share of the deck dealt
    ("cards", MAX_TRICKS + 1),  # one-hot of cards in hand (1..12), and cards / 12
    ("players", 6),  # one-hot of 3..8
    ("position", 9),  # one-hot of the place in the bidding order, and "is the dealer"
    ("earlier_bids", 4),  # sum / cards, left over / cards, share of seats bid, max / cards
    ("rules", 4),  # montar, fallar, pisar, dealer_restriction
    ("bid", TRICK_CLASSES + 1),  # one-hot of the candidate bid, and bid / cards
)
FEATURES = sum(width for _, width in _PARTS)
_OFFSET = {}
_at = 0
for _name, _width in _PARTS:
    _OFFSET[_name] = _at
    _at += _width
BID_AT = _OFFSET["bid"]


def _suit_bits(hand: CardSet, suit: int) -> int:
    return hand >> (10 * suit) & 1023


def situation_features(obs: Observation) -> np.ndarray:
    """Everything but the candidate bid: the features of the seat's situation."""
    seat = obs.seat
    assert seat is not None
    rules = obs.rules
    n = rules.players
    cards = obs.cards_per_player
    hand = obs.hand
    trump = obs.trump
    x = np.zeros(FEATURES, dtype=np.float32)
    # The hand, suit by suit: the trump suit first, then the side suits by length and
    # strength, so that the model sees "a suit" rather than oros or copas.
    sides = sorted(
        (s for s in range(4) if s != trump),
        key=lambda s: (-(hand & SUIT_MASK[s]).bit_count(), -_suit_bits(hand, s)),
    )
    at = _OFFSET["hand"]
    for block, suit in enumerate((trump, *sides)):
        bits = _suit_bits(hand, suit)
        for strength in range(10):
            if bits >> strength & 1:
                x[at + 10 * block + strength] = 1.0
    trump_len = (hand & SUIT_MASK[trump]).bit_count()
    side_lens = [(hand & SUIT_MASK[s]).bit_count() for s in sides]
    at = _OFFSET["hand_shape"]
    x[at] = trump_len / cards
    x[at + 1] = sum(1 for v in side_lens if v == 0) / 3
    x[at + 2] = sum(1 for v in side_lens if v == 1) / 3
    x[at + 3] = trump_len / MAX_TRICKS
    if obs.trump_holder is None:
        # Cards were left over: the face-up card is out of play, a trump nobody can use.
        x[_OFFSET["face_up_trump"] + obs.trump_card % 10] = 1.0
    else:
        at = _OFFSET["trump_held"]
        x[at] = 1.0
        x[at + 1] = 1.0 if obs.trump_holder == seat else 0.0
    at = _OFFSET["deal"]
    x[at] = 1.0 if rules.deck_size == 36 else 0.0
    x[at + 1] = n * cards / rules.deck_size
    at = _OFFSET["cards"]
    x[at + cards - 1] = 1.0
    x[at + MAX_TRICKS] = cards / MAX_TRICKS
    x[_OFFSET["players"] + n - 3] = 1.0
    place = (seat - mano_of(obs.dealer, n)) % n
    at = _OFFSET["position"]
    x[at + place] = 1.0
    x[at + 8] = 1.0 if place == n - 1 else 0.0
    earlier = [b for b in obs.bids if b is not None]
    at = _OFFSET["earlier_bids"]
    x[at] = sum(earlier) / cards
    x[at + 1] = (cards - sum(earlier)) / cards
    x[at + 2] = len(earlier) / (n - 1)
    x[at + 3] = max(earlier, default=0) / cards
    at = _OFFSET["rules"]
    x[at] = float(rules.montar)
    x[at + 1] = float(rules.fallar)
    x[at + 2] = float(rules.pisar)
    x[at + 3] = float(rules.dealer_restriction)
    return x


def with_bids(situation: np.ndarray, bids: list[int], cards: int) -> np.ndarray:
    """One row per candidate bid: the situation with that bid written in."""
    rows = np.repeat(situation[None, :], len(bids), axis=0)
    for i, b in enumerate(bids):
        rows[i, BID_AT + b] = 1.0
        rows[i, BID_AT + TRICK_CLASSES] = b / cards
    return rows


class Perceptron:
    """A perceptron's inputs' normalisation and layers (``w0``, ``b0``, ...) as fitted by
    ``ai.pocha.training.train_mlp``; ``logits`` of a batch of rows."""

    def __init__(self, weights: dict[str, np.ndarray]) -> None:
        self.mean = weights["mean"].astype(np.float32)
        self.scale = weights["scale"].astype(np.float32)
        self.layers = []
        i = 0
        while f"w{i}" in weights:
            self.layers.append(
                (weights[f"w{i}"].astype(np.float32), weights[f"b{i}"].astype(np.float32))
            )
            i += 1

    def logits(self, x: np.ndarray) -> np.ndarray:
        h = (x - self.mean) / self.scale
        for w, b in self.layers[:-1]:
            h = np.maximum(h @ w + b, 0.0)
        w, b = self.layers[-1]
        return h @ w + b


class BidModel(Perceptron):
    """A multilayer perceptron: features -> probabilities of 0..12 tricks."""

    def __init__(self, weights: dict[str, np.ndarray]) -> None:
        super().__init__(weights)
        # Whether the model reads the candidate bid (ai.pocha.training.fit's ``bid_input``).
        self.bid_input = bool(weights["bid_input"]) if "bid_input" in weights else True

    @classmethod
    def load(cls, path: Path | str = MODEL_PATH) -> BidModel:
        with np.load(path) as data:
            return cls({k: data[k] for k in data.files})

    def probabilities(self, x: np.ndarray, cards: np.ndarray | int) -> np.ndarray:
        """Per row, the probability of taking 0..12 tricks; nothing above ``cards``."""
        if not self.bid_input:
            x = x.copy()
            x[:, BID_AT:] = 0.0
        logits = self.logits(x)
        cards_col = np.asarray(cards).reshape(-1, 1)
        logits = np.where(np.arange(TRICK_CLASSES)[None, :] > cards_col, -np.inf, logits)
        logits = logits - logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        return p / p.sum(axis=1, keepdims=True)  # type: ignore[no-any-return]


@cache
def shipped_model() -> BidModel:
    """The committed model, loaded once per process."""
    return BidModel.load()


def points_table(obs: Observation) -> np.ndarray:
    """``table[b, k]``: the hand score of bidding ``b`` and taking ``k`` tricks."""
    rules = obs.rules
    b = np.arange(TRICK_CLASSES)[:, None]
    k = np.arange(TRICK_CLASSES)[None, :]
    exact = rules.exact_bonus + rules.per_trick * b
    missed = -rules.penalty * np.abs(b - k)
    return np.where(b == k, exact, missed).astype(np.float64)


def expected_scores(obs: Observation, model: BidModel | None = None) -> dict[int, float]:
    """Each legal bid's expected hand score under the model."""
    model = model or shipped_model()
    bids = [bid_of(a) for a in obs.legal_actions]
    cards = obs.cards_per_player
    x = with_bids(situation_features(obs), bids, cards)
    p = model.probabilities(x, cards)
    table = points_table(obs)
    return {b: float(p[i] @ table[b]) for i, b in enumerate(bids)}


def best_bid(obs: Observation, model: BidModel | None = None) -> int:
    """The legal bid of highest expected score (the lower one on a tie)."""
    scores = expected_scores(obs, model)
    return max(scores, key=lambda b: (scores[b], -b))
