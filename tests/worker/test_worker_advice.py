"""AI on demand: a hint for a seat on its turn, a move for a position a client sends, the
job reports (status, result, timings, long poll), and what is refused."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Any

import redis
from flask.testing import FlaskClient
from rq.job import Job
from rq.utils import utcformat

import engine.poch.observation
import engine.poch.position
from core.jobs.queues import HIGH, ON_DEMAND_LANES, SERIALIZER, queue
from core.jobs.status import work_status
from core.play.turns import store_for
from engine.pocha.observation import observe
from engine.pocha.position import position_of
from tests.service.helpers import AI_POSITION as POSITION
from tests.service.helpers import bearer, create_game, move
from tests.worker.conftest import Drain

BOTS = [{"name": f"Bot{i}", "bot": "heuristic"} for i in range(1, 4)]


def ana_to_play(client: FlaskClient, drain: Drain) -> tuple[str, str, dict[str, Any]]:
    """A game where Ana (seat 0) is to act, bots before her played; (id, token, view)."""
    created = create_game(client, [{"name": "Ana"}, *BOTS], {"schedule": [3]}, seed=6)
    drain()
    token = created["seats"][0]["token"]
    view = client.get(f"/api/v1/games/{created['id']}", headers=bearer(token)).json
    assert view["turn"] == 0
    return created["id"], token, view


def test_a_hint_on_your_turn(client: FlaskClient, connection: redis.Redis, drain: Drain) -> None:
    game_id, token, view = ana_to_play(client, drain)
    response = client.post(
        f"/api/v1/games/{game_id}/hint", json={"level": "easy"}, headers=bearer(token)
    )
    assert response.status_code == 202, response.json
    job = response.json
    assert job["status"] == "queued" and job["kind"] == "hint" and job["result"] is None
    assert response.headers["Location"] == job["url"] == f"/api/v1/jobs/{job['id']}"
    assert len(job["id"]) >= 20  # random, not derived from the game
    drain()
    done = client.get(job["url"]).json
    assert done["status"] == "finished", done
    result = done["result"]
    assert result["action"] in view["you"]["legal"]
    assert sorted(a["action"] for a in result["analysis"]) == sorted(view["you"]["legal"])
    assert abs(sum(a["share"] for a in result["analysis"]) - 1) < 0.01
    assert (result["seat"], result["game"], result["version"]) == (0, game_id, view["version"])
    assert result["level"] == "easy" and result["iterations"] > 0
    timings = done["timings"]
    assert timings["enqueued_at"] <= timings["started_at"] <= timings["ended_at"]
    assert timings["run_ms"] >= 0
    # The hint changed nothing: it is still Ana's turn at the same version.
    assert client.get(f"/api/v1/games/{game_id}").json["version"] == view["version"]


def test_a_hint_for_a_position_that_moved_on_fails_with_a_reason(
    client: FlaskClient, drain: Drain
) -> None:
    game_id, token, view = ana_to_play(client, drain)
    job = client.post(f"/api/v1/games/{game_id}/hint", headers=bearer(token)).json
    assert move(client, game_id, token, view["you"]["legal"][0]).status_code == 200
    drain()
    failed = client.get(job["url"]).json
    assert failed["status"] == "failed"
    assert "moved on" in failed["error"]


def test_hints_are_for_the_seat_on_its_turn(client: FlaskClient, drain: Drain) -> None:
    created = create_game(client, [{"name": "Ana"}, {"name": "Bea"}, *BOTS[:2]], seed=6)
    drain()
    url = f"/api/v1/games/{created['id']}/hint"
    view = client.get(f"/api/v1/games/{created['id']}").json
    waiting = 1 - view["turn"] if view["turn"] in (0, 1) else 0
    not_yours = client.post(url, headers=bearer(created["seats"][waiting]["token"]))
    assert (not_yours.status_code, not_yours.json["error"]) == (409, "not_your_turn")
    assert client.post(url).status_code == 401
    assert client.post(url, headers=bearer(created["host_token"])).status_code == 403
    assert client.post(url, headers=bearer("nope")).status_code == 401
    assert client.post("/api/v1/games/nogame/hint", headers=bearer("x")).status_code == 404
    token = created["seats"][0]["token"]
    for body in ({"level": "grandmaster"}, {"level": "hard", "iterations": 5}, {"iterations": 0},
                 {"milliseconds": 10**6}, {"colour": 1}):  # fmt: skip
        response = client.post(url, json=body, headers=bearer(token))
        assert (response.status_code, response.json["error"]) == (422, "validation_error")


def test_a_move_for_a_position_and_an_impossible_position(
    client: FlaskClient, drain: Drain
) -> None:
    response = client.post("/api/v1/ai/move", json={**POSITION, "iterations": 200})
    assert response.status_code == 202, response.json
    job = response.json
    assert job["kind"] == "ai_move"
    drain()
    result = client.get(job["url"]).json["result"]
    assert result["action"] in ("O1", "O4", "C3")
    assert result["level"] == "ismcts" and result["budget"]["iterations"] == 200
    assert result["iterations"] == 200

    impossible = client.post(
        "/api/v1/ai/move",
        json={**POSITION, "plays": [{"seat": 0, "card": "O4"}, {"seat": 1, "card": "O4"}]},
    )
    assert impossible.status_code == 422
    assert impossible.json["error"] == "invalid_position"
    assert impossible.json["message"] == "O4 is in the hand and also played by seat 0"
    malformed = client.post("/api/v1/ai/move", json={**POSITION, "seat": "zero"})
    assert (malformed.status_code, malformed.json["error"]) == (422, "validation_error")
    assert queue_is_empty(client)


def queue_is_empty(client: FlaskClient) -> bool:
    connection = client.application.extensions["pocha"].redises.queues
    return work_status(connection).queued[HIGH] == 0


def test_a_position_from_a_real_game_gets_the_same_move_as_a_hint(
    client: FlaskClient, connection: redis.Redis, drain: Drain
) -> None:
    game_id, token, view = ana_to_play(client, drain)
    record = store_for(connection).load(game_id)
    position = position_of(observe(record.game, 0))
    hint = client.post(
        f"/api/v1/games/{game_id}/hint", json={"iterations": 300}, headers=bearer(token)
    ).json
    ai_move = client.post("/api/v1/ai/move", json={**position, "iterations": 300}).json
    drain()
    hinted = client.get(hint["url"]).json["result"]
    moved = client.get(ai_move["url"]).json["result"]
    legal = view["you"]["legal"]
    assert hinted["action"] in legal and moved["action"] in legal
    assert {a["action"] for a in hinted["analysis"]} == {a["action"] for a in moved["analysis"]}


#: The longest wait a poll of a job may ask for (`?wait=`).
LONGEST_POLL = 60.0


def test_job_reports_long_poll_and_unknown_jobs(
    client: FlaskClient, connection: redis.Redis, drain: Drain
) -> None:
    # A poll that waits wrongly waits the longest there is (60 s, the most a poll may ask
    # for): half of it leaves a loaded machine room, and still tells the two apart.
    client.application.config["JOB_WAIT_MAX"] = LONGEST_POLL
    job = client.post("/api/v1/ai/move", json=POSITION).json
    start = time.monotonic()
    waited = client.get(f"{job['url']}?wait=0.4").json
    assert waited["status"] == "queued"  # no worker is running
    assert 0.35 <= time.monotonic() - start < LONGEST_POLL / 2  # the wait asked for
    drain()
    start = time.monotonic()
    finished = client.get(f"{job['url']}?wait={LONGEST_POLL:g}").json
    assert finished["status"] == "finished"
    assert time.monotonic() - start < LONGEST_POLL / 2  # at once, not when the wait ends
    assert client.get(f"{job['url']}?wait=-1").status_code == 422
    missing = client.get("/api/v1/jobs/no-such-job")
    assert (missing.status_code, missing.json["error"]) == (404, "job_not_found")
    assert client.get("/api/v1/jobs/bad%20id").status_code == 404
    # Bot turns are not readable as jobs, even by their (guessable) ids.
    players = [{"name": f"B{i}", "bot": "heuristic"} for i in range(4)]
    created = create_game(client, players, {"schedule": [1]}, seed=1)
    drain()
    assert client.get(f"/api/v1/jobs/pocha-turn-{created['id']}-1").status_code == 404


def test_a_job_whose_worker_died_is_reported_failed(
    client: FlaskClient, connection: redis.Redis
) -> None:
    job = client.post("/api/v1/ai/move", json=POSITION).json
    queued = Job.fetch(job["id"], connection=connection, serializer=SERIALIZER)
    queue(connection, queued.origin).remove(job["id"])
    long_ago = utcformat(datetime.now(UTC) - timedelta(seconds=120))
    connection.hset(
        Job.key_for(job["id"]),
        mapping={"status": "started", "started_at": long_ago, "last_heartbeat": long_ago},
    )
    report = client.get(job["url"]).json
    assert report["status"] == "failed"
    assert "stopped" in report["error"]
    assert Job.fetch(job["id"], connection=connection, serializer=SERIALIZER)


# -- Poch ---------------------------------------------------------------------------------------

#: The envelope of a seat's view: what a Poch position leaves out.
ENVELOPE = ("id", "version", "last_event", "seeded", "players", "table", "deadline", "seconds_left")


def poch_position_of_ana(client: FlaskClient, drain: Drain) -> tuple[dict[str, Any], str, str]:
    """A Poch game where Ana (seat 0) is to decide; (her position as her view gives it, the
    game's id, her token)."""
    bots = [{"name": "H", "bot": "heuristic"}, {"name": "R", "bot": "random"}]
    created = client.post(
        "/api/v1/games",
        json={"game": "poch", "players": [{"name": "Ana"}, *bots], "rules": {"deals": 3}},
    ).json
    token = created["seats"][0]["token"]
    for _ in range(50):
        drain()
        view = client.get(f"/api/v1/games/{created['id']}", headers=bearer(token)).json
        if view["turn"] == 0:
            break
        assert view["phase"] != "over"
    position = {k: v for k, v in view.items() if k not in ENVELOPE}
    return position, created["id"], token


def test_a_poch_move_for_a_position_from_a_real_game(
    client: FlaskClient, connection: redis.Redis, drain: Drain
) -> None:
    position, game_id, _token = poch_position_of_ana(client, drain)
    legal = position["you"]["legal"]
    # What the view gave is the engine's position of the seat's observation.
    record = store_for(connection).load(game_id)
    seen = engine.poch.observation.observe(record.game, 0)
    assert position == engine.poch.position.position_of(seen)
    response = client.post("/api/v1/ai/move", json={**position, "level": "easy"})
    assert response.status_code == 202, response.json
    job = response.json
    assert job["kind"] == "ai_move"
    drain()
    done = client.get(job["url"]).json
    assert done["status"] == "finished", done
    result = done["result"]
    assert result["action"] in legal
    assert {a["action"] for a in result["analysis"]} <= set(legal)
    assert all("mean_chips" in a for a in result["analysis"])
    assert result["level"] == "easy" and result["seat"] == 0
    assert result["budget"]["iterations"] == 25 == result["iterations"]  # Poch's easy
    # Without the legal actions (computed from the position), with a custom budget.
    you = {"seat": 0, "hand": position["you"]["hand"]}
    custom = client.post("/api/v1/ai/move", json={**position, "you": you, "iterations": 40}).json
    for level in ("random", "heuristic"):
        answer = client.post("/api/v1/ai/move", json={**position, "level": level}).json
        drain()
        assert client.get(answer["url"]).json["result"]["action"] in legal
    drain()
    moved = client.get(custom["url"]).json["result"]
    assert moved["action"] in legal and moved["iterations"] == 40 and moved["level"] == "ismcts"
    # The game itself is untouched.
    assert store_for(connection).load(game_id).version == record.version


def test_an_impossible_poch_position_is_refused_and_nothing_queued(
    client: FlaskClient, drain: Drain
) -> None:
    position, _game_id, _token = poch_position_of_ana(client, drain)
    assert queue_is_empty(client)
    chips = list(position["chips"])
    chips[1] += 5
    hand = position["you"]["hand"]
    for body, message in (
        ({**position, "chips": chips}, "the chips do not add up"),
        ({**position, "turn": 1}, "it is seat 1's turn, not seat 0's"),
        (
            {**position, "you": {"seat": 0, "hand": [*hand[1:], hand[1]]}},
            f"the hand holds {hand[1]} twice",
        ),
        ({**position, "phase": "over"}, "the game is over"),
    ):
        refused = client.post("/api/v1/ai/move", json=body)
        assert refused.status_code == 422, refused.json
        assert refused.json["error"] == "invalid_position"
        assert refused.json["message"].startswith(message), refused.json
    assert queue_is_empty(client)
    # In Spanish too.
    spanish = client.post(
        "/api/v1/ai/move", json={**position, "turn": 1}, headers={"Accept-Language": "es"}
    )
    assert spanish.status_code == 422 and "turno" in spanish.json["message"], spanish.json


def test_a_poch_position_with_a_pocha_only_level_or_a_bad_shape_is_refused(
    client: FlaskClient, drain: Drain
) -> None:
    position, _game_id, _token = poch_position_of_ana(client, drain)
    for body in (
        {**position, "level": "expert"},
        {**position, "level": "ismcts-expert"},
        {**position, "level": "easy", "iterations": 5},
        {**position, "chips": "many"},
        {**position, "colour": 1},
        {k: v for k, v in position.items() if k != "you"},
        {**position, "game": "skat"},
    ):
        refused = client.post("/api/v1/ai/move", json=body)
        assert (refused.status_code, refused.json["error"]) == (422, "validation_error"), body
    expert = client.post("/api/v1/ai/move", json={**position, "level": "expert"}).json
    assert expert["errors"]["json"]["level"] == [
        "Unknown level 'expert'; the levels are random, heuristic, easy, medium, hard."
    ]
    # A Pocha position keeps Pocha's levels, and takes "game": "pocha": its job is the same
    # as without (the position and thinking a Pocha move always had).
    pocha = client.post("/api/v1/ai/move", json={**POSITION, "game": "pocha", "level": "expert"})
    assert pocha.status_code == 202, pocha.json
    plain = client.post("/api/v1/ai/move", json={**POSITION, "level": "expert"}).json
    connection = client.application.extensions["pocha"].redises.queues
    jobs = [
        Job.fetch(j["id"], connection=connection, serializer=SERIALIZER)
        for j in (pocha.json, plain)
    ]
    assert list(jobs[0].args) == list(jobs[1].args) == [POSITION]
    assert (
        jobs[0].kwargs
        == jobs[1].kwargs
        == {
            "level": "expert",
            "iterations": None,
            "milliseconds": None,
        }
    )
    assert client.post("/api/v1/ai/move", json={**POSITION, "game": "poch"}).status_code == 422
    for lane in ON_DEMAND_LANES:
        queue(connection, lane).empty()
