"""The bots' advice (docs/records.md, `advice`): what a searching level thought at each of
its decisions with a choice, kept with its move and given in the finished game's record, for
its own seat and for the stand-in's turns of a person; never shown while the game runs, and
kept once for a turn played again."""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask.testing import FlaskClient

from ai.registry import levels_of
from core.play.bots import play_bot_turn
from core.store.keys import advice_key, events_key, game_key, hash_slot
from core.store.store import GameStore
from engine.registry import KINDS
from tests.service.helpers import bearer
from tests.service.test_records import assert_valid, create, leave, play_seat_to_the_end

GAMES = "/api/v1/games"


def pocha_move(action: Any) -> tuple[str, str]:
    return ("bids", "bid") if isinstance(action, int) else ("plays", "card")


def poch_move(action: Any) -> tuple[str, str]:
    if action in ("pass", "hold") or isinstance(action, int):
        return "bets", "bet"
    return ("suits", "suit") if action in ("C", "S", "H", "D") else ("plays", "card")


def keys_named(data: Any, name: str) -> bool:
    """Whether `data` (JSON) holds a key called `name` anywhere."""
    if isinstance(data, dict):
        return name in data or any(keys_named(v, name) for v in data.values())
    if isinstance(data, list):
        return any(keys_named(v, name) for v in data)
    return False


def check_advice(record: dict[str, Any], levels: dict[int, str]) -> list[dict[str, Any]]:
    """The record's advice, checked against its decisions read back: each entry names its
    decision's seat and action, at the level that sat there (`levels`: seat -> level of the
    seats whose decisions a searching level made), and every decision with a choice of those
    seats has its entry; no other seat has any."""
    kind = KINDS[record["game"]]
    assert kind.replay_record is not None
    advice = record["advice"]
    numbers = [entry["number"] for entry in advice]
    assert numbers == sorted(set(numbers))
    by_number = {entry["number"]: entry for entry in advice}
    expected = []
    for number, (game, seat, action) in enumerate(kind.replay_record(record), start=1):
        entry = by_number.pop(number, None)
        chose = len(game.legal_actions()) > 1
        if seat in levels and chose:
            expected.append(number)
        if entry is None:
            continue
        assert entry["seat"] == seat and entry["level"] == levels[seat], entry
        assert entry["action"] == kind.action_to_wire(action), entry
        options = entry["options"]
        assert 1 <= len(options) <= 3
        shares = [option["share"] for option in options]
        assert shares == sorted(shares, reverse=True) and all(0 <= s <= 1 for s in shares)
        legal = {kind.action_to_wire(a) for a in game.legal_actions()}
        assert {option["action"] for option in options} <= legal
        # The action chosen is the one searched most, and its score is the option's.
        assert options[0]["action"] == entry["action"]
        assert entry["score"] == options[0]["score"]
    assert not by_number, f"advice for no decision: {by_number}"
    assert numbers == expected
    return list(advice)


def test_a_pocha_game_records_its_bots_and_stand_ins_advice(
    client: FlaskClient, store: GameStore
) -> None:
    players = [{"name": "Ana"}, {"name": "Bea"}, {"name": "Bot", "bot": "easy"}]
    rules = {"schedule": [1, 2, 3], "turn_seconds": 0}
    created = create(client, {"players": players, "rules": rules, "stand_in_level": "medium"})
    game_id = created["id"]
    tokens = [s.get("token") for s in created["seats"]]
    leave(client, game_id, 1, tokens[1])
    play_seat_to_the_end(client, game_id, tokens[0], pocha_move, random.Random(3))

    record = client.get(f"{GAMES}/{game_id}/record").json
    assert_valid(client, record)
    advice = check_advice(record, {1: "medium", 2: "easy"})
    assert {entry["seat"] for entry in advice} == {1, 2}
    # Kept beside the game, in its hash slot, for as long as the game.
    assert hash_slot(advice_key(game_id)) == hash_slot(game_key(game_id))
    assert abs(store.redis.ttl(advice_key(game_id)) - store.ttl(game_id)) <= 1


def test_a_poch_game_records_its_bots_advice(client: FlaskClient) -> None:
    players = [
        {"name": "Ana"}, {"name": "Easy", "bot": "easy"},
        {"name": "Heur", "bot": "heuristic"}, {"name": "Easy2", "bot": "easy"},
    ]  # fmt: skip
    body = {"game": "poch", "players": players, "rules": {"deals": 2, "turn_seconds": 0}}
    created = create(client, body)
    game_id = created["id"]
    play_seat_to_the_end(client, game_id, created["seats"][0]["token"], poch_move,
                         random.Random(5))  # fmt: skip
    record = client.get(f"{GAMES}/{game_id}/record").json
    assert_valid(client, record)
    # The heuristic level does not search: it has no advice to give.
    advice = check_advice(record, {1: "easy", 3: "easy"})
    assert {entry["seat"] for entry in advice} == {1, 3}


def test_a_game_that_runs_shows_no_advice(client: FlaskClient, store: GameStore) -> None:
    players = [{"name": "Ana"}, {"name": "B", "bot": "easy"}, {"name": "C", "bot": "easy"}]
    # Seat 0 bids last in the first hand (seed 7), so both bots have decided already.
    created = create(client, {"players": players, "rules": {"schedule": [3]}, "seed": 7})
    game_id, token = created["id"], created["seats"][0]["token"]
    view = client.get(f"{GAMES}/{game_id}", headers=bearer(token)).json
    assert view["turn"] == 0
    assert len(store.advice(game_id)) == 2
    assert not keys_named(view, "advice") and not keys_named(view, "options")
    events = client.get(f"{GAMES}/{game_id}/events").json
    assert not keys_named(events, "advice") and not keys_named(events, "options")
    refused = client.get(f"{GAMES}/{game_id}/record")
    assert refused.status_code == 409 and refused.json["error"] == "game_not_over"
    # Deleting the game deletes its advice too.
    deleted = client.delete(f"{GAMES}/{game_id}", headers=bearer(created["host_token"]))
    assert deleted.status_code == 204
    assert not store.redis.exists(advice_key(game_id))


@pytest.mark.parametrize("game", ["pocha", "poch"])
def test_a_turn_played_again_keeps_its_advice_once(store: GameStore, game: str) -> None:
    kind = KINDS[game]
    level = "easy"
    assert levels_of(game)[level].budget.iterations
    rules = kind.rules_from_dict({"players": 4})
    seed = next(
        s for s in range(100)
        if len(kind.new(rules, s).legal_actions()) > 1
    )  # fmt: skip
    created = store.create(kind.new(rules, seed), [(f"B{i}", level) for i in range(4)])
    game_id = created.record.id
    # Two tries of the turn at version 1, each from its own read (a worker that died
    # after writing the move, and the try that follows it).
    first, again = store.load(game_id), store.load(game_id)
    version = first.version
    applied = play_bot_turn(store, game_id, version, record=first)
    assert applied is not None and applied.version == version + 1
    assert play_bot_turn(store, game_id, version, record=again) is None
    assert play_bot_turn(store, game_id, version) is None
    advice = store.advice(game_id)
    assert len(advice) == 1
    seat = kind.new(rules, seed).turn
    assert advice[0]["seat"] == seat and advice[0]["level"] == level
    # Numbered by the event of the move it came with.
    move_event = store.events(game_id)[advice[0]["seq"] - 1]
    assert move_event["seat"] == seat and move_event["type"] in kind.decision_events
    # Kept as long as the events: both read in one transaction, so a busy machine puts no
    # time between the reads, and a second of slack for Redis rounding each to seconds.
    pipe = store.redis.pipeline(transaction=True)
    pipe.ttl(advice_key(game_id))
    pipe.ttl(events_key(game_id))
    advice_ttl, events_ttl = pipe.execute()
    assert advice_ttl > 0 and abs(advice_ttl - events_ttl) <= 1, (advice_ttl, events_ttl)
