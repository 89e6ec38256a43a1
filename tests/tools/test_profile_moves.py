"""`pocha bench move-path` plays moves through the app and lists where their time went (what
it reports, not how fast: figures are the benchmark's business)."""

from __future__ import annotations

import pstats
import re
from pathlib import Path

from tools.profile_moves import run, run_as_worker


def test_it_profiles_moves_through_the_app(tmp_path: Path) -> None:
    output = tmp_path / "moves.prof"
    lines = run(moves=50, top=5, output=str(output))
    assert re.fullmatch(
        r"move path: 50 moves in-process .*; \d+ us of CPU a move unprofiled, "
        r"\d+ Python calls a move",
        lines[0],
    )
    own = lines.index("top 5 by own time (tottime; cProfile's overhead inflates the small calls):")
    cumulative = lines.index("top 5 by cumulative time:")
    ours = lines.index("top 5 of the project's own functions by cumulative time:")
    # A header and five functions under each title.
    assert cumulative - own == 7 and ours - cumulative == 7 and len(lines) - ours == 7
    assert all(re.search(r"/(service|core|engine|ai)/", line) for line in lines[ours + 2 :])
    assert lines[own + 1].split()[:2] == ["ncalls", "tottime"]
    # The moves went through the service's move endpoint, and the profile was written.
    stats = pstats.Stats(str(output))
    profiled = {name for (_file, _line, name) in stats.stats}  # type: ignore[attr-defined]
    assert {"_move", "act", "apply_kept"} <= profiled


def test_as_a_worker_it_plays_them_with_gevent_and_the_metrics_in_files(tmp_path: Path) -> None:
    output = tmp_path / "moves.prof"
    lines = run_as_worker(moves=50, top=5, output=str(output))
    assert re.fullmatch(
        r"move path: 50 moves in-process \(Flask app, no gunicorn; as in a worker: gevent, "
        r"metrics in files, gc frozen\), .*; \d+ us of CPU a move unprofiled, "
        r"\d+ Python calls a move",
        lines[0],
    )
    assert "top 5 by cumulative time:" in lines
    stats = pstats.Stats(str(output))
    profiled = {
        (Path(file).parts[-2:], name)
        for (file, _line, name) in stats.stats  # type: ignore[attr-defined]
    }
    names = {name for _file, name in profiled}
    assert {"_move", "act", "apply_kept"} <= names
    # Redis's socket was gevent's, and the counts went to prometheus' files.
    assert (("gevent", "_socketcommon.py"), "recv_into") in profiled
    assert (("prometheus_client", "mmap_dict.py"), "write_value") in profiled
