"""The README's walkthrough works when pasted: its `curl` block, run by bash against a live
service, plays Ana's bid and card and lists the events."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.clients.conftest import LiveService

README = Path(__file__).resolve().parents[2] / "README.md"


def shell_blocks() -> list[str]:
    return re.findall(r"```sh\n(.*?)```", README.read_text(), re.S)


def test_the_readme_opens_with_the_two_commands() -> None:
    first = shell_blocks()[0]
    commands = [line for line in first.splitlines() if line and not line.startswith("#")]
    assert commands == ["bash scripts/serve", "bash scripts/test"]
    assert "bash scripts/test" in (README.parents[0] / ".ci" / "run").read_text()


@pytest.mark.skipif(shutil.which("curl") is None, reason="the walkthrough uses curl")
def test_the_curl_walkthrough_plays_a_hand(live_service: LiveService) -> None:
    (walkthrough,) = [block for block in shell_blocks() if block.startswith("API=")]
    script = walkthrough.replace("http://localhost:8000", live_service.url)
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert len([line for line in lines if line.startswith("now at version ")]) == 2, lines
    assert lines.count("bid") >= 3 and "card_played" in lines, lines
