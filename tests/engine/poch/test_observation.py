"""What one seat of Poch knows (docs/poch.md, What each seat knows), on a rigged deal."""

from __future__ import annotations

import json

import pytest

from engine.poch.actions import PASS, action_from_wire
from engine.poch.cards import parse_card
from engine.poch.game import Game
from engine.poch.observation import observe
from tests.engine.poch.support import LAYOUT_A, rigged


def test_a_seat_sees_its_hand_the_trump_suit_and_what_was_shown(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = rigged(monkeypatch, LAYOUT_A)
    view = observe(game, 0).to_dict()
    assert view["hand"] == ["C7", "C8", "C9", "CK", "S7", "S8", "SK", "HK"]
    assert view["trump"] == "D" and view["hand_sizes"] == [8, 8, 8, 8]
    assert view["turn"] == 0 and view["legal_actions"][:3] == ["pass", 1, 2]
    assert {e["plate"] for e in view["collected"]} >= {"ace", "marriage"}
    text = json.dumps(view)
    # Nothing of another hand, not even the dealer's D9 that set trumps.
    assert "D9" not in text and "CA" not in text and "HQ" not in text
    other = observe(game, 1).to_dict()
    assert other["legal_actions"] == [] and other["hand"][0] == "C10"
    spectator = observe(game, None).to_dict()
    assert spectator["hand"] is None and spectator["legal_actions"] == []
    assert {k: v for k, v in spectator.items() if k not in ("seat", "hand", "legal_actions")} == {
        k: v for k, v in view.items() if k not in ("seat", "hand", "legal_actions")
    }


def test_the_showdown_and_the_played_cards_become_known(monkeypatch: pytest.MonkeyPatch) -> None:
    game = rigged(monkeypatch, LAYOUT_A)
    for move in (4, "pass", "pass", "pass", "C7"):
        game.apply(game.turn, action_from_wire(move))  # type: ignore[arg-type]
    view = observe(game, 2).to_dict()
    assert view["showdown"]["0"] == ["CK", "SK", "HK"] and view["showdown"]["3"] == ["HA", "DA"]
    assert [c for _, c in view["played"]] == ["C7", "C8", "C9", "C10", "CJ", "CQ", "CK", "CA"]
    assert view["direction"] == "up" and view["suits_done"] == ["C"]
    assert view["hand_sizes"] == [4, 5, 7, 8] and view["phase"] == "choosing"


def test_the_bluffer_pays_all_they_have_if_less(monkeypatch: pytest.MonkeyPatch) -> None:
    game = rigged(monkeypatch, LAYOUT_A)
    events = []
    for move in ("pass", 42, "pass", "pass"):  # seat 1 bets everything on a pair of aces
        events += game.apply(game.turn, action_from_wire(move))  # type: ignore[arg-type]
    assert {"type": "bluff", "seat": 1, "paid": 0} in events
    assert game.chips[1] == 0 and game.chips[0] == 42 + 42 + 4
    assert PASS not in game.legal_actions() and game.legal_actions() == [
        parse_card("C7"),
        parse_card("S7"),
    ]
    assert Game.from_dict(json.loads(json.dumps(game.to_dict()))).to_dict() == game.to_dict()
