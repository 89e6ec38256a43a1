"""`pocha bench bots`: its positions are real ones, and the command is there."""

from __future__ import annotations

from click.testing import CliRunner

from cli.main import pocha
from engine.position import position_from_dict
from tools.bench_bots import sample_positions


def test_bench_positions_are_decisions_of_real_games() -> None:
    positions = sample_positions(30, seed=3)
    observations = [position_from_dict(p) for p in positions]
    assert all(obs.turn == obs.seat and obs.legal for obs in observations)
    assert {obs.phase for obs in observations} == {"bidding", "playing"}
    assert len({obs.cards_per_player for obs in observations}) > 3
    assert sample_positions(5, seed=3) == positions[:5]


def test_bench_bots_is_a_command() -> None:
    result = CliRunner().invoke(pocha, ["bench", "bots", "--help"])
    assert result.exit_code == 0, result.output
    assert "--samples" in result.output and "--games" in result.output
