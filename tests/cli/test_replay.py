"""`pocha replay FILE` on real records (a game of Pocha and one of Poch played to the end
through the service, `tests/service/test_records.py`): every hand as dealt, every bid, bet
and card in order with the trick winners, the stand-in's decisions marked, the scores, the
bots' advice; a match's record of one game (a line of its records, played by a real
worker), a file of several told one game at a time by --game and said so in English and
Spanish; and what a file that is no record says."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result
from flask.testing import FlaskClient

from cli.main import pocha
from tests.service.test_records import play_poch, play_pocha
from tests.worker.conftest import Drain


def replay(path: Path, *args: str, language: str = "en") -> Result:
    locale = {"en": "C.UTF-8", "es": "es_ES.UTF-8"}[language]
    env = {"LANG": locale, "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""}
    return CliRunner().invoke(pocha, ["replay", str(path), *args], env=env)


def played_match(client: FlaskClient, drain: Drain, **body: Any) -> list[bytes]:
    """A match's games played by a worker; its records' lines, as the API gives them."""
    body = {"games": 4, "seed": 3, **body}
    response = client.post("/api/v1/matches", json=body)
    assert response.status_code == 202, response.json
    drain()
    records = client.get(response.json["records_url"])
    assert records.mimetype == "application/x-ndjson"
    lines: list[bytes] = records.get_data().splitlines()
    assert len(lines) == body["games"]
    return lines


def saved(client: FlaskClient, game_id: str, tmp_path: Path) -> tuple[dict[str, Any], Path]:
    response = client.get(f"/api/v1/games/{game_id}/record")
    assert response.status_code == 200, response.json
    path = tmp_path / f"{game_id}.json"
    path.write_bytes(response.get_data())
    record: dict[str, Any] = response.json
    return record, path


def test_a_pocha_record_told_hand_by_hand(client: FlaskClient, tmp_path: Path) -> None:
    game_id, _final = play_pocha(client)
    record, path = saved(client, game_id, tmp_path)
    told = replay(path)
    assert told.exit_code == 0, told.output
    out = told.output.splitlines()
    assert out[0].startswith(f"Pocha · game {game_id}")
    # A seat without a level may be a person's or an outside bot's account: the record does
    # not say which, so it is given no label rather than a wrong one.
    assert out[1] == "Players: 0 Ana · 1 Bea · 2 Bot (easy)"
    assert "(person)" not in told.output
    names = ["Ana", "Bea", "Bot"]
    heads = [i for i, line in enumerate(out) if line.startswith("Hand ")]
    assert len(heads) == len(record["deals"])
    for head, deal in zip(heads, record["deals"], strict=True):
        assert out[head].startswith(f"Hand {deal['number']}")
        assert f"dealer {names[deal['dealer']]}" in out[head]
        for seat, hand in enumerate(deal["hands"]):
            assert out[head + 1 + seat].split() == [names[seat], *hand]
        bids = ", ".join(
            f"{names[b['seat']]}{'*' if b.get('stand_in') else ''} {b['bid']}" for b in deal["bids"]
        )
        assert out[head + 4] == f"  Bids: {bids}"
        for number, trick in enumerate(deal["tricks"], start=1):
            line = out[head + 4 + number]
            assert line.startswith(f"  Trick {number}: ")
            played = re.findall(r"(\w+)(\*?) ([OCEB]\d+)", line.split(": ", 1)[1])
            assert [(names.index(n), c) for n, _star, c in played] == [
                (c["seat"], c["card"]) for c in trick["cards"]
            ]
            assert line.endswith(f"-> {names[trick['winner']]}")
        scores = " · ".join(f"{names[s]} {v}" for s, v in enumerate(deal["scores"]))
        assert f"  Scores:     {scores}" in out
    # Bea's turns were the stand-in's: marked, and nobody else's is.
    assert "Bea*" in told.output and "Ana*" not in told.output and "Bot*" not in told.output
    final = " · ".join(f"{names[s]} {v}" for s, v in enumerate(record["scores"]))
    assert out[-2:] == [
        f"Final: {final}",
        f"Won by: {', '.join(names[s] for s in record['winners'])}",
    ]
    # The easy bot's advice, a line per decision it searched, after the deals.
    advised = [line for line in out if re.match(r"^ +\d+\. ", line)]
    assert len(advised) == len(record["advice"]) > 0
    first = record["advice"][0]
    assert advised[0].split(" chose ")[0].split() == [f"{first['number']}.", "Bot", "(easy)"]
    assert f"chose {first['action']}, expected {first['score']:+.2f}; weighed " in advised[0]


def test_a_poch_record_told_deal_by_deal(client: FlaskClient, tmp_path: Path) -> None:
    game_id, _final = play_poch(client)
    record, path = saved(client, game_id, tmp_path)
    told = replay(path)
    assert told.exit_code == 0, told.output
    out = told.output.splitlines()
    assert out[0].startswith(f"Poch · game {game_id}")
    names = ["Ana", "Bea", "Rand", "Heur"]
    heads = [i for i, line in enumerate(out) if line.startswith("Deal ")]
    assert len(heads) == len(record["deals"])
    for head, deal in zip(heads, record["deals"], strict=True):
        assert f"trumps {deal['trump']['suit']} (the dealer's {deal['trump']['card']})" in out[head]
        for k, seat in enumerate(deal["order"]):
            assert out[head + 1 + k].split() == [names[seat], *deal["hands"][seat]]
        end = heads[heads.index(head) + 1] if head != heads[-1] else len(out)
        section = out[head:end]
        # Every card of the shedding, in order, on the lines after the betting.
        betting = next(i for i, line in enumerate(section) if line.startswith("  Betting: "))
        shown = re.findall(r"\b([CSHD](?:10|[789JQKA]))\b", " ".join(section[betting + 1 :]))
        sets = [c for s in (deal["showdown"] or {"sets": {}})["sets"].values() for c in s]
        plays = [s["card"] for s in deal["shedding"] if s["type"] == "play"]
        assert shown == sets + plays
        assert f"  Out first: {names[deal['winner']]}; " in "\n".join(section)
        chips = " · ".join(f"{names[s]} {v}" for s, v in enumerate(deal["chips"]))
        assert f"  Chips: {chips}" in section
    assert "Bea*" in told.output and "Ana*" not in told.output
    final = " · ".join(f"{names[s]} {v}" for s, v in enumerate(record["scores"]))
    assert out[-2] == f"Final: {final}"


def test_a_file_that_is_no_record_is_refused(tmp_path: Path) -> None:
    not_json = tmp_path / "a.json"
    not_json.write_text("{")
    told = replay(not_json)
    assert told.exit_code == 1 and "not a JSON file" in told.output
    other = tmp_path / "b.json"
    other.write_text(json.dumps({"format": 2, "game": "pocha"}))
    told = replay(other)
    assert told.exit_code == 1 and "record format 2" in told.output
    partial = tmp_path / "c.json"
    partial.write_text(json.dumps({"format": 1, "game": "poch", "id": "x", "players": []}))
    told = replay(partial)
    assert told.exit_code == 1 and "incomplete" in told.output


def test_one_line_of_a_pocha_matchs_records(
    client: FlaskClient, drain: Drain, tmp_path: Path
) -> None:
    seats = ["easy", "heuristic", "easy"]
    lines = played_match(client, drain, seats=seats, rules={"schedule": [1, 2]})
    line = tmp_path / "game.json"
    line.write_bytes(lines[2] + b"\n")
    record = json.loads(lines[2])
    told = replay(line)
    assert told.exit_code == 0, told.output
    out = told.output.splitlines()
    assert out[0] == f"Pocha · game 2 of a match · seed {record['seed']} · deal {record['deal']}"
    assert out[1] == "Seats: 0 easy · 1 heuristic · 2 easy"
    names = ["easy #0", "heuristic", "easy #2"]
    heads = [i for i, text in enumerate(out) if text.startswith("Hand ")]
    assert len(heads) == len(record["hands"]) == 2
    for head, hand in zip(heads, record["hands"], strict=True):
        assert out[head].endswith("1 card each" if hand["cards"] == 1 else "2 cards each")
        for row, key in ((1, "bids"), (2, "tricks"), (3, "points")):
            shown = " · ".join(f"{names[s]} {v}" for s, v in enumerate(hand[key]))
            assert out[head + row].endswith(shown), (key, out[head + row])
    final = " · ".join(f"{names[s]} {v}" for s, v in enumerate(record["scores"]))
    assert f"Final: {final}" in out
    assert f"Won by: {', '.join(names[s] for s in record['winners'])}" in out
    assert "(person)" not in told.output


def test_a_file_of_a_matchs_records_is_told_a_game_at_a_time(
    client: FlaskClient, drain: Drain, tmp_path: Path
) -> None:
    seats = ["heuristic", "random", "heuristic"]
    lines = played_match(client, drain, game="poch", seats=seats, rules={"chips": 20})
    every = tmp_path / "records.jsonl"
    every.write_bytes(b"\n".join(lines) + b"\n")
    for language, said in (
        ("en", f"{every} holds 4 records (a match's): pocha replay tells one game at a time. "
               "Pick it with --game N, N its number in the match (0-3)."),
        ("es", f"{every} tiene 4 registros (de una serie de partidas): pocha replay cuenta una "
               "partida cada vez. Elígela con --game N, N su número en la serie (0-3)."),
    ):  # fmt: skip
        told = replay(every, language=language)
        assert told.exit_code == 1
        assert " ".join(told.output.split()) == f"Error: {said}"
    told = replay(every, "--game", "9", language="es")
    assert told.exit_code == 1
    assert "no tiene la partida número 9 de una serie; sus partidas: 0-3." in told.output
    # The game asked for, from the lines or from `?format=json`'s array alike.
    record = json.loads(lines[1])
    array = tmp_path / "records.json"
    array.write_text(json.dumps([json.loads(line) for line in lines]))
    for path in (every, array):
        told = replay(path, "--game", "1")
        assert told.exit_code == 0, told.output
        out = told.output.splitlines()
        assert out[0].startswith("Poch · game 1 of a match · seed ")
        assert out[1] == "Seats: 0 heuristic · 1 random · 2 heuristic"
        names = ["heuristic #0", "random", "heuristic #2"]
        chips = " · ".join(f"{names[s]} {v}" for s, v in enumerate(record["chips"]))
        assert f"  Chips won: {chips}" in out
        winner = "nobody" if record["winner"] is None else names[record["winner"]]
        assert f"  Out first: {winner}" in out


def arena_records(tmp_path: Path, command: str, *args: str) -> tuple[Path, list[dict[str, Any]]]:
    """The records `pocha COMMAND --records FILE` writes for two deals of three bots of two
    kinds (the line-up's three rotations each: six games), and its file."""
    path = tmp_path / f"{command}.jsonl"
    played = CliRunner().invoke(
        pocha,
        [command, "--players", "3", "--bots", "heuristic,random", "--processes", "1",
         "--json", "--records", str(path), *args],
    )  # fmt: skip
    assert played.exit_code == 0, played.output
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(records) == 6
    return path, records


def test_an_arenas_records_of_pocha_are_told_a_game_at_a_time_by_line(tmp_path: Path) -> None:
    path, records = arena_records(
        tmp_path, "arena", "--games", "2", "--rules", '{"schedule": [1, 2]}'
    )
    assert all("game" not in r for r in records)  # Pocha's arena names no game
    for language, said in (
        ("en", f"{path} holds 6 records (an arena's): pocha replay tells one game at a time. "
               "Pick it with --game N, N the line it is on (1-6)."),
        ("es", f"{path} tiene 6 registros (de una arena): pocha replay cuenta una partida cada "
               "vez. Elígela con --game N, N la línea en la que está (1-6)."),
    ):  # fmt: skip
        told = replay(path, language=language)
        assert told.exit_code == 1
        assert " ".join(told.output.split()) == f"Error: {said}"
    told = replay(path, "--game", "7", language="es")
    assert told.exit_code == 1
    assert (
        "no tiene ninguna partida de una arena en la línea 7; sus partidas están en las líneas "
        "1-6." in " ".join(told.output.split())
    )
    told = replay(path, "--game", "0")
    assert told.exit_code == 1 and "no game of an arena on line 0" in told.output

    # The game on line 5: the sixth record's rotation of the line-up, hand by hand.
    record = records[4]
    told = replay(path, "--game", "5")
    assert told.exit_code == 0, told.output
    out = told.output.splitlines()
    assert out[0] == (
        f"Pocha · an arena's game, line 5 of the file · seed {record['seed']} · deal "
        f"{record['deal']}"
    )
    bots = record["seats"]
    assert out[1] == "Seats: " + " · ".join(f"{s} {b}" for s, b in enumerate(bots))
    assert "An arena's record keeps no card or decision, only the results." in out
    names = [f"{b} #{s}" if bots.count(b) > 1 else b for s, b in enumerate(bots)]
    heads = [i for i, text in enumerate(out) if text.startswith("Hand ")]
    assert len(heads) == len(record["hands"]) >= 2
    for head, hand in zip(heads, record["hands"], strict=True):
        for row, key in ((1, "bids"), (2, "tricks"), (3, "points")):
            shown = " · ".join(f"{names[s]} {v}" for s, v in enumerate(hand[key]))
            assert out[head + row].endswith(shown), (key, out[head + row])
    final = " · ".join(f"{names[s]} {v}" for s, v in enumerate(record["scores"]))
    assert f"Final: {final}" in out
    assert f"Won by: {', '.join(names[s] for s in record['winners'])}" in out
    decisions = " · ".join(f"{names[s]} {v}" for s, v in enumerate(record["decisions"]))
    assert out[-1] == f"Decisions: {decisions}"

    # One line alone is told without --game; the same game from an array, by its item.
    alone = tmp_path / "alone.jsonl"
    alone.write_text(path.read_text().splitlines()[4] + "\n")
    told = replay(alone)
    assert told.exit_code == 0, told.output
    assert told.output.splitlines()[0].startswith("Pocha · an arena's game, line 1 of the file")
    assert told.output.splitlines()[1:] == out[1:]
    array = tmp_path / "arena.json"
    array.write_text(json.dumps(records))
    told = replay(array, "--game", "5")
    assert told.exit_code == 0, told.output
    assert told.output.splitlines()[0].startswith("Pocha · an arena's game, item 5 of the file")
    assert told.output.splitlines()[1:] == out[1:]
    # An array's games are its items, and its refusals say so.
    for language, said in (
        ("en", f"{array} holds 6 records (an arena's): pocha replay tells one game at a time. "
               "Pick it with --game N, N its item in the array (1-6)."),
        ("es", f"{array} tiene 6 registros (de una arena): pocha replay cuenta una partida cada "
               "vez. Elígela con --game N, N su elemento en el array (1-6)."),
    ):  # fmt: skip
        told = replay(array, language=language)
        assert told.exit_code == 1
        assert " ".join(told.output.split()) == f"Error: {said}"
    told = replay(array, "--game", "7")
    assert told.exit_code == 1
    assert "no game of an arena at item 7 of the array; its games are items 1-6." in " ".join(
        told.output.split()
    )
    told = replay(array, "--game", "7", language="es")
    assert "en el elemento 7 del array; sus partidas son los elementos 1-6." in " ".join(
        told.output.split()
    )


def test_an_arenas_records_of_poch_are_told_as_a_matchs_are(tmp_path: Path) -> None:
    path, records = arena_records(tmp_path, "arena-poch", "--deals", "2", "--rules",
                                  '{"chips": 20}')  # fmt: skip
    assert {r["game"] for r in records} == {"poch"}
    record = records[2]
    told = replay(path, "--game", "3")
    assert told.exit_code == 0, told.output
    out = told.output.splitlines()
    assert out[0] == (
        f"Poch · an arena's game, line 3 of the file · seed {record['seed']} · deal "
        f"{record['deal']}"
    )
    bots = record["seats"]
    names = [f"{b} #{s}" if bots.count(b) > 1 else b for s, b in enumerate(bots)]
    chips = " · ".join(f"{names[s]} {v}" for s, v in enumerate(record["chips"]))
    assert f"  Chips won: {chips}" in out
    winner = "nobody" if record["winner"] is None else names[record["winner"]]
    assert f"  Out first: {winner}" in out
    decisions = " · ".join(f"{names[s]} {v}" for s, v in enumerate(record["decisions"]))
    assert out[-1] == f"Decisions: {decisions}"
    assert "Hand " not in told.output


def test_an_arenas_broken_records_are_refused_as_a_matchs_are(
    client: FlaskClient, drain: Drain, tmp_path: Path
) -> None:
    """A line cut short is no JSON file, as in a match's records; a line that is a match's
    game among an arena's is refused, their numbers being of two kinds; a line of neither is
    not found by the number of its line."""
    path, _records = arena_records(tmp_path, "arena-poch", "--deals", "2")
    lines = path.read_text().splitlines()
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join([*lines[:2], lines[2][:40], *lines[3:]]) + "\n")
    told = replay(cut, "--game", "1")
    assert told.exit_code == 1 and "not a JSON file" in told.output
    match = played_match(client, drain, game="poch", games=2, rules={"chips": 20},
                         seats=["heuristic", "random", "heuristic"])  # fmt: skip
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_bytes(path.read_bytes() + match[0] + b"\n")
    for language, said in (
        ("en", "mixes a match's records with an arena's: pocha replay reads a file of one or "
               "the other."),
        ("es", "mezcla registros de una serie de partidas con los de una arena: pocha replay "
               "lee un archivo de unos o de otros."),
    ):  # fmt: skip
        told = replay(mixed, "--game", "1", language=language)
        assert told.exit_code == 1
        assert said in " ".join(told.output.split())
    other = tmp_path / "other.jsonl"
    other.write_text("\n".join([lines[0], '{"hello": 1}', lines[2]]) + "\n")
    told = replay(other, "--game", "2")
    assert told.exit_code == 1
    assert "no game of an arena on line 2; its games are on lines 1, 3." in " ".join(
        told.output.split()
    )
    assert replay(other, "--game", "3").exit_code == 0
