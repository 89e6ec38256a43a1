"""The Poch arena: duplicate deals, the chips per deal, and ``pocha arena-poch``."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from ai.arena import tasks_for
from ai.bot import Budget
from ai.poch.arena import chip_curves, parse_player, play_deal, run_arena, standings, summarize
from cli.main import pocha
from engine.poch.rules import Rules


def test_players_parse_levels_bots_and_budgets() -> None:
    assert parse_player("hard").budget == Budget(iterations=400)
    assert parse_player("ismcts:150").budget == Budget(iterations=150)
    assert parse_player("ismcts:20ms").budget == Budget(milliseconds=20.0)
    assert parse_player("random").bot == "random"
    with pytest.raises(ValueError, match="unknown Poch bot"):
        parse_player("expert")
    with pytest.raises(ValueError, match="bad budget"):
        parse_player("ismcts:many")


def test_each_deal_is_played_once_per_distinct_rotation() -> None:
    rules = Rules(players=4)
    a, b = parse_player("heuristic"), parse_player("random")
    tasks = tasks_for(rules, [a, b, a, b], deals=3, seed=1)
    assert len(tasks) == 6  # a,b,a,b turned by two is itself: two seatings
    for d in range(3):
        seatings = [t.players for t in tasks if t.deal == d]
        assert {t.seed for t in tasks if t.deal == d} == {tasks[2 * d].seed}
        for seat in range(4):
            assert {s[seat].label for s in seatings} == {"heuristic", "random"}
    assert len(tasks_for(rules, [a, a, b, b], deals=1, seed=1)) == 4
    assert len(tasks_for(rules, [a, b, a, b], deals=2, seed=1, duplicate=False)) == 2
    with pytest.raises(ValueError):
        tasks_for(rules, [a, b], deals=1, seed=1)


def test_a_deal_record_counts_the_chips_it_moved() -> None:
    rules = Rules(players=3)
    players = [parse_player(p) for p in ("heuristic", "random", "random")]
    rec = play_deal(rules, 12, players, deal=0)
    assert rec["rules"]["deals"] == 1
    # Everything a seat lost is on a plate or in the pot, or with another seat.
    assert sum(rec["chips"]) <= 0
    again = play_deal(rules, 12, players, deal=0)
    assert {k: v for k, v in again.items() if k != "think_ms"} == {
        k: v for k, v in rec.items() if k != "think_ms"
    }


def test_summary_is_per_deal_with_an_interval() -> None:
    records = [
        {
            "deal": d,
            "seats": ["x", "y", "x"],
            "chips": [c, -c - 1, c],
            "winner": 0,
            "decisions": [1, 1, 1],
            "think_ms": [1.0, 2.0, 1.0],
        }
        for d, c in enumerate([2, 4, 6, 8])
    ]
    stats = {s.bot: s for s in summarize(records)}
    assert stats["x"].chips_per_deal == pytest.approx(5.0)
    assert stats["y"].chips_per_deal == pytest.approx(-6.0)
    assert stats["x"].deals == 4 and stats["x"].seats_played == 8
    assert stats["x"].ci95 is not None and stats["x"].ci95 > 0
    assert stats["x"].wins == pytest.approx(0.5)  # seat 0 of its two seats went out first


def test_standings_and_running_chips_per_deal() -> None:
    records = [
        {
            "deal": d,
            "seats": seats,
            "chips": [c if bot == "x" else -c - 1 for bot in seats],
            "winner": seats.index("x"),
            "decisions": [1, 1, 1],
            "think_ms": [1.0, 1.0, 1.0],
        }
        for d, c in enumerate([2, 4, 6, 8])
        for seats in (["x", "y", "y"], ["y", "x", "y"], ["y", "y", "x"])
    ]
    stats = summarize(records)
    by_bot = {s.bot: s for s in standings(records, stats)}
    x, y = by_bot["x"], by_bot["y"]
    # x goes out first at every deal: over four deals, far from one seat in three; y's
    # seats never do, but four deals cannot tell none from one in three.
    assert x.win_rate == 1.0 and x.even_win_rate == pytest.approx(1 / 3)
    assert x.win_significant and not y.win_significant
    # x's chips less the rest's: 2c + 1 a deal, 5, 9, 13, 17.
    assert x.lead.per_hand == pytest.approx(11.0) and x.lead.deals == 4
    assert x.lead.significant and y.lead.per_hand == pytest.approx(-11.0)
    one = standings(records[:3], summarize(records[:3]))
    assert all(not s.win_significant and not s.lead.significant for s in one)
    curves = {c.bot: c for c in chip_curves(records)}
    assert curves["x"].totals == [2, 6, 12, 20]
    assert curves["y"].totals == [-3, -8, -15, -24]
    chips = {s.bot: s for s in stats}
    assert curves["x"].half_widths[:2] == [None, None]
    assert curves["x"].half_widths[-1] == pytest.approx(4 * (chips["x"].ci95 or 0))


def test_heuristic_beats_random_on_a_few_deals() -> None:
    rules = Rules(players=4)
    lineup = [parse_player(p) for p in ("heuristic", "random", "heuristic", "random")]
    stats, records = run_arena(rules, lineup, deals=30, seed=3, processes=1)
    by_bot = {s.bot: s for s in stats}
    assert len(records) == 60
    assert by_bot["heuristic"].chips_per_deal > by_bot["random"].chips_per_deal


def test_cli_arena_poch_prints_json() -> None:
    result = CliRunner().invoke(
        pocha,
        [
            "arena-poch",
            "--bots",
            "easy,random",
            "--players",
            "3",
            "--deals",
            "2",
            "--processes",
            "1",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["lineup"] == ["easy", "random", "easy"]
    assert out["games"] == 6  # easy,random,easy has three distinct rotations
    assert {b["bot"] for b in out["bots"]} == {"easy", "random"}


def test_cli_arena_poch_refuses_an_unknown_bot() -> None:
    result = CliRunner().invoke(pocha, ["arena-poch", "--bots", "nobody", "--deals", "1"])
    assert result.exit_code != 0
    assert "unknown Poch bot" in result.output
