"""The Python client (client/) as typed as the document: its models (client/models.py) are
what datamodel-code-generator, as uv.lock pins it, makes of the committed document today;
the package is clean under `mypy --strict` with no cast and no `type: ignore`; a view told
apart by `game` and `phase` gives `you["legal"]` exactly that phase's type (mypy refuses
the others); and client.whole_game plays a whole Pocha game and a whole Poch game against
bots on a live service with real workers, each answer checked against the document by the
tests' contract fixture."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from client.api import PochaClient
from client.whole_game import play
from tests.live import LiveService

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "client"
DOCS = ROOT / "docs" / "clients.md"


def test_the_models_are_what_the_generator_makes_of_the_document() -> None:
    checked = subprocess.run(
        ["bash", str(ROOT / "scripts" / "generate-clients"), "python", "--check"],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, (
        f"client/models.py is stale: run scripts/generate-clients\n{checked.stdout}{checked.stderr}"
    )


def _mypy_strict(tmp_path: Path, *targets: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "c"), *targets],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )


def test_the_client_is_clean_under_mypy_strict(tmp_path: Path) -> None:
    checked = _mypy_strict(tmp_path, "-p", "client")
    assert checked.returncode == 0, checked.stdout


def test_the_client_code_needs_no_escape_from_the_types() -> None:
    found = [
        f"{path.name}:{number}: {line.strip()}"
        for path in sorted(CLIENT.glob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if re.search(r"\bcast\(|type:\s*ignore", line)
    ]
    assert found == []


#: Each phase's `legal` read as another phase's type: mypy must refuse every line marked.
WRONG_TYPES = """
from client.api import View

def pocha(view: View) -> None:
    if view["game"] == "pocha":
        if view["phase"] == "bidding":
            cards: list[str] = view["you"]["legal"]  # refused
        elif view["phase"] == "playing":
            bids: list[int] = view["you"]["legal"]  # refused

def poch(view: View) -> None:
    if view["game"] == "poch":
        if view["phase"] == "betting":
            suits: list[str] = view["you"]["legal"]  # refused
        elif view["phase"] == "choosing":
            amounts: list[int] = view["you"]["legal"]  # refused
        elif view["phase"] == "starting":
            calls: list[int] = view["you"]["legal"]  # refused
"""


def test_a_phase_types_legal_as_its_own_and_no_other(tmp_path: Path) -> None:
    source = tmp_path / "wrong_types.py"
    source.write_text(WRONG_TYPES)
    checked = _mypy_strict(tmp_path, str(source))
    errors = re.findall(r"wrong_types\.py:(\d+): error: Incompatible types", checked.stdout)
    refused = {int(n) for n in errors}
    marked = {n for n, line in enumerate(WRONG_TYPES.splitlines(), 1) if line.endswith("# refused")}
    assert refused == marked, checked.stdout


#: A game's seats and rules as `create_game` takes them: mypy must refuse every line marked
#: (a misspelt level, another game's rules, an unknown option) and take the others.
WRONG_GAMES = """
from client.api import OPEN, PochaClient

def create(api: PochaClient) -> None:
    api.create_game(["Ana", OPEN, {"name": "Bo", "bot": "hard"}], rules={"schedule": [1, 2]})
    api.create_game(["Ana", {"name": "Bo", "bot": "hrad"}, OPEN])  # refused
    api.create_game(["Ana", {"name": "Bo", "bot": "easy"}, OPEN], {"chips": 30}, game="poch")
    api.create_game(["Ana", "Bo", "Cy"], rules={"chips": 30})  # refused
    api.create_game(["Ana", "Bo", "Cy"], rules={"schedule": [1]}, game="poch")  # refused
    api.create_game(["Ana", "Bo", "Cy"], rules={"schedul": [1]})  # refused
    api.create_game(["Ana", "Bo", {"nmae": "Cy"}])  # refused
"""


def test_create_game_refuses_a_misspelt_level_and_the_other_games_rules(
    tmp_path: Path,
) -> None:
    source = tmp_path / "wrong_games.py"
    source.write_text(WRONG_GAMES)
    checked = _mypy_strict(tmp_path, str(source))
    refused = {int(n) for n in re.findall(r"wrong_games\.py:(\d+): error", checked.stdout)}
    marked = {n for n, line in enumerate(WRONG_GAMES.splitlines(), 1) if line.endswith("# refused")}
    assert refused == marked, checked.stdout


@pytest.mark.parametrize("number", [0, 1])
def test_the_docs_examples_are_clean_under_mypy_strict(tmp_path: Path, number: int) -> None:
    # The section's own: a view's phases, then a bot on the account's event stream.
    typed = DOCS.read_text().split("## Typed clients", 1)[1].split("\n## ", 1)[0]
    examples = re.findall(r"```python\n(.*?)```", typed, flags=re.S)
    assert len(examples) == 2
    source = tmp_path / "docs_example.py"
    source.write_text(examples[number])
    checked = _mypy_strict(tmp_path, str(source))
    assert checked.returncode == 0, checked.stdout


@pytest.mark.parametrize(
    ("game", "over", "phases"),
    [("pocha", "finished", {"bidding", "playing"}), ("poch", "over", {"betting"})],
)
def test_the_client_plays_a_whole_game(
    live_service: LiveService, game: str, over: str, phases: set[str]
) -> None:
    played = play(PochaClient(live_service.url), "pocha" if game == "pocha" else "poch")
    assert played.game == game
    assert played.phase == over
    assert played.moves > 0
    # As for the TypeScript client: Poch's shedding comes to this seat only sometimes.
    assert phases <= played.acted
    assert played.winners
