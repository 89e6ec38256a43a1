"""Cards: the 40- and 36-card decks, codes, strength order, card sets."""

from __future__ import annotations

import pytest

from engine.errors import GameError, InvalidCardError
from engine.pocha.cards import (
    ABOVE,
    BIT,
    DECK_36,
    DECK_40,
    SUIT_MASK,
    SUIT_OF,
    card,
    card_code,
    card_name,
    cards_list,
    codes,
    deck_for,
    highest,
    iter_cards,
    mask_of,
    parse_card,
    parse_cards,
)

STRENGTH = [1, 3, 12, 11, 10, 7, 6, 5, 4, 2]  # docs/rules.md, high to low
ALL_CODES = [f"{s}{r}" for s in "OCEB" for r in STRENGTH]


def test_forty_distinct_codes_round_trip() -> None:
    cards = [parse_card(c) for c in ALL_CODES]
    assert sorted(cards) == list(range(40))
    for code, c in zip(ALL_CODES, cards, strict=True):
        assert card_code(c) == code


@pytest.mark.parametrize("players", [3, 6])
def test_three_and_six_players_play_without_the_twos(players: int) -> None:
    deck = deck_for(players)
    assert deck == DECK_36
    assert deck.bit_count() == 36
    assert not any(c.endswith("2") and not c.endswith("12") for c in codes(deck))
    assert set(codes(DECK_40)) - set(codes(deck)) == {"O2", "C2", "E2", "B2"}


@pytest.mark.parametrize("players", [4, 5, 7, 8])
def test_other_player_counts_use_all_forty(players: int) -> None:
    assert deck_for(players) == DECK_40
    assert sorted(codes(deck_for(players))) == sorted(ALL_CODES)


def test_parse_is_case_and_space_insensitive() -> None:
    assert parse_card("o1") == parse_card("O1") == parse_card(" O1 ")
    assert card_code(parse_card("b12")) == "B12"
    assert card_code(parse_card("c10")) == "C10"


@pytest.mark.parametrize(
    "bad", ["", "O", "O0", "O8", "O9", "O13", "X1", "1O", "OO1", "O1O", "O 1", "10", "Z12", "O-1"]
)
def test_bad_codes_raise_invalid_card(bad: str) -> None:
    with pytest.raises(InvalidCardError) as info:
        parse_card(bad)
    assert repr(bad) in str(info.value)
    assert "O, C, E or B" in str(info.value)
    assert isinstance(info.value, GameError)
    assert isinstance(info.value, ValueError)
    assert info.value.code == "invalid_card"


@pytest.mark.parametrize("bad", [1, None, 1.0, b"O1", ["O1"]])
def test_non_string_codes_raise_invalid_card(bad: object) -> None:
    with pytest.raises(InvalidCardError):
        parse_card(bad)  # type: ignore[arg-type]


def test_parse_cards_bad_member() -> None:
    assert parse_cards(["O1", "B12"]) == BIT[parse_card("O1")] | BIT[parse_card("B12")]
    with pytest.raises(InvalidCardError):
        parse_cards(["O1", "Q3"])


@pytest.mark.parametrize("suit", "OCEB")
def test_strength_order_in_every_suit(suit: str) -> None:
    ranked = [parse_card(f"{suit}{r}") for r in STRENGTH]
    # a higher index is a stronger card: strictly decreasing from the as down to the 2
    assert ranked == sorted(ranked, reverse=True)
    for i, c in enumerate(ranked):
        assert codes(ABOVE[c]) == [f"{suit}{r}" for r in STRENGTH[:i]]
        assert SUIT_OF[c] == "OCEB".index(suit)
    assert highest(mask_of(ranked[3:])) == ranked[3]


def test_card_by_suit_and_rank() -> None:
    assert card_code(card(0, 1)) == "O1"
    assert card_code(card(3, 12)) == "B12"
    assert card_code(card(1, 10)) == "C10"
    assert card_code(card(2, 3)) == "E3"


def test_names() -> None:
    assert card_name(parse_card("O1")) == "as de oros"
    assert card_name(parse_card("B12")) == "rey de bastos"
    assert card_name(parse_card("C10")) == "sota de copas"
    assert card_name(parse_card("E11")) == "caballo de espadas"


def test_codes_group_by_suit_strongest_first() -> None:
    m = parse_cards(["B2", "O2", "O1", "C12", "O3", "E7", "C1"])
    assert codes(m) == ["O1", "O3", "O2", "C1", "C12", "E7", "B2"]
    assert sorted(cards_list(m)) == cards_list(m) == list(iter_cards(m))
    assert mask_of(cards_list(m)) == m


def test_suit_masks_partition_the_deck() -> None:
    assert sum(SUIT_MASK) == DECK_40
    for s in range(4):
        assert SUIT_MASK[s].bit_count() == 10
        assert all(SUIT_OF[c] == s for c in iter_cards(SUIT_MASK[s]))
