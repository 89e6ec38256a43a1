"""Bot-vs-bot matches: fanned out one task per game on the low queue, played in slices
exactly as the arena plays them, summed up by the arena's statistics; bounded; and never in
the way of a bot turn a person waits for."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
import redis
from flask.testing import FlaskClient
from rq.job import Job

from ai.arena import distinct_rotations, tasks_for
from ai.pocha.arena import parse_player, play_game
from ai.stats import paired_difference, standings, summarize
from core.jobs.matches import game_task_key
from core.jobs.queues import LOW, SERIALIZER, TURNS, Timing, queue
from core.play.turns import store_for
from core.store.keys import task_key
from engine.pocha.rules import Rules
from tests.service.helpers import create_game
from tests.worker.conftest import Drain, jobs_named
from worker.process import make_worker

SEATS = ["easy", "heuristic", "easy", "heuristic"]
RULES = {"schedule": [2, 3]}


def start_match(client: FlaskClient, **body: Any) -> dict[str, Any]:
    body = {"seats": SEATS, "games": 4, "rules": RULES, "seed": 3, **body}
    response = client.post("/api/v1/matches", json=body)
    assert response.status_code == 202, response.json
    assert response.headers["Location"] == response.json["url"]
    match: dict[str, Any] = response.json
    return match


def arena_records(match: dict[str, Any]) -> list[dict[str, Any]]:
    """The same games played by the arena itself, in one process."""
    rules = Rules.from_dict(match["rules"])
    lineup = [parse_player(s) for s in match["seats"]]
    seatings = len(distinct_rotations(lineup)) if match["duplicate"] else 1
    deals = match["games"] // seatings
    tasks = tasks_for(rules, lineup, deals, match["seed"], match["duplicate"])
    return [play_game(t.rules, t.seed, t.players, t.deal) for t in tasks]


def without_timings(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in ("think_ms", "game")}


def without_lead(bot: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in bot.items() if k != "lead"}


def test_a_small_match_with_its_statistics(client: FlaskClient, drain: Drain) -> None:
    match = start_match(client)
    assert (match["status"], match["done"], match["games"], match["bots"]) == (
        "running",
        0,
        4,
        [],
    )
    drain()
    report = client.get(match["url"]).json
    assert (report["status"], report["done"], report["failed"]) == ("finished", 4, 0)
    assert report["finished_at"] >= report["created_at"]
    response = client.get(match["records_url"])
    assert response.mimetype == "application/x-ndjson"
    records = [orjson.loads(line) for line in response.get_data().splitlines()]
    assert [r["game"] for r in records] == [0, 1, 2, 3]
    # The same records as one JSON array, for clients that read JSON only.
    as_json = client.get(match["records_url"] + "?format=json")
    assert (as_json.mimetype, as_json.json) == ("application/json", records)
    # Played exactly as the arena plays them, and summed up by the arena's statistics.
    assert [without_timings(r) for r in records] == [
        without_timings(r) for r in arena_records(report)
    ]
    stats = {s.bot: s.to_dict() for s in summarize(records)}
    assert {b["bot"]: without_lead(b) for b in report["bots"]} == stats
    assert set(stats) == {"easy", "heuristic"}
    easy = stats["easy"]
    # Two easy seats in each game; a tie for first adds tiebreak hands to a game.
    assert easy["hands"] == 2 * sum(len(r["hands"]) for r in records) >= 4 * 2 * 2
    assert easy["games"] == 4
    assert 0 <= easy["win_rate"] <= 1 and 0 <= easy["exact_rate"] <= 1
    assert easy["ci95"] is not None


def test_games_played_in_slices_are_the_same_games(
    client: FlaskClient, connection: redis.Redis, drain: Drain, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each slice stops after one decision: every game is saved and resumed many times.
    monkeypatch.setenv("POCHA_MATCH_SLICE", "0.000001")
    match = start_match(client, games=2, duplicate=False, seats=["heuristic", "easy", "random"])
    drain()
    report = client.get(match["url"]).json
    assert report["done"] == 2
    lines = client.get(match["records_url"]).get_data().splitlines()
    records = [orjson.loads(line) for line in lines]
    assert [without_timings(r) for r in records] == [
        without_timings(r) for r in arena_records(report)
    ]
    decisions = sum(records[0]["decisions"])
    last = Job.fetch(
        f"pocha-match-{match['id']}-0-{decisions}", connection=connection, serializer=SERIALIZER
    )
    assert last.return_value()["finished"]
    assert not connection.exists(task_key(game_task_key(match["id"], 0)))


def test_duplicate_deals_rotate_the_seats(client: FlaskClient, drain: Drain) -> None:
    match = start_match(client, games=8, duplicate=True, seats=["easy", "heuristic"] * 2)
    drain()
    lines = client.get(match["records_url"]).get_data().splitlines()
    records = [orjson.loads(line) for line in lines]
    by_deal: dict[int, list[list[str]]] = {}
    for r in records:
        by_deal.setdefault(r["deal"], []).append(r["seats"])
    # easy,heuristic,easy,heuristic has two distinct rotations: 8 games are 4 deals.
    assert len(by_deal) == 4
    for deal, seatings in by_deal.items():
        assert len(seatings) == 2
        assert {tuple(s) for s in seatings} == {
            ("easy", "heuristic", "easy", "heuristic"),
            ("heuristic", "easy", "heuristic", "easy"),
        }
        assert len({r["seed"] for r in records if r["deal"] == deal}) == 1  # the same cards


def test_a_duplicate_match_reports_the_arena_s_leads(
    client: FlaskClient, connection: redis.Redis, drain: Drain
) -> None:
    # easy,heuristic twice round the table: two rotations, so 6 games are 3 deals.
    match = start_match(client, games=6, duplicate=True)
    assert match["difference"] is None
    # One game played: its deal's other rotation is still to come, so its luck has not
    # cancelled out and no lead is told yet, though the bots' figures are.
    worker = make_worker(connection, simple=True, timing=Timing())
    for _ in range(100):
        report = client.get(match["url"]).json
        if report["done"]:
            break
        worker.work(burst=True, max_jobs=1, logging_level="WARNING")
    assert report["done"] == 1 and report["bots"]
    assert [b["lead"] for b in report["bots"]] == [None, None]
    assert report["difference"] is None
    drain()
    report = client.get(match["url"]).json
    assert (report["status"], report["done"], report["failed"]) == ("finished", 6, 0)
    records = [
        orjson.loads(line) for line in client.get(match["records_url"]).get_data().splitlines()
    ]
    # Each bot's lead over the rest of the table, and the better bot's lead over the other
    # paired by deal, are the arena's (`pocha arena`'s) over the same records.
    stats = summarize(records)
    assert [b["bot"] for b in report["bots"]] == [s.bot for s in stats]
    assert [b["lead"] for b in report["bots"]] == [
        st.lead.to_dict() for st in standings(records, stats)
    ]
    difference = paired_difference(records, stats[0].bot, stats[1].bot)
    assert report["difference"] == difference.to_dict()
    assert (difference.deals, difference.ci95 is not None) == (3, True)
    assert report["difference"]["significant"] == (abs(difference.per_hand) > difference.ci95)
    # With two bots the rest of each one's table is the other: the same difference.
    assert report["bots"][0]["lead"]["per_hand"] == report["difference"]["per_hand"]
    # Read again, from the figures kept beside the match: the same.
    assert client.get(match["url"]).json == report


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"games": 1001}, "games", "less than or equal to 1000"),
        ({"games": 5, "duplicate": True}, "games", "multiple of 2"),
        (
            {"games": 6, "duplicate": True, "seats": ["easy", "heuristic", "random", "hard"]},
            "games",
            "multiple of 4",
        ),
        ({"seats": ["hard", "grandmaster", "hard"]}, "seats", "unknown bot"),
        ({"seats": ["ismcts:1000000", "hard", "hard"]}, "seats", "from 1 to 100000 iterations"),
        ({"seats": ["ismcts:9000ms", "hard", "hard"]}, "seats", "from 1 to 5000 ms"),
        ({"seats": ["hard"] * 3, "rules": {"players": 4}}, "rules", "3 seats are listed"),
        ({"seats": ["ismcts-expert"] * 4, "games": 1000, "rules": {}}, "games", "CPU hours"),
        ({"seats": ["hard"] * 2}, "seats", "Length must be between 3 and 8"),
        ({"rules": {"schedule": [11]}}, "rules", "from 1 to 10"),
    ],
)
def test_matches_that_are_refused(
    client: FlaskClient, connection: redis.Redis, body: dict[str, Any], field: str, words: str
) -> None:
    response = client.post(
        "/api/v1/matches", json={"seats": SEATS, "games": 4, "rules": RULES, **body}
    )
    assert response.status_code == 422, response.json
    assert response.json["error"] == "validation_error"
    assert field in response.json["errors"]["json"]
    assert words in str(response.json["errors"]["json"][field]) + response.json["message"]
    assert queue(connection, LOW).count == 0


def test_unknown_matches(client: FlaskClient) -> None:
    for url in ("/api/v1/matches/nothing", "/api/v1/matches/nothing/records"):
        response = client.get(url)
        assert (response.status_code, response.json["error"]) == (404, "match_not_found")


def test_a_queued_match_does_not_delay_a_bot_turn(
    client: FlaskClient, connection: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POCHA_MATCH_SLICE", "0.000001")
    match = start_match(client, games=6)
    worker = make_worker(connection, simple=True, timing=Timing())
    worker.work(burst=True, max_jobs=1, logging_level="WARNING")  # a match slice runs
    # A game of bots is created while the match's continuation and five more games wait.
    players = [{"name": f"B{i}", "bot": "heuristic"} for i in range(4)]
    game = create_game(client, players, {"schedule": [2]}, seed=8)
    assert queue(connection, LOW).count == 6 and queue(connection, TURNS).count == 1
    worker.work(burst=True, logging_level="WARNING")
    turns = jobs_named(connection, f"pocha-turn-{game['id']}-*")
    # Every move after the game's first version was a bot's, played by these jobs.
    final = store_for(connection).load(game["id"])
    assert final.finished
    assert sum(t.return_value()["turns"] for t in turns) == final.version - 1
    slices = jobs_named(connection, f"pocha-match-{match['id']}-*")
    first_slice = min(slices, key=lambda j: j.started_at)
    later_slices = [j for j in slices if j.id != first_slice.id]
    # Every bot turn of the game was played before the match went on.
    last_turn_end = max(t.ended_at for t in turns)
    assert all(s.started_at >= last_turn_end for s in later_slices)
    assert client.get(match["url"]).json["done"] == 6


def test_a_cancelled_match_plays_no_more(
    client: FlaskClient, connection: redis.Redis, drain: Drain, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POCHA_MATCH_SLICE", "0.000001")
    match = start_match(client, games=5)
    worker = make_worker(connection, simple=True, timing=Timing())
    worker.work(burst=True, max_jobs=3, logging_level="WARNING")  # games under way
    assert client.delete(match["url"]).status_code == 204
    assert client.get(match["url"]).status_code == 404
    assert client.delete(match["url"]).status_code == 404
    drain()  # the queued games find the match gone
    assert connection.keys(f"pocha:match:{match['id']}*") == []
    assert connection.keys("pocha:task:*") == []
    assert connection.zcard("pocha:tasks") == 0
