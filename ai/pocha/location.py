"""Where the unseen cards are: a learned model of card locations, to weigh deals by.
How it works: docs/internals.md, ``ai.pocha.location``.
"""

from __future__ import annotations

import itertools
from functools import cache
from pathlib import Path

import numpy as np

from engine.pocha.cards import BIT, iter_cards
from engine.pocha.inference import Knowledge
from engine.pocha.observation import Observation

MODEL_PATH = Path(__file__).with_name("models") / "location.npz"
PLAYERS = 4
CARDS = 40
MAX_CARDS = CARDS // PLAYERS
#: Where a card the observer cannot see may be: with the seat one, two or three places
#: after it, or never dealt (the stock, or the face-up trump card nobody holds).
LOCATIONS = PLAYERS
UNDEALT = PLAYERS - 1

# The layout of the feature vector, in order, with each part's width.
_PARTS = (
    ("hand", CARDS),  # the observer's hand, trump suit first
    ("played", PLAYERS * CARDS),  # every seat's plays, the observer's first
    ("table", CARDS),  # the cards on the table in the trick being played
    ("absent", (PLAYERS - 1) * CARDS),  # the cards each other seat cannot hold
    ("bids", PLAYERS * 4),  # each seat: has bid, bid, tricks won, tricks still wanted
    ("cards", MAX_CARDS + 2),  # one-hot of cards dealt, cards left in hand, tricks played
    ("dealer", PLAYERS),
    ("trump_card", 10 + PLAYERS + 1),  # its rank; who holds it, or nobody
    ("leader", PLAYERS),  # who leads the trick being played
)
FEATURES = sum(width for _, width in _PARTS)
_OFFSET: dict[str, int] = {}
_at = 0
for _name, _width in _PARTS:
    _OFFSET[_name] = _at
    _at += _width


#: The parts of the features that are sets of cards, laid out as a hand is.
CARD_PARTS = ("hand", "played", "table", "absent")


def side_suit_orders() -> tuple[np.ndarray, np.ndarray]:
    """The six orders of the three side suits, as index arrays: ``features[:, f[i]]``
    and ``cards[:, c[i]]`` are the features and the per-card arrays of the same view
    with the side suits in the ``i``-th order (the trump suit stays first).  The side
    suits are alike to the game, so the training shows the model each view in all
    six."""
    features = []
    cards = []
    for order in itertools.permutations((1, 2, 3)):
        suit = (0, *order)
        card_index = np.array([suit[c // 10] * 10 + c % 10 for c in range(CARDS)])
        inverse = np.empty(CARDS, dtype=np.int64)
        inverse[card_index] = np.arange(CARDS)
        f = np.arange(FEATURES)
        for name, width in _PARTS:
            if name in CARD_PARTS:
                for block in range(_OFFSET[name], _OFFSET[name] + width, CARDS):
                    f[block : block + CARDS] = block + inverse
        features.append(f)
        cards.append(inverse)
    return np.array(features), np.array(cards)


def seat_counts(x: np.ndarray) -> np.ndarray:
    """How many unknown cards each other seat still holds and how many were never
    dealt, read back from features (views x ``LOCATIONS``): what a deal of the unseen
    cards knows of where they are before it reads anything else."""
    o = _OFFSET
    cards = x[:, o["cards"] : o["cards"] + MAX_CARDS].argmax(axis=1) + 1
    counts = np.zeros((len(x), LOCATIONS), dtype=np.float64)
    holder = x[:, o["trump_card"] + 10 : o["trump_card"] + 10 + PLAYERS + 1].argmax(axis=1)
    rank = x[:, o["trump_card"] : o["trump_card"] + 10].argmax(axis=1)
    for r in range(1, PLAYERS):
        block = x[:, o["played"] + r * CARDS : o["played"] + (r + 1) * CARDS]
        left = cards - block.sum(axis=1)
        shown = (holder == r) & (block[np.arange(len(x)), rank] == 0)
        counts[:, r - 1] = left - shown
    counts[:, UNDEALT] = CARDS - PLAYERS * cards - (holder == PLAYERS)
    return np.maximum(counts, 0.0)


def prior_logits(x: np.ndarray) -> np.ndarray:
    """The log of ``seat_counts``, shaped to add to a view's (or a batch's) logits: the
    model learns how far the plays and bids move each card from where the hand sizes
    alone put it, not the counting itself."""
    counts = seat_counts(x.reshape(-1, FEATURES).astype(np.float32))
    logs: np.ndarray = np.log(np.maximum(counts, 1e-9)).astype(np.float32)
    return logs.reshape(*x.shape[:-1], 1, LOCATIONS)


def reads(obs: Observation) -> bool:
    """Whether the model reads this game: four players, the 40-card deck."""
    return obs.players == PLAYERS and obs.rules.deck.bit_count() == CARDS


def relative_card(card: int, trump: int) -> int:
    """The card's index with the suits laid out trump first."""
    return (card // 10 - trump) % 4 * 10 + card % 10


def _relative_bits(cards: int, trump: int) -> int:
    """A card set with the suits laid out trump first."""
    out = 0
    for s in range(4):
        out |= (cards >> (10 * s) & 1023) << (10 * ((s - trump) % 4))
    return out


def _put_bits(x: np.ndarray, at: int, cards: int) -> None:
    for card in iter_cards(cards):
        x[at + card] = 1.0


def location_features(obs: Observation, knowledge: Knowledge) -> np.ndarray:
    """What ``obs.seat`` sees, as the model's input (``_PARTS``)."""
    seat = obs.seat
    assert seat is not None
    n = PLAYERS
    trump = obs.trump
    x = np.zeros(FEATURES, dtype=np.float32)
    o = _OFFSET
    _put_bits(x, o["hand"], _relative_bits(obs.hand, trump))
    played = [0] * n
    for s, card in obs.plays:
        played[s] |= BIT[card]
    for s in range(n):
        r = (s - seat) % n
        _put_bits(x, o["played"] + r * CARDS, _relative_bits(played[s], trump))
        if r:
            absent = knowledge.absent[s] & knowledge.unseen
            _put_bits(x, o["absent"] + (r - 1) * CARDS, _relative_bits(absent, trump))
    trick = obs.trick
    table = 0
    for _, card in trick:
        table |= BIT[card]
    _put_bits(x, o["table"], _relative_bits(table, trump))
    if trick:
        x[o["leader"] + (trick[0][0] - seat) % n] = 1.0
    cards = obs.cards_per_player
    for s in range(n):
        r = (s - seat) % n
        at = o["bids"] + 4 * r
        bid = obs.bids[s]
        won = obs.tricks_won[s]
        x[at + 2] = won / cards
        if bid is not None:
            x[at] = 1.0
            x[at + 1] = bid / cards
            x[at + 3] = max(0, bid - won) / cards
    x[o["cards"] + min(cards, MAX_CARDS) - 1] = 1.0
    x[o["cards"] + MAX_CARDS] = obs.hand.bit_count() / cards
    x[o["cards"] + MAX_CARDS + 1] = len(obs.plays) // n / cards
    x[o["dealer"] + (obs.dealer - seat) % n] = 1.0
    x[o["trump_card"] + obs.trump_card % 10] = 1.0
    holder = obs.trump_holder
    x[o["trump_card"] + 10 + ((holder - seat) % n if holder is not None else n)] = 1.0
    return x


def location_mask(obs: Observation, knowledge: Knowledge) -> tuple[np.ndarray, np.ndarray]:
    """Which cards the observer cannot see (the model's targets), by relative card,
    and where each may be (``LOCATIONS``): (cards, cards x locations)."""
    seat = obs.seat
    assert seat is not None
    n = PLAYERS
    trump = obs.trump
    known = 0
    for s in range(n):
        if s != seat:
            known |= knowledge.present[s]
    hidden = knowledge.unseen & ~known
    target = np.zeros(CARDS, dtype=bool)
    where = np.zeros((CARDS, LOCATIONS), dtype=bool)
    sizes = knowledge.hand_sizes
    for card in range(CARDS):
        if not hidden >> card & 1:
            continue
        c = relative_card(card, trump)
        target[c] = True
        for s in range(n):
            r = (s - seat) % n
            free = sizes[s] > knowledge.present[s].bit_count()
            if r and free and not knowledge.absent[s] >> card & 1:
                where[c, r - 1] = True
        where[c, UNDEALT] = knowledge.stock_size > 0
    return target, where


class LocationModel:
    """The perceptron: location logits for every card from ``location_features``."""

    def __init__(self, weights: dict[str, np.ndarray]) -> None:
        self.mean = weights["mean"].astype(np.float32)
        self.scale = weights["scale"].astype(np.float32)
        layers = sum(1 for k in weights if k.startswith("w"))
        self.layers = [
            (weights[f"w{i}"].astype(np.float32), weights[f"b{i}"].astype(np.float32))
            for i in range(layers)
        ]

    @classmethod
    def load(cls, path: Path | str = MODEL_PATH) -> LocationModel:
        with np.load(path) as data:
            return cls({k: data[k] for k in data.files})

    def log_probabilities(self, x: np.ndarray, where: np.ndarray) -> np.ndarray:
        """Log-probabilities (cards x locations) of every card's location, the
        impossible ones left out; ``x`` one feature vector or a batch of them."""
        h = (x - self.mean) / self.scale
        for w, b in self.layers[:-1]:
            h = np.maximum(h @ w + b, 0.0)
        w, b = self.layers[-1]
        logits = (h @ w + b).reshape(*x.shape[:-1], CARDS, LOCATIONS)
        return masked_log_softmax(logits + prior_logits(x), where)


def masked_log_softmax(logits: np.ndarray, where: np.ndarray) -> np.ndarray:
    """Log-probabilities over the last axis, the places ``where`` leaves out given none."""
    logits = np.where(where, logits, -1e9)
    logits = logits - logits.max(axis=-1, keepdims=True)
    out: np.ndarray = logits - np.log(np.exp(logits).sum(axis=-1, keepdims=True))
    return out


@cache
def shipped_model() -> LocationModel:
    return LocationModel.load()


# Every suit pattern's bits: a (1024 x 10) matrix, to sum log-probabilities by pattern.
_PATTERN_BITS = ((np.arange(1024)[:, None] >> np.arange(10)[None, :]) & 1).astype(np.float64)


class LocationReading:
    """A deal's log-likelihood under one decision's card-location probabilities."""

    def __init__(
        self,
        obs: Observation,
        knowledge: Knowledge,
        model: LocationModel | None = None,
        temperature: float = 1.0,
    ) -> None:
        seat = obs.seat
        assert seat is not None
        model = model or shipped_model()
        target, where = location_mask(obs, knowledge)
        logp = model.log_probabilities(location_features(obs, knowledge), where)
        logp = np.where(where, logp, -30.0) * temperature
        logp[~target] = 0.0
        self.seat = seat
        self.trump = obs.trump
        # tables[r][k][pattern]: the summed log-probabilities that the cards of the
        # pattern, in the real suit k, are where r says (UNDEALT: never dealt).
        tables = []
        for loc in range(LOCATIONS):
            by_suit = []
            for k in range(4):
                rel = (k - self.trump) % 4
                by_suit.append((_PATTERN_BITS @ logp[rel * 10 : rel * 10 + 10, loc]).tolist())
            tables.append(by_suit)
        self.tables = tables
        hidden = 0
        for card in range(CARDS):
            if target[relative_card(card, obs.trump)]:
                hidden |= BIT[card]
        self.hidden = hidden

    def log_weight(self, hands: list[int]) -> float:
        """The log-likelihood of where the deal ``hands`` puts the unseen cards."""
        total = 0.0
        seat = self.seat
        hidden = self.hidden
        dealt = 0
        for s in range(PLAYERS):
            if s == seat:
                continue
            table = self.tables[(s - seat) % PLAYERS - 1]
            cards = hands[s] & hidden
            dealt |= cards
            for k in range(4):
                total += table[k][cards >> (10 * k) & 1023]
        rest = hidden & ~dealt
        table = self.tables[UNDEALT]
        for k in range(4):
            total += table[k][rest >> (10 * k) & 1023]
        return total
