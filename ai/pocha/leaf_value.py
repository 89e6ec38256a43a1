"""The student as a leaf value: what master's search told the undealt cards ends a hand
with, learned from whole states of hands it played, and the search that scores its leaves
by it (``ai.pocha.ismcts.LeafValue``) instead of, or beside, its playouts. The classic
four-player game only (the game the teacher played); elsewhere the bot plays as master.
Trained by ``ai.pocha.student_training`` (``pocha train-student --value``); numpy only to
load it. How it works: docs/bots.md, "The student as a leaf value".
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from ai.pocha.ismcts import ISMCTSBot, LeafValue, reward_scale
from ai.pocha.student_play import taught
from engine.pocha.hand import HandState
from engine.pocha.observation import Observation
from engine.pocha.rules import Rules

MODEL_PATH = Path(__file__).with_name("models") / "leaf_value.npz"

#: A whole state of a four-player hand in the data, one integer a column: the hands, trump,
#: dealer and cards a player, the bids and tricks taken, whose turn, the trick on the table
#: (its suit, winning card and seat, cards in it, leader) and the tricks left.
STATE_COLUMNS = 4 + 3 + 4 + 4 + 7
PLAYERS = 4


def state_row(st: HandState) -> list[int]:
    """``st`` (four players, bids all made) as one row of the data."""
    return [
        *st.hands, st.trump, st.dealer, st.cards, *st.bids, *st.tricks, st.turn, st.lead,
        st.win, st.winner, st.in_trick, st.leader, st.tricks_left,
    ]  # fmt: skip


def state_of(row: Any) -> HandState:
    """The hand state of a row of the data (``state_row``)."""
    r = [int(v) for v in row]
    st = HandState(Rules(players=PLAYERS), r[0:4], r[4], r[5], r[6])
    st.bids = r[7:11]
    st.bid_sum = sum(st.bids)
    st.tricks = r[11:15]
    st.bidding = False
    st.turn, st.lead, st.win, st.winner, st.in_trick, st.leader, st.tricks_left = r[15:22]
    return st


class LeafModel:
    """The fitted leaf value: the expected tricks' weights and the two tables."""

    def __init__(self, weights: dict[str, np.ndarray]) -> None:
        self.weights = [float(v) for v in weights["weights"]]
        self.exact = [float(v) for v in weights["exact"]]
        self.off = [float(v) for v in weights["off"]]

    @classmethod
    def load(cls, path: Path = MODEL_PATH) -> LeafModel:
        with np.load(path) as saved:
            return cls({k: saved[k] for k in saved.files})

    def value(self, weight: float, tricks: int, miss: float) -> LeafValue:
        """The search's leaf value: ``weight`` of it against the playout, from ``tricks``
        tricks left up, a trick missed worth ``miss`` (scaled points)."""
        return LeafValue(self.weights, self.exact, self.off, weight, tricks, miss)


@cache
def shipped_leaf_model() -> LeafModel:
    """The committed leaf value, loaded once per process."""
    return LeafModel.load()


class LeafValueBot(ISMCTSBot):
    """Master's search scoring each leaf with ``leaf_tricks`` tricks or more left by the
    learned value, ``leaf_weight`` of it and the rest of the playout's score
    (``ai.pocha.ismcts.iterate``). Games the value was not taught are master's own."""

    def __init__(
        self,
        leaf_weight: float = 0.5,
        leaf_tricks: int = 1,
        leaf_model: LeafModel | None = None,
        **options: Any,
    ) -> None:
        super().__init__(**options)
        self.leaf_weight = leaf_weight
        self.leaf_tricks = leaf_tricks
        self.leaf_model = leaf_model

    def leaf(self, obs: Observation) -> LeafValue | None:
        if not self.leaf_weight or not taught(obs):
            return None
        model = self.leaf_model or shipped_leaf_model()
        return model.value(
            self.leaf_weight, self.leaf_tricks, -obs.rules.penalty / reward_scale(obs)
        )
