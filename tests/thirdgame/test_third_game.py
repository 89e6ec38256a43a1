"""The proof of one switch between games (issue 42): Trio, a game written under tests/ to
the engine's and the bots' protocols and registered from here, is created, viewed, moved,
streamed, hinted, stood in for by the clock and matched through the real API and real RQ
workers, and nothing in core/, service/ or worker/ names it."""

from __future__ import annotations

import json
import random
import re
import subprocess
from typing import Any

import redis
from flask.testing import FlaskClient

import ai.registry
import engine.registry
from ai.bot import Budget
from core.play.bots import bot_seed, level_of
from core.play.turns import play_owed_turns, store_for
from engine.errors import GameError
from tests.service.helpers import bearer
from tests.service.test_service_events import STREAM, parse_sse
from tests.thirdgame.bots import BOT_KIND, BOTS, determinize
from tests.thirdgame.conftest import PLUGIN_ENV, ROOT, Unpublished
from tests.thirdgame.engine import GAME_KIND, NAME, Game, Rules, observe
from tests.waiting import LONG
from tests.worker.conftest import WorkerProcesses, wait_until

GAMES = "/api/v1/games"


def test_no_file_of_core_service_or_worker_names_the_third_game() -> None:
    tracked = subprocess.run(
        ["git", "ls-files", "core", "service", "worker"],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout.split()  # fmt: skip
    assert len(tracked) > 50
    naming = re.compile(r"\btrio\b|thirdgame|\bfrom tests\b|\bimport tests\b", re.IGNORECASE)
    for path in tracked:
        text = (ROOT / path).read_text(errors="replace")
        assert not naming.search(text), f"{path} names the third game or imports tests/"


def test_the_game_and_its_bots_keep_to_the_protocols(trio: Unpublished) -> None:
    assert engine.registry.KINDS[NAME] is GAME_KIND and ai.registry.BOT_KINDS[NAME] is BOT_KIND
    rules = GAME_KIND.rules_from_dict({"players": 4, "deals": 2})
    game = GAME_KIND.new(rules, 11)
    assert engine.registry.kind_of(game) is GAME_KIND
    assert sorted(c for hand in game.hands for c in hand) == list(range(12))
    while not game.finished:
        seat = game.turn
        assert seat is not None
        view = GAME_KIND.view(game, seat, False)
        assert view["you"]["legal"] == [GAME_KIND.action_to_wire(a) for a in game.legal_actions()]
        # A seat's view is a position a client may send, and reads back as its observation.
        assert GAME_KIND.position_from_dict(view) == observe(game, seat)
        led = [c for _s, c in game.trick[:1]]
        if led and any(c // 4 == led[0] // 4 for c in game.hands[seat]):
            off = [c for c in game.hands[seat] if c // 4 != led[0] // 4]
            for card in off:  # following suit is the rule
                try:
                    game.apply(seat, card)
                except GameError:
                    pass
                else:
                    raise AssertionError("a card off the led suit was taken")
        decided = ai.registry.decide_in(game, seat, "search", seed=3, analyse=True)
        assert decided.report["iterations"] == 60 and decided.report["analysis"]
        game.apply(seat, decided.action)
        stored = json.loads(json.dumps(game.to_dict()))
        assert engine.registry.game_from_dict(stored).to_dict() == game.to_dict()
    assert sum(game.scores) == 2 * 3 and len(game.history) == 2
    assert GAME_KIND.decisions_per_game(rules) == 24
    # A determinization keeps what the seat knows and deals only what it cannot see.
    fresh = Game.new(Rules(players=3), 5)
    obs = observe(fresh, fresh.turn)
    guess = determinize(obs, random.Random(1))
    assert guess.hands[obs.seat] == fresh.hands[obs.seat]  # type: ignore[index]
    assert [len(h) for h in guess.hands] == [3, 3, 3]
    assert BOT_KIND.decide(obs, "ismcts", seed=1, budget=Budget(milliseconds=5)).iterations > 0


def create(client: FlaskClient, trio: Unpublished, players: list[dict[str, Any]], **rules: Any,
           ) -> dict[str, Any]:  # fmt: skip
    response = client.post(
        GAMES,
        json={"game": NAME, "players": players, "rules": rules, "stand_in_level": "greedy"},
    )
    assert response.status_code == 201, response.json
    created: dict[str, Any] = response.json
    trio.add(created["id"])
    return created


def test_a_person_plays_trio_against_bots_on_the_workers(
    client: FlaskClient, workers: WorkerProcesses, trio: Unpublished
) -> None:
    workers.start(**PLUGIN_ENV)
    bots = [{"name": "R", "bot": "random"}, {"name": "M", "bot": "search"}]
    created = create(client, trio, [{"name": "Ana"}, *bots], deals=2)
    game_id, token = created["id"], created["seats"][0]["token"]
    url = f"{GAMES}/{game_id}"
    mine = bearer(token)

    def my_turn() -> dict[str, Any] | None:
        view: dict[str, Any] = client.get(url, headers=mine).json
        return view if view["turn"] == 0 or view["phase"] == "over" else None

    view = wait_until_view(my_turn)
    assert view["game"] == NAME and view["rules"] == {"players": 3, "deals": 2, "turn_seconds": 0}
    assert view["you"]["seat"] == 0 and view["you"]["legal"]
    # Another game's decision is refused by Trio's own sentence; a card it does not hold,
    # or one that is no card, by the engine's typed errors.
    wrong = client.post(f"{url}/bids", json={"bid": 1}, headers=mine)
    assert wrong.status_code == 409 and "Trio" in wrong.json["message"], wrong.json
    held = set(view["you"]["hand"])
    absent = next(c for c in ("O1", "O2", "C1", "C2") if c not in held)
    refused = client.post(f"{url}/plays", json={"card": absent}, headers=mine)
    assert refused.status_code in (409, 422), refused.json
    assert refused.json["error"] == "illegal_move", refused.json
    nonsense = client.post(f"{url}/plays", json={"card": "Z9"}, headers=mine)
    assert nonsense.status_code == 422 and nonsense.json["error"] == "invalid_card"

    # A hint from Trio's one search level, on the workers.
    asked = client.post(f"{url}/hint", json={"level": "search"}, headers=mine)
    assert asked.status_code == 202, asked.json
    trio.add(asked.json["id"])
    wait_until(lambda: client.get(asked.json["url"]).json["status"] == "finished", LONG, "the hint")
    hint = client.get(asked.json["url"]).json["result"]
    assert hint["action"] in view["you"]["legal"] and hint["iterations"] == 60

    moved = client.post(f"{url}/plays", json={"card": hint["action"]}, headers=mine)
    assert moved.status_code == 200, moved.json
    assert hint["action"] not in moved.json["you"]["hand"]
    while (view := wait_until_view(my_turn))["phase"] != "over":
        played = client.post(f"{url}/plays", json={"card": view["you"]["legal"][0]}, headers=mine)
        assert played.status_code == 200, played.json

    assert sum(view["scores"]) == 2 * 3
    sheet = client.get(f"{url}/history").json
    assert sheet["finished"] and [d["deal"] for d in sheet["deals"]] == [0, 1]
    assert sheet["result"]["scores"] == view["scores"]
    events = client.get(f"{url}/events").json
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    cards = [e for e in events if e["type"] == "card_played"]
    assert len(cards) == 2 * 9 and events[-1]["type"] == "game_over"
    assert {e["seat"] for e in cards if e.get("by") is None} >= {0}
    # Its record, through the game's own record hook: every card in order, each trick won.
    record = client.get(f"{url}/record").json
    assert record["game"] == NAME and record["scores"] == view["scores"]
    assert [p["level"] for p in record["players"]] == [None, "random", "search"]
    tricks = [t for deal in record["deals"] for t in deal["tricks"]]
    assert [c["card"] for t in tricks for c in t["cards"]] == [e["card"] for e in cards]
    won = [e["winner"] for e in events if e["type"] == "trick_won"]
    assert [t["winner"] for t in tricks] == won
    # The finished game's stream sends the same events, then ends.
    streamed = client.get(f"{url}/events", headers=STREAM)
    assert streamed.mimetype == "text/event-stream"
    assert parse_sse(streamed.get_data(as_text=True)) == events


def wait_until_view(seen: Any) -> dict[str, Any]:
    found: list[dict[str, Any]] = []

    def ready() -> bool:
        view = seen()
        if view is not None:
            found[:] = [view]
        return view is not None

    wait_until(ready, LONG, "the person's turn or the game's end")
    return found[0]


def test_two_bots_play_trio_at_a_table_of_two(
    client: FlaskClient, workers: WorkerProcesses, trio: Unpublished
) -> None:
    # Neither Pocha nor Poch seats two: the API reads the seats against the registered
    # games, and each game's rules against its own bounds.
    workers.start(**PLUGIN_ENV)
    bots = [{"name": "R", "bot": "random"}, {"name": "G", "bot": "greedy"}]
    created = create(client, trio, bots, deals=3)
    url = f"{GAMES}/{created['id']}"
    wait_until(lambda: client.get(url).json["phase"] == "over", LONG, "the game's end")
    final = client.get(url).json
    assert len(final["players"]) == 2 and sum(final["scores"]) == 3 * 3
    five = [{"name": f"B{i}", "bot": "random"} for i in range(5)]
    body = {"game": NAME, "players": five, "stand_in_level": "greedy"}
    refused = client.post(GAMES, json=body)
    assert refused.status_code == 422 and "players" in refused.json["message"], refused.json
    one = client.post(GAMES, json={**body, "players": five[:1]})
    assert one.status_code == 422, one.json


def test_the_stand_in_plays_a_trio_turn_that_runs_out(
    client: FlaskClient, workers: WorkerProcesses, trio: Unpublished
) -> None:
    workers.start(**PLUGIN_ENV)
    players = [{"name": "Ana"}, {"name": "Eva"}, {"name": "Bot", "bot": "random"}]
    created = create(client, trio, players, turn_seconds=1)
    game_id = created["id"]

    # Nobody moves: the stand-in plays for both people, until both are away or it is over.
    def done() -> bool:
        seen = client.get(f"{GAMES}/{game_id}").json
        return bool(seen["phase"] == "over" or all(p["away"] for p in seen["players"][:2]))

    wait_until(done, LONG, "the stand-ins to play out the people's turns")
    log = client.get(f"{GAMES}/{game_id}/events").json
    for seat in (0, 1):
        own = [e for e in log if e.get("seat") == seat and e["type"] == "card_played"]
        assert own and all(e.get("by") == "stand_in" for e in own), own


def test_trio_falls_back_to_its_own_level_having_none_called_heuristic(
    client: FlaskClient, connection: redis.Redis, trio: Unpublished
) -> None:
    # Pocha's and Poch's fallback is `heuristic`; Trio has no level or bot called so, and
    # its own fallback plays in its games.
    assert "heuristic" not in BOT_KIND.levels and "heuristic" not in BOTS
    assert BOT_KIND.fallback_level == "greedy"
    players = [{"name": "S", "bot": "search"}, {"name": "R", "bot": "random"}, {"name": "Ana"}]
    game_id = create(client, trio, players, deals=1)["id"]
    record = store_for(connection).load(game_id)
    seat, version = record.bot_to_move, record.version
    assert seat is not None
    # A level the game does not know (Pocha's `hard`) is played as the fallback.
    assert level_of(record, seat, "hard") == "greedy"
    # A turn's last try plays the fallback level (no worker runs here: the turn is played
    # in this process, as a worker's last try plays it).
    done = play_owed_turns(connection, game_id, version, last_try=True)
    assert done["played"] and done["fallback"], done
    obs = GAME_KIND.observation(record.game, seat)
    greedy = BOT_KIND.decide(obs, "greedy", seed=bot_seed(record.game.seed, version)).action
    played = [e for e in client.get(f"{GAMES}/{game_id}/events").json if e.get("seat") == seat]
    cards = [e for e in played if e["type"] == "card_played"]
    assert cards and cards[0]["card"] == GAME_KIND.action_to_wire(greedy), cards


def test_a_match_seats_its_own_game_s_players(client: FlaskClient, trio: Unpublished) -> None:
    # With Trio registered a list of two seats is one some game takes; each game's own
    # bounds are checked against the game the match names, in the caller's language.
    def refused(game: str, seats: int, lang: str = "en") -> str:
        body = {"game": game, "seats": ["random"] * seats, "games": 1}
        response = client.post(f"/api/v1/matches?lang={lang}", json=body)
        assert response.status_code == 422, response.json
        assert response.json["error"] == "validation_error"
        message: str = response.json["errors"]["json"]["seats"][0]
        return message

    assert refused(NAME, 5) == "Trio seats 2 to 4 players; 5 seats were given."
    assert refused("pocha", 2) == "Pocha seats 3 to 8 players; 2 seats were given."
    assert refused("poch", 2, "es") == "Poch admite de 3 a 8 jugadores; se han indicado 2 asientos."
    # Outside every registered game's bounds, the field refuses it as it always did.
    assert refused(NAME, 9) == "Length must be between 2 and 8."


def test_a_match_between_trio_bots_on_the_workers(
    client: FlaskClient, workers: WorkerProcesses, trio: Unpublished
) -> None:
    workers.start(**PLUGIN_ENV)
    seats = ["random", "search", "random"]
    response = client.post(
        "/api/v1/matches", json={"game": NAME, "seats": seats, "games": 3, "seed": 4}
    )
    assert response.status_code == 202, response.json
    match = response.json
    trio.add(match["id"])
    finished = lambda: client.get(match["url"]).json["status"] == "finished"  # noqa: E731
    wait_until(finished, LONG, "the match's end")
    report = client.get(match["url"]).json
    assert (report["game"], report["done"], report["failed"]) == (NAME, 3, 0)
    records = client.get(match["records_url"] + "?format=json").json
    assert [r["game"] for r in records] == [0, 1, 2]
    for record in records:
        assert record["seats"] == seats and sum(record["scores"]) == 3
        assert sum(record["decisions"]) == 9
    assert sorted(b["bot"] for b in report["bots"]) == ["random", "search"]
    assert sum(b["games"] for b in report["bots"]) == 3 * 3
