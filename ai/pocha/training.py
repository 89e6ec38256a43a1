"""Training the model of tricks taken: self-play data, then fitting, from one seed.
How it works: docs/internals.md, ``ai.pocha.training``.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ai.bot import Budget
from ai.cores import on_cores
from ai.pocha.bid_model import (
    BID_AT,
    FEATURES,
    TRICK_CLASSES,
    BidModel,
    situation_features,
    with_bids,
)
from ai.pocha.heuristic import estimate_tricks
from ai.pocha.ismcts import ISMCTSBot
from engine.pocha.actions import bid_action, bid_of
from engine.pocha.game import Game
from engine.pocha.observation import observe
from engine.pocha.rules import Rules

HANDS_PER_CHUNK = 50


def random_rules(rng: random.Random) -> tuple[Rules, int]:
    """Rules and a hand size for one training hand: the classic options one time in
    three (the game most people play), any options otherwise."""
    players = rng.randint(3, 8)
    top = (36 if players in (3, 6) else 40) // players
    cards = rng.randint(1, top)
    if rng.random() < 1 / 3:
        options: dict[str, Any] = {}
    else:
        options = {
            "montar": rng.random() < 0.5,
            "fallar": rng.random() < 0.5,
            "pisar": rng.random() < 0.5,
            "dealer_restriction": rng.random() < 0.8,
        }
    return Rules(players=players, schedule=[cards], tiebreak=False, **options), cards


def play_hand(
    rules: Rules, seed: int, rng: random.Random, iterations: int
) -> list[tuple[np.ndarray, int, int, int]]:
    """One hand of self-play: (situation features, bid, tricks taken, cards) per seat."""
    game = Game.new(rules, seed)
    player = ISMCTSBot()
    budget = Budget(iterations=iterations)
    situations: dict[int, tuple[np.ndarray, int]] = {}
    step = 0
    while game.phase == "bidding":
        seat = game.turn
        assert seat is not None
        obs = observe(game, seat)
        legal = sorted(bid_of(a) for a in obs.legal_actions)
        want = round(estimate_tricks(obs))
        if rng.random() < 1 / 3:
            want += rng.choice((-2, -1, 1, 2))
        bid = min(legal, key=lambda b: (abs(b - want), rng.random()))
        situations[seat] = (situation_features(obs), bid)
        game.apply(seat, bid_action(bid))
    while game.phase == "playing":
        seat = game.turn
        assert seat is not None
        obs = observe(game, seat)
        decision = player.decide(obs, budget, seed + step)
        game.apply(seat, decision.action)
        step += 1
    tricks = game.history[-1]["tricks"]
    cards = rules.hand_sizes[0]
    return [(x, bid, tricks[s], cards) for s, (x, bid) in situations.items()]


@dataclass(frozen=True)
class Chunk:
    seed: int
    index: int
    hands: int
    iterations: int


def play_chunk(chunk: Chunk) -> dict[str, np.ndarray]:
    """A chunk of self-play hands as arrays (features with the bid written in)."""
    rng = random.Random(f"pocha-train:{chunk.seed}:{chunk.index}")
    rows: list[np.ndarray] = []
    tricks: list[int] = []
    cards: list[int] = []
    for _ in range(chunk.hands):
        rules, n_cards = random_rules(rng)
        for x, bid, won, c in play_hand(rules, rng.randrange(1 << 53), rng, chunk.iterations):
            rows.append(with_bids(x, [bid], n_cards)[0])
            tricks.append(won)
            cards.append(c)
    return {
        "x": np.array(rows, dtype=np.float32).reshape(-1, FEATURES),
        "tricks": np.array(tricks, dtype=np.int8),
        "cards": np.array(cards, dtype=np.int8),
        "chunk": np.full(len(tricks), chunk.index, dtype=np.int32),
    }


def generate(
    hands: int,
    seed: int = 0,
    iterations: int = 40,
    processes: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, np.ndarray]:
    """Self-play data of ``hands`` hands (rounded up to whole chunks), on all cores."""
    chunks = [
        Chunk(seed, i, HANDS_PER_CHUNK, iterations) for i in range(-(-hands // HANDS_PER_CHUNK))
    ]
    parts = list(on_cores(play_chunk, chunks, processes, progress))
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


# -- fitting ---------------------------------------------------------------------


def _forward(
    params: list[np.ndarray], x: np.ndarray, mask: np.ndarray
) -> tuple[list[np.ndarray], np.ndarray]:
    acts = [x]
    h = x
    layers = len(params) // 2
    for i in range(layers - 1):
        h = np.maximum(h @ params[2 * i] + params[2 * i + 1], 0.0)
        acts.append(h)
    logits = h @ params[-2] + params[-1]
    logits = np.where(mask, logits, -1e9)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    return acts, p


def standardized(
    x_all: np.ndarray, held_out: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``x_all`` less the mean, over the spread, of the rows not ``held_out`` (a feature
    that hardly varies is left unscaled): the inputs so scaled, the means and the scales,
    which a model keeps to scale what it is shown as it was trained."""
    mean = x_all[~held_out].mean(axis=0)
    scale = x_all[~held_out].std(axis=0)
    scale[scale < 1e-6] = 1.0
    return (x_all - mean) / scale, mean, scale


def layer_weights(params: list[np.ndarray]) -> dict[str, np.ndarray]:
    """``train_mlp``'s weights and biases as a model keeps them: w0, b0, w1, b1, ..."""
    weights: dict[str, np.ndarray] = {}
    for i in range(len(params) // 2):
        weights[f"w{i}"] = params[2 * i]
        weights[f"b{i}"] = params[2 * i + 1]
    return weights


def train_mlp(
    sizes: tuple[int, ...],
    xs: np.ndarray,
    mask: np.ndarray,
    train: np.ndarray,
    output_grad: Callable[[np.ndarray, np.ndarray], np.ndarray],
    rng: np.random.Generator,
    epochs: int,
    batch: int,
    learning_rate: float,
    weight_decay: float,
    progress: Callable[[int, int], None] | None = None,
) -> list[np.ndarray]:
    """A perceptron of layer ``sizes`` fitted by Adam on a cosine schedule to the rows
    ``train`` of ``xs`` (masked softmax outputs); ``output_grad(p, rows)``: the loss's
    gradient at the logits of a batch, summed over it. Its weights and biases, in order."""
    params: list[np.ndarray] = []
    for a, b in itertools.pairwise(sizes):
        params.append((rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32))
        params.append(np.zeros(b, dtype=np.float32))
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    t = 0
    for epoch in range(epochs):
        # A cosine schedule: big steps early, fine ones at the end.
        lr = learning_rate * 0.5 * (1 + np.cos(np.pi * epoch / epochs))
        order = rng.permutation(train)
        for start in range(0, len(order), batch):
            idx = order[start : start + batch]
            acts, p = _forward(params, xs[idx], mask[idx])
            grad = output_grad(p, idx) / len(idx)
            grads: list[np.ndarray] = [np.empty(0)] * len(params)
            for layer in range(len(params) // 2 - 1, -1, -1):
                grads[2 * layer] = acts[layer].T @ grad + weight_decay * params[2 * layer]
                grads[2 * layer + 1] = grad.sum(axis=0)
                if layer:
                    grad = (grad @ params[2 * layer].T) * (acts[layer] > 0)
            t += 1
            for i, g in enumerate(grads):
                m[i] = beta1 * m[i] + (1 - beta1) * g
                v[i] = beta2 * v[i] + (1 - beta2) * g * g
                m_hat = m[i] / (1 - beta1**t)
                v_hat = v[i] / (1 - beta2**t)
                params[i] -= (lr * m_hat / (np.sqrt(v_hat) + eps)).astype(np.float32)
        if progress:
            progress(epoch + 1, epochs)
    return params


def fit(
    data: dict[str, np.ndarray],
    seed: int = 0,
    hidden: tuple[int, ...] = (64, 64),
    epochs: int = 40,
    batch: int = 256,
    learning_rate: float = 2e-3,
    weight_decay: float = 1e-4,
    bid_input: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """Fit the perceptron; its weights and the validation report.

    With ``bid_input`` off (the default) the model does not see the bid: it learns what
    the hand takes as it was bid in the data, not how a higher bid makes it take more.
    Seen, the bid made the expert overbid against ISMCTS (the self-play's 40-iteration
    opponents let a seat that raised its bid take the tricks it chased; stronger ones
    do not): 4.8 against 8.4 points a hand on the first deal of the arena."""
    rng = np.random.default_rng(seed)
    chunk = data["chunk"]
    held_out = chunk % 10 == 9  # a tenth of the chunks, whole hands apart
    x_all = data["x"].astype(np.float32)
    if not bid_input:
        x_all = x_all.copy()
        x_all[:, BID_AT:] = 0.0
    xs, mean, scale = standardized(x_all, held_out)
    classes = np.arange(TRICK_CLASSES)[None, :]
    mask_all = classes <= data["cards"].astype(np.int64)[:, None]
    y_all = data["tricks"].astype(np.int64)
    train = np.flatnonzero(~held_out)

    def output_grad(p: np.ndarray, idx: np.ndarray) -> np.ndarray:
        p[np.arange(len(idx)), y_all[idx]] -= 1.0
        return p

    params = train_mlp(
        (FEATURES, *hidden, TRICK_CLASSES), xs, mask_all, train, output_grad, rng, epochs,
        batch, learning_rate, weight_decay, progress,
    )  # fmt: skip
    weights: dict[str, np.ndarray] = {
        "mean": mean,
        "scale": scale,
        "bid_input": np.array(int(bid_input)),
        **layer_weights(params),
    }
    report = evaluate(BidModel(weights), data, held_out)
    report["train_samples"] = int((~held_out).sum())
    return weights, report


def evaluate(model: BidModel, data: dict[str, np.ndarray], rows: np.ndarray) -> dict[str, Any]:
    """Validation figures of ``model`` on the selected rows."""
    x = data["x"][rows]
    y = data["tricks"][rows].astype(np.int64)
    cards = data["cards"][rows].astype(np.int64)
    p = model.probabilities(x, cards)
    predicted = p @ np.arange(TRICK_CLASSES)
    likely = p.argmax(axis=1)
    bid = (x[:, BID_AT : BID_AT + TRICK_CLASSES]).argmax(axis=1)
    report: dict[str, Any] = {
        "samples": len(y),
        "log_loss": float(-np.log(np.maximum(p[np.arange(len(y)), y], 1e-12)).mean()),
        "most_likely_right": float((likely == y).mean()),
        "mean_predicted": float(predicted.mean()),
        "mean_actual": float(y.mean()),
        # What always guessing "the bid is made" would get right: the bar to beat.
        "bid_made_rate": float((bid == y).mean()),
    }
    bins = []
    for lo in np.arange(0.0, MAX_BIN, 0.5):
        sel = (predicted >= lo) & (predicted < lo + 0.5)
        if sel.sum() >= 20:
            bins.append(
                {
                    "predicted_from": float(lo),
                    "samples": int(sel.sum()),
                    "mean_predicted": round(float(predicted[sel].mean()), 3),
                    "mean_actual": round(float(y[sel].mean()), 3),
                }
            )
    report["calibration"] = bins
    # By the play obligations (montar, fallar, pisar), the options that change tricks.
    from ai.pocha.bid_model import _OFFSET

    r0 = _OFFSET["rules"]
    by_rules = []
    for montar in (1.0, 0.0):
        for fallar in (1.0, 0.0):
            sel = (x[:, r0] == montar) & (x[:, r0 + 1] == fallar)
            if sel.sum():
                by_rules.append(
                    {
                        "montar": bool(montar),
                        "fallar": bool(fallar),
                        "samples": int(sel.sum()),
                        "mean_predicted": round(float(predicted[sel].mean()), 3),
                        "mean_actual": round(float(y[sel].mean()), 3),
                    }
                )
    report["by_rules"] = by_rules
    return report


MAX_BIN = 12.0
