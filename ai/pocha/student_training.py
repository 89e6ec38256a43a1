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
from ai.pocha.ismcts import (
    LEAF_BINS,
    LEAF_FEATURES,
    LEAF_LEFT,
    LEAF_NEEDS,
    expected_tricks,
    leaf_cell,
    playout_greedy,
)
from ai.pocha.leaf_value import PLAYERS, STATE_COLUMNS, state_of, state_row
from ai.pocha.location import relative_card
from ai.pocha.student import BIDS, INPUTS, StudentModel, inputs_of
from ai.pocha.student_play import INPUTS as PLAY_INPUTS
from ai.pocha.student_play import OUTPUTS as CARDS
from ai.pocha.student_play import PlayStudentModel, legal_cards_of, play_features
from ai.pocha.training import layer_weights, standardized, train_mlp
from ai.pocha.yardstick import ToldBot
from engine.pocha.actions import bid_of
from engine.pocha.cards import SUIT_OF
from engine.pocha.deals import state_from_observation
from engine.pocha.game import Game
from engine.pocha.hand import hand_points
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


# -- the student as a leaf value ---------------------------------------------------------

#: A hand gives the leaf value a whole state at each of its some thirty card plays.
VALUE_HANDS_PER_CHUNK = 5
#: The tables' cells are shrunk towards the cell of the same wanted and expected tricks
#: over every number of tricks left (and that towards the whole mean) by this many samples.
VALUE_SHRINK = 10.0


def teacher_value_hand(rules: Rules, seed: int, iterations: int, told: str) -> list[list[int]]:
    """One hand, every seat bid and played by the told search: at each card play the whole
    state (``leaf_value.state_row``), then each seat's tricks at the hand's end."""
    game = Game.new(rules, seed)
    budget = Budget(iterations=iterations)
    teacher = ToldBot(told, game)
    states = []
    st = None
    step = 0
    while game.phase != "finished":
        seat = game.turn
        assert seat is not None
        obs = observe(game, seat)
        if st is None:
            st = state_from_observation(obs, list(game.state.hands))
        if not obs.bidding:
            states.append(state_row(st))
        decision = teacher.decide(obs, budget, seed + step)
        game.apply(seat, decision.action)
        st.apply_action(decision.action)
        step += 1
    assert st is not None and st.done
    return [row + st.tricks for row in states]


def teacher_value_chunk(chunk: Chunk) -> dict[str, np.ndarray]:
    """A chunk of hands of the classic 4-player game's sizes, played by the teacher: its
    whole states with each seat's tricks at the end, and the chunk of each."""
    rng = random.Random(f"pocha-leaf-value:{chunk.seed}:{chunk.index}")
    sizes = Rules(players=PLAYERS).hand_sizes
    rows: list[list[int]] = []
    for _ in range(chunk.hands):
        rules = Rules(players=PLAYERS, schedule=[rng.choice(sizes)], tiebreak=False)
        rows.extend(teacher_value_hand(rules, rng.randrange(1 << 53), chunk.iterations, chunk.told))
    return {
        "state": np.array(rows, dtype=np.int64).reshape(-1, STATE_COLUMNS + PLAYERS),
        "chunk": np.full(len(rows), chunk.index, dtype=np.int32),
    }


def generate_values(
    hands: int,
    seed: int = 0,
    iterations: int = TEACHER_ITERATIONS,
    told: str = "undealt",
    processes: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, np.ndarray]:
    """The teacher's whole states and outcomes over ``hands`` hands (rounded up to whole
    chunks)."""
    return _on_chunks(
        teacher_value_chunk, VALUE_HANDS_PER_CHUNK, hands, seed, iterations, told, processes,
        progress,
    )  # fmt: skip


def _seat_rows(data: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Every seat of every state: its inputs (``ismcts.expected_tricks``), the tricks it
    took after, the tricks left and wanted, its bid, its tricks at the end, and its points
    by the classic scoring after one greedy playout of the state (what the leaf value
    replaces in the search)."""
    rules = Rules(players=PLAYERS)
    rng = random.Random("pocha-leaf-value-playouts")
    zeros = [0.0] * (LEAF_FEATURES + 1)
    x: list[float] = []
    took, left, need, bid, final, chunk, played = [], [], [], [], [], [], []
    for row, c in zip(data["state"], data["chunk"], strict=True):
        st = state_of(row[:STATE_COLUMNS])
        out = st.copy()
        playout_greedy(out, rng.random)
        for s in range(PLAYERS):
            played.append(hand_points(rules, st.bids[s], out.tricks[s]))
            expected_tricks(zeros, st, s, x)
            end = int(row[STATE_COLUMNS + s])
            took.append(end - st.tricks[s])
            left.append(st.tricks_left)
            need.append(st.bids[s] - st.tricks[s])
            bid.append(st.bids[s])
            final.append(end)
            chunk.append(c)
    return {
        "x": np.array(x, dtype=np.float64).reshape(-1, LEAF_FEATURES),
        "took": np.array(took, dtype=np.float64),
        "left": np.array(left),
        "need": np.array(need),
        "bid": np.array(bid),
        "final": np.array(final),
        "chunk": np.array(chunk),
        "playout": np.array(played, dtype=np.float64),
    }


def fit_value(
    data: dict[str, np.ndarray], ridge: float = 1e-3
) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """Fit the leaf value to the teacher's outcomes, a tenth of the chunks held out: the
    expected tricks by least squares, then per cell (``ismcts.leaf_cell``) the share of
    exact bids and the mean miss; its weights and the validation report."""
    rows = _seat_rows(data)
    chunk = rows["chunk"]
    held_out = (chunk if chunk.max() >= 9 else np.arange(len(chunk))) % 10 == 9
    train = ~held_out
    x = np.hstack([np.ones((len(chunk), 1)), rows["x"]])
    a = x[train]
    w = np.linalg.solve(a.T @ a + ridge * np.eye(a.shape[1]), a.T @ rows["took"][train])
    weights = [float(v) for v in w]
    expected = x @ w
    cells = np.array(
        [
            leaf_cell(int(lf), int(nd), float(e))
            for lf, nd, e in zip(rows["left"], rows["need"], expected, strict=True)
        ]
    )
    exact_hit = (rows["final"] == rows["bid"]).astype(np.float64)
    miss = np.abs(rows["final"] - rows["bid"]).astype(np.float64)
    size = LEAF_LEFT * LEAF_NEEDS * LEAF_BINS
    coarse_of = np.arange(size) % (LEAF_NEEDS * LEAF_BINS)
    tables = {}
    for name, y in (("exact", exact_hit), ("off", miss)):
        whole = float(y[train].mean())
        n = np.bincount(cells[train], minlength=size).astype(np.float64)
        total = np.bincount(cells[train], weights=y[train], minlength=size)
        cn = np.bincount(coarse_of, weights=n, minlength=LEAF_NEEDS * LEAF_BINS)
        ct = np.bincount(coarse_of, weights=total, minlength=LEAF_NEEDS * LEAF_BINS)
        coarse = (ct + VALUE_SHRINK * whole) / (cn + VALUE_SHRINK)
        tables[name] = (total + VALUE_SHRINK * coarse[coarse_of]) / (n + VALUE_SHRINK)
    weights_out = {
        "weights": np.array(weights),
        "exact": tables["exact"],
        "off": tables["off"],
    }
    report = evaluate_value(rows, expected, cells, tables, held_out)
    report["train_samples"] = int(train.sum())
    report["weights"] = weights
    return weights_out, report


def evaluate_value(
    rows: dict[str, np.ndarray],
    expected: np.ndarray,
    cells: np.ndarray,
    tables: dict[str, np.ndarray],
    sel: np.ndarray,
) -> dict[str, Any]:
    """Validation figures on the selected seats' states: the expected tricks' error, and the
    value's error against the classic scoring's points at the end, beside one greedy
    playout's, their half and half's and a constant's (the points' spread)."""
    rules = Rules(players=4)
    bid = rows["bid"][sel]
    final = rows["final"][sel]
    made = rules.exact_bonus + rules.per_trick * bid
    points = np.where(final == bid, made, -rules.penalty * np.abs(final - bid))
    c = cells[sel]
    value = tables["exact"][c] * made - rules.penalty * tables["off"][c]
    return {
        "samples": int(sel.sum()),
        "tricks_rmse": float(np.sqrt(np.mean((expected[sel] - rows["took"][sel]) ** 2))),
        "tricks_sd": float(rows["took"][sel].std()),
        "points_rmse": float(np.sqrt(np.mean((value - points) ** 2))),
        "playout_rmse": float(np.sqrt(np.mean((rows["playout"][sel] - points) ** 2))),
        "half_and_half_rmse": float(
            np.sqrt(np.mean((0.5 * value + 0.5 * rows["playout"][sel] - points) ** 2))
        ),
        "points_sd": float(points.std()),
        "exact_share": float((final == bid).mean()),
    }
