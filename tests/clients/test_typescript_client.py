"""The TypeScript client (clients/typescript/) as an integrator would use it: its types are
what openapi-typescript, with its default options, makes of the committed document today;
its code compiles under `tsc --strict` without `any`, `as`, non-null `!`, `typeof` or a
type guard of its own; and it plays a whole Pocha game and a whole Poch game against bots
on a live service with real workers, telling each view apart by `game` and then by `phase`
and sending entries of `you.legal` as the phase typed them; and src/bot.ts, a stream bot
reading its account's events as `BotEvent`, accepts a challenge of either game and plays it
(tests/clients/bots.py). The tools are npm's, pinned in
clients/typescript/package-lock.json and installed with `npm ci`; without node and npm
(scripts/test installs Debian's as root) these tests are skipped, saying why."""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

import pytest

from client.api import PochaClient
from tests.clients.bots import plays_a_challenge
from tests.live import LiveService
from tests.waiting import LONG, scaled

CLIENT = Path(__file__).resolve().parents[2] / "clients" / "typescript"
DOCUMENT = CLIENT.parents[1] / "openapi" / "openapi.json"
#: The oldest node the pinned tools run on (@redocly/openapi-core, under openapi-typescript).
NODE_AT_LEAST = (18, 17)
#: The client's own code: everything under src/ but the generated types.
OWN_CODE = ("client.ts", "play.ts", "example.ts", "bot.ts")
#: The page that shows src/example.ts, in its one ```ts block.
DOCS = CLIENT.parents[1] / "docs" / "clients.md"
#: A whole game is a few dozen moves; bots think on the worker meanwhile.
GAME_SECONDS = 600
QUIET = {**os.environ, "NO_UPDATE_NOTIFIER": "1", "npm_config_fund": "false"}


def _run(*command: str, cwd: Path = CLIENT, timeout: float = 300) -> str:
    done = subprocess.run(
        command, cwd=cwd, capture_output=True, text=True, env=QUIET, timeout=scaled(timeout)
    )
    assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def npm_tools() -> Path:
    """clients/typescript/node_modules as package-lock.json pins it (`npm ci` unless it is);
    the tests of one module on several pytest workers install it once, under a lock."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are not installed (scripts/test installs Debian's as root)")
    found = subprocess.run(["node", "--version"], capture_output=True, text=True, check=True)
    version = tuple(int(x) for x in re.findall(r"\d+", found.stdout)[:2])
    if version < NODE_AT_LEAST:
        pytest.skip(f"node {found.stdout.strip()} is older than the client's tools need (18.17)")
    lock = json.loads((CLIENT / "package-lock.json").read_text())
    with (CLIENT / ".npm-ci.lock").open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        if not all(
            _installed(CLIENT / name, entry["version"])
            for name, entry in lock["packages"].items()
            if name.startswith("node_modules/") and not entry.get("optional")
        ):
            _run("npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts")
    return CLIENT / "node_modules" / ".bin"


def _installed(package: Path, version: str) -> bool:
    manifest = package / "package.json"
    return manifest.exists() and json.loads(manifest.read_text()).get("version") == version


def test_the_committed_types_are_what_the_generator_makes_of_the_document(
    npm_tools: Path, tmp_path: Path
) -> None:
    made = tmp_path / "schema.d.ts"
    _run(str(npm_tools / "openapi-typescript"), str(DOCUMENT), "-o", str(made))
    committed = (CLIENT / "src" / "schema.d.ts").read_text()
    assert made.read_text() == committed, (
        "clients/typescript/src/schema.d.ts is stale: run `npm run generate` there"
    )


def _code(text: str) -> str:
    """TypeScript less its comments and the contents of its strings."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r"(\"|'|`)(?:\\.|(?!\1).)*\1", '""', text)


#: What the client's own code must not say: each would let a wrong type through unseen.
FORBIDDEN = {
    "any": r"\bany\b",
    "a cast (`as`)": r"\bas\b",
    "a non-null assertion (`!`)": r"[\w)\]]!(?!=)",
    "typeof": r"\btypeof\b",
    "a type guard (`x is T`)": r"\bis\b",
}


@pytest.mark.parametrize("what", sorted(FORBIDDEN))
def test_the_client_code_needs_no_escape_from_the_types(what: str) -> None:
    found = [
        f"{name}:{number}: {line.strip()}"
        for name in OWN_CODE
        for number, line in enumerate(_code((CLIENT / "src" / name).read_text()).splitlines(), 1)
        if re.search(FORBIDDEN[what], line)
    ]
    assert found == [], f"{what} in the client's code"


def test_the_forbidden_forms_are_found_where_they_are() -> None:
    # The check above would pass on anything if its patterns matched nothing.
    sample = "const a: any = b as C; d!.e; typeof f; function g(h: unknown): h is I {}"
    assert all(re.search(p, _code(sample)) for p in FORBIDDEN.values())
    harmless = _code('x !== y; // as any\n"typeof is"')
    assert not any(re.search(p, harmless) for p in FORBIDDEN.values())


def test_the_example_waits_for_its_turn_and_bets(built: Path, live_service: LiveService) -> None:
    # The bots before Ana bet first: a bet sent before her turn would be refused, and the
    # example says a refusal (exit status 1), so the bet it reports is the one the game took.
    printed = _run("node", str(built / "example.js"), live_service.url, timeout=GAME_SECONDS)
    said = re.fullmatch(r"game (\S+): Ana bet (pass|hold|\d+)\n", printed)
    assert said, printed
    events = PochaClient(live_service.url).events(said[1])
    calls = [e for e in events if e["type"] in ("pass", "hold", "bet", "raise")]
    ana = [e for e in calls if e.get("seat") == 0]
    assert ana and not ana[0].get("stand_in"), calls


def test_the_example_says_an_error_answer(built: Path, live_service: LiveService) -> None:
    # No game is made at an address that is not the API's: openapi-fetch answers the 404,
    # and the example stops on it rather than go on without a game.
    refused = subprocess.run(
        ["node", str(built / "example.js"), live_service.url + "/nowhere"],
        cwd=CLIENT, capture_output=True, text=True, env=QUIET, timeout=scaled(LONG),
    )  # fmt: skip
    assert refused.returncode == 1, (refused.stdout, refused.stderr)
    assert "Error: no game: " in refused.stderr and refused.stdout == ""


def test_the_docs_show_the_example_as_it_compiles() -> None:
    # src/example.ts is compiled with the rest (test below), so the page's copy compiles too.
    shown = re.findall(r"```ts\n(.*?)```", DOCS.read_text(), flags=re.S)
    assert shown == [(CLIENT / "src" / "example.ts").read_text()]


@pytest.fixture(scope="module")
def built(npm_tools: Path, worker_id: str) -> Iterator[Path]:
    """The client compiled by `tsc -p .` (strict, in tsconfig.json), into a folder of this
    pytest worker's own under build/ (node finds node_modules above it)."""
    config = json.loads((CLIENT / "tsconfig.json").read_text())
    assert config["compilerOptions"]["strict"] is True
    out = CLIENT / "build" / worker_id
    shutil.rmtree(out, ignore_errors=True)
    _run(str(npm_tools / "tsc"), "-p", ".", "--outDir", str(out))
    yield out
    shutil.rmtree(out, ignore_errors=True)


@pytest.mark.parametrize(
    ("game", "over", "phases"),
    [
        ("pocha", "finished", {"bidding", "playing"}),
        ("poch", "over", {"betting"}),
    ],
)
def test_the_client_plays_a_whole_game(
    built: Path, live_service: LiveService, game: str, over: str, phases: set[str]
) -> None:
    printed = _run("node", str(built / "play.js"), live_service.url, game, timeout=GAME_SECONDS)
    report = json.loads(printed.strip().splitlines()[-1])
    assert report["game"] == game
    assert report["phase"] == over
    assert report["moves"] > 0
    # Poch's shedding falls to this seat only when it wins the betting round or runs a
    # suit out; its betting and Pocha's bids and cards come to every seat.
    assert phases <= set(report["acted"])
    assert set(report["acted"]) <= {"bidding", "playing", "betting", "starting", "choosing"}
    assert report["winners"]
    # The events' JSON list, typed as events: the stream's text stays out of its type.
    assert report["events"] > 0


@pytest.mark.parametrize(
    ("game", "rules"), [("pocha", {"schedule": [1, 2]}), ("poch", {"deals": 1})]
)
def test_the_stream_bot_accepts_a_challenge_and_plays_it(
    built: Path, bot_service: LiveService, game: Literal["pocha", "poch"], rules: dict[str, object]
) -> None:
    # Its events typed as `BotEvent` and its key sent by `connect`, it plays either game.
    command = ["node", str(built / "bot.js"), bot_service.url]
    said = plays_a_challenge(bot_service.url, command, {}, game, rules)
    assert "finished " in said and "Error" not in said, said
