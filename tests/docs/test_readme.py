"""The README works when pasted: it calls `pocha` one way only (`scripts/pocha`); its play
block, each line run by bash at a terminal from the clone against a live service, starts a
game against bots, makes a table and takes its open seat by the code; its `curl` block
plays Ana's bid and card and lists the events."""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from tests.client.test_terminal import PROMPT, TABLE, Terminal
from tests.live import LiveService
from tests.waiting import LONG, scaled

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
#: The code the README's play block shows; the test puts the real table's in its place.
SAMPLE_CODE = "K7QM-3XHP"


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
        ["bash", "-euo", "pipefail", "-c", script],
        capture_output=True,
        text=True,
        timeout=scaled(LONG),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert len([line for line in lines if line.startswith("now at version ")]) == 2, lines
    assert lines.count("bid") >= 3 and "card_played" in lines, lines


def test_the_readme_calls_pocha_one_way() -> None:
    # Every `pocha COMMAND` it tells a reader to type is `scripts/pocha COMMAND`, which works
    # from a clone with nothing on PATH (the bare command does not).
    callers = set(re.findall(r"([\w./-]*)\bpocha (?=[a-z][a-z-]*)", README.read_text()))
    assert callers == {"scripts/"}, callers
    assert (ROOT / "scripts" / "pocha").stat().st_mode & 0o111


def at_terminal(command: str, url: str) -> Terminal:
    """A README line as pasted, run by bash at a terminal in the clone, against `url`."""
    return Terminal(["env", f"POCHA_URL={url}", "bash", "-c", f"cd {ROOT} && {command}"])


def until(terminal: Terminal, pattern: re.Pattern[str] | str, deadline: float) -> re.Match[str]:
    """Read `terminal` until `pattern` shows; its match."""
    wanted = re.compile(re.escape(pattern)) if isinstance(pattern, str) else pattern
    while (found := wanted.search(terminal.screen)) is None:
        assert terminal.read(0.2), terminal.screen[-3000:]
        assert time.monotonic() < deadline, terminal.screen[-3000:]
    return found


def test_the_play_block_works_as_pasted(live_service: LiveService) -> None:
    (block,) = [block for block in shell_blocks() if "scripts/pocha play" in block]
    alone, table, join = [line for line in block.splitlines() if line and line[0] != "#"]
    assert (alone, table) == ("scripts/pocha play", "scripts/pocha play --open 1")
    assert join == f"scripts/pocha play --join {SAMPLE_CODE} --name Bea"
    deadline = time.monotonic() + scaled(LONG)
    started: list[Terminal] = []
    try:
        started.append(you := at_terminal(alone, live_service.url))
        until(you, PROMPT, deadline)
        you.type("q")
        host = at_terminal(table, live_service.url)
        started.append(host)
        code = until(host, TABLE, deadline)["code"]
        # The terminal names the command as installed (`pocha`; in a clone, scripts/pocha
        # runs it, as the README says): never a path into the clone.
        assert f"They join with: pocha play --join {code}" in host.screen
        # The live service listens on loopback only: the link opens on this machine alone.
        assert f"{live_service.url}/t/{code}" in host.screen
        assert "This link opens only on this machine." in host.screen
        started.append(friend := at_terminal(join.replace(SAMPLE_CODE, code), live_service.url))
        until(friend, f"You sit at table {code} as Bea", deadline)
        for terminal in (host, friend):
            terminal.type("q")
        for terminal in started:
            assert terminal.process.wait(timeout=scaled(LONG)) == 0, terminal.screen[-3000:]
    finally:
        for terminal in started:
            terminal.close()
    assert "Game " in you.screen and "created: you play against 3 medium bots" in you.screen
