"""`pocha bench api-profile` profiles a real gunicorn worker from its start to its exit while
moves and view reads go through it, and lists where their time went (what it reports, not
how fast: figures are the benchmark's business)."""

from __future__ import annotations

import pstats
import re
from pathlib import Path

from tools.profile_api import floor, run


def test_it_profiles_moves_and_views_in_a_gunicorn_worker(tmp_path: Path) -> None:
    output = tmp_path / "api.prof"
    lines = run(moves=40, top=5, views=True, output=str(output))
    assert re.fullmatch(
        r"api profile: 40 moves and as many view reads down one connection to one gunicorn "
        r"worker \(gevent\), .*; unprofiled, \d+ us of the worker's CPU for a move and its view "
        r"read \(\d\.\d\d requests a move, games' creation included\); profiled: \d+ Python "
        r"calls for a move and its view read",
        lines[0],
    )
    own = next(i for i, line in enumerate(lines) if line.startswith("top 5 by own time"))
    cumulative = lines.index("top 5 by cumulative time:")
    # A header and five functions under each title.
    assert cumulative - own == 7 and len(lines) - cumulative == 7
    assert lines[own + 1].split()[:2] == ["ncalls", "tottime"]
    # The profile is the worker's: gunicorn's handling, the move's and the view's code.
    stats = pstats.Stats(str(output))
    profiled = {
        (Path(file).parts[-2:], name)
        for (file, _line, name) in stats.stats  # type: ignore[attr-defined]
    }
    names = {name for _file, name in profiled}
    assert {"handle_request", "_move", "act", "seen_by"} <= names
    assert (("workers", "base_async.py"), "handle_request") in profiled


def test_the_floor_measures_each_layer_in_a_gunicorn_worker() -> None:
    lines = floor(requests=50, moves=40)
    assert lines[0].startswith("api floor: one gunicorn worker") and "40 moves" in lines[0]
    figures = [re.fullmatch(r"(.+): (\d+) us", line) for line in lines[1:]]
    labels = [m.group(1) if m else line for m, line in zip(figures, lines[1:], strict=True)]
    assert labels[:4] == [
        "a bare WSGI app (gunicorn and gevent alone)",
        "the same, making one Redis round trip first (a PING, as a move makes one round trip)",
        "the API's GET /healthz (and Flask, the API's hooks)",
        "a move (games' creation included)",
    ]
    # The move's split: its app calls (a move's and its share of the games' creations)...
    inside = re.fullmatch(
        r"of which inside the app's calls \(Flask, the API, its Redis round trip; "
        r"(\d\.\d\d) calls a move\)",
        labels[4],
    )
    assert inside is not None and 1.0 < float(inside.group(1)) < 1.1
    assert labels[5] == "of which around them (gunicorn's parsing and writes, gevent's loop)"
    # ...and the rest of the worker's CPU: the two parts add up to the move's.
    move, app, around = (int(m.group(2)) for m in figures[3:6] if m)
    assert abs(app + around - move) <= 1
