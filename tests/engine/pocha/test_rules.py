"""Rules: players, deck sizes, schedules, option validation, JSON form."""

from __future__ import annotations

import json
from dataclasses import fields
from typing import Any

import pytest

from engine.errors import InvalidRulesError
from engine.pocha import OPTIONS, Rules, describe_options

# Every schedule written out by hand from docs/rules.md ("Hands of a game").
CLASSIC = {
    # top = 36 // 3 = 12
    3: [1, 1, 1, *range(2, 12), 12, 12, 12, *range(11, 1, -1), 1, 1, 1],
    # top = 10; docs/rules.md: "4 players: 28 hands"
    4: [1, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1, 1, 1],
    # top = 8
    5: [1] * 5 + [2, 3, 4, 5, 6, 7] + [8] * 5 + [7, 6, 5, 4, 3, 2] + [1] * 5,
    # top = 36 // 6 = 6
    6: [1] * 6 + [2, 3, 4, 5] + [6] * 6 + [5, 4, 3, 2] + [1] * 6,
    # top = 40 // 7 = 5
    7: [1] * 7 + [2, 3, 4] + [5] * 7 + [4, 3, 2] + [1] * 7,
    # top = 5
    8: [1] * 8 + [2, 3, 4] + [5] * 8 + [4, 3, 2] + [1] * 8,
}
PYRAMID = {
    3: [*range(1, 12), 12, 12, 12, *range(11, 0, -1)],
    4: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1],
    5: [1, 2, 3, 4, 5, 6, 7] + [8] * 5 + [7, 6, 5, 4, 3, 2, 1],
    6: [1, 2, 3, 4, 5] + [6] * 6 + [5, 4, 3, 2, 1],
    7: [1, 2, 3, 4] + [5] * 7 + [4, 3, 2, 1],
    8: [1, 2, 3, 4] + [5] * 8 + [4, 3, 2, 1],
}
TOP = {3: 12, 4: 10, 5: 8, 6: 6, 7: 5, 8: 5}
DECK = {3: 36, 4: 40, 5: 40, 6: 36, 7: 40, 8: 40}


def test_defaults() -> None:
    r = Rules()
    assert r.players == 4
    assert r.schedule == "classic"
    assert (r.dealer_restriction, r.montar, r.fallar, r.pisar, r.tiebreak) == (True,) * 5
    assert (r.exact_bonus, r.per_trick, r.penalty) == (10, 5, 5)
    assert len(r.hand_sizes) == 28
    assert {name: option.default for name, option in OPTIONS.items()} == r.to_dict()


def test_rules_has_one_field_per_declared_option_in_order() -> None:
    # Rules' typed fields are written out beside the declarations; this keeps the two
    # from drifting apart (an option without a field could never be set, nor the reverse).
    assert [f.name for f in fields(Rules) if f.init] == list(OPTIONS)
    assert all(option.name == name for name, option in OPTIONS.items())


@pytest.mark.parametrize("players", range(3, 9))
def test_deck_size_and_top(players: int) -> None:
    r = Rules(players=players)
    assert r.deck_size == DECK[players]
    assert r.deck.bit_count() == DECK[players]
    assert r.top == TOP[players]


@pytest.mark.parametrize("players", range(3, 9))
def test_classic_schedule(players: int) -> None:
    assert list(Rules(players=players).hand_sizes) == CLASSIC[players]
    assert list(Rules(players=players, schedule="classic").hand_sizes) == CLASSIC[players]


def test_classic_four_players_has_28_hands() -> None:
    assert len(Rules(players=4).hand_sizes) == 28


@pytest.mark.parametrize("players", range(3, 9))
def test_pyramid_schedule(players: int) -> None:
    assert list(Rules(players=players, schedule="pyramid").hand_sizes) == PYRAMID[players]


@pytest.mark.parametrize("players", range(3, 9))
def test_explicit_schedule_up_to_top(players: int) -> None:
    sizes = [1, TOP[players], 2]
    r = Rules(players=players, schedule=sizes)
    assert r.hand_sizes == tuple(sizes)
    assert r.schedule == tuple(sizes)  # stored as a tuple: the rules stay hashable
    hash(r)


def bad(option: str, **kwargs: Any) -> InvalidRulesError:
    with pytest.raises(InvalidRulesError) as info:
        Rules(**kwargs)
    assert info.value.option == option
    assert option in str(info.value)
    assert isinstance(info.value, ValueError)
    assert info.value.code == "invalid_rules"
    return info.value


@pytest.mark.parametrize("players", [2, 9, 0, -4, 100])
def test_players_out_of_range(players: int) -> None:
    err = bad("players", players=players)
    assert "from 3 to 8" in str(err)


@pytest.mark.parametrize("players", [True, False, 4.0, "4", None])
def test_players_not_an_int(players: object) -> None:
    bad("players", players=players)


@pytest.mark.parametrize("schedule", ["foo", "", "Classic", 3, None, {"a": 1}])
def test_schedule_bad_name_or_type(schedule: object) -> None:
    err = bad("schedule", schedule=schedule)
    assert "classic" in str(err) and "pyramid" in str(err)


@pytest.mark.parametrize(
    ("players", "schedule"),
    [
        (4, [0]),
        (4, [11]),
        (4, [1, 2, 0]),
        (4, [-1]),
        (5, [9]),
        (3, [13]),
        (6, [7]),
        (8, [6]),
        (4, [True]),
        (4, [2.0]),
        (4, ["3"]),
        (4, []),
        (4, [1] * 201),
    ],
)
def test_schedule_bad_counts(players: int, schedule: list[Any]) -> None:
    bad("schedule", players=players, schedule=schedule)


def test_schedule_count_error_says_what_is_allowed() -> None:
    err = bad("schedule", players=5, schedule=[9])
    assert "from 1 to 8" in str(err)
    assert "9" in str(err)


@pytest.mark.parametrize("option", ["dealer_restriction", "montar", "fallar", "pisar", "tiebreak"])
@pytest.mark.parametrize("value", [1, 0, "true", None, "yes"])
def test_bool_options_refuse_non_bools(option: str, value: object) -> None:
    err = bad(option, **{option: value})
    assert "true or false" in str(err)


@pytest.mark.parametrize("option", ["exact_bonus", "per_trick", "penalty"])
@pytest.mark.parametrize("value", [True, False, -1, 1001, 2.5, "5", None])
def test_int_options_refuse_bools_and_out_of_range(option: str, value: object) -> None:
    err = bad(option, **{option: value})
    assert "from 0 to 1000" in str(err)


@pytest.mark.parametrize("option", ["exact_bonus", "per_trick", "penalty"])
def test_int_options_accept_bounds(option: str) -> None:
    assert getattr(Rules(**{option: 0}), option) == 0
    assert getattr(Rules(**{option: 1000}), option) == 1000


def test_from_dict_unknown_option_is_named() -> None:
    with pytest.raises(InvalidRulesError) as info:
        Rules.from_dict({"players": 4, "trumps": True})
    assert info.value.option == "trumps"
    assert "trumps" in str(info.value)
    assert "montar" in str(info.value)  # lists the options that exist


def test_from_dict_not_a_dict() -> None:
    with pytest.raises(InvalidRulesError):
        Rules.from_dict([("players", 4)])  # type: ignore[arg-type]


def test_from_dict_defaults_and_none() -> None:
    assert Rules.from_dict(None) == Rules()
    assert Rules.from_dict({}) == Rules()
    assert Rules.from_dict({"players": 5, "montar": False}) == Rules(players=5, montar=False)


def test_from_dict_validates_values() -> None:
    with pytest.raises(InvalidRulesError) as info:
        Rules.from_dict({"montar": "no"})
    assert info.value.option == "montar"


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(players=3, schedule="pyramid", tiebreak=False),
        Rules(players=8, schedule=[1, 5, 2], montar=False, fallar=False, pisar=False),
        Rules(players=6, dealer_restriction=False, exact_bonus=0, per_trick=1, penalty=1000),
    ],
)
def test_to_dict_from_dict_round_trip(rules: Rules) -> None:
    d = rules.to_dict()
    assert set(d) == set(OPTIONS)
    assert "hand_sizes" not in d
    again = Rules.from_dict(json.loads(json.dumps(d)))
    assert again == rules
    assert again.hand_sizes == rules.hand_sizes
    assert hash(again) == hash(rules)


def test_rules_are_frozen() -> None:
    r = Rules()
    with pytest.raises(AttributeError):
        r.players = 5  # type: ignore[misc]


def test_describe_options_lists_every_declaration() -> None:
    described = describe_options()
    assert list(described) == list(OPTIONS)
    assert described["players"] == {
        "default": 4,
        "allowed": "an integer from 3 to 8",
        "doc": "Number of seats. With 3 or 6 players the four 2s are removed (36 cards).",
        "kind": "int",
        "minimum": 3,
        "maximum": 8,
    }
    assert described["montar"]["allowed"] == "true or false"
    assert described["montar"]["kind"] == "bool"
    assert "minimum" not in described["montar"] and "choices" not in described["montar"]
    assert described["penalty"]["allowed"] == "an integer from 0 to 1000"
    assert (described["penalty"]["minimum"], described["penalty"]["maximum"]) == (0, 1000)
    assert described["schedule"]["allowed"] == (
        "'classic', 'pyramid', or a list of card counts, each from 1 to deck size // players"
    )
    assert described["schedule"]["kind"] == "schedule"
    assert described["schedule"]["choices"] == ["classic", "pyramid"]
    for name, spec in described.items():
        assert spec["default"] == OPTIONS[name].default
        assert spec["doc"] and spec["doc"] == OPTIONS[name].doc


# The sentences Rules refuses a value with, word for word: the HTTP API passes them on.
@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 9}, "players must be an integer from 3 to 8, not 9"),
        ({"montar": 1}, "montar must be true or false, not 1"),
        ({"tiebreak": None}, "tiebreak must be true or false, not None"),
        ({"penalty": 1001}, "penalty must be an integer from 0 to 1000, not 1001"),
        ({"exact_bonus": True}, "exact_bonus must be an integer from 0 to 1000, not True"),
        (
            {"schedule": "long"},
            "schedule must be 'classic', 'pyramid' or a list of card counts, not 'long'",
        ),
        (
            {"schedule": {"a": 1}},
            "schedule must be 'classic', 'pyramid' or a list of card counts, not {'a': 1}",
        ),
        ({"schedule": []}, "schedule must list between 1 and 200 hands"),
        (
            {"players": 5, "schedule": [1, 9]},
            "every hand of the schedule must deal from 1 to 8 cards to each of 5 players, not 9",
        ),
    ],
)
def test_refusals_say_what_the_option_allows(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidRulesError) as info:
        Rules(**kwargs)
    assert str(info.value) == message
