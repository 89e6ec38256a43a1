"""The student: a small network that gives, from what one seat may know at its bid (the
bid model's situation features), the share of its search that master's search would
give each bid were it told which cards were never dealt. Trained by
``ai.pocha.student_training`` (``pocha train-student``); numpy only at run time.
How it works: docs/bots.md, "The student".
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from ai.pocha.bid_model import BID_AT, TRICK_CLASSES, Perceptron, situation_features
from engine.pocha.actions import bid_of
from engine.pocha.observation import Observation

#: The bids it weighs: 0..12.
BIDS = TRICK_CLASSES
#: Its inputs: the bid model's situation features before the candidate bid's.
INPUTS = BID_AT
MODEL_PATH = Path(__file__).with_name("models") / "student.npz"


def inputs_of(situation: np.ndarray) -> np.ndarray:
    """The student's inputs from ``situation_features``: all but the candidate bid."""
    return situation[..., :INPUTS]


class StudentModel(Perceptron):
    """A multilayer perceptron: a seat's situation -> a distribution over its legal bids."""

    @classmethod
    def load(cls, path: Path | str = MODEL_PATH) -> StudentModel:
        with np.load(path) as data:
            return cls({k: data[k] for k in data.files})

    def probabilities(self, x: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """Per row of inputs, the probability of each bid 0..12; 0 for those not legal."""
        logits = np.where(legal, self.logits(x), -np.inf)
        logits = logits - logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        return p / p.sum(axis=1, keepdims=True)  # type: ignore[no-any-return]

    def bid_shares(self, obs: Observation) -> dict[int, float]:
        """The seat's legal bids, each with its probability."""
        bids = [bid_of(a) for a in obs.legal_actions]
        legal = np.zeros((1, BIDS), dtype=bool)
        legal[0, bids] = True
        p = self.probabilities(inputs_of(situation_features(obs))[None, :], legal)[0]
        return {b: float(p[b]) for b in bids}


@cache
def shipped_student() -> StudentModel:
    """The committed student, loaded once per process."""
    return StudentModel.load()
