"""The student of the plays: a small network that gives, from what one seat may know at its
card play, the share of its search that master's search would give each legal card were it
told which cards were never dealt; and the search that blends its root's shares with the
student's, or plays the student's card alone. The classic four-player game only (the
cards' model's view, ``ai.pocha.location``, under the obligations and scoring the teacher
played by); elsewhere the bot plays as master.
Trained by ``ai.pocha.student_training`` (``pocha train-student --play``); numpy only at
run time. How it works: docs/bots.md, "The student of the plays".
"""

from __future__ import annotations

import time
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from ai.bot import Budget, Decision, legal_actions
from ai.pocha.ismcts import DEFAULT_ITERATIONS, ISMCTSBot
from ai.pocha.location import CARDS, PLAYERS, location_features, reads, relative_card
from ai.pocha.location import FEATURES as LOCATION_FEATURES
from ai.pocha.student import StudentModel
from engine.pocha.cards import BIT
from engine.pocha.inference import infer
from engine.pocha.observation import Observation
from engine.pocha.rules import Rules
from engine.pocha.tricks import BEATERS

#: Its inputs: the cards' model's view of the seat (its hand, every seat's plays, the
#: table, the voids it knows, bids and tricks, the trump card), then the card now winning
#: the trick and the seat's place in it.
INPUTS = LOCATION_FEATURES + CARDS + PLAYERS
#: Its outputs: one per card of the 40-card deck, the suits laid out trump first.
OUTPUTS = CARDS
MODEL_PATH = Path(__file__).with_name("models") / "student_play.npz"


#: The rules the teacher played by, beyond four players and the 40-card deck.
_CLASSIC = Rules(players=PLAYERS)
_TAUGHT = ("montar", "fallar", "pisar", "exact_bonus", "per_trick", "penalty")


def taught(obs: Observation) -> bool:
    """Whether the student was taught this game: four players, the 40-card deck, the
    classic obligations and scoring."""
    rules = obs.rules
    return reads(obs) and all(getattr(rules, k) == getattr(_CLASSIC, k) for k in _TAUGHT)


def play_features(obs: Observation) -> np.ndarray:
    """The student's inputs from the seat's own view (``obs`` and what it infers)."""
    seat = obs.seat
    assert seat is not None
    x = np.zeros(INPUTS, dtype=np.float32)
    x[:LOCATION_FEATURES] = location_features(obs, infer(obs))
    trick = obs.trick
    if trick:
        beaters = BEATERS[obs.trump]
        win = trick[0][1]
        for _, card in trick[1:]:
            if beaters[win] & BIT[card]:
                win = card
        x[LOCATION_FEATURES + relative_card(win, obs.trump)] = 1.0
    x[LOCATION_FEATURES + CARDS + len(trick)] = 1.0
    return x


def legal_cards_of(obs: Observation) -> np.ndarray:
    """The seat's legal cards, by relative card (trump suit first)."""
    legal = np.zeros(OUTPUTS, dtype=bool)
    for card in legal_actions(obs):
        legal[relative_card(card, obs.trump)] = True
    return legal


class PlayStudentModel(StudentModel):
    """A multilayer perceptron: a seat's view at its play -> a distribution over its legal
    cards."""

    @classmethod
    def load(cls, path: Path | str = MODEL_PATH) -> PlayStudentModel:
        with np.load(path) as data:
            return cls({k: data[k] for k in data.files})

    def card_shares(self, obs: Observation) -> dict[int, float]:
        """The seat's legal cards, each with its probability."""
        cards = legal_actions(obs)
        p = self.probabilities(play_features(obs)[None, :], legal_cards_of(obs)[None, :])[0]
        return {c: float(p[relative_card(c, obs.trump)]) for c in cards}


@cache
def shipped_play_student() -> PlayStudentModel:
    """The committed student of the plays, loaded once per process."""
    return PlayStudentModel.load()


class PlayStudentBot(ISMCTSBot):
    """Master's search whose card plays weigh the student's: the root's visit shares and
    the student's probabilities blended by ``student_play`` (at 1 the student's likeliest
    card is played without a search), or, with ``student_prior``, the student's
    probabilities times it as the prior of the root's PUCT (``ai.pocha.ismcts.iterate``).
    Bids, and games the student does not read, are the search's own."""

    def __init__(
        self,
        student_play: float = 0.5,
        play_model: PlayStudentModel | None = None,
        student_prior: float = 0.0,
        **options: Any,
    ) -> None:
        super().__init__(**options)
        self.student_play = student_play
        self.play_model = play_model
        self.student_prior = student_prior

    def root_prior(self, obs: Observation) -> dict[int, float] | None:
        if not self.student_prior or obs.bidding or not taught(obs):
            return None
        shares = (self.play_model or shipped_play_student()).card_shares(obs)
        return {a: self.student_prior * p for a, p in shares.items()}

    def decide(
        self,
        obs: Observation,
        budget: Budget | None = None,
        seed: int | None = None,
        analyse: bool = False,
    ) -> Decision:
        actions = legal_actions(obs)
        if (
            obs.bidding
            or not taught(obs)
            or not self.student_play
            or (len(actions) == 1 and not analyse)
        ):
            return super().decide(obs, budget, seed, analyse)
        started = time.perf_counter()
        shares = (self.play_model or shipped_play_student()).card_shares(obs)
        w = self.student_play
        if w >= 1.0 and not analyse:
            best = max(shares, key=lambda a: (shares[a], -a))
            return Decision(action=best, elapsed_ms=(time.perf_counter() - started) * 1000)
        # The search's shares with analysis: every visit counts, none stops early.
        searched = super().decide(obs, budget or Budget(iterations=DEFAULT_ITERATIONS), seed, True)
        best = max(
            searched.analysis,
            key=lambda s: ((1 - w) * s.share + w * shares.get(s.action, 0.0), s.mean_score),
        ).action
        return Decision(
            action=best,
            analysis=searched.analysis if analyse else (),
            iterations=searched.iterations,
            elapsed_ms=(time.perf_counter() - started) * 1000,
        )
