"""The one action space: cards and bids as ints, and their JSON form at the edges."""

from __future__ import annotations

import doctest

import pytest

import engine.pocha.actions
from engine.errors import InvalidBidError, InvalidCardError
from engine.pocha.actions import (
    BID_BASE,
    action_from_wire,
    action_name,
    action_to_wire,
    bid_action,
    bid_of,
    is_bid,
)
from engine.pocha.cards import NUM_CARDS, codes, parse_card
from engine.pocha.rules import MAX_PLAYERS, MIN_PLAYERS, Rules


def test_cards_and_bids_never_share_an_action() -> None:
    cards = set(range(NUM_CARDS))
    top = max(Rules(players=p).top for p in range(MIN_PLAYERS, MAX_PLAYERS + 1))
    bids = {bid_action(n) for n in range(top + 1)}
    assert not cards & bids
    assert not any(is_bid(c) for c in cards)
    assert all(is_bid(b) for b in bids)
    assert BID_BASE == 64  # the search's tree keys and hot loop are built on it


@pytest.mark.parametrize("tricks", [0, 1, 7, 12])
def test_a_bid_action_round_trips(tricks: int) -> None:
    action = bid_action(tricks)
    assert bid_of(action) == tricks
    assert action_to_wire(action) == tricks
    assert action_from_wire(tricks) == action


def test_a_card_action_is_its_card_index_and_its_code_on_the_wire() -> None:
    for code in codes((1 << NUM_CARDS) - 1):
        action = action_from_wire(code)
        assert action == parse_card(code)
        assert action_to_wire(action) == code
    assert action_from_wire("o1") == parse_card("O1")


def test_the_wire_form_keeps_its_json_types() -> None:
    assert type(action_to_wire(bid_action(0))) is int
    assert type(action_to_wire(parse_card("B12"))) is str


@pytest.mark.parametrize("bad", ["Z9", "", "O13"])
def test_a_bad_card_code_is_an_invalid_card(bad: str) -> None:
    with pytest.raises(InvalidCardError):
        action_from_wire(bad)


@pytest.mark.parametrize("bad", [-1, True, False, 1.0, None, [1]])
def test_what_is_no_number_of_tricks_is_an_invalid_bid(bad: object) -> None:
    with pytest.raises(InvalidBidError) as info:
        action_from_wire(bad)  # type: ignore[arg-type]
    assert info.value.rule == "bid_range"


def test_action_names_are_readable() -> None:
    assert action_name(bid_action(3)) == "bid 3"
    assert action_name(parse_card("O1")) == "as de oros (O1)"
    assert action_name(parse_card("B12")) == "rey de bastos (B12)"


def test_the_module_examples_run() -> None:
    result = doctest.testmod(engine.pocha.actions)
    assert result.attempted > 0 and result.failed == 0
