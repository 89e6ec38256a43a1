"""`pocha arena` and `pocha arena-poch` as a person runs them: what the header counts, the
hands played against those asked, the intervals and what is marked not significant, the
chart, and what a wrong --bots or --plot says."""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from PIL import Image

from ai.pocha.levels import BOTS, LEVELS
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
    return json.loads(shown.stdout), games


def table_rows(output: str) -> dict[str, list[str]]:
    """The table's rows by bot: its cells, stripped."""
    rows = [line.split("│") for line in output.splitlines() if "│" in line]
    return {row[0].strip(): [cell.strip() for cell in row[1:]] for row in rows}


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
    assert {bot: int(cells[0]) for bot, cells in table_rows(shown.output).items()} == {
        "random": 2 * dealt,
        "heuristic": dealt,
    }
    # Tiebreak hands are counted apart: a game's schedule here is one hand.
    assert result["tiebreak_hands"] == dealt - len(games) > 0


def two_hand_deals(hands: int) -> list[str]:
    """`pocha arena --hands` at three seats of random,heuristic,random: three rotations of
    a two-hand schedule, six hands a deal, with no tiebreak hands."""
    return ["arena", "--players", "3", "--bots", "random,heuristic", "--rules",
            '{"schedule": [1, 2], "tiebreak": false}', "--hands", str(hands), "--seed", "1",
            "--processes", "1"]  # fmt: skip


def test_hands_that_make_whole_deals_are_played_exactly() -> None:
    shown = CliRunner().invoke(pocha, [*two_hand_deals(12), "--json"])
    assert shown.exit_code == 0, shown.output
    assert shown.stderr == ""
    result = json.loads(shown.stdout)
    assert (result["hands_asked"], result["hands"], result["tiebreak_hands"]) == (12, 12, 0)
    assert (result["deals"], result["games"]) == (2, 6)


def test_hands_that_do_not_make_whole_deals_are_rounded_up_saying_so_before_playing() -> None:
    args = two_hand_deals(10)
    shown = CliRunner().invoke(pocha, [*args, "--json"])
    assert shown.exit_code == 0, shown.output
    said = shown.stderr
    assert "--hands 10 is not a whole number of deals" in said
    assert "3 games of 2 hands" in said and "6 hands" in said
    assert "playing 2 deals, 12 hands" in said
    # Said before anything was played: ahead of the figures.
    assert shown.output.index("--hands 10") < shown.output.index("{")
    result = json.loads(shown.stdout)
    assert (result["hands_asked"], result["hands"]) == (10, 12)
    table = CliRunner(env={"COLUMNS": "200"}).invoke(pocha, args)
    assert table.exit_code == 0, table.output
    assert "hands: 10 asked, 12 dealt (6 games of 2, and 0 tiebreak hands)" in table.output
    # Without rotations a deal is one game: 10 hands are whole deals, 9 are not.
    shown = CliRunner().invoke(pocha, [*args, "--no-duplicate", "--json"])
    assert json.loads(shown.stdout)["hands"] == 10 and shown.stderr == ""
    shown = CliRunner().invoke(pocha, [*two_hand_deals(9), "--no-duplicate", "--json"])
    assert "a deal here is one game of 2 hands; playing 5 deals, 10 hands" in shown.stderr
    assert json.loads(shown.stdout)["hands"] == 10


def test_games_and_hands_together_are_refused() -> None:
    shown = arena("--hands", "10")
    assert shown.exit_code == 2
    assert "--games (deals) or --hands, not both" in shown.output


def wilson(wins: float, games: float) -> tuple[float, float]:
    """The Wilson score interval at 95%, written out here apart from ai.stats."""
    z = 1.959963984540054
    p = wins / games
    centre = (p + z**2 / (2 * games)) / (1 + z**2 / games)
    half = z * math.sqrt(p * (1 - p) / games + z**2 / (4 * games**2)) / (1 + z**2 / games)
    return centre - half, centre + half


def test_win_rates_come_with_their_intervals_and_the_even_share(tmp_path: Path) -> None:
    result, _games = arena_with_records(tmp_path)
    even = {"random": 2 / 3, "heuristic": 1 / 3}  # its seats over the players
    for bot in result["bots"]:
        # Each deal is a trial, won in the share of its three games won.
        low, high = wilson(bot["win_rate"] * 4, 4)
        assert bot["win_rate_ci95"] == pytest.approx([low, high], abs=2e-3)
        assert bot["win_rate_ci95"][0] <= bot["win_rate"] <= bot["win_rate_ci95"][1]
        assert bot["even_win_rate"] == pytest.approx(even[bot["bot"]], abs=1e-4)
        assert bot["win_rate_significant"] == (
            not bot["win_rate_ci95"][0] <= bot["even_win_rate"] <= bot["win_rate_ci95"][1]
        )
        lead = bot["lead"]
        assert lead["other"] == "the rest of the table" and lead["deals"] == 4
        assert lead["significant"] == (abs(lead["per_hand"]) > lead["ci95"])
    # With two bots each one's lead over the rest is the difference between them.
    first, second = result["bots"]
    assert first["lead"]["per_hand"] == result["difference"]["per_hand"]
    assert second["lead"]["per_hand"] == -result["difference"]["per_hand"]


def test_one_deal_is_marked_not_significant_in_the_table_and_the_json() -> None:
    """The issue's case: one bot won every game, the other none, on too few deals to say."""
    shown = arena("--games", "1", "--json")
    assert shown.exit_code == 0, shown.output
    result = json.loads(shown.stdout)
    assert result["difference"]["ci95"] is None
    assert result["difference"]["significant"] is False
    for bot in result["bots"]:
        assert bot["lead"]["significant"] is False
        # Its three games share one deal's cards: one trial, whatever it won.
        assert bot["win_rate_significant"] is False
    shown = arena("--games", "1")
    rows = table_rows(shown.output)
    for bot in ("random", "heuristic"):
        lead, win = rows[bot][3], rows[bot][4]
        assert lead.endswith("± n/a ns"), rows
        assert re.fullmatch(r"\d+\.\d% \[\d+-\d+%\] ns / \d+%", win), rows
    assert "(1 deals): not significant (no interval with fewer than two deals)" in shown.output
    assert "ns: not significant" in shown.output


def test_a_clear_lead_is_not_marked() -> None:
    shown = CliRunner(env={"COLUMNS": "200"}).invoke(
        pocha,
        ["arena", "--players", "3", "--bots", "easy,random,random", "--rules",
         '{"schedule": [3, 4]}', "--games", "12", "--seed", "2", "--processes", "1"],
    )  # fmt: skip
    assert shown.exit_code == 0, shown.output
    rows = table_rows(shown.output)
    assert re.fullmatch(r"\+\d+\.\d\d ± \d+\.\d\d", rows["easy"][3]), rows
    assert "paired by deal" in shown.output and ": significant" in shown.output


def png_text(path: Path) -> str:
    with Image.open(path) as image:
        assert image.format == "PNG" and image.width > 400 and image.height > 300
        return " ".join(str(v) for v in image.info.values())


def test_plot_writes_a_chart_of_each_bots_running_score(tmp_path: Path) -> None:
    chart = tmp_path / "scores.png"
    shown = arena("--plot", str(chart))
    assert shown.exit_code == 0, shown.output
    assert f"chart of the running scores in {chart}" in shown.output
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and chart.stat().st_size > 10_000
    assert "random" in png_text(chart) and "heuristic" in png_text(chart)
    svg = tmp_path / "scores.svg"
    shown = arena("--plot", str(svg), "--json")
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.stdout)["plot"] == str(svg)
    text = svg.read_text()
    assert text.lstrip().startswith("<?xml") and "<svg" in text
    # The legend, as text: each bot's name with its total and interval.
    assert re.search(r"random: [+-−]?[\d,]+ ± [\d,]+", text), text[-3000:]
    assert re.search(r"heuristic: [+-−]?[\d,]+ ± [\d,]+", text)


def test_plot_in_the_poch_arena(tmp_path: Path) -> None:
    chart = tmp_path / "chips.png"
    shown = CliRunner(env={"COLUMNS": "200"}).invoke(
        pocha,
        ["arena-poch", "--players", "3", "--bots", "heuristic,random", "--deals", "3",
         "--processes", "1", "--plot", str(chart)],
    )  # fmt: skip
    assert shown.exit_code == 0, shown.output
    assert "heuristic" in png_text(chart) and "random" in png_text(chart)
    rows = table_rows(shown.output)
    assert set(rows) == {"heuristic", "random"}
    assert re.fullmatch(r"\d+\.\d% \[\d+-\d+%\]( ns)? / 33%", rows["random"][4]), rows


def test_plot_is_refused_before_playing_without_matplotlib_or_a_known_format(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    records = tmp_path / "records.jsonl"
    shown = arena("--plot", str(tmp_path / "scores.pdf"), "--records", str(records))
    assert shown.exit_code == 1
    assert "name it .png or .svg" in shown.output
    assert not records.exists()
    # As on a machine without the plot extra: importing matplotlib fails.
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    for command in (
        arena("--plot", str(tmp_path / "scores.png"), "--records", str(records)),
        CliRunner().invoke(pocha, ["arena-poch", "--deals", "1", "--processes", "1",
                                   "--plot", str(tmp_path / "chips.svg")]),
    ):  # fmt: skip
        assert command.exit_code == 1
        assert "--plot needs matplotlib, which is not installed" in command.output
        assert "--extra plot" in command.output and "pip install 'matplotlib" in command.output
    assert not records.exists()


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
    assert "difference" not in json.loads(arena("--bots", "random,heuristic,easy", "--json").stdout)


def test_two_models_of_bidding_sit_at_one_table(tmp_path: Path) -> None:
    """A reading bot given a file of models (``@FILE``) is a bot of its own at the table,
    so a trained model can be measured against the shipped one."""
    from ai.pocha.reading import MODEL_PATH

    other = tmp_path / "other.json"
    data = json.loads(MODEL_PATH.read_text())
    for part in data["by_cards"]:
        part["spread"] *= 2
    other.write_text(json.dumps(data))
    mine = f"ismcts-modelled:20@{other}"
    shown = arena("--players", "4", "--bots", f"{mine},ismcts-modelled:20", "--games", "1",
                  "--rules", '{"schedule": [2]}', "--json")  # fmt: skip
    assert shown.exit_code == 0, shown.output
    result = json.loads(shown.stdout)
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
