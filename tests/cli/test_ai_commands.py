"""`pocha arena` as a person runs it: what its header counts, and what a wrong --bots says."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from ai.levels import BOTS, LEVELS
from cli.main import pocha


def arena(*args: str) -> Result:
    """Three seats, one-card games (ties, so tiebreak hands, are common), bots that are quick;
    random sits in two seats."""
    return CliRunner(env={"COLUMNS": "200"}).invoke(
        pocha,
        ["arena", "--players", "3", "--bots", "random,heuristic", "--rules", '{"schedule": [1]}',
         "--games", "4", "--seed", "1", "--processes", "1", *args],
    )  # fmt: skip


def arena_with_records(tmp_path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The arena's JSON and the game records it wrote."""
    records = tmp_path / "records.jsonl"
    shown = arena("--json", "--records", str(records))
    assert shown.exit_code == 0, shown.output
    games = [json.loads(line) for line in records.read_text().splitlines()]
    return json.loads(shown.output), games


def test_the_header_counts_the_hands_the_totals_count(tmp_path: Path) -> None:
    result, games = arena_with_records(tmp_path)
    dealt = sum(len(game["hands"]) for game in games)
    assert dealt > len(games)  # tiebreak hands were played: they count too
    assert result["hands"] == dealt
    assert result["hands_played"] == 3 * dealt == sum(bot["hands"] for bot in result["bots"])

    shown = arena()
    assert shown.exit_code == 0, shown.output
    header = re.search(
        r"(\d+) games, (\d+) hands dealt, (\d+) played \(one per seat\)", shown.output
    )
    assert header is not None, shown.output
    assert header.groups() == (str(len(games)), str(dealt), str(3 * dealt))
    rows = [line.split("│") for line in shown.output.splitlines() if line.startswith("│")]
    assert {row[1].strip(): int(row[2]) for row in rows} == {
        "random": 2 * dealt,
        "heuristic": dealt,
    }


def test_an_unknown_bot_is_refused_naming_every_level_and_bot() -> None:
    shown = arena("--bots", "hard,grandmaster")
    assert shown.exit_code == 1
    assert "grandmaster" in shown.output
    for name in (*LEVELS, *BOTS):
        assert re.search(rf"\b{re.escape(name)}\b", shown.output), (name, shown.output)
    assert "ismcts:2000" in shown.output


def test_a_level_with_a_budget_or_no_bots_at_all_is_refused_saying_why() -> None:
    shown = arena("--bots", "hard:2000")
    assert shown.exit_code == 1
    assert "'hard' is a level" in shown.output and "ismcts:2000" in shown.output
    shown = arena("--bots", ",")
    assert shown.exit_code == 1
    assert "name at least one bot or level" in shown.output


def test_two_bots_get_their_difference_paired_by_deal(tmp_path: Path) -> None:
    result, games = arena_with_records(tmp_path)
    first, second = (bot["bot"] for bot in result["bots"])
    difference = result["difference"]
    assert (difference["bot"], difference["other"], difference["deals"]) == (first, second, 4)
    # By hand: each deal's mean score per hand of each bot, then the mean of the gaps.
    gaps = []
    for deal in {g["deal"] for g in games}:
        mine: dict[str, list[int]] = {first: [], second: []}
        for g in games:
            if g["deal"] == deal:
                for hand in g["hands"]:
                    for seat, bot in enumerate(g["seats"]):
                        mine[bot].append(hand["points"][seat])
        gaps.append(sum(mine[first]) / len(mine[first]) - sum(mine[second]) / len(mine[second]))
    assert difference["per_hand"] == round(sum(gaps) / len(gaps), 4)
    assert difference["ci95"] > 0
    shown = arena()
    assert f"{first} - {second}, paired by deal: " in shown.output
    assert "(4 deals)" in shown.output
    # Three bots: no single difference to give.
    assert "difference" not in json.loads(arena("--bots", "random,heuristic,easy", "--json").output)


def test_two_models_of_bidding_sit_at_one_table(tmp_path: Path) -> None:
    """A reading bot given a file of models (``@FILE``) is a bot of its own at the table,
    so a trained model can be measured against the shipped one."""
    from ai.reading import MODEL_PATH

    other = tmp_path / "other.json"
    data = json.loads(MODEL_PATH.read_text())
    for part in data["by_cards"]:
        part["spread"] *= 2
    other.write_text(json.dumps(data))
    mine = f"ismcts-modelled:20@{other}"
    shown = arena("--players", "4", "--bots", f"{mine},ismcts-modelled:20", "--games", "1",
                  "--rules", '{"schedule": [2]}', "--json")  # fmt: skip
    assert shown.exit_code == 0, shown.output
    result = json.loads(shown.output)
    assert {bot["bot"] for bot in result["bots"]} == {mine, "ismcts-modelled:20"}
    assert {result["difference"]["bot"], result["difference"]["other"]} == {
        mine,
        "ismcts-modelled:20",
    }


def test_a_model_of_bidding_is_refused_where_it_cannot_be_read_or_used(tmp_path: Path) -> None:
    shown = arena("--bots", f"hard@{tmp_path / 'x.json'},random")
    assert shown.exit_code == 1
    assert "does not read the bids" in shown.output and "ismcts-modelled" in shown.output
    shown = arena("--bots", f"master@{tmp_path / 'missing.json'},random")
    assert shown.exit_code == 1
    assert "cannot read the models of bidding" in shown.output
    broken = tmp_path / "broken.json"
    broken.write_text('{"by_cards": [{"cards_from": 1, "weights": {}, "spread": 0.3}]}')
    shown = arena("--bots", f"master@{broken},random")
    assert shown.exit_code == 1
    assert "cannot read the models of bidding" in shown.output


def test_by_size_splits_each_bots_hands_and_exact_bids_by_hand_size(tmp_path: Path) -> None:
    records = tmp_path / "records.jsonl"
    shown = CliRunner().invoke(
        pocha,
        ["arena", "--bots", "hard,heuristic", "--rules", '{"schedule": [1, 2, 3]}',
         "--games", "3", "--seed", "5", "--processes", "1", "--json", "--by-size",
         "--records", str(records)],
    )  # fmt: skip
    assert shown.exit_code == 0, shown.output
    result = json.loads(shown.output)
    games = [json.loads(line) for line in records.read_text().splitlines()]
    for bot in result["bots"]:
        sizes = result["exact_by_size"][bot["bot"]]
        assert set(sizes) <= {"1", "2", "3"} and {"2", "3"} <= set(sizes)
        assert sum(s["hands"] for s in sizes.values()) == bot["hands"]
        exact = sum(s["exact"] for s in sizes.values())
        assert abs(exact / bot["hands"] - bot["exact_rate"]) < 1e-4
        # Counted from the records by hand: the three-card hands of this bot's seats.
        three = [
            (hand["bids"][seat], hand["tricks"][seat])
            for game in games
            for hand in game["hands"]
            if hand["cards"] == 3
            for seat, name in enumerate(game["seats"])
            if name == bot["bot"]
        ]
        assert sizes["3"] == {"exact": sum(b == t for b, t in three), "hands": len(three)}
    table = CliRunner(env={"COLUMNS": "200"}).invoke(
        pocha,
        ["arena", "--bots", "hard,heuristic", "--rules", '{"schedule": [1, 2, 3]}',
         "--games", "3", "--seed", "5", "--processes", "1", "--by-size"],
    )  # fmt: skip
    assert table.exit_code == 0, table.output
    assert "exact bids by hand size" in table.output
