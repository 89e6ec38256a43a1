"""Each game's record hook (`GameKind.record`, docs/records.md) on many random games of Pocha
and Poch played in the engine: every decision and card is in the record in order, with the
stand-in's marked; the hands are the ones dealt; the scores are the game's; each record,
in its envelope, holds to the committed JSON Schema; and a game not over, or events that
do not give the stored game, are refused."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from engine.errors import InvalidStateError
from engine.protocols import Event, GameKind
from engine.registry import KINDS
from tests.records import poch_recorded, poch_said

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "openapi" / "game-record.schema.json").read_text()
)


def played(kind: GameKind, rules: dict[str, Any], seed: int) -> tuple[Any, list[Event]]:
    """A game played to the end at random, and its events as a service stores them: the
    opening ones, then each decision's, a tenth of them marked the stand-in's."""
    game = kind.new(kind.rules_from_dict(rules), seed)
    events: list[Event] = list(kind.opening_events(game))
    rng = random.Random(seed)
    while not game.finished:
        caused = game.apply(game.turn, rng.choice(game.legal_actions()))
        if rng.random() < 0.1:
            caused[0] = {**caused[0], "by": "stand_in"}
        events += caused
    return game, events


def enveloped(kind: GameKind, game: Any, part: dict[str, Any]) -> dict[str, Any]:
    players = [
        {"seat": s, "name": f"P{s}", "level": None if s == 0 else "easy"}
        for s in range(game.players)
    ]
    return {
        "format": 1, "game": kind.name, "id": "Jm2bS0k4qV7wXc1Z",
        "created": "2026-12-04T22:00:00+00:00", "players": players, "stand_in_level": "easy",
        **part,
    }  # fmt: skip


def valid(record: dict[str, Any]) -> list[str]:
    validator = jsonschema.Draft202012Validator(SCHEMA)
    return [f"{list(e.path)}: {e.message}" for e in validator.iter_errors(record)]


POCHA_RULES = [
    {"players": 3, "schedule": [1, 2, 3, 2, 1]},
    {"players": 4, "schedule": [1, 1], "tiebreak": True},
    {"players": 5, "schedule": [8]},  # the whole deck: the dealer holds the trump card
    {"players": 3, "schedule": [3, 1], "montar": False, "fallar": False},
]


@pytest.mark.parametrize("rules", POCHA_RULES)
@pytest.mark.parametrize("seed", range(6))
def test_a_pocha_record_is_the_game(rules: dict[str, Any], seed: int) -> None:
    kind = KINDS["pocha"]
    game, events = played(kind, rules, seed)
    part = kind.record(game, events)
    assert not valid(enveloped(kind, game, part))
    assert part["scores"] == game.scores and part["winners"] == game.winners
    assert len(part["deals"]) == len(game.history)
    for deal, hand in zip(part["deals"], game.history, strict=True):
        assert deal["hands"] == hand["hands"] and deal["trump"] == hand["trump"]
        assert deal["scores"] == hand["totals"] and deal["tricks_won"] == hand["tricks"]
        assert sorted((b["seat"], b["bid"]) for b in deal["bids"]) == list(enumerate(hand["bids"]))
        assert [t["winner"] for t in deal["tricks"]].count(0) == hand["tricks"][0]
    decisions = [
        (e["seat"], e.get("bid", e.get("card")), e.get("by") == "stand_in")
        for e in events if e["type"] in ("bid", "card_played")
    ]  # fmt: skip
    recorded = []
    for deal in part["deals"]:
        recorded += [(b["seat"], b["bid"], b.get("stand_in", False)) for b in deal["bids"]]
        recorded += [
            (c["seat"], c["card"], c.get("stand_in", False))
            for t in deal["tricks"] for c in t["cards"]
        ]  # fmt: skip
    assert recorded == decisions
    won = [e["seat"] for e in events if e["type"] == "trick_won"]
    assert [t["winner"] for d in part["deals"] for t in d["tricks"]] == won


POCH_RULES = [
    {"players": 3, "deals": 6},
    {"players": 4, "deals": 5, "chips": 30},
    {"players": 5, "deals": 8, "chips": 20, "ante": 2},  # seats run out and leave
    {"players": 8, "deals": 3},
]


@pytest.mark.parametrize("rules", POCH_RULES)
@pytest.mark.parametrize("seed", range(6))
def test_a_poch_record_is_the_game(rules: dict[str, Any], seed: int) -> None:
    kind = KINDS["poch"]
    game, events = played(kind, rules, seed)
    part = kind.record(game, events)
    assert not valid(enveloped(kind, game, part))
    assert part["scores"] == game.chips and part["winners"] == game.result()["winners"]
    assert [(d["number"], d["winner"], d["paid"]) for d in part["deals"]] == [
        (r["deal"], r["winner"], r["paid"]) for r in game.deal_results
    ]
    if part["deals"]:
        assert part["deals"][-1]["chips"] == game.chips
    for deal in part["deals"]:
        dealt = [c for seat in deal["order"] for c in deal["hands"][seat]]
        assert len(dealt) == len(set(dealt)) == 32
        assert all(not deal["hands"][s] for s in range(game.players) if s not in deal["order"])
    assert poch_recorded(part["deals"]) == poch_said(events)
    left = [(g["seat"], g["chips"]) for d in part["deals"] for g in d["left"]]
    leaving = [(e["seat"], e["chips"]) for e in events if e["type"] == "leave"]
    assert left == leaving[: len(left)]


@pytest.mark.parametrize("name", ["pocha", "poch"])
def test_a_game_not_over_or_events_that_do_not_give_it_are_refused(name: str) -> None:
    kind = KINDS[name]
    rules = {"players": 3, "schedule": [2, 3]} if name == "pocha" else {"players": 3, "deals": 2}
    game = kind.new(kind.rules_from_dict(rules), 1)
    with pytest.raises(InvalidStateError):
        kind.record(game, list(kind.opening_events(game)))
    game, events = played(kind, rules, 2)
    kind.record(game, events)
    decision = "card_played" if name == "pocha" else "pass"
    # A decision left out of the events: its game is another.
    first = next(i for i, e in enumerate(events) if e["type"] in (decision, "bid", "bet"))
    with pytest.raises(InvalidStateError):
        kind.record(game, events[:first] + events[first + 1 :])
    # The game stored is not the one its decisions give: Pocha's are in its events, Poch's
    # in the game itself (its events say only which the stand-in made).
    other, _events = played(kind, rules, 3)
    if name == "poch":
        other.actions = list(game.actions)
    with pytest.raises(InvalidStateError):
        kind.record(other, events)


ALL_RULES = [("pocha", r) for r in POCHA_RULES] + [("poch", r) for r in POCH_RULES]


@pytest.mark.parametrize(("name", "rules"), ALL_RULES)
@pytest.mark.parametrize("seed", range(6))
def test_a_record_read_back_replays_every_decision_of_the_game(
    name: str, rules: dict[str, Any], seed: int
) -> None:
    kind = KINDS[name]
    game, events = played(kind, rules, seed)
    record = enveloped(kind, game, kind.record(game, events))
    assert kind.replay_record is not None
    replay = kind.new(kind.rules_from_dict(rules), seed)
    count = 0
    for position, seat, action in kind.replay_record(record):
        # The same position as the stored game's, seat by seat.
        assert position.turn == seat == replay.turn
        for viewer in range(game.players):
            assert kind.observe(position, viewer) == kind.observe(replay, viewer)
        replay.apply(seat, action)
        count += 1
    assert replay.to_dict() == game.to_dict()
    assert count > 0


def _tampered(record: dict[str, Any], name: str) -> list[dict[str, Any]]:
    """Copies of `record`, each with one thing changed that no game could give."""
    changes = []
    first = record["deals"][0]
    swapped = json.loads(json.dumps(record))
    hands = swapped["deals"][0]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    changes.append(swapped)
    scores = json.loads(json.dumps(record))
    scores["scores"][0] += 1
    changes.append(scores)
    dealer = json.loads(json.dumps(record))
    dealer["deals"][-1]["dealer"] = (
        (first["dealer"] + 1) % len(record["players"])
        if len(record["deals"]) == 1
        else record["deals"][0]["dealer"]
    )
    changes.append(dealer)
    short = json.loads(json.dumps(record))
    short["deals"].pop()
    changes.append(short)
    missing = json.loads(json.dumps(record))
    del missing["deals"][0]["hands"]
    changes.append(missing)
    if name == "pocha":
        bid = json.loads(json.dumps(record))
        bid["deals"][0]["bids"][0]["bid"] = 99
        changes.append(bid)
    else:
        bet = json.loads(json.dumps(record))
        bet["deals"][0]["betting"][0] = {"seat": 99, "call": "pass", "amount": 0}
        changes.append(bet)
    return changes


@pytest.mark.parametrize("name", ["pocha", "poch"])
def test_a_record_no_game_could_give_is_refused_saying_why(name: str) -> None:
    kind = KINDS[name]
    rules = {"players": 4, "schedule": [1, 2, 3]} if name == "pocha" else {"deals": 3}
    game, events = played(kind, rules, 3)
    record = enveloped(kind, game, kind.record(game, events))
    assert kind.replay_record is not None
    for changed in _tampered(record, name):
        with pytest.raises(InvalidStateError, match="record"):
            list(kind.replay_record(changed))
