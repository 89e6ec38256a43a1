"""A record weighed by a level (ai.analysis): a game a level played, deciding from the
analysis's seeds, agrees with that level on every decision (the level saw, from the record,
exactly what each seat saw in the game); the same seed gives the same analysis; the figures
per seat add up."""

from __future__ import annotations

from typing import Any

import pytest

from ai.analysis import analyse, by_seat, decision_seed
from ai.registry import decide_in
from engine.errors import InvalidStateError
from engine.protocols import Event
from engine.registry import KINDS

RULES = {"pocha": {"players": 4, "schedule": [1, 3, 5]}, "poch": {"players": 4, "deals": 3}}


def recorded(
    name: str, level: str, seed: int, rules: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A game (of `rules`, or the module's) whose every seat `level` played, deciding as the
    analysis from `seed` would, as its record."""
    kind = KINDS[name]
    game = kind.new(kind.rules_from_dict(rules or RULES[name]), seed)
    events: list[Event] = list(kind.opening_events(game))
    number = 0
    while not game.finished:
        number += 1
        seat = game.turn
        decided = decide_in(game, seat, level, seed=decision_seed(seed, number))
        events += game.apply(seat, decided.action)
    players = [{"seat": s, "name": f"P{s}", "level": level} for s in range(game.players)]
    return {
        "format": 1, "game": name, "id": "x", "players": players, "stand_in_level": None,
        **kind.record(game, events),
    }  # fmt: skip


@pytest.mark.parametrize(("name", "level"), [
    ("pocha", "heuristic"), ("pocha", "medium"), ("poch", "heuristic"), ("poch", "medium"),
])  # fmt: skip
def test_a_levels_own_game_agrees_with_that_level_everywhere(name: str, level: str) -> None:
    weighed = analyse(recorded(name, level, 4), level, seed=4)
    assert weighed and all(w.agrees for w in weighed)
    summary = by_seat(weighed, 4)
    assert sum(s["decisions"] for s in summary) == len(weighed)
    assert all(s["agreed"] == s["decisions"] for s in summary)


@pytest.mark.parametrize("name", ["pocha", "poch"])
def test_a_search_weighs_each_decision_the_same_way_twice(name: str) -> None:
    record = recorded(name, "random", 6)
    weighed = analyse(record, "medium", seed=3)
    assert [w.to_dict() for w in weighed] == [w.to_dict() for w in analyse(record, "medium", 3)]
    # A random player and a search part ways somewhere, and the search scores both.
    assert any(not w.agrees for w in weighed)
    assert all(w.advised_score is not None for w in weighed if len({w.played, w.advised}) > 1)
    given_up = by_seat(weighed, 4)
    for seat in given_up:
        mine = [w for w in weighed if w.seat == seat["seat"]]
        scored = [w for w in mine if w.played_score is not None and w.advised_score is not None]
        assert seat["scored"] == len(scored)


def test_a_record_of_no_known_game_or_level_is_refused() -> None:
    record = recorded("pocha", "heuristic", 1)
    with pytest.raises(InvalidStateError):
        analyse({**record, "game": "chess"}, "hard")
    with pytest.raises(KeyError):
        analyse(record, "grandmaster")
