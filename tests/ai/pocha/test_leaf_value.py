"""The student as a leaf value: the teacher's whole states and outcomes from a seed, the
inputs read from a state, fitting from a seed, the search's leaves scored by the value (and
left to their playouts where it is not taken), and the bot that plays with it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ai.bot import Budget
from ai.pocha.ismcts import (
    LEAF_BINS,
    LEAF_FEATURES,
    LEAF_LEFT,
    LEAF_NEEDS,
    expected_tricks,
    leaf_cell,
)
from ai.pocha.leaf_value import (
    MODEL_PATH,
    PLAYERS,
    STATE_COLUMNS,
    LeafModel,
    LeafValueBot,
    state_of,
    state_row,
)
from ai.pocha.levels import BOTS, make_bot
from ai.pocha.student_training import fit_value, generate_values
from engine.pocha.cards import parse_card
from engine.pocha.game import Game
from engine.pocha.hand import HandState, hand_points
from engine.pocha.observation import observe
from engine.pocha.rules import Rules

CELLS = LEAF_LEFT * LEAF_NEEDS * LEAF_BINS


def _tiny() -> dict[str, np.ndarray]:
    return generate_values(hands=10, seed=3, iterations=30, processes=1)


def _playing(cards: int = 6, seed: int = 5, played: int = 5) -> Game:
    """A classic four-player hand, each seat's bid its lowest legal one, with ``played``
    cards played."""
    game = Game.new(Rules(players=4, schedule=[cards]), seed)
    while game.phase == "bidding":
        turn = game.turn
        assert turn is not None
        game.apply(turn, observe(game, turn).legal_actions[0])
    for _ in range(played):
        turn = game.turn
        assert turn is not None
        game.apply(turn, observe(game, turn).legal_actions[-1])
    return game


def test_the_teachers_states_come_again_from_their_seed_with_the_hands_end() -> None:
    first, again = _tiny(), _tiny()
    assert all(np.array_equal(first[k], again[k]) for k in first)
    state = first["state"]
    assert state.shape[1] == STATE_COLUMNS + PLAYERS and len(state) >= 40
    for row in state:
        st = state_of(row[:STATE_COLUMNS])
        final = row[STATE_COLUMNS:]
        assert state_row(st) == [int(v) for v in row[:STATE_COLUMNS]]
        assert not st.bidding and st.tricks_left >= 1 and min(st.bids) >= 0
        # Every trick is taken by someone, and no seat loses a trick it had taken.
        assert sum(final) == st.cards and all(f >= t for f, t in zip(final, st.tricks, strict=True))
        assert sum(bin(h).count("1") for h in st.hands) == 4 * st.tricks_left - st.in_trick


def test_the_inputs_read_the_cards_against_the_others_and_the_trick() -> None:
    # Oros trump; seat 0 holds the oros ace and three (the two highest) and the copas two,
    # which seat 1's copas king tops; seat 0 has led the oros three and wins the trick.
    held = (("O1", "O3", "C2"), ("C12", "E1", "O2"), ("B1", "B3", "E3"), ("B2", "B4", "E2"))
    masks = [sum(1 << parse_card(c) for c in cards) for cards in held]
    st = HandState(Rules(players=4), masks, 0, 3, 3)
    for bid in (2, 0, 0, 0):
        st.apply_bid(bid)
    st.apply_card(parse_card("O3"))
    x: list[float] = []
    weights = [0.0] * (LEAF_FEATURES + 1)
    assert expected_tricks(weights, st, 0, x) == 0.0
    trump_top, side_top, trumps, their_trumps, side, voids = x[:6]
    assert (trump_top, side_top, trumps, their_trumps, side, voids) == (1, 0, 1, 1, 1, 2)
    winning, played, left, wanted, made = x[7:]
    assert (winning, played, left, wanted, made) == (1, 1, 3, 2, 0)
    # The weights are a constant's, then one per input.
    ones = [1.0] * (LEAF_FEATURES + 1)
    assert abs(expected_tricks(ones, st, 0) - (1.0 + sum(x))) < 1e-9


def test_the_cells_clip_the_expected_tricks_to_what_is_left_and_to_the_tables() -> None:
    cells = {
        leaf_cell(left, need, e)
        for left in range(LEAF_LEFT)
        for need in range(-3, 14)
        for e in (-2.0, 0.0, 0.4, 1.0, 2.6, 9.9, 30.0)
    }
    assert min(cells) >= 0 and max(cells) < CELLS
    # More tricks expected than are left counts as all of them.
    assert leaf_cell(2, 1, 7.0) == leaf_cell(2, 1, 2.0) != leaf_cell(2, 1, 1.0)


def test_the_value_is_fitted_again_the_same_from_the_same_states() -> None:
    data = _tiny()
    weights, report = fit_value(data)
    again, _ = fit_value(data)
    assert all(np.array_equal(weights[k], again[k]) for k in weights)
    assert weights["weights"].shape == (LEAF_FEATURES + 1,)
    assert weights["exact"].shape == weights["off"].shape == (CELLS,)
    assert ((weights["exact"] >= 0) & (weights["exact"] <= 1)).all()
    assert (weights["off"] >= 0).all()
    assert report["samples"] > 0 and report["points_rmse"] >= 0


def _visits(bot: LeafValueBot | None, obs: object, budget: Budget) -> dict[int, int]:
    search = bot or make_bot("ismcts-modelled")
    decision = search.decide(obs, budget, seed=4, analyse=True)  # type: ignore[arg-type]
    return {s.action: s.visits for s in decision.analysis}


def test_a_value_never_taken_leaves_master_to_the_visit_and_one_always_taken_scores_alone() -> None:
    game = _playing(played=4)  # a lead: every card of five
    turn = game.turn
    assert turn is not None
    obs = observe(game, turn)
    assert len(obs.legal_actions) == 5
    bids = Game.new(Rules(players=4, schedule=[6]), 5)
    first = bids.turn
    assert first is not None
    bidding = observe(bids, first)
    budget = Budget(iterations=300)
    for view in (obs, bidding):
        master = _visits(None, view, budget)
        # No weight, or a value only from more tricks than the hand has: master's search.
        for options in ({"leaf_weight": 0.0}, {"leaf_weight": 1.0, "leaf_tricks": 7}):
            bot = LeafValueBot(reading=True, modelled_bids=True, **options)  # type: ignore[arg-type]
            assert _visits(bot, view, budget) == master
    # A value that says every seat makes its bid 30% of the time and misses by 2 tricks
    # otherwise, taken alone at every leaf: each card's mean is that, whatever the playout.
    model = LeafModel(
        {
            "weights": np.zeros(LEAF_FEATURES + 1),
            "exact": np.full(CELLS, 0.3),
            "off": np.full(CELLS, 1.4),
        }
    )
    bot = LeafValueBot(leaf_weight=1.0, leaf_model=model, reading=True, modelled_bids=True)
    decision = bot.decide(obs, budget, seed=4, analyse=True)
    rules = obs.rules
    bid = obs.bids[turn]
    assert bid is not None
    expected = 0.3 * hand_points(rules, bid, bid) - 1.4 * rules.penalty
    assert all(abs(s.mean_score - expected) < 1e-9 for s in decision.analysis if s.visits)
    assert _visits(bot, obs, budget) != _visits(None, obs, budget)


def test_the_student_value_bot_plays_whole_hands_legally() -> None:
    assert "ismcts-student-value" in BOTS and MODEL_PATH.exists()
    games = (
        (Rules(players=4, schedule=[7]), True),
        (Rules(players=3, schedule=[5]), False),
        (Rules(players=4, schedule=[6], montar=False), False),
    )
    for rules, classic in games:
        bot = make_bot("ismcts-student-value")
        assert isinstance(bot, LeafValueBot)
        game = Game.new(rules, 21)
        step = 0
        while game.phase != "finished":
            turn = game.turn
            assert turn is not None
            obs = observe(game, turn)
            # The value is taken in the game it was taught only.
            assert (bot.leaf(obs) is not None) == classic
            decision = bot.decide(obs, Budget(iterations=40), seed=step)
            assert decision.action in obs.legal_actions
            game.apply(turn, decision.action)
            step += 1


def test_pocha_train_student_value_writes_weights_and_their_report(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from cli.main import pocha

    out = tmp_path / "leaf_value.npz"
    data = tmp_path / "states.npz"
    args = ["train-student", "--value", "--hands", "6", "--iterations", "20"]
    args += ["--processes", "1", "--data", str(data), "--out", str(out)]
    done = CliRunner().invoke(pocha, args)
    assert done.exit_code == 0, done.output
    assert "states" in done.output and "greedy playout" in done.output
    report = json.loads(out.with_suffix(".json").read_text())
    assert report["decisions"] == "states" and report["hands"] == 6
    model = LeafModel.load(out)
    assert len(model.weights) == LEAF_FEATURES + 1 and len(model.exact) == CELLS
    # Fitted again from the kept states, the weights are the same to the bit.
    again = tmp_path / "again.npz"
    args[args.index(str(out))] = str(again)
    assert CliRunner().invoke(pocha, args).exit_code == 0
    with np.load(out) as first, np.load(again) as second:
        assert all(np.array_equal(first[k], second[k]) for k in first.files)
    refused = CliRunner().invoke(pocha, ["train-student", "--value", "--play"])
    assert refused.exit_code != 0 and "--value" in refused.output
