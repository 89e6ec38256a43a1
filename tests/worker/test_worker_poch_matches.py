"""Bot-vs-bot matches of Poch (`"game": "poch"`): the same machinery as Pocha's matches,
with Poch's bots, rules and arena (each game one deal, each deal once per distinct
rotation, its decision seeds), chips conserved, the arena's chips-per-deal summary, games
resumed from checkpoints as if played straight through, and Poch's refusals."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

import orjson
import pytest
import redis
from flask.testing import FlaskClient
from rq.job import Job

from ai.arena import tasks_for
from ai.poch.arena import paired_difference, parse_player, play_deal, standings, summarize
from ai.registry import BOT_KINDS
from core.jobs.matches import (
    MatchGame,
    MatchSpec,
    check_match,
    estimated_cpu_seconds,
    game_task_key,
)
from core.jobs.queues import LOW, SERIALIZER, queue
from core.store.keys import checkpoint_key, task_key
from engine.poch.rules import Rules
from tests.waiting import LONG
from tests.worker.conftest import Drain, WorkerProcesses, wait_until

SEATS = ["heuristic", "random", "heuristic", "random"]
RULES = {"chips": 20}


def start_match(client: FlaskClient, **body: Any) -> dict[str, Any]:
    body = {"game": "poch", "seats": SEATS, "games": 4, "rules": RULES, "seed": 5, **body}
    response = client.post("/api/v1/matches", json=body)
    assert response.status_code == 202, response.json
    assert response.headers["Location"] == response.json["url"]
    match: dict[str, Any] = response.json
    return match


def records_of(client: FlaskClient, match: dict[str, Any]) -> list[dict[str, Any]]:
    response = client.get(match["records_url"])
    assert response.mimetype == "application/x-ndjson"
    records = [orjson.loads(line) for line in response.get_data().splitlines()]
    as_json = client.get(match["records_url"] + "?format=json")
    assert (as_json.mimetype, as_json.json) == ("application/json", records)
    return records


def arena_records(match: dict[str, Any]) -> list[dict[str, Any]]:
    """The same games played by the Poch arena itself, in one process."""
    rules = Rules.from_dict(match["rules"])
    lineup = [parse_player(s) for s in match["seats"]]
    seatings = len({tuple(lineup[r:] + lineup[:r]) for r in range(len(lineup))})
    deals = match["games"] // seatings if match["duplicate"] else match["games"]
    tasks = tasks_for(rules, lineup, deals, match["seed"], match["duplicate"])
    assert len(tasks) == match["games"]
    return [play_deal(t.rules, t.seed, t.players, t.deal) for t in tasks]


def without_timings(record: dict[str, Any]) -> dict[str, Any]:
    # `game` is the game's number in a match's record, `"poch"` in the arena's.
    return {k: v for k, v in record.items() if k not in ("think_ms", "game")}


def without_lead(bot: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in bot.items() if k != "lead"}


def straight_through(match: dict[str, Any], index: int) -> MatchGame:
    """Game `index` of the match played in one go, as a worker's slice without an end."""
    spec = MatchSpec.from_dict(match)
    task = spec.kind.tasks_for(spec.rules, spec.lineup, spec.deals, spec.seed, spec.duplicate)[
        index
    ]
    game = MatchGame(spec.kind, task.rules, task.seed, task.players, task.deal)
    assert game.play()
    return game


def test_a_small_poch_match_with_its_chips_per_deal(client: FlaskClient, drain: Drain) -> None:
    match = start_match(client, duplicate=True)
    assert (match["game"], match["status"], match["done"], match["games"], match["bots"]) == (
        "poch",
        "running",
        0,
        4,
        [],
    )
    # The match's rules are Poch's, each game one deal (as `pocha arena-poch` plays them).
    assert match["rules"] == {**Rules(players=4, chips=20, deals=1).to_dict()}
    drain()
    report = client.get(match["url"]).json
    assert (report["status"], report["done"], report["failed"]) == ("finished", 4, 0)
    records = records_of(client, match)
    assert [r["game"] for r in records] == [0, 1, 2, 3]
    # Played exactly as the Poch arena plays them: `heuristic,random` twice round the table
    # has two distinct rotations, so 4 games are 2 deals, each seen from both seatings.
    assert [without_timings(r) for r in records] == [
        without_timings(r) for r in arena_records(report)
    ]
    assert [r["deal"] for r in records] == [0, 0, 1, 1]
    assert records[0]["seed"] == records[1]["seed"] != records[2]["seed"]
    assert records[0]["seats"] == SEATS and records[1]["seats"] == SEATS[1:] + SEATS[:1]
    for record, index in zip(records, range(4), strict=True):
        # Chips are conserved: what the seats won and lost, and what stayed on the plates
        # and in the pot, sum to nothing.
        game = straight_through(report, index).game
        left = sum(game.plates.values()) + game.pot
        assert sum(record["chips"]) + left == 0
        assert game.total_chips() == 4 * 20
        assert [c - 20 for c in game.chips] == record["chips"]
        assert record["winner"] in range(4) and sum(record["decisions"]) <= 4 + 3
    # The summary is the arena's over these records, and its figures are the records'.
    stats = summarize(records)
    assert [without_lead(b) for b in report["bots"]] == [s.to_dict() for s in stats]
    # Each bot's lead over the rest of the table, and the two bots' paired difference, are
    # the Poch arena's over the same records (both deals whole).
    assert [b["lead"] for b in report["bots"]] == [
        st.lead.to_dict() for st in standings(records, stats)
    ]
    difference = paired_difference(records, "heuristic", "random").to_dict()
    assert report["difference"] == difference
    assert (difference["deals"], difference["ci95"] is not None) == (2, True)
    per_deal: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    out_first: dict[str, int] = defaultdict(int)
    for r in records:
        for seat, bot in enumerate(r["seats"]):
            per_deal[bot][r["deal"]].append(r["chips"][seat])
            out_first[bot] += r["winner"] == seat
    assert [b["bot"] for b in report["bots"]] == ["heuristic", "random"]  # best first
    for bot in report["bots"]:
        deals = per_deal[bot["bot"]]
        means = [sum(v) / len(v) for v in deals.values()]
        assert (bot["deals"], bot["seats_played"]) == (2, 8)  # two seats, two rotations
        assert bot["chips_per_deal"] == round(sum(means) / 2, 4)
        assert bot["out_first"] == round(out_first[bot["bot"]] / 8, 4)
        assert bot["ci95"] is not None and bot["ci95"] >= 0
        assert bot["ms_per_decision"] > 0


def test_poch_games_played_in_slices_are_the_games_played_straight_through(
    client: FlaskClient, connection: redis.Redis, drain: Drain, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each slice stops after one decision: every game is saved and resumed at each step.
    monkeypatch.setenv("POCHA_MATCH_SLICE", "0.000001")
    match = start_match(client, games=3, duplicate=False, seats=["heuristic", "easy", "random"])
    drain()
    report = client.get(match["url"]).json
    assert (report["status"], report["done"]) == ("finished", 3)
    records = records_of(client, match)
    assert [without_timings(r) for r in records] == [
        without_timings(r) for r in arena_records(report)
    ]
    for index, record in enumerate(records):
        whole = straight_through(report, index)
        assert without_timings(record) == without_timings(whole.record())
        # One job per decision: the last one finished the game, and no checkpoint is left.
        decisions = sum(record["decisions"])
        assert decisions >= 3
        last = Job.fetch(
            f"pocha-match-{match['id']}-{index}-{decisions}",
            connection=connection,
            serializer=SERIALIZER,
        )
        assert last.return_value()["finished"]
        assert not connection.exists(task_key(game_task_key(match["id"], index)))
        assert not connection.exists(checkpoint_key(match["id"], index))


def test_a_checkpointed_poch_game_resumes_to_the_same_game() -> None:
    spec = check_match(["easy", "heuristic", "random", "heuristic"], 2, {}, 11, False, game="poch")
    kind = spec.kind
    task = kind.tasks_for(spec.rules, spec.lineup, spec.deals, spec.seed, spec.duplicate)[1]
    whole = MatchGame(kind, task.rules, task.seed, task.players, task.deal)
    assert whole.play()
    # The same game stopped after every decision, saved as JSON and resumed from it.
    game = MatchGame(kind, task.rules, task.seed, task.players, task.deal)
    saves = 0
    while not game.play(until=0.0):
        saved = game.checkpoint()
        assert json.loads(saved)["game"]["game"] == "poch"  # the Poch game's own to_dict
        game = MatchGame.resume(kind, task.rules, task.seed, task.players, task.deal, saved)
        saves += 1
    assert saves == whole.step - 1 >= 3
    assert game.step == whole.step and game.decisions == whole.decisions
    assert game.game.to_dict() == whole.game.to_dict()
    assert without_timings(game.record()) == without_timings(whole.record())


def test_a_poch_match_on_real_worker_processes(
    client: FlaskClient, workers: WorkerProcesses
) -> None:
    match = start_match(client, games=6, duplicate=False, seats=["medium", "heuristic", "random"])
    for _ in range(2):
        workers.start("--queues", LOW)
    finished = lambda: client.get(match["url"]).json["status"] == "finished"  # noqa: E731
    wait_until(finished, LONG, "the match's end")
    report = client.get(match["url"]).json
    assert (report["done"], report["failed"]) == (6, 0)
    records = records_of(client, match)
    assert [without_timings(r) for r in records] == [
        without_timings(r) for r in arena_records(report)
    ]
    assert {b["bot"] for b in report["bots"]} == {"medium", "heuristic", "random"}
    assert all(b["deals"] == 6 and b["seats_played"] == 6 for b in report["bots"])
    # Without duplicate deals each game is a whole deal: every bot's lead is the arena's;
    # three bots have no two-bot difference.
    leads = {st.bot: st.lead.to_dict() for st in standings(records, summarize(records))}
    assert {b["bot"]: b["lead"] for b in report["bots"]} == leads
    assert all(lead["deals"] == 6 for lead in leads.values())
    assert report["difference"] is None


def test_a_pocha_match_names_its_game(client: FlaskClient) -> None:
    body = {"seats": ["easy", "heuristic", "easy"], "games": 1, "rules": {"schedule": [1]}}
    report = client.post("/api/v1/matches", json=body).json
    assert (report["game"], report["rules"]["schedule"]) == ("pocha", [1])
    # A match stored before Poch (its spec has no game) is Pocha's.
    before_poch = {k: report[k] for k in ("seats", "games", "rules", "seed", "duplicate")}
    stored = MatchSpec.from_dict(before_poch)
    assert stored.game == "pocha" and stored.kind is BOT_KINDS["pocha"]


def test_the_cpu_estimate_is_poch_s() -> None:
    spec = check_match(["hard"] * 4, 100, {}, 1, False, game="poch")
    # 100 one-deal games of at most 4 + 3 decisions, 400 iterations at 4,000 a second.
    assert estimated_cpu_seconds(spec) == pytest.approx(100 * 7 * 0.1)
    cheap = check_match(["heuristic", "random", "random"], 10, {}, 1, False, game="poch")
    assert estimated_cpu_seconds(cheap) == pytest.approx(10 * 6 * (0.005 + 0.001 + 0.001) / 3)


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"seats": ["expert", "heuristic", "random"]}, "seats", "unknown Poch bot or level"),
        ({"seats": ["hard", "ismcts-expert", "hard"]}, "seats", "'ismcts-expert'"),
        ({"seats": ["ismcts:1000000", "hard", "hard"]}, "seats", "from 1 to 100000 iterations"),
        ({"seats": ["ismcts:9000ms", "hard", "hard"]}, "seats", "from 1 to 5000 ms"),
        ({"seats": ["ismcts:lots", "hard", "hard"]}, "seats", "bad budget"),
        ({"rules": {"deals": 3}}, "rules", "one deal"),
        ({"rules": {"schedule": [2]}}, "rules", "Unknown field"),
        ({"rules": {"chips": 5}}, "rules", "chips must be at least 8 x ante"),
        ({"rules": {"players": 5}}, "rules", "4 seats are listed"),
        ({"games": 3, "duplicate": True}, "games", "distinct rotation"),
        ({"seats": ["hard", "heuristic", "random"], "duplicate": True}, "games", "multiple of 3"),
        ({"seats": ["ismcts:100000"] * 4, "games": 1000}, "games", "CPU hours"),
        ({"game": "chess"}, "game", "Must be one of"),
    ],
)
def test_poch_matches_that_are_refused(
    client: FlaskClient, connection: redis.Redis, body: dict[str, Any], field: str, words: str
) -> None:
    response = client.post(
        "/api/v1/matches",
        json={"game": "poch", "seats": SEATS, "games": 4, "rules": RULES, **body},
    )
    assert response.status_code == 422, response.json
    assert response.json["error"] == "validation_error"
    assert field in response.json["errors"]["json"]
    assert words in str(response.json["errors"]["json"][field]) + response.json["message"]
    assert queue(connection, LOW).count == 0


def test_poch_refusals_in_spanish(client: FlaskClient) -> None:
    body = {"game": "poch", "seats": ["expert", "heuristic", "random"], "games": 3}
    response = client.post("/api/v1/matches", json=body, headers={"Accept-Language": "es"})
    assert response.status_code == 422
    assert "'expert'" in response.json["message"]
    assert "unknown" not in response.json["message"]
    body = {"game": "poch", "seats": SEATS, "games": 4, "rules": {"deals": 2}}
    response = client.post("/api/v1/matches", json=body, headers={"Accept-Language": "es"})
    assert response.status_code == 422
    assert "deals" in response.json["message"] and "each game" not in response.json["message"]
