"""Hand-worked examples of the four play obligations (docs/rules.md "Playing a trick").

Every example is a 4-player hand of 3 cards with bastos as trump (the turned
card is B1, in nobody's hand), dealer seat 3, so seat 0 (la mano) leads.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import (
    IllegalActionError,
    IllegalCardError,
    InvalidBidError,
    InvalidCardError,
    NotYourTurnError,
    WrongPhaseError,
)
from engine.pocha import Game, Rules
from engine.pocha.actions import bid_action
from engine.pocha.cards import codes, parse_card
from engine.pocha.legality import explain_illegal, legal_cards
from tests.engine.pocha.engine_support import cards, mask, play, worked

TRUMP = "B1"  # bastos are trump


def game_of(hands: list[list[str]], **options: Any) -> Game:
    return worked(hands, TRUMP, **options)


def refused(game: Game, code: str) -> IllegalCardError:
    """Play ``code`` for the seat to move, expecting a refusal that changes nothing."""
    before = game.to_dict()
    seat = game.turn
    assert seat is not None
    with pytest.raises(IllegalCardError) as info:
        game.play(seat, code)
    assert game.to_dict() == before
    assert info.value.code == "illegal_move"
    return info.value


def accepts(game: Game, code: str) -> bool:
    """Whether the seat to move may play ``code`` now (tried on a copy)."""
    copy = Game.from_dict(game.to_dict())
    seat = copy.turn
    assert seat is not None
    try:
        copy.play(seat, code)
    except IllegalCardError:
        return False
    return True


def assert_legal(game: Game, expected: list[str]) -> None:
    """The listed legal cards are ``expected`` and exactly those are accepted."""
    assert game.legal_actions() == cards(*expected)
    seat = game.turn
    assert seat is not None
    for code in codes(game.hand_of(seat)):
        assert accepts(game, code) == (code in expected), code


# -- asistir -------------------------------------------------------------------


def test_leader_may_play_anything() -> None:
    g = game_of([["O7", "C1", "B4"], ["O12", "O5", "C3"], ["E1", "E2", "C4"], ["O1", "C5", "E3"]])
    assert g.turn == 0
    assert_legal(g, ["O7", "C1", "B4"])


def test_asistir_must_follow_suit() -> None:
    g = game_of([["O7", "C1", "E4"], ["O12", "O5", "C3"], ["E1", "E2", "C4"], ["O1", "C5", "E3"]])
    play(g, "O7")
    err = refused(g, "C3")
    assert err.rule == "asistir"
    assert str(err) == "you must follow oros: you hold O12, O5"


def test_asistir_stays_on_with_every_option_off() -> None:
    g = game_of(
        [["O7", "C1", "E4"], ["O12", "O5", "C3"], ["E1", "E2", "C4"], ["O1", "C5", "E3"]],
        montar=False,
        fallar=False,
        pisar=False,
    )
    play(g, "O7")
    assert_legal(g, ["O12", "O5"])
    assert refused(g, "C3").rule == "asistir"


# -- montar ----------------------------------------------------------------------


def test_montar_without_trump_must_beat() -> None:
    g = game_of([["O7", "C1", "E4"], ["O12", "O5", "C3"], ["E1", "E2", "C4"], ["O1", "C5", "E3"]])
    play(g, "O7")
    assert_legal(g, ["O12"])
    err = refused(g, "O5")
    assert err.rule == "montar"
    assert str(err) == "you must beat the O7: you hold O12"


def test_montar_beats_the_best_lead_card_not_the_lead() -> None:
    # O5 led, O12 on top; seat 2's O7 beats the lead but not the O12: only the O1 will do.
    g = game_of([["O5", "C1", "E4"], ["O12", "O4", "C3"], ["O1", "O7", "C4"], ["O2", "C5", "E3"]])
    play(g, "O5", "O12")
    assert_legal(g, ["O1"])
    err = refused(g, "O7")
    assert err.rule == "montar"
    assert str(err) == "you must beat the O12: you hold O1"


def test_montar_cannot_beat_then_any_lead_card() -> None:
    g = game_of([["O7", "C1", "E4"], ["O4", "O2", "C3"], ["E1", "E2", "C4"], ["O1", "C5", "E3"]])
    play(g, "O7")
    assert_legal(g, ["O4", "O2"])
    assert refused(g, "C3").rule == "asistir"


def test_montar_with_trump_on_the_table_any_lead_card() -> None:
    # O7 led, seat 1 has no oros and trumps with B5: seat 2 must follow but need not beat.
    g = game_of([["O7", "C1", "E4"], ["B5", "C3", "E5"], ["O12", "O4", "C4"], ["O1", "C5", "E3"]])
    play(g, "O7", "B5")
    assert_legal(g, ["O12", "O4"])
    assert refused(g, "C4").rule == "asistir"
    # and the trump still wins the trick over the O12 and the O1
    events = play(g, "O4", "O1")
    won = [e for e in events if e["type"] == "trick_won"]
    assert won[0]["seat"] == 1


def test_montar_with_several_higher_cards_any_of_them() -> None:
    g = game_of([["O7", "C1", "E4"], ["O1", "O3", "O5"], ["E1", "E2", "C4"], ["O12", "C5", "E3"]])
    play(g, "O7")
    assert_legal(g, ["O1", "O3"])
    err = refused(g, "O5")
    assert str(err) == "you must beat the O7: you hold O1, O3"


def test_montar_off_any_lead_card() -> None:
    g = game_of(
        [["O7", "C1", "E4"], ["O12", "O5", "C3"], ["E1", "E2", "C4"], ["O1", "C5", "E3"]],
        montar=False,
    )
    play(g, "O7")
    assert_legal(g, ["O12", "O5"])


# -- arrastre (trump lead) -----------------------------------------------------------


def test_trump_lead_must_follow_and_beat_with_trumps() -> None:
    g = game_of([["B7", "C1", "E4"], ["B12", "B4", "O1"], ["E1", "E2", "C4"], ["O7", "C5", "E3"]])
    play(g, "B7")
    assert_legal(g, ["B12"])
    err = refused(g, "B4")
    assert err.rule == "montar"
    assert str(err) == "you must beat the B7: you hold B12"
    err = refused(g, "O1")
    assert err.rule == "asistir"
    assert str(err) == "you must follow bastos: you hold B12, B4"


def test_trump_lead_without_trumps_any_card() -> None:
    g = game_of([["B7", "C1", "E4"], ["O12", "O4", "C3"], ["E1", "E2", "C4"], ["O7", "C5", "E3"]])
    play(g, "B7")
    assert_legal(g, ["O12", "O4", "C3"])


def test_trump_lead_montar_off_any_trump() -> None:
    g = game_of(
        [["B7", "C1", "E4"], ["B12", "B4", "O1"], ["E1", "E2", "C4"], ["O7", "C5", "E3"]],
        montar=False,
    )
    play(g, "B7")
    assert_legal(g, ["B12", "B4"])


# -- fallar ----------------------------------------------------------------------------


def test_fallar_no_lead_suit_must_trump() -> None:
    g = game_of([["O7", "C1", "E4"], ["B4", "C3", "E1"], ["E2", "E5", "C4"], ["O1", "C5", "E3"]])
    play(g, "O7")
    assert_legal(g, ["B4"])
    err = refused(g, "E1")
    assert err.rule == "fallar"
    assert str(err) == "you have no oros, so you must play a trump (bastos): you hold B4"


def test_fallar_with_several_trumps_and_no_trump_on_table_any_trump() -> None:
    g = game_of([["O7", "C1", "E4"], ["B4", "B12", "E1"], ["E2", "E5", "C4"], ["O1", "C5", "E3"]])
    play(g, "O7")
    assert_legal(g, ["B12", "B4"])


def test_no_lead_suit_and_no_trump_any_card() -> None:
    g = game_of([["O7", "C1", "E4"], ["C3", "E1", "E5"], ["E2", "E6", "C4"], ["O1", "C5", "E3"]])
    play(g, "O7")
    assert_legal(g, ["C3", "E1", "E5"])


def test_fallar_off_any_card() -> None:
    g = game_of(
        [["O7", "C1", "E4"], ["B4", "C3", "E1"], ["E2", "E5", "C4"], ["O1", "C5", "E3"]],
        fallar=False,
    )
    play(g, "O7")
    assert_legal(g, ["B4", "C3", "E1"])


def test_fallar_off_makes_pisar_moot() -> None:
    g = game_of(
        [["O7", "C1", "E4"], ["B5", "C3", "E1"], ["B12", "B4", "C4"], ["O1", "C5", "E3"]],
        fallar=False,
    )
    play(g, "O7", "B5")
    assert_legal(g, ["B12", "B4", "C4"])


# -- pisar ------------------------------------------------------------------------------


PISAR_HANDS = [["O7", "C1", "E4"], ["B5", "C3", "E5"], ["B12", "B4", "C4"], ["O1", "C5", "E3"]]


def test_pisar_possible_must_over_trump() -> None:
    g = game_of(PISAR_HANDS)
    play(g, "O7", "B5")
    assert_legal(g, ["B12"])
    err = refused(g, "B4")
    assert err.rule == "pisar"
    assert str(err) == "you must beat the B5 with a higher trump: you hold B12"
    err = refused(g, "C4")
    assert err.rule == "pisar"
    assert str(err) == "you have no oros, so you must beat the trump B5: you hold B12"


def test_pisar_impossible_any_card() -> None:
    # Only trumps below the B5: a lower trump or another suit, anything goes.
    g = game_of([["O7", "C1", "E4"], ["B5", "C3", "E5"], ["B4", "B2", "C4"], ["O1", "C5", "E3"]])
    play(g, "O7", "B5")
    assert_legal(g, ["B4", "B2", "C4"])
    play(g, "C4")
    events = play(g, "O1")
    assert [e["seat"] for e in events if e["type"] == "trick_won"] == [1]


def test_pisar_impossible_lower_trump_allowed() -> None:
    g = game_of([["O7", "C1", "E4"], ["B5", "C3", "E5"], ["B4", "B2", "C4"], ["O1", "C5", "E3"]])
    play(g, "O7", "B5", "B2")
    assert g.turn == 3


def test_pisar_beats_the_highest_trump_on_the_table() -> None:
    # B5 then B12 on the table: seat 3 must beat the B12, its B7 will not do.
    g = game_of([["O7", "C1", "E4"], ["B5", "C3", "E5"], ["B12", "B4", "C4"], ["B3", "B7", "E3"]])
    play(g, "O7", "B5", "B12")
    assert_legal(g, ["B3"])
    err = refused(g, "B7")
    assert str(err) == "you must beat the B12 with a higher trump: you hold B3"


def test_pisar_impossible_over_two_trumps() -> None:
    g = game_of([["O7", "C1", "E4"], ["B5", "C3", "E5"], ["B12", "B4", "C4"], ["B11", "B7", "E3"]])
    play(g, "O7", "B5", "B12")
    assert_legal(g, ["B11", "B7", "E3"])


def test_fallar_on_pisar_off_any_trump() -> None:
    g = game_of(PISAR_HANDS, pisar=False)
    play(g, "O7", "B5")
    assert_legal(g, ["B12", "B4"])
    err = refused(g, "C4")
    assert err.rule == "fallar"
    assert str(err) == "you have no oros, so you must play a trump (bastos): you hold B12, B4"


def test_pisar_with_trump_led_is_montar() -> None:
    # A trump lead is rules 1-2 with trump as the lead suit: the rule named is montar.
    g = game_of([["B5", "C1", "E4"], ["B12", "B4", "C3"], ["E1", "E2", "C4"], ["O7", "C5", "E3"]])
    play(g, "B5")
    assert refused(g, "B4").rule == "montar"


# -- all options off ---------------------------------------------------------------------


def test_everything_off_is_classic_oh_hell() -> None:
    g = game_of(PISAR_HANDS, montar=False, fallar=False, pisar=False)
    play(g, "O7", "B5")
    assert_legal(g, ["B12", "B4", "C4"])


# -- trick winner -------------------------------------------------------------------------


def winner_of(hands: list[list[str]], *cards: str, trump: str = TRUMP) -> int:
    g = worked(hands, trump, montar=False, fallar=False, pisar=False)
    events = play(g, *cards)
    won = [e for e in events if e["type"] == "trick_won"]
    assert len(won) == 1
    assert won[0]["trick"] == [
        {"seat": s % 4, "card": c} for s, c in enumerate(cards, start=g.mano)
    ]
    return int(won[0]["seat"])


def test_highest_lead_card_wins_without_trump() -> None:
    # Off-suit aces do not win: the O5 (the highest oros) does.
    hands = [["O4", "C1", "E4"], ["C2", "C3", "E5"], ["E1", "B4", "C4"], ["O5", "C5", "E3"]]
    assert winner_of(hands, "O4", "C3", "E1", "O5") == 3


def test_lowest_trump_beats_any_lead_card() -> None:
    hands = [["O1", "C1", "E4"], ["B2", "C3", "E5"], ["O3", "B4", "C4"], ["O12", "C5", "E3"]]
    assert winner_of(hands, "O1", "B2", "O3", "O12") == 1


def test_highest_trump_wins() -> None:
    hands = [["O1", "C1", "E4"], ["B12", "C3", "E5"], ["B3", "B4", "C4"], ["B11", "C5", "E3"]]
    assert winner_of(hands, "O1", "B12", "B3", "B11") == 2


def test_strength_order_decides_within_suit() -> None:
    # 3 beats 12 beats 11 beats 10 beats 7 ... beats 2; and 1 beats 3.
    order = [1, 3, 12, 11, 10, 7, 6, 5, 4, 2]
    for i in range(len(order) - 1):
        hi, lo = f"C{order[i]}", f"C{order[i + 1]}"
        others = ["O1", "O3", "E1", "E3"]
        hands = [[lo, "B7"], [hi, "B6"], [others[0], others[1]], [others[2], others[3]]]
        g = worked(hands, "B1")
        events = play(g, lo, hi, others[0], others[2])
        won = [e for e in events if e["type"] == "trick_won"]
        assert won[0]["seat"] == 1, (hi, lo)


def test_winner_leads_next_trick() -> None:
    hands = [["O4", "C1", "E4"], ["C2", "C3", "E5"], ["E1", "B4", "C4"], ["O5", "C5", "E3"]]
    g = worked(hands, TRUMP, montar=False, fallar=False, pisar=False)
    play(g, "O4", "C3", "E1", "O5")
    assert g.turn == 3
    assert g.trick == []
    assert g.tricks_won == [0, 0, 0, 1]


# -- not the player's turn, wrong phase, bad codes ---------------------------------------


def test_not_your_turn_changes_nothing() -> None:
    g = game_of(PISAR_HANDS)
    before = g.to_dict()
    with pytest.raises(NotYourTurnError) as info:
        g.play(2, "B12")
    assert info.value.rule == "turn"
    assert info.value.code == "not_your_turn"
    assert "seat 0" in str(info.value) and "seat 2" in str(info.value)
    assert g.to_dict() == before


def test_not_your_turn_to_bid() -> None:
    g = Game.with_deal(Rules(schedule=[3]), PISAR_HANDS, TRUMP, dealer=3)
    with pytest.raises(NotYourTurnError):
        g.bid(1, 0)
    assert isinstance(NotYourTurnError("x"), IllegalActionError)


def test_card_while_bidding_is_wrong_phase() -> None:
    g = Game.with_deal(Rules(schedule=[3]), PISAR_HANDS, TRUMP, dealer=3)
    before = g.to_dict()
    with pytest.raises(WrongPhaseError) as info:
        g.play(0, "O7")
    assert info.value.code == "wrong_phase"
    assert g.to_dict() == before


def test_bid_while_playing_is_wrong_phase() -> None:
    g = game_of(PISAR_HANDS)
    before = g.to_dict()
    with pytest.raises(WrongPhaseError):
        g.bid(0, 1)
    assert g.to_dict() == before


def test_card_not_in_hand() -> None:
    g = game_of(PISAR_HANDS)
    err = refused(g, "B12")
    assert err.rule == "not_in_hand"
    assert str(err) == "you do not hold B12: you hold O7, C1, E4"


def test_two_of_a_36_card_deck_is_not_in_hand() -> None:
    g = worked([["O7"], ["O5"], ["O4"]], "C1", dealer=2)
    assert g.players == 3
    assert refused(g, "O2").rule == "not_in_hand"


@pytest.mark.parametrize("code", ["O8", "X1", "", "O13"])
def test_bad_code_is_invalid_card(code: str) -> None:
    g = game_of(PISAR_HANDS)
    before = g.to_dict()
    with pytest.raises(InvalidCardError):
        g.play(0, code)
    assert g.to_dict() == before


@pytest.mark.parametrize("index", [40, 99, -1, True, None, 1.0])
def test_bad_card_index_is_invalid_card(index: object) -> None:
    g = game_of(PISAR_HANDS)
    before = g.to_dict()
    with pytest.raises(InvalidCardError):
        g.play(0, index)  # type: ignore[arg-type]
    assert g.to_dict() == before


def test_card_index_accepted() -> None:
    g = game_of(PISAR_HANDS)
    g.play(0, parse_card("O7"))
    assert g.plays == [(0, parse_card("O7"))]


def test_apply_takes_bid_and_card_actions() -> None:
    g = Game.with_deal(Rules(schedule=[3]), PISAR_HANDS, TRUMP, dealer=3)
    with pytest.raises(WrongPhaseError):
        g.apply(0, parse_card("O7"))
    for seat in range(4):
        assert g.apply(seat, bid_action(0)) == [{"type": "bid", "seat": seat, "bid": 0}]
    with pytest.raises(WrongPhaseError):
        g.apply(0, bid_action(0))
    g.apply(0, parse_card("O7"))
    assert g.trick == [(0, parse_card("O7"))]


@pytest.mark.parametrize("action", [-1, 40, 63])
def test_apply_refuses_what_is_no_action(action: int) -> None:
    g = game_of(PISAR_HANDS)
    before = g.to_dict()
    with pytest.raises(InvalidCardError):
        g.apply(0, action)
    assert g.to_dict() == before


def test_apply_refuses_a_bid_action_out_of_range() -> None:
    g = Game.with_deal(Rules(schedule=[3]), PISAR_HANDS, TRUMP, dealer=3)
    with pytest.raises(InvalidBidError) as info:
        g.apply(0, bid_action(4))
    assert info.value.rule == "bid_range"
    assert "from 0 to 3, not 4" in str(info.value)


# -- the legality function itself --------------------------------------------------------


def test_legal_cards_on_an_empty_trick_is_the_hand() -> None:
    h = mask("O1", "B2", "C7")
    assert legal_cards(h, -1, -1, 3, True, True, True) == h


def test_explain_illegal_none_for_a_legal_card() -> None:
    h = mask("O1", "B2", "C7")
    o7 = parse_card("O7")
    assert explain_illegal(parse_card("O1"), h, 0, o7, 3, True, True, True) is None
    assert explain_illegal(parse_card("C7"), h, 0, o7, 3, True, True, True) == (
        "asistir",
        "you must follow oros: you hold O1",
    )
