"""The committed OpenAPI document as tools nobody here wrote read it: openapi-spec-validator
finds it valid, and Redocly's linter, with its recommended rules and no configuration of
ours, finds no error and no warning. Redocly is an npm tool, pinned in
openapi/package-lock.json and installed with `npm ci`; without node and npm (scripts/test
installs Debian's as root) its test is skipped, saying why. The document's own promises
are checked too: every operation has an operationId, every schema of a response says
which of its fields are always sent, and every operation a rate limit counts says its
429."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from openapi_spec_validator import validate

from service import ratelimits
from service.app import create_app
from service.openapi import COMMITTED

TOOLS = COMMITTED.parent
#: The oldest node @redocly/cli (its `engines`) runs on.
NODE_AT_LEAST = {20: (20, 19), 22: (22, 12)}


def _document() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(COMMITTED.read_text())
    return document


def test_the_document_is_valid_openapi() -> None:
    validate(_document())


def test_every_operation_has_an_operation_id_and_they_differ() -> None:
    ids = [
        operation.get("operationId")
        for item in _document()["paths"].values()
        for method, operation in item.items()
        if method in ("get", "post", "put", "patch", "delete")
    ]
    assert None not in ids
    assert len(set(ids)) == len(ids)


def _response_schemas(document: dict[str, Any]) -> set[str]:
    """The components reachable from a successful response."""
    schemas = document["components"]["schemas"]
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            ref = node.get("$ref", "")
            if ref.startswith("#/components/schemas/"):
                name = ref.rsplit("/", 1)[1]
                if name not in found:
                    found.add(name)
                    walk(schemas[name])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for item in document["paths"].values():
        for method, operation in item.items():
            if method in ("get", "post", "put", "patch", "delete"):
                for status, response in operation["responses"].items():
                    if status.startswith("2"):
                        walk(response)
    return found


def test_every_operation_a_rate_limit_counts_documents_its_429() -> None:
    """The endpoints of `service.ratelimits`, by the methods each limit counts: a 429 is
    one of their answers (a fuzzer holding the service to its document gets it too)."""
    counted: dict[str, tuple[str, ...] | None] = {
        **{e: None if scope in ratelimits.READS else ("POST",)
           for e, (_setting, scope) in ratelimits.LIMITED.items()},
        **dict.fromkeys(ratelimits.SEAT_LIMITED, ("POST",)),
        **dict.fromkeys(ratelimits.READ_LIMITED, ("GET",)),
        **dict.fromkeys(ratelimits.MOVES, ("POST",)),
    }  # fmt: skip
    app = create_app({"REDIS_URL": "redis://127.0.0.1:1/0"})
    paths = _document()["paths"]
    undocumented, found = [], set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint not in counted:
            continue
        found.add(rule.endpoint)
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule)
        methods = counted[rule.endpoint] or tuple(rule.methods or ())
        for method in set(methods) & (rule.methods or set()) - {"HEAD", "OPTIONS"}:
            if "429" not in paths[path][method.lower()]["responses"]:
                undocumented.append(f"{method} {path}")
    assert found == set(counted)
    assert undocumented == []


def test_every_response_schema_says_which_fields_are_always_sent() -> None:
    document = _document()
    schemas = document["components"]["schemas"]
    reachable = _response_schemas(document)
    assert {"GameView", "PochGameView", "Event", "PochEvent", "Job", "Advice"} <= reachable
    without = sorted(
        name
        for name in reachable
        if schemas[name].get("properties") and not schemas[name].get("required")
    )
    assert without == []


def _node_too_old() -> str | None:
    """Why the node on PATH cannot run @redocly/cli, if it cannot."""
    found = subprocess.run(["node", "--version"], capture_output=True, text=True, check=True)
    version = tuple(int(x) for x in re.findall(r"\d+", found.stdout)[:2])
    major = version[0]
    least = NODE_AT_LEAST.get(major) or (NODE_AT_LEAST[22] if major > 22 else None)
    if least is None or version < least:
        return f"node {found.stdout.strip()} is older than @redocly/cli 2 needs (20.19 or 22.12)"
    return None


def _redocly() -> Path:
    """Redocly as openapi/package-lock.json pins it, installed by `npm ci` unless it is."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are not installed (scripts/test installs Debian's as root)")
    too_old = _node_too_old()
    if too_old:
        pytest.skip(too_old)
    lock = json.loads((TOOLS / "package-lock.json").read_text())
    pinned = lock["packages"]["node_modules/@redocly/cli"]["version"]
    installed = TOOLS / "node_modules" / "@redocly" / "cli" / "package.json"
    if not installed.exists() or json.loads(installed.read_text())["version"] != pinned:
        subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts"],
            cwd=TOOLS,
            check=True,
            capture_output=True,
            env={**os.environ, "NO_UPDATE_NOTIFIER": "1"},
        )
    return TOOLS / "node_modules" / ".bin" / "redocly"


def test_redocly_recommended_rules_find_nothing(tmp_path: Path) -> None:
    redocly = _redocly()
    # From an empty folder: no redocly.yaml of anyone's, so the built-in recommended rules.
    linted = subprocess.run(
        [str(redocly), "lint", str(COMMITTED), "--format=json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "REDOCLY_TELEMETRY": "off", "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true"},
    )
    report = json.loads(linted.stdout)
    problems = [
        f"{p['severity']} {p['ruleId']}: {p['message']} at {p['location'][0]['pointer']}"
        for p in report["problems"]
    ]
    assert report["totals"] == {"errors": 0, "warnings": 0, "ignored": 0}, problems
    assert linted.returncode == 0, linted.stderr


#: The views of the phases in which some seat always has a decision to make.
DECIDING = (
    "BiddingGameView",
    "PlayingGameView",
    "PochBettingGameView",
    "PochStartingGameView",
    "PochChoosingGameView",
)


def test_a_phase_in_which_someone_decides_types_its_turn_as_a_seat() -> None:
    # A typed client reads `turn` of a bidding view as a number, with no null check; the
    # contract check of every view the tests receive holds the server to it.
    schemas = _document()["components"]["schemas"]
    for name in DECIDING:
        turn = schemas[name]["properties"]["turn"]
        assert turn["type"] == "integer" and not turn.get("nullable"), name
        assert "turn" in schemas[name]["required"], name
    for name in ("WaitingGameView", "FinishedGameView", "PochWaitingGameView", "PochOverGameView"):
        assert schemas[name]["properties"]["turn"]["nullable"] is True, name


def test_a_move_names_the_refusal_of_the_other_games_decision() -> None:
    # A bid sent to a Poch game (or a bet to a Pocha one) is 409 wrong_game.
    paths = _document()["paths"]
    for decision in ("bids", "plays", "bets", "suits"):
        conflict = paths[f"/api/v1/games/{{game_id}}/{decision}"]["post"]["responses"]["409"]
        assert "wrong_game" in conflict["description"], decision
