"""`pocha bench store` plays on both stores and sweeps the cluster (what it reports, not
how fast: figures are the benchmark's business)."""

from __future__ import annotations

import re

from tools.bench_store import run


def test_it_plays_on_one_redis_and_on_a_cluster_and_sweeps() -> None:
    lines = run(games=1, rounds=1)
    assert [line.split(":")[0] for line in lines] == ["one Redis", "cluster", "cluster watchdog"]
    for line in lines[:2]:
        assert re.search(r"moves/s; read \d+ us, write \d+ us; \d+ us of CPU a move", line)
        assert "(656 moves, 1 games)" in line  # a classic game of four, every move played
    assert "a sweep of 256 due sets" in lines[2]
