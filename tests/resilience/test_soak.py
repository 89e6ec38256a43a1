"""`pocha bench soak`, small: the real stack (Redis, gunicorn, two `pocha worker`s) and a
few games played to the end at once, every event checked; and the event-log check itself,
which must catch a lost, doubled or altered move (else the soak's 0 would prove nothing).
"""

from __future__ import annotations

import random
import subprocess
from typing import Any

import pytest

from engine.pocha.game import Game
from engine.pocha.rules import Rules
from tests.resilience.conftest import POCHA
from tests.waiting import LONG, scaled
from tools.soak import EventLog, LogViolation

RULES: dict[str, Any] = {"schedule": [1, 2]}


def test_a_small_soak_meets_its_target() -> None:
    result = subprocess.run(
        [str(POCHA), "bench", "soak", "--games", "12", "--schedule", "1,2", "--processes", "1"],
        capture_output=True,
        text=True,
        timeout=scaled(LONG),
    )
    out = result.stdout
    assert result.returncode == 0, out + result.stderr
    assert "games finished: 12/12" in out
    assert "errors: 0; 5xx: 0" in out
    assert "lost or doubled moves: 0" in out
    assert "target met" in out


def _stored_log(seed: int) -> list[dict[str, Any]]:
    """A whole game's events as the store numbers them (seq, and the version they lead to)."""
    rng = random.Random(seed)
    game = Game.new(Rules.from_dict({**RULES, "players": 4}), seed)
    events = [{"seq": 1, "version": 1, **game.hand_dealt_event()}]
    version = 1
    while not game.finished:
        seat = game.turn
        assert seat is not None
        version += 1
        for event in game.apply(seat, rng.choice(game.legal_actions())):
            events.append({"seq": len(events) + 1, "version": version, **event})
    return events


def _check(events: list[dict[str, Any]], seed: int) -> EventLog:
    log = EventLog(RULES, 4, seed)
    for event in events:
        log.add(event)
    return log


def _renumbered(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**e, "seq": i} for i, e in enumerate(events, start=1)]


def test_the_event_log_check_accepts_a_whole_game() -> None:
    log = _check(_stored_log(3), 3)
    assert log.replica.finished and log.settled


def test_the_event_log_check_catches_lost_doubled_and_altered_moves() -> None:
    events = _stored_log(4)
    moves = [i for i, e in enumerate(events) if e["type"] in ("bid", "card_played")]
    first, second = moves[0], moves[1]
    with pytest.raises(LogViolation, match="seq"):  # a gap in the sequence
        _check(events[:first] + events[first + 1 :], 4)
    with pytest.raises(LogViolation):  # a move lost (renumbered: no gap to see)
        _check(_renumbered(events[:first] + events[first + 1 :]), 4)
    again = {**events[second], "version": events[second]["version"] + 1}
    with pytest.raises(LogViolation, match="refuses"):  # the same turn twice
        _check(_renumbered([*events[: second + 1], again, *events[second + 1 :]]), 4)
    altered = [dict(e) for e in events]
    assert altered[first]["type"] == "bid"  # one card each: a bid of 0 or 1
    altered[first]["bid"] = 1 - altered[first]["bid"]
    with pytest.raises(LogViolation):  # another bid than the one scored at the hand's end
        _check(altered, 4)
    with pytest.raises(LogViolation, match="version"):  # a move that skips a version
        _check([*events[:first], {**events[first], "version": 3}, *events[first + 1 :]], 4)
