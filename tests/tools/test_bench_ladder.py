"""`pocha bench ladder`, small: it makes the accounts, times the API and the page, and
says so in its lines (the figures themselves are the bench's business, not a test's)."""

from __future__ import annotations

import re

from tools.bench_ladder import run


def test_a_small_ladder_bench_reports_every_figure() -> None:
    lines = run(accounts=60, requests=3, loads=1)
    assert lines[0].startswith("60 accounts with ratings")
    timed = [line for line in lines if re.search(r"p50 [\d.]+ ms, p99 [\d.]+ ms", line)]
    assert len(timed) == 3 and "places 11-60" in timed[1]
    assert re.search(r"median \d+ ms", lines[-1]) or "not timed" in lines[-1]
