"""Training the model of how seats bid, which the reading of bids weighs deals by.
How it works: docs/internals.md, ``ai.pocha.reading_training``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

import numpy as np

from ai.bot import Budget
from ai.cores import on_cores
from ai.pocha.hand_value import hand_estimate
from ai.pocha.ismcts import ISMCTSBot
from ai.pocha.reading import HAND_FEATURES, SITUATION_FEATURES, hand_features, situation_features
from engine.pocha.actions import bid_of, is_bid
from engine.pocha.game import Game
from engine.pocha.observation import observe
from engine.pocha.rules import Rules

#: Iterations a decision: the bids as ``expert`` searches them, the plays cheaply.
BID_ITERATIONS = 1000
PLAY_ITERATIONS = 30
SPREADS = tuple(round(0.20 + 0.025 * i, 3) for i in range(25))
#: The smallest hand size of each range that has a model of its own: a card alone is
#: read differently from one of ten.
CARD_RANGES = (1, 2, 3, 5, 7, 9)
PULLS = (1.0, 4.0, 16.0, 64.0, 256.0)


def play_game(seed: int, rules: Rules | None = None) -> list[dict[str, Any]]:
    """Every bid of one self-play game (classic rules unless given), with what its
    bidder saw."""
    rng = random.Random(seed)
    bot = ISMCTSBot()
    game = Game.new(rules or Rules(), seed)
    out = []
    while not game.finished:
        seat = game.turn
        assert seat is not None
        obs = observe(game, seat)
        bidding = any(is_bid(a) for a in obs.legal_actions)
        iterations = BID_ITERATIONS if bidding else PLAY_ITERATIONS
        decision = bot.decide(obs, Budget(iterations=iterations), rng.getrandbits(32))
        if bidding:
            out.append(
                {
                    "game": seed,
                    "hand": obs.hand,
                    "trump": obs.trump,
                    "cards": obs.cards_per_player,
                    "earlier": sum(b for b in obs.bids if b is not None),
                    "dealer": seat == obs.dealer,
                    "holds_trump_card": obs.trump_holder == seat,
                    "allowed": [bid_of(a) for a in obs.legal_actions],
                    "bid": bid_of(decision.action),
                }
            )
        game.apply(seat, decision.action)
    return out


def generate(
    games: int,
    seed: int,
    processes: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """The bids of ``games`` self-play games drawn from ``seed``, on all cores."""
    rng = random.Random(seed)
    seeds = [rng.randrange(1 << 53) for _ in range(games)]
    return [bid for bids in on_cores(play_game, seeds, processes, progress) for bid in bids]


def features(record: dict[str, Any]) -> list[float]:
    return hand_features(record["hand"], record["trump"]) + situation_features(
        record["cards"], record["earlier"], record["dealer"], record["holds_trump_card"]
    )


def log_likelihood(means: np.ndarray, records: list[dict[str, Any]], spread: float) -> float:
    """Mean log-likelihood of the records' bids under normal spreads around ``means``."""
    k = -0.5 / (spread * spread)
    total = 0.0
    for mu, r in zip(means, records, strict=True):
        norm = sum(math.exp(k * (b - mu) ** 2) for b in r["allowed"])
        total += k * (r["bid"] - mu) ** 2 - math.log(norm)
    return total / len(records)


def calibration(means: np.ndarray, bids: np.ndarray) -> list[dict[str, Any]]:
    """Held-out bids grouped by the model's mean (bins of half a trick): in each, the
    mean predicted and the mean bid."""
    out = []
    bins = np.floor(np.clip(means, 0, None) * 2).astype(int)
    for b in sorted(set(bins.tolist())):
        rows = bins == b
        out.append(
            {
                "from": b / 2,
                "bids": int(rows.sum()),
                "mean_predicted": round(float(means[rows].mean()), 3),
                "mean_bid": round(float(bids[rows].mean()), 3),
            }
        )
    return out


def fit(records: list[dict[str, Any]], seed: int = 0) -> dict[str, Any]:
    """The model's weights and spread, and its report (docs/internals.md,
    `ai.pocha.reading_training`)."""
    games = sorted({r["game"] for r in records})
    random.Random(seed).shuffle(games)
    held = set(games[: max(1, len(games) // 5)])
    train = [r for r in records if r["game"] not in held]
    test = [r for r in records if r["game"] in held]
    x = np.array([features(r) for r in train])
    y = np.array([r["bid"] for r in train], dtype=float)
    w, *_ = np.linalg.lstsq(x, y, rcond=None)
    x_test = np.array([features(r) for r in test])
    y_test = np.array([r["bid"] for r in test], dtype=float)
    means = x_test @ w
    by_spread = {s: log_likelihood(means, test, s) for s in SPREADS}
    spread = max(by_spread, key=lambda s: by_spread[s])
    # The estimate alone, stretched by least squares, for comparison.
    est = np.array([[hand_estimate(r["hand"], r["trump"]), 1.0] for r in train])
    w_est, *_ = np.linalg.lstsq(est, y, rcond=None)
    est_test = np.array([[hand_estimate(r["hand"], r["trump"]), 1.0] for r in test]) @ w_est
    est_spreads = {s: log_likelihood(est_test, test, s) for s in SPREADS}
    est_spread = max(est_spreads, key=lambda s: est_spreads[s])
    names = (*HAND_FEATURES, *SITUATION_FEATURES)
    by_cards, ranges_report, ranged_total = [], [], 0.0
    ends = (*CARD_RANGES[1:], 1 << 30)
    for low, high in zip(CARD_RANGES, ends, strict=True):
        rows = [i for i, r in enumerate(train) if low <= r["cards"] < high]
        held_rows = [i for i, r in enumerate(test) if low <= r["cards"] < high]
        xr, yr = x[rows], y[rows]
        held_r = [test[i] for i in held_rows]
        best: tuple[float, float, float, np.ndarray] | None = None
        for pull in PULLS:
            wr = np.linalg.solve(xr.T @ xr + pull * np.eye(len(w)), xr.T @ yr + pull * w)
            means_r = x_test[held_rows] @ wr
            for s in SPREADS:
                ll = log_likelihood(means_r, held_r, s) if held_r else 0.0
                if best is None or ll > best[0]:
                    best = (ll, pull, s, wr)
        assert best is not None
        ll, pull, s, wr = best
        ranged_total += ll * len(held_r)
        by_cards.append(
            {
                "cards_from": low,
                "weights": {n: round(float(v), 6) for n, v in zip(names, wr, strict=True)},
                "spread": s,
            }
        )
        whole = log_likelihood(means[held_rows], held_r, spread) if held_r else 0.0
        ranges_report.append(
            {
                "cards_from": low,
                "train_bids": len(rows),
                "validation_bids": len(held_r),
                "pull": pull,
                "spread": s,
                "validation_log_likelihood": round(ll, 4),
                "whole_fit_validation_log_likelihood": round(whole, 4),
            }
        )
    return {
        "weights": {name: round(float(v), 6) for name, v in zip(names, w, strict=True)},
        "spread": spread,
        "by_cards": by_cards,
        "report": {
            "by_cards": ranges_report,
            "by_cards_validation_log_likelihood": round(ranged_total / len(test), 4),
            "bids": len(records),
            "games": len(games),
            "train_bids": len(train),
            "validation_bids": len(test),
            "validation_residual_sd": round(float(np.std(y_test - means)), 4),
            "validation_log_likelihood": round(by_spread[spread], 4),
            "estimate_alone": {
                "stretch": round(float(w_est[0]), 4),
                "shift": round(float(w_est[1]), 4),
                "spread": est_spread,
                "validation_residual_sd": round(float(np.std(y_test - est_test)), 4),
                "validation_log_likelihood": round(est_spreads[est_spread], 4),
            },
            "calibration": calibration(means, y_test),
            "exact_mean_bid": round(float(np.mean(np.clip(np.rint(means), 0, None) == y_test)), 4),
        },
    }
