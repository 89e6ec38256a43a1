"""Positions sent by clients (POST /api/v1/ai/move): every real position is accepted and
gives the same observation as the game would; every inconsistency is refused with a
sentence that names it."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from ai.pocha.kind import KIND
from engine.errors import InvalidStateError
from engine.pocha import Observation, observe
from engine.pocha.cards import card_code, parse_card
from engine.pocha.position import position_from_dict, position_of
from tests.engine.pocha.engine_support import play, random_game_steps, random_rules, worked

# The fields of an observation a decision depends on (the hand's number, the score sheet
# and the previous hand's last trick are not part of a position).
DECISION_FIELDS = (
    "rules",
    "seat",
    "phase",
    "cards_per_player",
    "dealer",
    "trump_card",
    "trump_holder",
    "bids",
    "tricks_won",
    "plays",
    "turn",
    "scores",
    "hand",
    "legal_actions",
    "trick",
)


def same_decision_view(a: Observation, b: Observation) -> None:
    for name in DECISION_FIELDS:
        assert getattr(a, name) == getattr(b, name), name


def test_every_real_position_is_accepted_as_the_game_sees_it() -> None:
    rng = random.Random(5)
    checked = 0
    for i in range(40):
        rules = random_rules(rng)
        for game in random_game_steps(rules, seed=i, rng=rng):
            if game.finished:
                break
            seat = game.turn
            assert seat is not None
            real = observe(game, seat)
            position = position_of(real)
            # The derived fields, when sent, are checked and accepted.
            view = real.to_dict()
            position |= {
                "cards_per_player": real.cards_per_player,
                "trick": view["trick"],
                "tricks_won": view["tricks_won"],
                "turn": seat,
            }
            same_decision_view(position_from_dict(position), real)
            checked += 1
    assert checked > 500


def test_a_bot_decides_from_a_client_position() -> None:
    game = worked(
        [["O1", "O4", "C3"], ["O5", "E4", "C1"], ["B4", "C7", "E5"], ["O12", "C12", "B1"]],
        "E7",
        bids=[1, 0, 1, 0],
    )
    play(game, "O4", "O5")
    position = position_of(observe(game, 2))
    obs = position_from_dict(position)
    assert obs.turn == 2 and len(obs.trick) == 2
    # Seat 2 has no oros and must trump (fallar): its only espadas card is E5.
    assert len(obs.legal_actions) == 1
    decision = KIND.decide(obs, "easy", seed=1)
    assert decision.action == parse_card("E5")


# -- inconsistencies, one at a time ------------------------------------------------------------


def base() -> dict[str, Any]:
    """Seat 0 (la mano, dealer 3) to lead the first trick of a 3-card hand; E7 turned."""
    return {
        "rules": {"players": 4},
        "seat": 0,
        "hand": ["O1", "O4", "C3"],
        "trump": {"card": "E7", "holder": None},
        "dealer": 3,
        "bids": [1, 0, 1, 0],
        "plays": [],
    }


def whole_deck(seat: int = 0) -> dict[str, Any]:
    """4 players, 10 cards each (the whole deck): the dealer (3) holds the trump card B7."""
    hands = {
        0: ["O1", "O3", "O12", "O11", "O10", "C1", "C3", "C12", "C11", "C10"],
        3: ["B7", "B1", "E1", "E3", "E12", "E11", "E10", "O7", "O6", "O5"],
    }
    return {
        "rules": {"players": 4},
        "seat": seat,
        "hand": hands[seat],
        "trump": {"card": "B7", "holder": 3},
        "dealer": 3,
        "bids": [None] * 4,
        "plays": [],
    }


def plays(*entries: str) -> list[dict[str, Any]]:
    """`"1:O5"` -> {"seat": 1, "card": "O5"}."""
    out = []
    for entry in entries:
        seat, card = entry.split(":")
        out.append({"seat": int(seat), "card": card})
    return out


def refused(position: dict[str, Any], match: str) -> None:
    with pytest.raises(InvalidStateError, match=match):
        position_from_dict(position)


def test_the_base_positions_are_valid() -> None:
    assert position_from_dict(base()).legal_actions
    assert position_from_dict(whole_deck(0)).phase == "bidding"


def test_where_the_hand_stands_in_the_game_is_unknown_not_made_up() -> None:
    obs = position_from_dict(base() | {"scores": [5, -5, 10, 0]})
    assert obs.hand_number is None and obs.hands_total is None
    assert obs.scores == (5, -5, 10, 0)
    view = obs.to_dict()
    assert view["hand_number"] is None and view["hands_total"] is None
    assert Observation.from_dict(view) == obs


def test_tricks_and_the_last_trick_come_from_the_replay() -> None:
    # Trick 1: O4 led, O5 beats it, O6 beats that, and seat 3 trumps with E1 (espadas).
    position = base() | {"hand": ["O1", "C3"], "plays": plays("0:O4", "1:O5", "2:O6", "3:E1")}
    refused(position, "it is seat 3's turn to play")
    dealer_seat = base() | {
        "seat": 3,
        "hand": ["E3", "B5"],
        "plays": plays("0:O4", "1:O5", "2:O6", "3:E1"),
    }
    obs = position_from_dict(dealer_seat)
    assert obs.tricks_won == (0, 0, 0, 1)
    assert obs.turn == 3 and obs.trick == ()
    assert [card_code(c) for _, c in obs.last_trick] == ["O4", "O5", "O6", "E1"]


def test_cards_twice_or_not_cards() -> None:
    refused(base() | {"hand": ["O1", "O1", "C3"]}, "the hand holds O1 twice")
    refused(base() | {"hand": ["O1", "X9", "C3"]}, "hand: 'X9' is not a card")
    refused(base() | {"hand": ["O1", "C3"], "plays": plays("0:O4", "1:O4")}, "O4 is played twice")
    refused(base() | {"plays": plays("0:O1")}, "O1 is in the hand and also played by seat 0")
    three = base() | {"rules": {"players": 3}, "dealer": 2, "bids": [1, 0, 1]}
    refused(three | {"hand": ["O2", "O4", "C3"]}, "O2 is not in the 36-card deck")


def test_hand_sizes() -> None:
    refused(base() | {"cards_per_player": 4}, "so each seat was dealt 3, not 4")
    refused(base() | {"hand": []}, "holds no cards")
    eleven = [f"{s}{r}" for s in "OC" for r in (1, 3, 12, 11, 10, 7)][:11]
    refused(base() | {"hand": eleven, "bids": [None] * 4}, "more than the 10 that 4 players")


@pytest.mark.parametrize(
    ("hand", "said"),
    [(["O1"], "seat 0 holds 1 card and has played 0, so each seat was dealt 1, not 4"),
     (["O1", "O4"], "seat 0 holds 2 cards and has played 0, so each seat was dealt 2, not 4")],
)  # fmt: skip
def test_a_hand_size_refused_says_its_cards_as_counted(hand: list[str], said: str) -> None:
    refused(base() | {"hand": hand, "bids": [None] * 4, "cards_per_player": 4}, said)


def test_the_trump_card_where_it_cannot_be() -> None:
    refused(base() | {"trump": {"card": "E7", "holder": 3}}, "belongs to nobody")
    refused(base() | {"trump": {"card": "O4", "holder": None}}, "cannot be in a hand")
    refused(base() | {"hand": ["O1", "C3"], "plays": plays("0:O4", "1:E7")}, "or played")
    refused(whole_deck(0) | {"trump": {"card": "B7", "holder": None}}, "holder must be 3")
    refused(whole_deck(0) | {"trump": {"card": "C1", "holder": 3}}, "cannot be in seat 0's hand")
    dealer = whole_deck(3)
    dealer["hand"] = [c for c in dealer["hand"] if c != "B7"] + ["B6"]
    refused(dealer, "must be in its hand until it plays it")
    played_by_other = whole_deck(0) | {"bids": [1, 1, 1, 1], "plays": plays("0:O1", "1:B7")}
    played_by_other["hand"] = played_by_other["hand"][1:]
    refused(played_by_other, "but seat 1 played it")


def test_bids() -> None:
    refused(base() | {"bids": [4, 0, 1, 0]}, "seat 0 bid 4, but a bid is from 0 to the 3")
    refused(base() | {"bids": [1, 0, 1]}, "one entry per seat")
    refused(base() | {"bids": [1, None, 1, None]}, "seat 2 has bid before seat 1")
    refused(base() | {"bids": [1, 0, 1, 1]}, "the dealer \\(seat 3\\) may not bid 1")
    relaxed = base() | {"rules": {"players": 4, "dealer_restriction": False}}
    assert position_from_dict(relaxed | {"bids": [1, 0, 1, 1]}).phase == "playing"
    refused(base() | {"bids": [1, 0, None, None]}, "it is seat 2's turn to bid")
    refused(
        base() | {"hand": ["O1", "C3"], "bids": [1, 0, None, None], "plays": plays("0:O4")},
        "cards were played before every seat bid",
    )


def test_plays_out_of_turn() -> None:
    refused(base() | {"seat": 1, "plays": plays("1:O5")}, "seat 0 was to play the lead")
    position = base() | {"seat": 2, "hand": ["B4", "C7", "E5"], "plays": plays("0:O4", "2:O5")}
    refused(position, "play 2 \\(O5 by seat 2\\) is out of turn")


def test_own_plays_must_have_been_legal() -> None:
    # Dealer 2, so seat 3 leads O5; seat 0 held O1 and played C1 instead of following.
    position = base() | {
        "dealer": 2,
        "hand": ["O1", "C3"],
        "bids": [1, 0, 0, 1],
        "plays": plays("3:O5", "0:C1"),
    }
    refused(position, "seat 0 could not play C1 in trick 1: you must follow oros")


def test_other_seats_plays_must_fit_what_they_showed() -> None:
    # Seat 1 showed it has no oros (it played copas on an oros lead), then plays an oro.
    position = base() | {
        "hand": ["O1"],
        "plays": plays("0:O4", "1:C4", "2:O5", "3:O6", "3:C5", "0:C3", "1:O7"),
        "rules": {"players": 4, "fallar": False},
    }
    refused(position, "seat 1 played O7 in trick 2, but it cannot have held O7 when it played C4")


def test_the_dealer_holding_the_trump_card_must_use_it() -> None:
    # Whole deck: seat 3 (dealer) still holds B7. On a copas lead it plays an oro: with no
    # copas it had to trump (fallar), and B7 is a trump.
    position = whole_deck(0) | {"bids": [1, 1, 1, 1]}
    position["hand"] = position["hand"][:5] + position["hand"][6:]
    position["plays"] = plays("0:C1", "1:C4", "2:C5", "3:O7")
    position["seat"] = 0
    refused(position, "seat 3 could not play O7 in trick 1: it still held the trump card B7")


def test_plays_no_deal_can_explain() -> None:
    # Whole deck, fallar off: seats 1, 2 and 3 all show they hold no oros, yet nine oros are
    # unseen and every unseen card is in their hands.
    position = whole_deck(0) | {
        "rules": {"players": 4, "fallar": False},
        "bids": [1, 1, 1, 1],
        "plays": plays("0:O1", "1:E4", "2:E5", "3:E6"),
    }
    position["hand"] = ["C1", "C3", "C12", "C11", "C10", "C7", "C6", "C5", "C4"]
    refused(position, "no deal fits the plays: seat\\(s\\) 1, 2 must still hold 18 card")


def test_the_seat_must_be_the_one_to_act_and_derived_fields_must_agree() -> None:
    refused(base() | {"seat": 2, "hand": ["B4", "C7", "E5"]}, "it is seat 0's turn to play")
    refused(base() | {"turn": 1}, "turn does not follow")
    # Cards on the table, or tricks won, with no plays: the missing field is named.
    refused(base() | {"trick": [{"seat": 0, "card": "O1"}]}, 'the position has no "plays"')
    on_table = base() | {"hand": ["O1", "C3"], "seat": 1, "plays": [{"seat": 0, "card": "O4"}]}
    on_table["hand"] = ["O5", "E4", "C1"]
    assert position_from_dict(on_table | {"trick": [{"seat": 0, "card": "o4"}]}).trick
    refused(on_table | {"trick": []}, "on the table from them is O4 by seat 0")
    refused(on_table | {"trick": [{"seat": 0, "card": "O1"}]}, "trick does not match the plays")
    refused(base() | {"tricks_won": [1, 0, 0, 0]}, 'no "plays": its "tricks_won" says')


def test_malformed_positions() -> None:
    refused(base() | {"colour": "red"}, 'unknown field "colour"')
    refused({k: v for k, v in base().items() if k != "hand"}, 'the position has no "hand"')
    refused(base() | {"seat": 4}, "seat must be a seat from 0 to 3")
    refused(base() | {"seat": True}, "seat must be a whole number")
    refused(base() | {"rules": {"players": 9}}, "the rules are not valid: players")
    refused(base() | {"rules": {"montar": "yes"}}, "the rules are not valid: montar")
    refused(base() | {"plays": [{"seat": 0}]}, "play 1 must be an object with a seat and a card")
    refused(base() | {"trump": "E7"}, "trump must be an object")
    refused(base() | {"scores": [1, 2]}, "scores must have one total per seat")


def test_position_of_round_trips_a_copy() -> None:
    game = worked(
        [["O1", "O4", "C3"], ["O5", "E4", "C1"], ["B4", "C7", "E5"], ["O12", "C12", "B1"]],
        "E7",
        bids=[1, 0, 1, 0],
    )
    obs = observe(game, 0)
    position = position_of(obs)
    assert position_from_dict(copy.deepcopy(position)).hand == obs.hand
    with pytest.raises(ValueError):
        position_of(observe(game, None))
