"""Training the students (``ai.pocha.student``, ``ai.pocha.student_play``): master's
search told the undealt cards bids (or plays) in self-play, each decision recorded with
what the seat itself could see and the share of the search each legal bid (or card) took;
then a small network is fitted to those shares from the seat's view alone. From one seed,
the whole is rebuilt the same.
How it works: docs/bots.md, "The student" and "The student of the plays".
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ai.bot import Budget
from ai.cores import on_cores
from ai.pocha.bid_model import situation_features
from ai.pocha.location import relative_card
from ai.pocha.student import BIDS, INPUTS, StudentModel, inputs_of
from ai.pocha.student_play import INPUTS as PLAY_INPUTS
from ai.pocha.student_play import OUTPUTS as CARDS
from ai.pocha.student_play import PlayStudentModel, legal_cards_of, play_features
from ai.pocha.training import layer_weights, standardized, train_mlp
from ai.pocha.yardstick import ToldBot
from engine.pocha.actions import bid_of
from engine.pocha.cards import SUIT_OF
from engine.pocha.game import Game
from engine.pocha.observation import observe
from engine.pocha.rules import Rules

HANDS_PER_CHUNK = 20
#: A hand gives the student of the plays some ten plays with a choice, not four bids.
PLAY_HANDS_PER_CHUNK = 5
#: The teacher's budget: master's iterations, without its time limit, so that the data
#: does not depend on the machine's speed.
TEACHER_ITERATIONS = 1000


@dataclass(frozen=True)
class Chunk:
    seed: int
    index: int
    hands: int
    iterations: int
    told: str


def teacher_hand(
    rules: Rules, seed: int, iterations: int, told: str
) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """One hand's bidding, every seat bid by the told search: (the bidder's inputs, the
    shares of the search over bids 0..12, the legal bids) per bid."""
    game = Game.new(rules, seed)
    budget = Budget(iterations=iterations)
    rows = []
    step = 0
    while game.phase == "bidding":
        seat = game.turn
        assert seat is not None
        obs = observe(game, seat)
        teacher = ToldBot(told, game)
        decision = teacher.decide(obs, budget, seed + step, analyse=True)
        shares = np.zeros(BIDS, dtype=np.float32)
        legal = np.zeros(BIDS, dtype=bool)
        for stat in decision.analysis:
            shares[bid_of(stat.action)] = stat.share
            legal[bid_of(stat.action)] = True
        if not decision.analysis:  # one legal bid: no search
            legal[bid_of(decision.action)] = True
            shares[bid_of(decision.action)] = 1.0
        rows.append((inputs_of(situation_features(obs)), shares, legal))
        game.apply(seat, decision.action)
        step += 1
    return rows


def _teacher_rows(
    chunk: Chunk,
    name: str,
    hand: Callable[[Rules, int, int, str], list[tuple[np.ndarray, np.ndarray, np.ndarray]]],
    inputs: int,
    outputs: int,
) -> dict[str, np.ndarray]:
    """A chunk of hands of the classic 4-player game's sizes, each decided by the teacher
    as ``hand`` does; its rows (inputs, shares, legal choices) and the chunk of each."""
    rng = random.Random(f"{name}:{chunk.seed}:{chunk.index}")
    sizes = Rules(players=4).hand_sizes
    xs, shares, legal = [], [], []
    for _ in range(chunk.hands):
        rules = Rules(players=4, schedule=[rng.choice(sizes)], tiebreak=False)
        deal = rng.randrange(1 << 53)
        for x, s, ok in hand(rules, deal, chunk.iterations, chunk.told):
            xs.append(x)
            shares.append(s)
            legal.append(ok)
    return {
        "x": np.array(xs, dtype=np.float32).reshape(-1, inputs),
        "shares": np.array(shares, dtype=np.float32).reshape(-1, outputs),
        "legal": np.array(legal, dtype=bool).reshape(-1, outputs),
        "chunk": np.full(len(xs), chunk.index, dtype=np.int32),
    }


def _on_chunks(
    work: Callable[[Chunk], dict[str, np.ndarray]],
    per_chunk: int,
    hands: int,
    seed: int,
    iterations: int,
    told: str,
    processes: int | None,
    progress: Callable[[int, int], None] | None,
) -> dict[str, np.ndarray]:
    """``work`` over ``hands`` hands in chunks of ``per_chunk`` (rounded up), the rows joined."""
    chunks = [Chunk(seed, i, per_chunk, iterations, told) for i in range(-(-hands // per_chunk))]
    parts = list(on_cores(work, chunks, processes, progress))
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def teacher_chunk(chunk: Chunk) -> dict[str, np.ndarray]:
    """A chunk of hands of the classic 4-player game's sizes, bid by the teacher."""
    return _teacher_rows(chunk, "pocha-student", teacher_hand, INPUTS, BIDS)


def generate(
    hands: int,
    seed: int = 0,
    iterations: int = TEACHER_ITERATIONS,
    told: str = "undealt",
    processes: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, np.ndarray]:
    """The teacher's bids over ``hands`` hands (rounded up to whole chunks)."""
    return _on_chunks(
        teacher_chunk, HANDS_PER_CHUNK, hands, seed, iterations, told, processes, progress
    )


def teacher_play_hand(
    rules: Rules, seed: int, iterations: int, told: str
) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """One hand, every seat bid and played by the told search: (the player's inputs, the
    shares of the search over the 40 cards trump suit first, the legal cards) per play
    with more than one legal card."""
    game = Game.new(rules, seed)
    budget = Budget(iterations=iterations)
    teacher = ToldBot(told, game)
    rows = []
    step = 0
    while game.phase != "finished":
        seat = game.turn
        assert seat is not None
        obs = observe(game, seat)
        choice = not obs.bidding and len(obs.legal_actions) > 1
        decision = teacher.decide(obs, budget, seed + step, analyse=choice)
        if choice:
            trump = SUIT_OF[obs.trump_card]
            shares = np.zeros(CARDS, dtype=np.float32)
            for stat in decision.analysis:
                shares[relative_card(stat.action, trump)] = stat.share
            rows.append((play_features(obs), shares, legal_cards_of(obs)))
        game.apply(seat, decision.action)
        step += 1
    return rows


def teacher_play_chunk(chunk: Chunk) -> dict[str, np.ndarray]:
    """A chunk of hands of the classic 4-player game's sizes, played by the teacher."""
    return _teacher_rows(chunk, "pocha-student-play", teacher_play_hand, PLAY_INPUTS, CARDS)


def generate_plays(
    hands: int,
    seed: int = 0,
    iterations: int = TEACHER_ITERATIONS,
    told: str = "undealt",
    processes: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, np.ndarray]:
    """The teacher's plays over ``hands`` hands (rounded up to whole chunks)."""
    return _on_chunks(
        teacher_play_chunk, PLAY_HANDS_PER_CHUNK, hands, seed, iterations, told, processes, progress
    )


def fit(
    data: dict[str, np.ndarray],
    seed: int = 0,
    hidden: tuple[int, ...] = (64, 64),
    epochs: int = 60,
    batch: int = 128,
    learning_rate: float = 2e-3,
    weight_decay: float = 1e-4,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """Fit the network to the teacher's shares (cross-entropy against them, legal bids or
    cards only), a tenth of the chunks held out; its weights and the validation report.
    The data's widths say which student: the bids' (``generate``) or the plays'
    (``generate_plays``)."""
    rng = np.random.default_rng(seed)
    chunk = data["chunk"]
    # A tenth of the chunks, whole hands apart; of the rows, when there are fewer chunks.
    held_out = (chunk if chunk.max() >= 9 else np.arange(len(chunk))) % 10 == 9
    x_all = data["x"].astype(np.float32)
    xs, mean, scale = standardized(x_all, held_out)
    target = data["shares"].astype(np.float32)
    legal = data["legal"]
    train = np.flatnonzero(~held_out)
    sizes = (x_all.shape[1], *hidden, target.shape[1])
    params = train_mlp(
        sizes, xs, legal, train, lambda p, idx: p - target[idx], rng,
        epochs, batch, learning_rate, weight_decay, progress,
    )  # fmt: skip
    weights = {"mean": mean, "scale": scale, **layer_weights(params)}
    report = evaluate(StudentModel(weights), data, held_out)
    report["train_samples"] = int((~held_out).sum())
    return weights, report


def evaluate(model: StudentModel, data: dict[str, np.ndarray], rows: np.ndarray) -> dict[str, Any]:
    """Validation figures on the selected rows: how often the student's likeliest bid is
    the teacher's, the cross-entropy against the teacher's shares, and calibration (the
    student's probability of its likeliest bid against the teacher's share of it)."""
    x = data["x"][rows]
    target = data["shares"][rows]
    legal = data["legal"][rows]
    p = model.probabilities(x, legal)
    teacher = target.argmax(axis=1)
    likely = p.argmax(axis=1)
    chosen = target[np.arange(len(likely)), likely]
    confidence = p[np.arange(len(likely)), likely]
    bins = []
    for lo in np.arange(0.0, 1.0, 0.2):
        sel = (confidence >= lo) & (confidence < lo + 0.2)
        if sel.sum() >= 20:
            bins.append(
                {
                    "confidence_from": round(float(lo), 1),
                    "samples": int(sel.sum()),
                    "mean_confidence": round(float(confidence[sel].mean()), 3),
                    "teacher_agrees": round(float((likely[sel] == teacher[sel]).mean()), 3),
                }
            )
    return {
        "samples": len(teacher),
        "cross_entropy": float(-(target * np.log(np.maximum(p, 1e-12))).sum(axis=1).mean()),
        "teacher_bid_is_likeliest": float((likely == teacher).mean()),
        "teacher_share_of_likeliest": float(chosen.mean()),
        "calibration": bins,
    }


def agreement(
    model: StudentModel,
    hands: int,
    seed: int = 777,
    iterations: int = TEACHER_ITERATIONS,
    blends: tuple[float, ...] = (0.25, 0.5, 0.75),
) -> dict[str, Any]:
    """On ``hands`` fresh hands, every seat bid by the teacher: how often the teacher's bid
    (among two or more legal ones) is honest master's search's (``ismcts-modelled``), the
    student's likeliest, and each blend of the two's shares; with the teacher's share of
    each on average."""
    from ai.pocha.levels import make_bot

    master = make_bot("ismcts-modelled")
    rng = random.Random(f"pocha-student-agreement:{seed}")
    sizes = Rules(players=4).hand_sizes
    budget = Budget(iterations=iterations)
    same: dict[str, int] = {}
    share: dict[str, float] = {}
    bids = 0
    for _ in range(hands):
        rules = Rules(players=4, schedule=[rng.choice(sizes)], tiebreak=False)
        deal = rng.randrange(1 << 53)
        game = Game.new(rules, deal)
        step = 0
        while game.phase == "bidding":
            seat = game.turn
            assert seat is not None
            obs = observe(game, seat)
            told = ToldBot("undealt", game).decide(obs, budget, deal + step, analyse=True)
            if len(obs.legal_actions) > 1:
                bids += 1
                teacher = {bid_of(s.action): s.share for s in told.analysis}
                searched = master.decide(obs, budget, deal + step, analyse=True)
                honest = {bid_of(s.action): s.share for s in searched.analysis}
                taught = model.bid_shares(obs)
                chosen = {
                    "master": bid_of(searched.action),
                    "student": max(taught, key=lambda b: (taught[b], -b)),
                }
                for w in blends:
                    mixed = {b: (1 - w) * honest.get(b, 0.0) + w * p for b, p in taught.items()}
                    chosen[f"blend {w}"] = max(mixed, key=lambda b: (mixed[b], -b))
                best = bid_of(told.action)
                for name, bid in chosen.items():
                    same[name] = same.get(name, 0) + (bid == best)
                    share[name] = share.get(name, 0.0) + teacher.get(bid, 0.0)
            game.apply(seat, told.action)
            step += 1
    return {
        "bids": bids,
        **{
            name: {"teachers_bid": same[name] / bids, "teachers_share": share[name] / bids}
            for name in same
        },
    }


def play_agreement(
    model: PlayStudentModel,
    hands: int,
    seed: int = 777,
    iterations: int = TEACHER_ITERATIONS,
    blends: tuple[float, ...] = (0.25, 0.5, 0.75),
) -> dict[str, Any]:
    """On ``hands`` fresh hands, every seat bid and played by the teacher: how often the
    teacher's card (among two or more legal ones) is honest master's search's
    (``ismcts-modelled``), the student's likeliest, and each blend of the two's shares;
    with the teacher's share of each on average."""
    from ai.pocha.levels import make_bot

    master = make_bot("ismcts-modelled")
    rng = random.Random(f"pocha-student-play-agreement:{seed}")
    sizes = Rules(players=4).hand_sizes
    budget = Budget(iterations=iterations)
    same: dict[str, int] = {}
    share: dict[str, float] = {}
    plays = 0
    for _ in range(hands):
        rules = Rules(players=4, schedule=[rng.choice(sizes)], tiebreak=False)
        deal = rng.randrange(1 << 53)
        game = Game.new(rules, deal)
        teacher = ToldBot("undealt", game)
        step = 0
        while game.phase != "finished":
            seat = game.turn
            assert seat is not None
            obs = observe(game, seat)
            choice = not obs.bidding and len(obs.legal_actions) > 1
            told = teacher.decide(obs, budget, deal + step, analyse=choice)
            if choice:
                plays += 1
                shares = {s.action: s.share for s in told.analysis}
                searched = master.decide(obs, budget, deal + step, analyse=True)
                honest = {s.action: s.share for s in searched.analysis}
                taught = model.card_shares(obs)
                chosen = {
                    "master": searched.action,
                    "student": max(taught, key=lambda c: (taught[c], -c)),
                }
                for w in blends:
                    mixed = {c: (1 - w) * honest.get(c, 0.0) + w * p for c, p in taught.items()}
                    chosen[f"blend {w}"] = max(mixed, key=lambda c: (mixed[c], -c))
                for name, card in chosen.items():
                    same[name] = same.get(name, 0) + (card == told.action)
                    share[name] = share.get(name, 0.0) + shares.get(card, 0.0)
            game.apply(seat, told.action)
            step += 1
    return {
        "plays": plays,
        **{
            name: {"teachers_card": same[name] / plays, "teachers_share": share[name] / plays}
            for name in same
        },
    }
