"""A game record sent to be analysed (`POST /api/v1/analyses`): read back and checked at once,
weighed by a worker exactly as `ai.analysis` weighs it, followed at its own address; and
what is refused (a record no game could give, of no game here, a level too slow for its
length, one over the think budget, a body too large), each a 4xx saying why; and the job
keeps of a record only what the analysis reads, however much else it carries."""

from __future__ import annotations

import base64
import json
import random
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from ai.analysis import analyse, by_seat
from core.jobs.analyses import read_back, seconds_of
from service import create_app
from tests.ai.test_analysis import recorded
from tests.worker.conftest import Drain


def test_a_record_weighed_by_a_worker(client: FlaskClient, drain: Drain) -> None:
    record = recorded("pocha", "random", 2)
    response = client.post("/api/v1/analyses", json={"record": record, "level": "medium",
                                                     "seed": 9})  # fmt: skip
    assert response.status_code == 202, response.json
    job = response.json
    assert job["status"] == "queued" and job["kind"] == "analysis" and job["result"] is None
    assert response.headers["Location"] == job["url"] == f"/api/v1/analyses/{job['id']}"
    # An analysis is no advice job: /jobs does not show it.
    assert client.get(f"/api/v1/jobs/{job['id']}").status_code == 404
    drain()
    done = client.get(job["url"]).json
    assert done["status"] == "finished", done
    weighed = analyse(record, "medium", 9)
    assert done["result"] == {
        "level": "medium", "seed": 9, "decisions": [w.to_dict() for w in weighed],
        "seats": by_seat(weighed, 4),
    }  # fmt: skip


def test_a_long_games_record_over_the_usual_body_limit_is_taken(
    client: FlaskClient, drain: Drain
) -> None:
    record = recorded("pocha", "heuristic", 5, rules={"players": 6, "schedule": [6] * 20})
    body = json.dumps({"record": record, "level": "heuristic"})
    assert len(body) > 16 * 1024  # POCHA_MAX_BODY's default
    response = client.post("/api/v1/analyses", data=body, content_type="application/json")
    assert response.status_code == 202, response.json
    drain()
    done = client.get(response.json["url"]).json
    assert done["status"] == "finished"
    assert all(w["agrees"] for w in done["result"]["decisions"])


def padded(record: dict[str, Any], junk: str) -> dict[str, Any]:
    """`record` with `junk` wherever its game's replay lets a field through unread: the
    envelope, a seat, the bots' advice, and Pocha's bids, tricks and cards; with a decision
    marked as the stand-in's, which the analysis does not read either."""
    sent = json.loads(json.dumps(record))
    sent["pad"] = junk
    sent["players"][0]["note"] = junk
    sent["advice"] = [
        {"number": 1, "seat": 0, "level": "hard", "action": 0, "score": None, "options": [],
         "note": junk},
    ]  # fmt: skip
    deal = sent["deals"][0]
    if record["game"] == "pocha":
        deal["bids"][0]["note"] = junk
        deal["bids"][1]["stand_in"] = True
        deal["tricks"][0]["note"] = junk
        deal["tricks"][0]["cards"][0]["note"] = junk
    else:
        deal["betting"][0]["stand_in"] = True
    return sent


@pytest.mark.parametrize("name", ["pocha", "poch"])
def test_a_job_keeps_only_what_the_analysis_reads(
    client: FlaskClient, connection: redis.Redis, drain: Drain, name: str
) -> None:
    record = recorded(name, "random", 2)
    # Random, so Redis's copy is no smaller for RQ's compression of the job.
    junk = base64.b64encode(random.Random(7).randbytes(40_000)).decode()
    sent = padded(record, junk)
    assert len(json.dumps(sent)) > 3 * len(junk)
    jobs, stored = [], []
    for body in (record, sent):
        response = client.post(
            "/api/v1/analyses", json={"record": body, "level": "medium", "seed": 9}
        )
        assert response.status_code == 202, response.json
        jobs.append(response.json)
        data = connection.hget(f"rq:job:{response.json['id']}", "data")
        assert isinstance(data, bytes)
        stored.append(data)
        drain()
    # The padded record's job holds exactly what the plain one's does: none of the junk.
    assert stored[0] == stored[1]
    assert len(stored[1]) < len(junk) // 4
    weighed = analyse(sent, "medium", 9)
    assert [w.to_dict() for w in weighed] == [w.to_dict() for w in analyse(record, "medium", 9)]
    expected = {
        "level": "medium", "seed": 9, "decisions": [w.to_dict() for w in weighed],
        "seats": by_seat(weighed, 4),
    }  # fmt: skip
    for job in jobs:
        done = client.get(job["url"]).json
        assert done["status"] == "finished", done
        assert done["result"] == expected


def refused(client: FlaskClient, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/v1/analyses", json=body)
    assert response.status_code == 422, response.json
    answer: dict[str, Any] = response.json
    assert answer["error"] == "validation_error"
    return answer


def test_what_an_analysis_refuses(client: FlaskClient) -> None:
    record = recorded("pocha", "random", 3)
    swapped = json.loads(json.dumps(record))
    hands = swapped["deals"][0]["hands"]
    hands[0], hands[1] = hands[1], hands[0]
    assert refused(client, {"record": swapped})["message"].startswith(
        "The record cannot be read back: "
    )
    assert refused(client, {"record": {**record, "game": "chess"}})["message"] == (
        "This service analyses records of pocha, poch."
    )
    assert (
        "have no level 'grandmaster'"
        in refused(client, {"record": record, "level": "grandmaster"})["message"]
    )
    long = recorded("pocha", "heuristic", 4, rules={"players": 6, "schedule": [6] * 20})
    too_slow = refused(client, {"record": long, "level": "ismcts-expert"})
    assert "more than the 60 s an analysis may think; choose one of" in too_slow["message"]
    assert "heuristic" in too_slow["message"].rsplit("choose one of", 1)[1]
    assert client.get("/api/v1/analyses/nope").status_code == 404
    huge = client.post(
        "/api/v1/analyses", data=json.dumps({"record": record, "pad": "x" * 600_000}),
        content_type="application/json",
    )  # fmt: skip
    assert huge.status_code == 413


def test_an_analysis_may_not_order_more_than_a_minutes_think_budget(
    redis_url: str, drain: Drain
) -> None:
    client = create_app(
        {"REDIS_URL": redis_url, "TESTING": True, "BOT_RUNNER": "rq", "RATE_LIMITS": "on"}
    ).test_client()
    record = recorded("pocha", "random", 2)
    _, decisions = read_back(record)
    # Within the 60 s an analysis may think, over the 30 s a minute of the think budget: it
    # would be let in whenever the budget had drained, a worker held 48 s each time.
    assert 30 < seconds_of("pocha", "ismcts-expert", decisions) <= 60
    over = client.post("/api/v1/analyses", json={"record": record, "level": "ismcts-expert"},
                       headers={"Accept-Language": "es"})  # fmt: skip
    assert (over.status_code, over.json["error"]) == (422, "over_think_budget"), over.json
    assert "un nivel más bajo" in over.json["message"]
    # A lower level fits and is weighed as before.
    fits = client.post("/api/v1/analyses", json={"record": record, "level": "medium"})
    assert fits.status_code == 202, fits.json
    drain()
    assert client.get(fits.json["url"]).json["status"] == "finished"
