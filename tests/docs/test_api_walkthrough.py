"""docs/api.md's table walkthrough works when pasted: its `curl` block, run by bash against
a live service, makes a table, joins it by code, finds it full, leaves a seat to the
stand-in, plays to the end and starts the rematch."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.live import LiveService
from tests.waiting import LONG, scaled

API_DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"


@pytest.mark.skipif(shutil.which("curl") is None, reason="the walkthrough uses curl")
def test_the_table_walkthrough_plays_a_table(live_service: LiveService) -> None:
    (walkthrough,) = re.findall(r"```sh\n(API=.*?)```", API_DOC.read_text(), re.S)
    script = walkthrough.replace("http://localhost:8000", live_service.url)
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        capture_output=True,
        text=True,
        timeout=scaled(LONG),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "table_full" in out, out
    # (A person counts as present from their first request with their token on.)
    seats = r"\[\('Ana', \w+, False\), \('Bruno', \w+, False\), \('Carmen', True, False\)\]"
    assert re.search(rf"^bidding 60 \d+(\.\d+)? {seats}$", out, re.M), out
    assert "'left': True" in out and "'stand_in': 'medium'" in out, out
    lines = out.splitlines()
    assert "seat_taken" in lines and "game_started" in lines and "seat_left" in lines, out
    assert "game_over" in lines, out
    assert any(line.endswith(" by the stand-in") for line in lines), out
    assert lines[-1] == "bidding", out
