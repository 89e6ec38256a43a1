"""Poch's rules worked by hand on rigged deals (docs/poch.md, A deal; The game)."""

from __future__ import annotations

import pytest

from engine.errors import (
    IllegalCardError,
    InvalidBidError,
    InvalidRulesError,
    NotYourTurnError,
    WrongPhaseError,
)
from engine.poch.actions import HOLD, PASS, SUIT_BASE, action_from_wire, bet_action
from engine.poch.cards import best_set, card_code, parse_card, parse_suit
from engine.poch.errors import InvalidSuitError
from engine.poch.game import Game
from engine.poch.rules import PLATES, Rules
from tests.engine.poch.support import LAYOUT_A, LAYOUT_B, LAYOUT_C, LAYOUT_N, rigged

H = parse_suit("H")
D = parse_suit("D")


def suit(letter: str) -> int:
    return SUIT_BASE + parse_suit(letter)


def play(game: Game, *moves: object) -> list[dict]:
    events: list[dict] = []
    for move in moves:
        action = action_from_wire(move)
        events += game.apply(game.turn, action)  # type: ignore[arg-type]
    return events


# -- options -------------------------------------------------------------------


def test_defaults_are_those_of_poch_md() -> None:
    rules = Rules()
    assert (rules.players, rules.chips, rules.ante, rules.deals) == (4, 50, 1, 8)
    assert Rules(players=7).deals == 14
    assert Rules.from_dict(Rules(players=5).to_dict()) == Rules(players=5)


@pytest.mark.parametrize(
    ("options", "option"),
    [
        ({"players": 2}, "players"),
        ({"players": 9}, "players"),
        ({"chips": 0}, "chips"),
        ({"ante": 0}, "ante"),
        ({"deals": 0}, "deals"),
        ({"players": True}, "players"),
        ({"chips": 7}, "chips"),  # cannot pay the first ante of 8 x 1
    ],
)
def test_bad_options_are_refused_by_name(options: dict, option: str) -> None:
    with pytest.raises(InvalidRulesError) as info:
        Rules(**options)
    assert info.value.option == option and info.value.code == "invalid_rules"


# -- deal, trump, ante -----------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "sizes"),
    [
        (3, [11, 11, 10]),
        (4, [8] * 4),
        (5, [7, 7, 6, 6, 6]),
        (6, [6, 6, 5, 5, 5, 5]),
        (7, [5, 5, 5, 5, 4, 4, 4]),
        (8, [4] * 8),
    ],
)
def test_the_uneven_deal_gives_the_first_32_mod_n_from_vorhand_one_more(
    players: int, sizes: list[int]
) -> None:
    for seed in range(5):
        game = Game.new(Rules(players=players), seed=seed)
        order = [(game.dealer + 1 + k) % players for k in range(players)]
        assert [len(game.hands[s]) for s in order] == sizes
        assert sorted(c for h in game.hands for c in h) == list(range(32))
        # The trump suit is the suit of a card of the dealer's; the card stays hidden.
        assert game.trump_card in game.hands[game.dealer]
        assert card_code(game.trump_card)[0] == "CSHD"[game.trump]  # type: ignore[arg-type]


def test_the_dealers_last_card_sets_trumps(monkeypatch: pytest.MonkeyPatch) -> None:
    game = rigged(monkeypatch, LAYOUT_A)
    assert game.trump == D and game.trump_card == parse_card("D9")
    game = rigged(monkeypatch, LAYOUT_N)
    assert game.trump == D and game.trump_card == parse_card("D7")


def test_ante_and_every_honour_plate(monkeypatch: pytest.MonkeyPatch) -> None:
    # Layout A, trumps D: seat 3 holds DA DK DQ DJ D10 (and so the marriage); the
    # sequence D7 D8 D9 is split (seat 2, seat 3) and its plate stays.
    game = rigged(monkeypatch, LAYOUT_A, ante=2)
    taken = {(e["plate"], e["seat"], e["chips"]) for e in game.collected}
    assert taken == {(p, 3, 8) for p in ("ace", "king", "queen", "jack", "ten", "marriage")}
    assert game.plates == {p: 0 for p in PLATES} | {"sequence": 8, "pocher": 8}
    assert game.chips == [34, 34, 34, 34 + 48]
    assert {e["plate"]: e["cards"] for e in game.collected}["marriage"] == ["DQ", "DK"]


def test_sequence_plate_and_spread_honours(monkeypatch: pytest.MonkeyPatch) -> None:
    # Layout N, trumps D: DA seat 0, DK seat 1, DQ seat 2, DJ seat 3, D10 seat 0.
    game = rigged(monkeypatch, LAYOUT_N)
    taken = {e["plate"]: e["seat"] for e in game.collected}
    assert taken == {"ace": 0, "king": 1, "queen": 2, "jack": 3, "ten": 0}
    assert game.plates["marriage"] == game.plates["sequence"] == game.plates["pocher"] == 4
    # A hand holding D7 D8 D9 takes the sequence (and what it kept from earlier deals).
    hands = [
        "CK SK HK C7 C8 C9 S7 S8",
        "CA SA C10 CJ S9 S10 H7 H8",
        "CQ SQ SJ H9 H10 HJ HQ HA",
        "D7 D8 DK DA DQ DJ D10 D9",
    ]
    game = rigged(monkeypatch, hands)
    taken = {e["plate"]: e["seat"] for e in game.collected}
    assert taken["sequence"] == 3 and taken["marriage"] == 3
    assert game.chips[3] == 42 + 7 * 4


def test_unwon_plates_carry_over(monkeypatch: pytest.MonkeyPatch) -> None:
    game = rigged(monkeypatch, LAYOUT_A, deals=2)
    events = play(game, "pass", "pass", "pass", "pass", "C7", "S", "H")
    assert game.deal_no == 2
    # Nobody won the sequence nor the pocher plate in deal 1: 4 + 4 on each now,
    # unless deal 2's sequence was taken (then with 8).
    assert game.plates["pocher"] == 8
    seq = [e for e in events if e["type"] == "collect" and e["plate"] == "sequence"]
    assert [e["chips"] for e in seq] == [8] if seq else game.plates["sequence"] == 8


def test_a_player_who_cannot_pay_the_ante_leaves() -> None:
    for seed in range(20):
        game = Game.new(Rules(players=3, chips=8), seed=seed)
        events: list[dict] = []
        while game.deal_no == 1 and not game.finished:
            events += game.apply(game.turn, game.legal_actions()[0])  # type: ignore[arg-type]
        for e in events:
            if e["type"] == "leave":
                assert e["chips"] < 8 and not game.active[e["seat"]]
                assert game.chips[e["seat"]] == e["chips"]  # leaves with what remains
        assert all(game.chips[s] >= 0 for s in range(3)) and game.total_chips() == 24
        if sum(game.active) < 2:
            assert game.finished


# -- sets ----------------------------------------------------------------------


def key(codes: str, trump: str = "D") -> tuple | None:
    found = best_set([parse_card(c) for c in codes.split()], parse_suit(trump))
    return None if found is None else found[0]


def test_sets_rank_by_size_then_rank_then_trump() -> None:
    assert key("C8 S8 H8 D8") > key("CQ SQ HQ")  # four 8s beat three queens
    assert key("CK SK HK") > key("C10 S10 H10")  # three kings beat three tens
    assert key("C7 S7") < key("C8 S8") < key("CA SA") < key("C7 S7 H7")
    assert key("CJ DJ") > key("SJ HJ")  # two jacks: the trump jack decides
    assert key("CJ HJ", trump="H") > key("SJ DJ", trump="H")
    assert key("C7 S8 H9 DA") is None
    # A hand's best set is its highest: three 7s over a pair of aces.
    assert best_set([parse_card(c) for c in ("CA", "SA", "C7", "S7", "H7")], D)[1] == [
        parse_card(c) for c in ("C7", "S7", "H7")
    ]


# -- the betting round ------------------------------------------------------------


def test_one_round_from_vorhand_to_dealer_and_its_refusals(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = rigged(monkeypatch, LAYOUT_A)
    assert game.phase == "betting" and game.turn == 0
    assert game.legal_actions() == [PASS] + [bet_action(n) for n in range(1, 43)]
    with pytest.raises(InvalidBidError) as info:
        game.apply(0, HOLD)
    assert info.value.rule == "hold"
    with pytest.raises(NotYourTurnError):
        game.apply(1, PASS)
    with pytest.raises(InvalidBidError):
        game.apply(0, bet_action(43))  # more than seat 0 holds
    with pytest.raises(WrongPhaseError):
        game.apply(0, parse_card("C7"))
    snapshot = game.to_dict()
    events = play(game, 4)
    assert events == [{"type": "bet", "seat": 0, "amount": 4, "pot": 4}]
    assert game.turn == 1 and HOLD in game.legal_actions()
    with pytest.raises(InvalidBidError) as info:
        game.apply(1, bet_action(4))
    assert info.value.rule == "raise_above"
    assert snapshot["chips"] == [42, 42, 42, 66]
    events = play(game, 5, "pass")
    assert [e["type"] for e in events] == ["raise", "pass"]
    assert game.turn == 3 and game.high_bidder() == 1
    play(game, "hold")  # the dealer holds 5: a tie, and the first to pay it stays high
    assert game.phase == "starting"
    assert [b["call"] for b in game.bets] == ["bet", "raise", "pass", "hold"]


def test_the_bluff_pays_twice_the_pot_and_the_best_set_takes_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = rigged(monkeypatch, LAYOUT_A, deals=1)
    events = play(game, 4, 5, "pass", "hold")
    # Pot 4 + 5 + 5 = 14; seat 1 (the high bidder, a pair of aces) pays 28; seat 0's
    # three kings take 42 and the pocher plate's 4.
    assert {"type": "bluff", "seat": 1, "paid": 28} in events
    assert {"type": "take_pot", "seat": 0, "pot": 42, "pocher": 4} in events
    showdown = next(e for e in events if e["type"] == "showdown")
    # Every player shows their best set (codes in pack order: C S H D, low to high).
    assert showdown["sets"] == {
        "0": ["CK", "SK", "HK"],
        "1": ["CA", "SA"],
        "2": ["CQ", "SQ"],
        "3": ["HA", "DA"],
    }
    assert game.chips == [84, 9, 42, 61] and game.pot == 0 and game.plates["pocher"] == 0
    assert game.starter == 0 and game.turn == 0
    assert game.legal_actions() == [parse_card("C7"), parse_card("S7")]


def test_the_high_bidder_with_the_best_set_takes_pot_and_pocher(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = rigged(monkeypatch, LAYOUT_A)
    events = play(game, "pass", 3, "hold", "pass")  # seat 1 bets 3, seat 2 holds
    assert {"type": "bluff", "seat": 1, "paid": 12} in events  # beaten by seat 0, who passed
    assert game.starter == 0 and game.chips[0] == 42 + 18 + 4
    game = rigged(monkeypatch, LAYOUT_A)
    events = play(game, 4, "pass", "pass", "pass")
    assert not any(e["type"] == "bluff" for e in events)
    assert {"type": "take_pot", "seat": 0, "pot": 4, "pocher": 4} in events
    assert game.chips[0] == 42 + 4


def test_two_pairs_of_aces_the_trump_ace_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    game = rigged(monkeypatch, LAYOUT_B)
    events = play(game, "pass", 2, "pass", "pass")
    assert {"type": "bluff", "seat": 1, "paid": 4} in events
    assert {"type": "take_pot", "seat": 3, "pot": 6, "pocher": 4} in events
    game = rigged(monkeypatch, LAYOUT_B)
    events = play(game, "pass", "pass", "pass", 2)
    assert {"type": "take_pot", "seat": 3, "pot": 2, "pocher": 4} in events


def test_nobody_bets_no_showdown_pot_and_pocher_stay(monkeypatch: pytest.MonkeyPatch) -> None:
    game = rigged(monkeypatch, LAYOUT_A)
    events = play(game, "pass", "pass", "pass", "pass")
    assert [e["type"] for e in events][-1] == "no_bet" and game.showdown == {}
    assert game.plates["pocher"] == 4 and game.starter is None and game.turn == 0


def test_nobody_has_a_set_the_bet_stays_in_the_pot(monkeypatch: pytest.MonkeyPatch) -> None:
    game = rigged(monkeypatch, LAYOUT_N)
    events = play(game, "pass", 3, "pass", "pass")
    assert {"type": "no_set", "seat": 1, "pot": 3} in events
    assert game.pot == 3 and game.plates["pocher"] == 4 and game.starter is None
    assert game.turn == 0  # Vorhand starts the shedding


def test_a_bet_may_not_exceed_what_a_player_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    game = rigged(monkeypatch, LAYOUT_A)
    play(game, 40)
    game.chips[1] = 39
    assert HOLD not in game.legal_actions() and game.legal_actions() == [PASS]
    with pytest.raises(InvalidBidError) as info:
        game.apply(1, HOLD)
    assert info.value.rule == "no_credit"


# -- shedding and payout -----------------------------------------------------------


def test_shedding_upwards_the_suit_choice_and_the_payout(monkeypatch: pytest.MonkeyPatch) -> None:
    game = rigged(monkeypatch, LAYOUT_A, deals=1)
    play(game, 4, 5, "pass", "hold")
    with pytest.raises(IllegalCardError):
        game.apply(0, parse_card("C8"))
    events = play(game, "C7")
    assert events[0] == {"type": "start", "seat": 0, "direction": "up"}
    plays = [(e["seat"], e["card"]) for e in events if e["type"] == "play"]
    assert plays == [
        (0, "C7"),
        (0, "C8"),
        (0, "C9"),
        (1, "C10"),
        (1, "CJ"),
        (2, "CQ"),
        (0, "CK"),
        (1, "CA"),
    ]
    assert game.phase == "choosing" and game.turn == 1
    assert game.legal_actions() == [suit("S"), suit("H"), suit("D")]
    with pytest.raises(InvalidSuitError):
        game.apply(1, suit("C"))
    events = play(game, "S")
    assert game.turn == 1 and game.legal_actions() == [suit("H"), suit("D")]
    events = play(game, "H")
    # H7 and H8 were seat 1's last cards: it wins and every other seat pays a chip a card.
    won = next(e for e in events if e["type"] == "deal_won")
    assert won == {"type": "deal_won", "deal": 1, "winner": 1, "paid": {"0": 1, "2": 5, "3": 8}}
    assert game.finished and game.chips == [83, 23, 37, 53]
    assert game.result() == {"chips": [83, 23, 37, 53], "winners": [0]}
    assert game.total_chips() == 200


def test_shedding_downwards_starter_fallback_and_last_suit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = rigged(monkeypatch, LAYOUT_C, deals=1)
    play(game, 1, "pass", "pass", "pass")
    # Seat 0 won the betting with three kings but holds no 7 and no ace: seat 1 starts.
    assert game.starter == 0 and game.phase == "starting" and game.turn == 1
    assert game.legal_actions() == [parse_card(c) for c in ("CA", "SA", "H7")]
    events = play(game, "SA")
    assert events[0]["direction"] == "down"
    assert [e["card"] for e in events if e["type"] == "play"] == [
        "SA",
        "SK",
        "SQ",
        "SJ",
        "S10",
        "S9",
        "S8",
        "S7",
    ]
    assert game.turn == 2
    play(game, "C")
    assert game.turn == 2 and game.legal_actions() == [suit("H"), suit("D")]
    events = play(game, "D")
    # Hearts, the one suit left, runs without a choice: HA seat 3, HK seat 0, HQ seat 3,
    # which was seat 3's last card.
    assert [e["type"] for e in events].count("choose") == 1
    assert [e["card"] for e in events if e["type"] == "play"][-3:] == ["HA", "HK", "HQ"]
    won = next(e for e in events if e["type"] == "deal_won")
    assert won["winner"] == 3 and won["paid"] == {"0": 2, "1": 2, "2": 1}


def test_the_suit_choice_decides_who_is_out_first(monkeypatch: pytest.MonkeyPatch) -> None:
    game = rigged(monkeypatch, LAYOUT_C, deals=1)
    play(game, 1, "pass", "pass", "pass", "SA", "C")
    # Choosing hearts instead of diamonds: HA seat 3, HK seat 0, HQ seat 3, HJ seat 2,
    # H10 and H9 seat 0, its last cards.
    events = play(game, "H")
    won = next(e for e in events if e["type"] == "deal_won")
    assert won["winner"] == 0 and won["paid"] == {"1": 2, "2": 2, "3": 6}
    assert [e["card"] for e in events if e["type"] == "play"] == [
        "HA",
        "HK",
        "HQ",
        "HJ",
        "H10",
        "H9",
    ]


def test_a_player_short_of_chips_pays_what_they_have(monkeypatch: pytest.MonkeyPatch) -> None:
    game = rigged(monkeypatch, LAYOUT_A, deals=1)
    play(game, "pass", "pass", "pass", "pass")
    game.chips[3] = 2  # seat 3 keeps 8 cards to the end of this deal
    total = game.total_chips()
    events = play(game, "C7", "S")  # clubs, then spades: seat 1 out as in the worked deal
    events += play(game, "H")
    won = next(e for e in events if e["type"] == "deal_won")
    assert won["paid"]["3"] == 2 and game.chips[3] == 0 and game.total_chips() == total


# -- the game -------------------------------------------------------------------


def test_the_game_lasts_its_deals_and_the_dealer_moves_on() -> None:
    game = Game.new(Rules(players=3, deals=3, chips=200), seed=7, dealer=1)
    dealers = [game.dealer]
    while not game.finished:
        deal = game.deal_no
        game.apply(game.turn, game.legal_actions()[0])  # type: ignore[arg-type]
        if game.deal_no != deal and not game.finished:
            dealers.append(game.dealer)
    assert dealers == [1, 2, 0] and game.deal_no == 3 and len(game.deal_results) == 3
    assert all(game.active)  # nobody "leaves" after the last deal
    best = max(game.chips)
    assert game.result()["winners"] == [s for s in range(3) if game.chips[s] == best]


def test_wire_forms() -> None:
    assert action_from_wire("pass") == PASS and action_from_wire("hold") == HOLD
    assert action_from_wire(7) == bet_action(7)
    assert action_from_wire("H") == SUIT_BASE + H
    assert action_from_wire("S10") == parse_card("S10")
    with pytest.raises(InvalidBidError):
        action_from_wire(0)
