"""The Python client (`client.api`) against the real service over HTTP: a whole game
against bots with the events followed live, every error code it surfaces, a hint, an AI
move (and an impossible one), an integrator's key sent with every request and its seats',
a small match, and deleting a game; then tables: joining by code, table_full, the lobby
(never a token; an account's, without its blockers' tables), a view read again answered
304 from the view held, the host's start, two people
playing a table to the end and its rematch, and a person away who comes back."""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from typing import Any

import pytest
import redis
from prometheus_client.parser import text_string_to_metric_families

from client.api import OPEN, ApiError, PochaClient
from client.models import BotLevel, Player, Rules
from core.store import api_keys
from tests.live import LiveService
from tests.waiting import LONG, scaled, wait_until

SHORT: Rules = {"schedule": [1, 2]}


def bots(level: BotLevel, n: int) -> list[Player]:
    return [{"name": f"Bot {i}", "bot": level} for i in range(1, n + 1)]


def play_to_the_end(me: PochaClient, game_id: str) -> dict[str, Any]:
    """Seat `me` plays its first legal action whenever it is its turn; the last view."""
    deadline = time.monotonic() + scaled(LONG)
    while time.monotonic() < deadline:
        view = me.view(game_id)
        if view["phase"] == "finished":
            return view
        if view["turn"] == view["you"]["seat"]:
            me.act(game_id, view["you"]["legal"][0], version=view["version"])
        else:
            time.sleep(0.05)
    raise AssertionError(f"the game did not finish in {scaled(LONG):.0f} s")


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
    follower.join(timeout=scaled(LONG))
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
        api.create_game(["Ana", {"name": "B", "bot": "genius"}, "C"])  # type: ignore[list-item]
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
    wait_until(lambda: me.view(game_id)["turn"] == 0, LONG, "the bots to hand the turn over")
    view = me.view(game_id)
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


def test_an_integrators_key_goes_with_every_request_and_its_seats(
    live_service: LiveService,
) -> None:
    connection = redis.Redis.from_url(live_service.redis_url)
    try:
        key, _made = api_keys.create(connection, f"relay-{time.time_ns() % 10**9}")
    finally:
        connection.close()
    relay = PochaClient(live_service.url, integrator_key=key)
    created = relay.create_game(["Ana", *bots("random", 2)], rules={"schedule": [1]})
    me = relay.seat(created, 0)
    assert me.integrator_key == key
    assert play_to_the_end(me, created["id"])["phase"] == "finished"
    # A key that is none is refused where it counts: making a game, and a seat's move.
    stranger = PochaClient(live_service.url, integrator_key="pk_" + "x" * 43)
    for refused_call in (
        lambda: stranger.create_game(["Ana", *bots("random", 2)]),
        lambda: stranger.seat(created, 0).bid(created["id"], 0),
    ):
        with pytest.raises(ApiError) as refused:
            refused_call()
        assert (refused.value.status, refused.value.error) == (401, "unknown_key")


def test_a_small_match(live_service: LiveService) -> None:
    api = PochaClient(live_service.url)
    match = api.create_match(["random", "heuristic", "random"], games=2, rules={"schedule": [1]})
    report = api.wait_match(match["id"], timeout=scaled(LONG))
    assert report["done"] == 2 and report["games"] == 2
    assert {b["bot"] for b in report["bots"]} == {"random", "heuristic"}
    records = api.match_records(match["id"])
    assert len(records) == 2 and all(len(r["scores"]) == 3 for r in records)


def test_a_small_poch_match(live_service: LiveService) -> None:
    api = PochaClient(live_service.url)
    match = api.create_match(["medium", "heuristic", "random"], games=2, seed=3, game="poch")
    report = api.wait_match(match["id"], timeout=scaled(LONG))
    assert (report["game"], report["done"], report["rules"]["deals"]) == ("poch", 2, 1)
    assert {b["bot"] for b in report["bots"]} == {"medium", "heuristic", "random"}
    records = api.match_records(match["id"])
    assert [r["game"] for r in records] == [0, 1]
    assert all(len(r["chips"]) == 3 and sum(r["chips"]) <= 0 for r in records)


@pytest.mark.parametrize(("game", "over"), [("pocha", "finished"), ("poch", "over")])
def test_a_finished_games_record_and_its_analysis(
    live_service: LiveService, game: str, over: str
) -> None:
    api = PochaClient(live_service.url, language="es")
    seats = ["Ana", *bots("easy", 2)]
    if game == "poch":
        created = api.create_game(seats, {"chips": 20, "deals": 1}, seed=5, game="poch")
    else:
        created = api.create_game(seats, SHORT, seed=5)
    me, game_id = api.seat(created, 0), created["id"]
    # A record shows every hand: none is given while the game is played.
    with pytest.raises(ApiError) as refused:
        api.game_record(game_id)
    assert (refused.value.status, refused.value.error) == (409, "game_not_over")
    deadline = time.monotonic() + scaled(LONG)
    view = me.view(game_id)
    while view["phase"] != over:
        assert time.monotonic() < deadline, view
        if view["turn"] != 0:
            time.sleep(0.05)
            view = me.view(game_id)
        elif view["game"] == "poch":
            view = me.poch_act(game_id, view["you"]["legal"][0], version=view["version"])
        else:
            view = me.act(game_id, view["you"]["legal"][0], version=view["version"])

    record = api.game_record(game_id)
    assert (record["format"], record["game"], record["id"]) == (1, game, game_id)
    assert [p["name"] for p in record["players"]] == ["Ana", "Bot 1", "Bot 2"]
    assert [p["level"] for p in record["players"]] == [None, "easy", "easy"]
    analysed = api.analyse(record, level="easy", seed=3, wait=scaled(LONG))
    assert (analysed["kind"], analysed["status"], analysed["error"]) == (
        "analysis",
        "finished",
        None,
    )
    result = analysed["result"]
    assert result is not None and (result["level"], result["seed"]) == ("easy", 3)
    assert len(result["seats"]) == 3 and result["decisions"]
    # Followed at its own address, by id, URL or report, as a job is.
    assert api.analysis(analysed["id"]) == api.analysis(analysed["url"]) == analysed
    queued = api.analyse(record, level="easy", seed=3, wait=None)
    assert queued["status"] in ("queued", "started", "finished")
    assert api.wait_analysis(queued, timeout=scaled(LONG))["result"] == result
    # Refusals come as the API's codes, in the client's language.
    with pytest.raises(ApiError) as refused:
        api.analyse(record, level="nonsense")
    assert (refused.value.status, refused.value.error) == (422, "validation_error")
    assert "nonsense" in refused.value.message
    with pytest.raises(ApiError) as refused:
        api.analyse({**record, "deals": []})
    assert (refused.value.status, refused.value.error) == (422, "validation_error")
    with pytest.raises(ApiError) as refused:
        api.analysis("no-such-analysis")
    assert (refused.value.status, refused.value.error) == (404, "analysis_not_found")


# -- tables ----------------------------------------------------------------------------------


def test_a_table_is_joined_by_its_code_and_fills_up(live_service: LiveService) -> None:
    api = PochaClient(live_service.url)
    created = api.create_game(
        ["Ana", OPEN, OPEN], rules={"schedule": [1], "turn_seconds": 0}, seed=4
    )
    code = created["table_code"]
    assert code and [s.get("open", False) for s in created["seats"]] == [False, True, True]
    with pytest.raises(ValueError, match="open seat"):
        api.seat(created, 1)
    game_id = created["id"]
    ana = api.seat(created, 0)
    assert ana.view(game_id)["phase"] == "waiting"

    # By its code in any case, with or without its dash; then the first open seat.
    found = api.table(code.lower().replace("-", ""))
    assert (found["game_id"], found["open_seats"]) == (game_id, 2)
    taken = api.join(code, "Bea")
    assert (taken["game_id"], taken["seat"], taken["table_code"]) == (game_id, 1, code)
    # Its host chose the seed: whoever sits down is told so.
    assert taken["seeded"] is True and "chose this table's seed" in taken["warning"]
    bea = api.joined(taken)
    view = bea.view(game_id)
    assert view["you"]["seat"] == 1 and view["phase"] == "waiting"
    assert view["players"][1]["name"] == "Bea"
    assert ana.view(game_id)["players"][1]["present"]  # Bea has been seen
    assert view["table"]["code"] == code and view["table"]["open_seats"] == 1

    # Leaving a waiting table opens the seat again; the old token opens nothing.
    bea.leave(game_id, 1)
    with pytest.raises(ApiError) as caught:
        bea.view(game_id)
    assert caught.value.error == "unauthorized"
    carla = api.joined(api.join(code, "Carla"))
    dora = api.joined(api.join(code, "Dora"))  # the last seat: the game starts
    assert [p["name"] for p in dora.view(game_id)["players"]] == ["Ana", "Carla", "Dora"]
    assert carla.view(game_id)["phase"] == "bidding"

    with pytest.raises(ApiError) as caught:
        api.join(code, "Eva")
    assert (caught.value.status, caught.value.error) == (409, "table_full")
    with pytest.raises(ApiError) as caught:
        api.table("ZZZZ-ZZZZ")
    assert (caught.value.status, caught.value.error) == (404, "table_not_found")
    events = [e["type"] for e in api.events(game_id)]
    assert events.count("seat_taken") == 3 and "seat_opened" in events
    assert "game_started" in events


def test_the_lobby_lists_waiting_tables_and_never_a_token(live_service: LiveService) -> None:
    api = PochaClient(live_service.url)
    listed = api.create_game(["Ana", OPEN, *bots("easy", 1)], listed=True)
    hidden = api.create_game(["Ana", OPEN, *bots("easy", 1)])
    api.join(listed["table_code"], "Bea" * 3)
    lobby = api.lobby()
    codes = [t["code"] for t in lobby]
    assert hidden["table_code"] not in codes
    # Taken, its last seat: it started, and the lobby is for tables that wait.
    assert listed["table_code"] not in codes
    waiting = api.create_game(["Ana", OPEN, OPEN], listed=True, stand_in_level="easy")
    api.join(waiting["table_code"], "Bea")
    table = next(t for t in api.lobby() if t["code"] == waiting["table_code"])
    assert [p["name"] for p in table["players"]] == ["Ana", "Bea", ""]
    assert table["open_seats"] == 1 and table["rules"]["turn_seconds"] == 60
    secrets = {waiting["host_token"], waiting["seats"][0]["token"]}
    text = json.dumps(api.lobby()) + json.dumps(api.table(waiting["table_code"]))
    assert not any(secret in text for secret in secrets)
    assert "token" not in text


def test_an_accounts_lobby_leaves_out_the_tables_where_it_is_blocked(
    live_service: LiveService,
) -> None:
    """With an account's key, `lobby()` reads the account's lobby: a table its blocker made
    is not there for it, while a client without the key still sees it."""
    api = PochaClient(live_service.url)
    ana, pest = api.create_account("Ana"), api.create_account("Pest")
    as_ana = PochaClient(live_service.url, account_key=ana["key"])
    as_pest = PochaClient(live_service.url, account_key=pest["key"])
    blocked = _post(live_service.url, "/api/v1/account/blocks", {"account": pest["id"]},
                    {"X-Pocha-Account": ana["key"]})  # fmt: skip
    assert blocked == 200
    hers = as_ana.create_game(["Ana", OPEN, OPEN], listed=True)["table_code"]
    assert hers in [t["code"] for t in api.lobby()]
    assert hers in [t["code"] for t in as_ana.lobby()]
    assert hers not in [t["code"] for t in as_pest.lobby()]
    with pytest.raises(ApiError) as caught:
        PochaClient(live_service.url, account_key="pa_nobodys").lobby()
    assert (caught.value.status, caught.value.error) == (401, "unknown_account")


def _views_not_modified(url: str) -> float:
    """How many reads of a game's view the live service has answered 304 (its /metrics)."""
    with urllib.request.urlopen(url + "/metrics", timeout=scaled(LONG)) as answer:
        text = answer.read().decode()
    wanted = {"method": "GET", "route": "/api/v1/games/<game_id>", "status": "304"}
    return sum(
        sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == "pocha_http_requests_total" and sample.labels == wanted
    )


def test_a_view_read_again_is_asked_with_its_etag_and_held_on_304(
    live_service: LiveService,
) -> None:
    """`view()` sends back the ETag of the view it got: an unchanged game is answered 304
    and the view held comes back (a copy: changing it spoils nothing); after a move the
    new view does."""
    url = live_service.url
    created = PochaClient(url).create_game(["Ana", "Bea", "Eva"], rules=SHORT, seed=3)
    game_id = created["id"]
    ana = PochaClient(url).seat(created, 0)
    got = [ana.view(game_id)]

    def answered_304() -> bool:
        # Who is present is in the view: a seat's presence running out changes it, so
        # the read after that is a 200, and the one after a 304.
        before = _views_not_modified(url)
        got.append(ana.view(game_id))
        return _views_not_modified(url) == before + 1

    wait_until(answered_304, 30, "a read of the unchanged game answered 304")
    held, before_it = got[-1], got[-2]
    # The turn's clock runs (a weak tag): the view held, its seconds counted down since.
    assert held["seconds_left"] is not None and before_it["seconds_left"] is not None
    assert 0 <= held["seconds_left"] <= before_it["seconds_left"]
    assert {**held, "seconds_left": None} == {**before_it, "seconds_left": None}
    assert held["you"]["hand"]
    held["you"]["hand"].clear()
    assert ana.view(game_id)["you"]["hand"], "the view held was changed through a copy"

    turn = held["turn"]
    mover = PochaClient(url).seat(created, turn)
    moved = mover.act(game_id, mover.view(game_id)["you"]["legal"][0], version=held["version"])
    before = _views_not_modified(url)
    now = ana.view(game_id)
    assert _views_not_modified(url) == before
    assert now["version"] == moved["version"] > held["version"]


def _post(url: str, path: str, body: Any, headers: dict[str, str]) -> int:
    """POST `body` as JSON to a call the client has no method for; the answer's status."""
    headers = {**headers, "Content-Type": "application/json"}
    sent = urllib.request.Request(url + path, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(sent, timeout=scaled(LONG)) as answer:
        return int(answer.status)


def test_the_host_starts_early_with_bots(live_service: LiveService) -> None:
    api = PochaClient(live_service.url)
    created = api.create_game(["Ana", OPEN, OPEN, OPEN], rules={"schedule": [1]})
    game_id = created["id"]
    host = api.host(created)
    with pytest.raises(ApiError) as caught:
        api.seat(created, 0).start(game_id)
    assert caught.value.error == "forbidden"
    view = host.seat_to_bot(game_id, 3, "random")
    assert view["players"][3]["bot"] == "random" and view["phase"] == "waiting"
    view = host.start(game_id, bots="random")
    assert [p["bot"] for p in view["players"]] == [None, "random", "random", "random"]
    assert view["phase"] != "waiting"


def test_two_people_play_a_table_to_the_end_and_rematch(live_service: LiveService) -> None:
    api = PochaClient(live_service.url)
    created = api.create_game(["Ana", OPEN, *bots("random", 1)], rules={"schedule": [1, 2]})
    ana = api.seat(created, 0)
    bea = api.joined(api.join(created["table_code"], "Bea"))
    game_id = created["id"]
    view = ana.view(game_id)
    assert view["rules"]["turn_seconds"] == 60  # two people: the clock runs
    results: list[dict[str, Any]] = []
    other = threading.Thread(target=lambda: results.append(play_to_the_end(bea, game_id)))
    other.start()
    final = play_to_the_end(ana, game_id)
    other.join(timeout=scaled(LONG))
    assert results and results[0]["scores"] == final["scores"]
    assert [e for e in api.events(game_id) if e.get("by") == "stand_in"] == []

    first = ana.rematch(game_id)
    assert "host_token" in first and first["game_id"] != game_id
    assert ana.view(game_id)["table"]["rematch"] == first["game_id"]
    second = bea.rematch(game_id)
    assert second["game_id"] == first["game_id"] and "host_token" not in second
    assert second["seat"] == 1
    again = api.joined(second).view(first["game_id"])
    assert again["phase"] == "bidding" and again["players"][1]["name"] == "Bea"


def test_a_person_away_comes_back(live_service: LiveService) -> None:
    """A clock of one second runs out twice on Bea: the stand-in plays her turns and she is
    away; she comes back, and plays on."""
    api = PochaClient(live_service.url)
    created = api.create_game(
        ["Ana", OPEN, *bots("random", 1)],
        rules={"schedule": [2, 3], "turn_seconds": 1},
        stand_in_level="random",
    )
    game_id = created["id"]
    bea = api.joined(api.join(created["table_code"], "Bea"))
    ana = api.seat(created, 0)
    deadline = time.monotonic() + scaled(LONG)
    while not (view := ana.view(game_id))["players"][1]["away"]:
        assert time.monotonic() < deadline, "Bea was never away"
        if view["turn"] == 0:
            assert view["seconds_left"] is not None and view["deadline"] is not None
            try:
                ana.act(game_id, view["you"]["legal"][0], version=view["version"])
            except ApiError as exc:
                # A loaded machine took longer than Ana's second: the stand-in moved first.
                assert exc.status in (409, 412), exc
        time.sleep(0.05)
    assert view["players"][1]["stand_in"] == "random"
    events = api.events(game_id)
    assert any(e.get("by") == "stand_in" and e.get("seat") == 1 for e in events)
    assert any(e["type"] == "seat_away" and e["seat"] == 1 for e in events)
    back = bea.come_back(game_id, 1)
    assert not back["players"][1]["away"] and back["you"]["seat"] == 1
    # Her return is told. The clocks of one second go on, so on a busy machine another seat
    # (Ana's stand-in, the bot) may have moved after it already.
    after = api.events(game_id, after=events[-1]["seq"])
    assert any(e["type"] == "seat_back" and e["seat"] == 1 for e in after), after
