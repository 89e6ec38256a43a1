"""The Python client (`client.api`) against the real service over HTTP: a whole game
against bots with the events followed live, every error code it surfaces, a hint, an AI
move (and an impossible one), a small match, and deleting a game."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from client.api import ApiError, PochaClient
from tests.clients.conftest import LiveService

SHORT = {"schedule": [1, 2]}


def bots(level: str, n: int) -> list[dict[str, Any]]:
    return [{"name": f"Bot {i}", "bot": level} for i in range(1, n + 1)]


def play_to_the_end(me: PochaClient, game_id: str) -> dict[str, Any]:
    """Seat `me` plays its first legal action whenever it is its turn; the last view."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        view = me.view(game_id)
        if view["phase"] == "finished":
            return view
        if view["turn"] == view["you"]["seat"]:
            me.act(game_id, view["you"]["legal"][0], version=view["version"])
        else:
            time.sleep(0.05)
    raise AssertionError("the game did not finish in a minute")


def test_a_game_against_bots_with_the_events_followed_live(live_service: LiveService) -> None:
    api = PochaClient(live_service.url)
    created = api.create_game(["Ana", *bots("random", 2)], rules=SHORT, seed=3)
    assert [s.get("bot") for s in created["seats"]] == [None, "random", "random"]
    me = api.seat(created, 0)
    game_id = created["id"]

    streamed: list[dict[str, Any]] = []
    follower = threading.Thread(target=lambda: streamed.extend(api.follow(game_id)))
    follower.start()
    final = play_to_the_end(me, game_id)
    follower.join(timeout=30)
    assert not follower.is_alive()

    events = api.events(game_id)
    assert streamed == events  # the stream ends at game_over, with everything in order
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert events[-1]["type"] == "game_over"
    assert api.events(game_id, after=len(events) - 1) == events[-1:]

    history = api.history(game_id)
    assert history["finished"] and len(history["hands"]) >= 2
    assert history["scores"] == final["scores"] == events[-1]["scores"]
    assert history["winners"] == final["winners"]


def test_errors_carry_the_api_codes(live_service: LiveService) -> None:
    api = PochaClient(live_service.url)
    created = api.create_game(["Ana", "Bea", "Carla"], rules=SHORT, seed=5)
    game_id = created["id"]
    view = api.view(game_id)  # a spectator: no `you`
    assert "you" not in view
    turn = view["turn"]
    seat = api.seat(created, turn)
    other = api.seat(created, (turn + 1) % 3)

    with pytest.raises(ApiError) as caught:
        other.bid(game_id, 0)
    assert (caught.value.status, caught.value.error) == (409, "not_your_turn")

    with pytest.raises(ApiError) as caught:
        seat.bid(game_id, 1, version=view["version"] + 5)
    assert (caught.value.status, caught.value.error) == (412, "stale_version")

    with pytest.raises(ApiError) as caught:
        seat.play(game_id, "O1")
    assert caught.value.error == "wrong_phase"

    with pytest.raises(ApiError) as caught:
        seat.bid(game_id, 2)  # one card each: 0 or 1
    assert caught.value.error == "invalid_bid" and caught.value.rule == "bid_range"
    assert "0 to 1" in caught.value.message

    with pytest.raises(ApiError) as caught:
        api.with_token("not-a-token").view(game_id)
    assert caught.value.error == "unauthorized"

    with pytest.raises(ApiError) as caught:
        api.create_game(["Ana", {"name": "B", "bot": "genius"}, "C"])
    assert caught.value.status == 422 and caught.value.error == "validation_error"
    assert caught.value.errors is not None

    # Deleting takes the host token; then the game is gone for everyone.
    with pytest.raises(ApiError) as caught:
        seat.delete(game_id)
    assert caught.value.error == "forbidden"
    api.with_token(created["host_token"]).delete(game_id)
    with pytest.raises(ApiError) as caught:
        seat.view(game_id)
    assert (caught.value.status, caught.value.error) == (404, "game_not_found")


def test_an_illegal_card_is_refused_with_the_rule(live_service: LiveService) -> None:
    # Every seat a person, so the test can bring about a trick where seat 0 must follow.
    api = PochaClient(live_service.url)
    for seed in range(40):
        created = api.create_game(["A", "B", "C"], rules={"schedule": [4]}, seed=seed)
        game_id = created["id"]
        seats = [api.seat(created, s) for s in range(3)]
        while (view := api.view(game_id))["phase"] == "bidding":
            bidder = seats[view["turn"]]
            bidder.bid(game_id, bidder.view(game_id)["you"]["legal"][0])
        leader = view["turn"]
        seats[leader].play(game_id, seats[leader].view(game_id)["you"]["legal"][0])
        follower = seats[(leader + 1) % 3]
        mine = follower.view(game_id)["you"]
        refused = [c for c in mine["hand"] if c not in mine["legal"]]
        if refused:
            with pytest.raises(ApiError) as caught:
                follower.play(game_id, refused[0])
            assert caught.value.status == 422 and caught.value.error == "illegal_move"
            assert caught.value.rule in ("asistir", "montar", "fallar", "pisar")
            assert "you hold" in caught.value.message
            assert follower.view(game_id)["you"] == mine  # untouched
            return
    raise AssertionError("no seed gave a card to refuse")


def test_hint_and_ai_move_wait_for_their_jobs(live_service: LiveService) -> None:
    api = PochaClient(live_service.url)
    created = api.create_game(["Ana", *bots("random", 3)], rules=SHORT, seed=8)
    me = api.seat(created, 0)
    game_id = created["id"]
    deadline = time.monotonic() + 30
    while (view := me.view(game_id))["turn"] != 0:
        assert time.monotonic() < deadline, "the bots never handed the turn over"
        time.sleep(0.05)
    job = me.hint(game_id, level="easy")
    assert job["status"] == "finished" and job["kind"] == "hint"
    assert job["result"]["action"] in view["you"]["legal"]
    again = api.job(job["url"], wait=1)
    assert again["id"] == job["id"] and again["result"] == job["result"]

    position = {
        "rules": {"players": 4, "schedule": [2]},
        "seat": 1,
        "hand": ["O1", "C4"],
        "trump": {"card": "E7", "holder": None},
        "dealer": 0,
        "bids": [None, None, None, None],
    }
    job = api.ai_move(position, iterations=50)
    assert job["kind"] == "ai_move" and job["result"]["action"] in (0, 1, 2)

    with pytest.raises(ApiError) as caught:
        api.ai_move({**position, "hand": ["O1", "O1"]})
    assert (caught.value.status, caught.value.error) == (422, "invalid_position")

    with pytest.raises(ApiError) as caught:
        api.job("no-such-job")
    assert caught.value.error == "job_not_found"


def test_a_small_match(live_service: LiveService) -> None:
    api = PochaClient(live_service.url)
    match = api.create_match(["random", "heuristic", "random"], games=2, rules={"schedule": [1]})
    report = api.wait_match(match["id"], timeout=60)
    assert report["done"] == 2 and report["games"] == 2
    assert {b["bot"] for b in report["bots"]} == {"random", "heuristic"}
    records = api.match_records(match["id"])
    assert len(records) == 2 and all(len(r["scores"]) == 3 for r in records)
