"""The advice's entries as a record numbers them (`core.play.bot_advice.numbered`): by the
event of the move each came with, among the game's decisions only; an entry that fits no
decision, or one given already, is left out."""

from __future__ import annotations

from ai.bot import ActionStat
from core.play.bot_advice import advice_of, numbered
from engine.registry import KINDS

POCHA = KINDS["pocha"]


def test_entries_are_numbered_among_the_decisions_by_their_moves_event() -> None:
    events = [
        {"seq": 1, "type": "hand_dealt"},
        {"seq": 2, "type": "bid", "seat": 1, "bid": 0},
        {"seq": 3, "type": "seat_away", "seat": 0},
        {"seq": 4, "type": "bid", "seat": 2, "bid": 1},
        {"seq": 5, "type": "card_played", "seat": 0, "card": "O3"},
        {"seq": 6, "type": "trick_won", "seat": 0},
    ]
    entry = {"level": "easy", "action": 1, "score": 1.5, "options": []}
    advice = [
        {**entry, "seat": 2, "seq": 4},
        {**entry, "seat": 2, "seq": 4},  # given already
        {**entry, "seat": 1, "seq": 3},  # a table's change, no decision
        {**entry, "seat": 1, "seq": 5},  # another seat's decision
        {**entry, "seat": 0, "seq": 5, "action": "O3"},
    ]
    assert numbered(POCHA, events, advice) == [
        {"number": 2, **entry, "seat": 2},
        {"number": 3, **entry, "seat": 0, "action": "O3"},
    ]


def test_an_entry_names_the_three_actions_searched_most() -> None:
    stats = [
        ActionStat(0, 10, 0.1, -2.0), ActionStat(1, 60, 0.6, 3.21456),
        ActionStat(2, 25, 0.25, 1.0), ActionStat(3, 5, 0.05, 9.0),
    ]  # fmt: skip
    entry = advice_of(POCHA, 2, "hard", 1, stats)
    wire = POCHA.action_to_wire
    assert entry == {
        "seat": 2, "level": "hard", "action": wire(1), "score": 3.215,
        "options": [
            {"action": wire(1), "share": 0.6, "score": 3.215},
            {"action": wire(2), "share": 0.25, "score": 1.0},
            {"action": wire(0), "share": 0.1, "score": -2.0},
        ],
    }  # fmt: skip
    assert advice_of(POCHA, 2, "hard", 1, []) is None
