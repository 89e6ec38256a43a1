"""Training the model of where the unseen cards are (``ai.pocha.location``).
How it works: docs/internals.md, ``ai.pocha.location_training``.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from typing import Any

import numpy as np

from ai.bot import Budget
from ai.cores import on_cores
from ai.pocha.ismcts import ISMCTSBot
from ai.pocha.location import (
    CARDS,
    FEATURES,
    LOCATIONS,
    PLAYERS,
    UNDEALT,
    LocationModel,
    location_features,
    location_mask,
    masked_log_softmax,
    prior_logits,
    relative_card,
    seat_counts,
    side_suit_orders,
)
from engine.pocha.actions import is_bid
from engine.pocha.cards import iter_cards
from engine.pocha.game import Game
from engine.pocha.inference import infer
from engine.pocha.observation import observe
from engine.pocha.rules import Rules

BID_ITERATIONS = 1000
PLAY_ITERATIONS = 300


def play_game(
    seed: int,
    rules: Rules | None = None,
    iterations: tuple[int, int] = (BID_ITERATIONS, PLAY_ITERATIONS),
) -> dict[str, np.ndarray]:
    """Every seat's view at every decision of one self-play game (classic rules unless
    given), with the truth; ``iterations``: the search's for a bid and for a card."""
    rng = random.Random(seed)
    bot = ISMCTSBot()
    game = Game.new(rules or Rules(), seed)
    xs: list[np.ndarray] = []
    targets: list[np.ndarray] = []
    wheres: list[np.ndarray] = []
    truths: list[np.ndarray] = []
    while not game.finished:
        mover = game.turn
        assert mover is not None
        hands = game.state.hands
        for seat in range(PLAYERS):
            obs = observe(game, seat)
            knowledge = infer(obs)
            target, where = location_mask(obs, knowledge)
            if not target.any():
                continue
            truth = np.full(CARDS, UNDEALT, dtype=np.int8)
            for s in range(PLAYERS):
                if s == seat:
                    continue
                for card in iter_cards(hands[s]):
                    truth[relative_card(card, obs.trump)] = (s - seat) % 4 - 1
            xs.append(location_features(obs, knowledge))
            targets.append(target)
            wheres.append(where)
            truths.append(truth)
        obs = observe(game, mover)
        bidding = any(is_bid(a) for a in obs.legal_actions)
        budget = Budget(iterations=iterations[0] if bidding else iterations[1])
        decision = bot.decide(obs, budget, rng.getrandbits(32))
        game.apply(mover, decision.action)
    return {
        "x": np.array(xs, dtype=np.float16),
        "target": np.array(targets, dtype=bool),
        "where": np.array(wheres, dtype=bool),
        "truth": np.array(truths, dtype=np.int8),
        "game": np.full(len(xs), seed, dtype=np.int32),
    }


def generate(
    games: int,
    seed: int = 0,
    processes: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, np.ndarray]:
    """The data of ``games`` self-play games, seeded ``seed``, ``seed + 1``, ..."""
    parts = list(on_cores(play_game, range(seed, seed + games), processes, progress))
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def fit(
    data: dict[str, np.ndarray],
    seed: int = 0,
    hidden: tuple[int, ...] = (256, 256),
    epochs: int = 4,
    batch: int = 512,
    learning_rate: float = 5e-4,
    weight_decay: float = 1e-2,
    progress: Callable[[int, dict[str, float]], None] | None = None,
) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """Fit the perceptron; the weights of the epoch that read the held-out games best,
    and its report (with ``epoch``).  Each batch is shown with its side suits in one of
    their six orders (``side_suit_orders``), drawn at random."""
    rng = np.random.default_rng(seed)
    held_out = data["game"] % 10 == 9
    x_all = data["x"]
    train = np.flatnonzero(~held_out)
    sample = x_all[train[:: max(1, len(train) // 200_000)]].astype(np.float64)
    mean = sample.mean(axis=0).astype(np.float32)
    scale = sample.std(axis=0).astype(np.float32)
    scale[scale < 1e-6] = 1.0
    target = data["target"]
    where = data["where"] & target[:, :, None]
    where[~target, UNDEALT] = True  # a seen card's row is ignored, but kept finite
    truth = data["truth"]
    feature_orders, card_orders = side_suit_orders()
    sizes = (FEATURES, *hidden, CARDS * LOCATIONS)
    params: list[np.ndarray] = []
    for a, b in itertools.pairwise(sizes):
        params.append((rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32))
        params.append(np.zeros(b, dtype=np.float32))
    # The last layer starts at zero: the model starts where the hand sizes put the cards.
    params[-2][:] = 0.0
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    step = 0
    layers = len(params) // 2
    best: tuple[dict[str, np.ndarray], dict[str, Any]] | None = None
    for epoch in range(epochs):
        rng.shuffle(train)
        for start in range(0, len(train), batch):
            rows = train[start : start + batch]
            order = int(rng.integers(len(card_orders)))
            cols = card_orders[order]
            x = (x_all[rows][:, feature_orders[order]].astype(np.float32) - mean) / scale
            tgt = target[rows][:, cols]
            onehot = np.zeros((len(rows), CARDS, LOCATIONS), dtype=np.float32)
            np.put_along_axis(onehot, truth[rows][:, cols].astype(np.int64)[:, :, None], 1.0, 2)
            onehot *= tgt[:, :, None]
            acts = [x]
            h = x
            for i in range(layers - 1):
                h = np.maximum(h @ params[2 * i] + params[2 * i + 1], 0.0)
                acts.append(h)
            logits = (h @ params[-2] + params[-1]).reshape(len(rows), CARDS, LOCATIONS)
            logits += prior_logits(x_all[rows])
            p = np.exp(masked_log_softmax(logits, where[rows][:, cols]))
            grad = ((p - onehot) * tgt[:, :, None]).reshape(len(rows), -1)
            grad /= max(1.0, float(tgt.sum()))
            grads: list[np.ndarray] = [np.empty(0)] * len(params)
            for i in reversed(range(layers)):
                grads[2 * i] = acts[i].T @ grad
                grads[2 * i + 1] = grad.sum(axis=0)
                if i:
                    grad = (grad @ params[2 * i].T) * (acts[i] > 0)
            step += 1
            for j, g in enumerate(grads):
                m[j] = 0.9 * m[j] + 0.1 * g
                v[j] = 0.999 * v[j] + 0.001 * g * g
                mh = m[j] / (1 - 0.9**step)
                vh = v[j] / (1 - 0.999**step)
                params[j] -= learning_rate * (mh / (np.sqrt(vh) + 1e-8) + weight_decay * params[j])
        weights = _weights(params, mean, scale)
        report: dict[str, Any] = {**evaluate(weights, data, np.flatnonzero(held_out))}
        report["epoch"] = epoch + 1
        if progress:
            progress(epoch + 1, report)
        if best is None or report["log_likelihood"] > best[1]["log_likelihood"]:
            best = (weights, report)
    assert best is not None
    return best


def _weights(
    params: list[np.ndarray], mean: np.ndarray, scale: np.ndarray
) -> dict[str, np.ndarray]:
    out = {"mean": mean.astype(np.float32), "scale": scale.astype(np.float32)}
    for i in range(len(params) // 2):
        out[f"w{i}"] = params[2 * i].copy()
        out[f"b{i}"] = params[2 * i + 1].copy()
    return out


def evaluate(
    weights: dict[str, np.ndarray], data: dict[str, np.ndarray], rows: np.ndarray
) -> dict[str, float]:
    """Mean log-likelihood per hidden card of its true location on ``rows``: the
    model's; a uniform guess's over the places each card may be; and the hand sizes'
    alone (each place in proportion to the unknown cards it holds, among those the
    card may be in), which is what a uniform deal of the unseen cards knows."""
    model = LocationModel(weights)
    total = 0.0
    uniform = 0.0
    counted = 0.0
    count = 0
    for start in range(0, len(rows), 4096):
        r = rows[start : start + 4096]
        target = data["target"][r]
        where = data["where"][r] & target[:, :, None]
        where[~target, UNDEALT] = True
        x = data["x"][r].astype(np.float32)
        logp = model.log_probabilities(x, where)
        truth = data["truth"][r].astype(np.int64)[:, :, None]
        picked = np.take_along_axis(logp, truth, axis=2)[:, :, 0]
        total += float(picked[target].sum())
        uniform += float(-np.log(where.sum(axis=2))[target].sum())
        slots = seat_counts(x)[:, None, :] * where
        share = np.take_along_axis(slots, truth, axis=2)[:, :, 0] / np.maximum(
            slots.sum(axis=2), 1e-9
        )
        counted += float(np.log(np.maximum(share, 1e-9))[target].sum())
        count += int(target.sum())
    return {
        "log_likelihood": total / max(1, count),
        "uniform_log_likelihood": uniform / max(1, count),
        "hand_sizes_log_likelihood": counted / max(1, count),
        "cards": float(count),
    }
