"""The arena's statistics beside the means: win rates with Wilson intervals, leads paired
by deal, what is not significant, and the running totals the charts draw."""

from __future__ import annotations

from typing import Any

import pytest

from ai.pocha.arena import parse_player, run_arena
from ai.stats import REST, ci95, score_curves, standings, summarize, wilson
from engine.pocha.rules import Rules


def test_wilson_intervals_hold_the_rate_and_keep_a_width_at_the_ends() -> None:
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    low, high = wilson(2, 2)  # two wins of two: far from sure
    assert high == 1.0 and low == pytest.approx(0.3424, abs=1e-4)
    assert wilson(0, 40)[0] == 0.0 and 0 < wilson(0, 40)[1] < 0.1
    assert wilson(0, 0) == (0.0, 1.0)


def game(deal: int, seats: list[str], points: list[int], winners: list[int]) -> dict[str, Any]:
    """A one-hand game's record."""
    return {
        "deal": deal,
        "seats": seats,
        "hands": [
            {"cards": 1, "bids": [0] * len(seats), "tricks": [0] * len(seats), "points": points}
        ],
        "winners": winners,
        "decisions": [1] * len(seats),
        "think_ms": [1.0] * len(seats),
    }


def test_two_deals_won_outright_are_not_significant() -> None:
    """The issue's case: a win rate of 100% beside 0% on two deals of a,b,a,b."""
    scores = {0: {"a": 20, "b": 10}, 1: {"a": 12, "b": 10}}  # per deal
    records = [
        game(d, seats, [scores[d][bot] for bot in seats], winners)
        for d in range(2)
        for seats, winners in ((["a", "b", "a", "b"], [0, 2]), (["b", "a", "b", "a"], [1, 3]))
    ]
    stats = summarize(records)
    by_bot = {s.bot: s for s in standings(records, stats)}
    assert by_bot["a"].win_rate == 1.0 and by_bot["b"].win_rate == 0.0
    assert by_bot["a"].even_win_rate == 0.5
    assert not by_bot["a"].win_significant and not by_bot["b"].win_significant
    # A lead of 10 points a hand on one deal and 2 on the other: an interval holding 0.
    lead = by_bot["a"].lead
    assert (lead.other, lead.deals) == (REST, 2)
    assert lead.per_hand == pytest.approx(6.0)
    assert lead.ci95 is not None and lead.ci95 > 6.0
    assert lead.ci95 == pytest.approx(ci95([10.0, 2.0]))
    assert not lead.significant and lead.to_dict()["significant"] is False
    assert by_bot["b"].lead.per_hand == pytest.approx(-6.0)


def test_many_deals_won_outright_are_significant_and_a_lone_deal_never_is() -> None:
    records = [
        game(d, seats, [10, 0, 0], [seats.index("a")])
        for d in range(12)
        for seats in (["a", "b", "c"], ["c", "a", "b"], ["b", "c", "a"])
    ]
    # a wins every game; seat 0 scores 10 and each bot holds it once a deal: no lead.
    by_bot = {s.bot: s for s in standings(records, summarize(records))}
    assert by_bot["a"].win_rate == 1.0 and by_bot["a"].win_significant
    assert by_bot["b"].win_rate == 0.0 and by_bot["b"].win_significant
    assert by_bot["a"].lead.per_hand == 0.0 and not by_bot["a"].lead.significant
    one = standings(records[:3], summarize(records[:3]))
    assert all(not s.win_significant and not s.lead.significant for s in one)
    assert all(s.lead.ci95 is None for s in one)


def test_running_scores_end_at_the_tables_mean_and_interval() -> None:
    rules = Rules.from_dict({"players": 3, "schedule": [1, 2, 3]})
    lineup = [parse_player(p) for p in ("easy", "random", "random")]
    stats, records = run_arena(rules, lineup, deals=3, seed=4, processes=1)
    dealt = sum(len(r["hands"]) for r in records)
    curves = {c.bot: c for c in score_curves(records)}
    assert set(curves) == {"easy", "random"}
    for s in stats:
        curve = curves[s.bot]
        assert len(curve.totals) == len(curve.half_widths) == dealt
        assert curve.totals[-1] / dealt == pytest.approx(s.mean_score)
        last = curve.half_widths[-1]
        assert s.ci95 is not None and last is not None
        assert last / dealt == pytest.approx(s.ci95)
        # No interval in the first two deals, whose ends are 3 games of 3 hands apart.
        assert curve.half_widths[: 2 * 9 - 1] == [None] * (2 * 9 - 1)
        assert all(w is not None and w >= 0 for w in curve.half_widths[2 * 9 :])
