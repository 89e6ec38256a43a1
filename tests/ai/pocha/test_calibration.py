"""Bid calibration: the stats' mean bid and tricks, `pocha calibrate`'s report, and the
heuristic's count scaled for the players and the rules."""

from __future__ import annotations

import pytest

from ai.pocha.calibration import OBLIGATIONS, calibrate
from ai.pocha.heuristic import calibrated_estimate, estimate_tricks
from ai.stats import summarize
from engine.pocha.game import Game
from engine.pocha.observation import Observation, observe
from engine.pocha.rules import Rules


def bidding_view(rules: Rules, seed: int) -> Observation:
    game = Game.new(rules, seed)
    seat = game.turn
    assert seat is not None
    return observe(game, seat)


def test_the_stats_give_the_mean_bid_beside_the_mean_tricks() -> None:
    record = {
        "seed": 1,
        "seats": ["a", "b", "a"],
        "hands": [{"bids": [1, 0, 2], "tricks": [1, 1, 1], "points": [15, -5, -5]}],
        "winners": [0],
        "decisions": [2, 2, 2],
        "think_ms": [1.0, 1.0, 1.0],
    }
    by_bot = {s.bot: s for s in summarize([record])}
    assert by_bot["a"].mean_bid == 1.5 and by_bot["a"].mean_tricks == 1.0
    assert by_bot["b"].mean_bid == 0.0 and by_bot["b"].mean_tricks == 1.0


def test_calibration_reports_every_rule_set() -> None:
    lines = calibrate("heuristic", "random", players=[3], games=1, processes=1)
    assert [(c.montar, c.fallar, c.pisar) for c in lines] == list(OBLIGATIONS)
    for c in lines:
        assert c.players == 3 and c.hands > 0
        assert c.gap == pytest.approx(c.mean_bid - c.mean_tricks)


def test_the_heuristic_scales_its_count_for_the_players_and_montar() -> None:
    three = bidding_view(Rules(players=3, schedule=[8]), 1)
    eight = bidding_view(Rules(players=8, schedule=[4]), 1)
    loose = bidding_view(Rules(players=4, schedule=[6], montar=False), 1)
    strict = bidding_view(Rules(players=4, schedule=[6]), 1)
    assert calibrated_estimate(three) >= estimate_tricks(three)
    assert calibrated_estimate(eight) <= estimate_tricks(eight)
    assert calibrated_estimate(loose) >= calibrated_estimate(strict) * 1.1 - 1e-9
    one = bidding_view(Rules(players=3, schedule=[1]), 1)
    assert calibrated_estimate(one) == estimate_tricks(one)  # exact odds left alone
