"""`pocha analyse FILE` on real records (a game of Pocha and one of Poch played to the end
through the service): every decision weighed in the record's order, the same twice, a line
per seat; and what a record no game could give, or a level the game has not, says."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from flask.testing import FlaskClient

from cli.main import pocha
from tests.cli.test_replay import saved
from tests.service.test_records import play_poch, play_pocha


def analyse(path: Path, *options: str) -> Result:
    return CliRunner().invoke(pocha, ["analyse", str(path), *options])


@pytest.mark.parametrize("name", ["pocha", "poch"])
def test_a_records_decisions_weighed_in_order(
    client: FlaskClient, tmp_path: Path, name: str
) -> None:
    game_id = play_pocha(client)[0] if name == "pocha" else play_poch(client)[0]
    record, path = saved(client, game_id, tmp_path)
    first = analyse(path, "--level", "medium", "--json")
    assert first.exit_code == 0, first.output
    report = json.loads(first.output)
    made = _pocha_decisions(record) if name == "pocha" else _poch_decisions(record)
    assert [(w["seat"], w["played"]) for w in report["decisions"]] == made
    assert analyse(path, "--level", "medium", "--json").output == first.output
    told = analyse(path, "--level", "medium")
    assert told.exit_code == 0, told.output
    names = [p["name"] for p in record["players"]]
    for name_ in names:
        assert any(line.startswith(f"{name_}: ") for line in told.output.splitlines())


def _pocha_decisions(record: dict[str, Any]) -> list[tuple[int, Any]]:
    """Each hand's bids, then its cards, as (seat, wire form)."""
    found: list[tuple[int, Any]] = []
    for deal in record["deals"]:
        found += [(b["seat"], b["bid"]) for b in deal["bids"]]
        found += [(c["seat"], c["card"]) for t in deal["tricks"] for c in t["cards"]]
    return found


def _poch_decisions(record: dict[str, Any]) -> list[tuple[int, Any]]:
    """Each deal's calls, then the shedding's starts (the card played) and choices; the
    cards after them were forced."""
    found: list[tuple[int, Any]] = []
    for deal in record["deals"]:
        for b in deal["betting"]:
            found.append((b["seat"], b["amount"] if b["call"] in ("bet", "raise") else b["call"]))
        shedding = deal["shedding"]
        for i, step in enumerate(shedding):
            if step["type"] == "start":
                found.append((step["seat"], shedding[i + 1]["card"]))
            elif step["type"] == "choose":
                found.append((step["seat"], step["suit"]))
    return found


def test_a_record_no_game_could_give_or_a_level_not_there(
    client: FlaskClient, tmp_path: Path
) -> None:
    game_id, _final = play_pocha(client)
    record, path = saved(client, game_id, tmp_path)
    nope = analyse(path, "--level", "grandmaster")
    assert nope.exit_code == 1
    assert "pocha has no level 'grandmaster'" in nope.output
    record["deals"][0]["hands"][0], record["deals"][0]["hands"][1] = (
        record["deals"][0]["hands"][1], record["deals"][0]["hands"][0],
    )  # fmt: skip
    path.write_text(json.dumps(record))
    refused = analyse(path)
    assert refused.exit_code == 1
    assert "record" in refused.output
