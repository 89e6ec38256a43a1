"""`pocha bench bots`: its positions are real ones, and the command is there. `pocha bench
flood`: it runs `pocha serve` and measures both phases (its figures are not checked here:
speed is the bench's business, not a test's)."""

from __future__ import annotations

import re

from click.testing import CliRunner

from cli.main import pocha
from engine.pocha.position import position_from_dict
from tools.bench_bots import sample_positions
from tools.bench_flood import FloodSpec, run


def test_bench_positions_are_decisions_of_real_games() -> None:
    positions = sample_positions(30, seed=3)
    observations = [position_from_dict(p) for p in positions]
    assert all(obs.turn == obs.seat and obs.legal_actions for obs in observations)
    assert {obs.phase for obs in observations} == {"bidding", "playing"}
    assert len({obs.cards_per_player for obs in observations}) > 3
    assert sample_positions(5, seed=3) == positions[:5]


def test_bench_bots_is_a_command() -> None:
    result = CliRunner().invoke(pocha, ["bench", "bots", "--help"])
    assert result.exit_code == 0, result.output
    assert "--samples" in result.output and "--games" in result.output


def test_bench_flood_measures_both_phases_on_pocha_serve() -> None:
    result = run(FloodSpec(seconds=4, games=1, flood=60, flood_ms=300))
    text = "\n".join(result.lines)
    for phase in ("idle", "flood"):
        line = next(x for x in result.lines if x.startswith(f"bot-turn latency {phase}"))
        samples = re.search(r"n=(\d+)", line)
        assert "p99" in line and samples is not None and int(samples[1]) > 0, text
    assert "ratio flood/idle" in text and "error" not in text
    # The flood went through the API: its first AI moves were taken.
    flood = next(x for x in result.lines if x.startswith("flood:"))
    assert "202 accepted" in flood, text
    assert result.lines[-1] in ("target met", "TARGET MISSED")
