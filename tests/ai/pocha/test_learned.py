"""The learned bidding: its features, the shipped model, the bids it chooses, the bot that
uses them, training from a seed, and the calibration report."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from ai.bot import Budget
from ai.pocha.bid_model import (
    BID_AT,
    FEATURES,
    MODEL_PATH,
    TRICK_CLASSES,
    BidModel,
    best_bid,
    expected_scores,
    points_table,
    shipped_model,
    situation_features,
    with_bids,
)
from ai.pocha.kind import KIND
from ai.pocha.learned import LearnedBot
from ai.pocha.levels import BOTS, LEVELS
from ai.pocha.training import fit, generate
from engine.pocha.actions import bid_action, bid_of
from engine.pocha.cards import SUIT_MASK
from engine.pocha.game import Game
from engine.pocha.observation import Observation, observe
from engine.pocha.rules import Rules


def bidding_view(rules: Rules, seed: int) -> Observation:
    game = Game.new(rules, seed)
    seat = game.turn
    assert seat is not None
    return observe(game, seat)


def dealer_view(rules: Rules, seed: int, earlier: int) -> Observation:
    """The dealer's view after every other seat has bid ``earlier``."""
    game = Game.new(rules, seed)
    for _ in range(rules.players - 1):
        seat = game.turn
        assert seat is not None
        game.apply(seat, bid_action(earlier))
    seat = game.turn
    assert seat is not None and seat == game.dealer
    return observe(game, seat)


def test_the_features_lay_out_the_hand_trump_first_and_the_rest_in_range() -> None:
    obs = bidding_view(Rules(schedule=[5], montar=False), 3)
    x = situation_features(obs)
    assert x.shape == (FEATURES,)
    trumps = (obs.hand & SUIT_MASK[obs.trump]).bit_count()
    assert x[:10].sum() == trumps  # the first block is the trump suit
    assert x[:40].sum() == 5  # every card once
    assert np.all(x[BID_AT:] == 0)  # no bid written yet
    rows = with_bids(x, [0, 2], 5)
    assert rows[1, BID_AT + 2] == 1 and rows[1, BID_AT + TRICK_CLASSES] == pytest.approx(0.4)
    assert np.array_equal(situation_features(obs), x)  # a function of the view alone


def test_the_shipped_model_gives_distributions_over_the_tricks_a_hand_can_take() -> None:
    model = shipped_model()
    assert MODEL_PATH.stat().st_size < 1_000_000
    obs = bidding_view(Rules(schedule=[3]), 11)
    x = with_bids(situation_features(obs), [0, 1, 2, 3], 3)
    p = model.probabilities(x, 3)
    assert p.shape == (4, TRICK_CLASSES)
    assert np.allclose(p.sum(axis=1), 1.0)
    assert np.all(p[:, 4:] == 0)  # nobody takes more tricks than it has cards


def test_the_model_values_a_hand_of_top_trumps_above_a_hand_of_low_side_cards() -> None:
    # A deal whose face-up trump is low; seat to bid's hand swapped for the three best
    # trumps, then for three low side cards.
    obs = next(
        o
        for o in (bidding_view(Rules(schedule=[3]), s) for s in range(50))
        if o.trump_card % 10 < 7
    )
    trump = obs.trump
    strong = sum(1 << (10 * trump + k) for k in (9, 8, 7))
    weak = sum(1 << c for c in (10 * ((trump + 1) % 4), 10 * ((trump + 2) % 4) + 1,
                                10 * ((trump + 3) % 4)))  # fmt: skip

    def mean_tricks(hand: int) -> float:
        x = with_bids(situation_features(replace(obs, hand=hand)), [1], 3)
        p = shipped_model().probabilities(x, 3)
        return float(p[0] @ np.arange(TRICK_CLASSES))

    assert mean_tricks(strong) > 2.0
    assert mean_tricks(weak) < 0.5


def test_scoring_and_bids_by_expected_score() -> None:
    obs = bidding_view(Rules(schedule=[4]), 5)
    table = points_table(obs)
    assert table[2, 2] == 20 and table[0, 0] == 10 and table[3, 1] == -10
    scores = expected_scores(obs)
    assert sorted(scores) == sorted(bid_of(a) for a in obs.legal_actions)
    assert best_bid(obs) == max(scores, key=lambda b: (scores[b], -b))


def test_the_dealer_is_never_given_the_forbidden_bid() -> None:
    for seed in range(20):
        obs = dealer_view(Rules(schedule=[2]), seed, 0)
        assert best_bid(obs) != 2
        assert bid_action(best_bid(obs)) in obs.legal_actions


def test_the_learned_bot_is_a_bot_and_the_old_expert_a_level() -> None:
    assert "learned" in BOTS
    assert LEVELS["expert"].budget.milliseconds is not None
    assert LEVELS["ismcts-expert"].budget == Budget(iterations=6000, milliseconds=1000)


def test_the_learned_bot_plays_whole_games_legally_and_the_same_from_a_seed() -> None:
    rules = Rules(players=5, schedule=[1, 4, 2], fallar=False)

    def play(seed: int) -> list[int]:
        game = Game.new(rules, seed)
        bot = LearnedBot()
        actions = []
        step = 0
        while game.phase != "finished":
            seat = game.turn
            assert seat is not None
            decision = bot.decide(observe(game, seat), Budget(iterations=30), step)
            assert decision.action in game.legal_actions()
            game.apply(seat, decision.action)
            actions.append(decision.action)
            step += 1
        return actions

    assert play(4) == play(4)


def test_a_learned_bid_comes_with_its_expected_scores_when_asked() -> None:
    obs = bidding_view(Rules(schedule=[3]), 8)
    decision = KIND.decide(obs, "learned", seed=1, budget=Budget(iterations=20), analyse=True)
    assert decision.action == bid_action(best_bid(obs))
    assert [a.action for a in decision.analysis] == sorted(obs.legal_actions)
    assert sum(a.share for a in decision.analysis) == 1.0


def test_training_is_the_same_from_the_same_seed_and_makes_a_loadable_model(
    tmp_path: Path,
) -> None:
    first = generate(hands=20, seed=3, iterations=3, processes=1)
    again = generate(hands=20, seed=3, iterations=3, processes=1)
    for key in first:
        assert np.array_equal(first[key], again[key])
    assert first["x"].shape[1] == FEATURES
    assert np.all(first["tricks"] <= first["cards"])
    # Ten chunks, so that one (a tenth) is held out for the report.
    data = generate(hands=500, seed=4, iterations=2, processes=1)
    weights, report = fit(data, seed=0, hidden=(8,), epochs=2)
    np.savez(tmp_path / "m.npz", **weights)  # type: ignore[arg-type]
    model = BidModel.load(tmp_path / "m.npz")
    assert report["samples"] > 0 and report["train_samples"] > report["samples"]
    assert 0 < report["log_loss"] < 3
    p = model.probabilities(data["x"][:5], data["cards"][:5].astype(np.int64))
    assert np.allclose(p.sum(axis=1), 1.0)


def test_the_shipped_model_does_not_read_the_bid_so_every_bid_faces_one_forecast() -> None:
    model = shipped_model()
    assert not model.bid_input
    obs = bidding_view(Rules(schedule=[5]), 6)
    p = model.probabilities(with_bids(situation_features(obs), [0, 1, 4], 5), 5)
    assert np.allclose(p[0], p[1]) and np.allclose(p[0], p[2])
