"""The game flow: bids and the dealer rule, scoring, the deal and the trump,
seeds and rotation, end of game and tiebreak, storage and tampered states."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.errors import InvalidBidError, InvalidStateError, WrongPhaseError
from engine.pocha import Game, Rules, hand_points
from engine.pocha.actions import bid_action
from engine.pocha.cards import BIT, DECK_40, card_code, cards_list, codes, parse_card
from engine.pocha.hand import deal
from engine.pocha.rules import TIEBREAK_HANDS
from tests.engine.pocha.engine_support import bids, finish_hand_first_legal, play, worked

HANDS_3 = [["O7", "C1", "E4"], ["O12", "O5", "C3"], ["E1", "E2", "C4"], ["O1", "C5", "E3"]]


def dealt_game(**options: Any) -> Game:
    """4 players, one hand of 3 cards (HANDS_3), trump bastos, dealer 3."""
    return Game.with_deal(Rules(schedule=[3], **options), HANDS_3, "B1", dealer=3)


# -- bidding and the dealer rule -------------------------------------------------------


def test_bidding_goes_from_la_mano_to_the_dealer() -> None:
    g = dealt_game()
    assert (g.dealer, g.mano, g.turn, g.phase) == (3, 0, 0, "bidding")
    order = []
    for _ in range(4):
        order.append(g.turn)
        g.bid(g.turn, 0)  # type: ignore[arg-type]
    assert order == [0, 1, 2, 3]
    assert g.phase == "playing"
    assert g.turn == 0  # la mano leads the first trick


def test_dealer_rule_forbids_making_the_sum() -> None:
    g = dealt_game()
    for seat, b in [(0, 1), (1, 1), (2, 0)]:
        assert g.legal_actions() == bids(0, 1, 2, 3)
        g.bid(seat, b)
    # 1 + 1 + 0 + x = 3 cards: the dealer may not bid 1
    assert g.legal_actions() == bids(0, 2, 3)
    before = g.to_dict()
    with pytest.raises(InvalidBidError) as info:
        g.bid(3, 1)
    assert info.value.rule == "dealer_restriction"
    assert info.value.code == "invalid_bid"
    assert "may not bid 1" in str(info.value)
    assert "3 cards" in str(info.value)
    assert g.to_dict() == before
    g.bid(3, 2)
    assert g.bids == [1, 1, 0, 2]


def test_dealer_rule_can_forbid_zero() -> None:
    g = dealt_game()
    for seat, b in [(0, 2), (1, 0), (2, 1)]:
        g.bid(seat, b)
    assert g.legal_actions() == bids(1, 2, 3)
    with pytest.raises(InvalidBidError) as info:
        g.bid(3, 0)
    assert info.value.rule == "dealer_restriction"


def test_dealer_rule_can_forbid_all_cards() -> None:
    g = dealt_game()
    for seat in range(3):
        g.bid(seat, 0)
    assert g.legal_actions() == bids(0, 1, 2)


def test_dealer_rule_one_card_message() -> None:
    g = worked([["O1"], ["O2"], ["O3"], ["O4"]], "B1", bids=[0, 0, 0, 0])
    assert g.phase == "playing"
    g2 = Game.with_deal(Rules(schedule=[1]), [["O1"], ["O2"], ["O3"], ["O4"]], "B1", dealer=3)
    for seat in range(3):
        g2.bid(seat, 0)
    with pytest.raises(InvalidBidError) as info:
        g2.bid(3, 1)
    assert "the 1 card in play" in str(info.value)


def test_dealer_rule_out_of_range_allows_every_bid() -> None:
    g = dealt_game()
    for seat, b in [(0, 2), (1, 2), (2, 0)]:
        g.bid(seat, b)
    # the others already bid 4 > 3 cards: no bid of the dealer makes 3
    assert g.legal_actions() == bids(0, 1, 2, 3)
    g.bid(3, 0)
    assert g.phase == "playing"


def test_dealer_rule_off_allows_every_bid() -> None:
    g = dealt_game(dealer_restriction=False)
    for seat, b in [(0, 1), (1, 1), (2, 0)]:
        g.bid(seat, b)
    assert g.legal_actions() == bids(0, 1, 2, 3)
    g.bid(3, 1)
    assert sum(b for b in g.bids if b is not None) == 3


def test_only_the_dealer_is_restricted() -> None:
    g = dealt_game()
    g.bid(0, 3)
    g.bid(1, 0)
    # seat 2 could make the sum 3 with 0, and may
    assert bid_action(0) in g.legal_actions()
    g.bid(2, 0)


@pytest.mark.parametrize("bad", [4, -1, 100, "1", 1.0, None, True, False])
def test_bid_out_of_range_or_not_an_int(bad: object) -> None:
    g = dealt_game()
    before = g.to_dict()
    with pytest.raises(InvalidBidError) as info:
        g.bid(0, bad)  # type: ignore[arg-type]
    assert info.value.rule == "bid_range"
    assert "from 0 to 3" in str(info.value)
    assert g.to_dict() == before


# -- scoring -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bid", "won", "points"),
    [
        (0, 0, 10),
        (3, 3, 25),
        (3, 1, -10),
        (0, 2, -10),
        (1, 1, 15),
        (1, 0, -5),
        (2, 5, -15),
        (10, 10, 60),
    ],
)
def test_hand_points_table(bid: int, won: int, points: int) -> None:
    assert hand_points(Rules(), bid, won) == points


def test_hand_points_custom_constants() -> None:
    r = Rules(exact_bonus=20, per_trick=2, penalty=7)
    assert hand_points(r, 0, 0) == 20
    assert hand_points(r, 3, 3) == 26
    assert hand_points(r, 3, 1) == -14
    assert hand_points(r, 0, 2) == -14
    zero = Rules(exact_bonus=0, per_trick=0, penalty=0)
    assert hand_points(zero, 4, 0) == 0 == hand_points(zero, 2, 2)


def test_a_scored_hand() -> None:
    # Seat 0 leads O7; seat 1 must beat with O12 and wins; all 3 tricks worked out below.
    g = worked(HANDS_3, "B1", bids=[0, 2, 1, 1])
    events = play(g, "O7", "O12", "E1", "O1")  # O1 wins (seat 3)
    assert [e["seat"] for e in events if e["type"] == "trick_won"] == [3]
    events = play(g, "C5", "C1", "C3", "C4")  # seat 0 must beat with C1; C3, C4 cannot
    assert [e["seat"] for e in events if e["type"] == "trick_won"] == [0]
    events = play(g, "E4", "O5", "E2", "E3")  # seat 1 has no espadas nor trumps; E3 wins
    assert [e["seat"] for e in events if e["type"] == "trick_won"] == [3]
    scored = next(e for e in events if e["type"] == "hand_scored")
    assert scored["bids"] == [0, 2, 1, 1]
    assert scored["tricks"] == [1, 0, 0, 2]
    assert scored["points"] == [-5, -10, -5, -5]
    assert scored["scores"] == [-5, -10, -5, -5]
    assert g.history[0]["points"] == [-5, -10, -5, -5]
    # seats 0, 2 and 3 tie for first: a one-card tiebreak hand is dealt
    assert not g.finished and g.in_tiebreak


def test_totals_are_running_sums() -> None:
    rng = random.Random(3)
    g = Game.new(Rules(players=5, schedule=[2, 3, 1, 8]), seed=11)
    while not g.finished:
        g.apply(g.turn, rng.choice(g.legal_actions()))  # type: ignore[arg-type]
    totals = [0] * 5
    for entry in g.history:
        for s in range(5):
            assert entry["points"][s] == hand_points(g.rules, entry["bids"][s], entry["tricks"][s])
            totals[s] += entry["points"][s]
        assert entry["totals"] == totals
        assert sum(entry["tricks"]) == entry["cards"]
    assert g.scores == totals


# -- the deal and the trump -----------------------------------------------------------------


def test_deal_one_card_at_a_time_from_la_mano_to_the_dealer() -> None:
    deck = list(range(40))
    hands, trump, whole = deal(deck, 4, 3, dealer=2)
    # la mano is seat 3: it gets deck[0], deck[4], deck[8]; the dealer (2) gets deck[3], ...
    assert hands[3] == BIT[0] | BIT[4] | BIT[8]
    assert hands[0] == BIT[1] | BIT[5] | BIT[9]
    assert hands[1] == BIT[2] | BIT[6] | BIT[10]
    assert hands[2] == BIT[3] | BIT[7] | BIT[11]
    assert trump == 12  # the next card is turned up
    assert not whole


def test_deal_the_whole_deck_dealer_gets_the_last_card() -> None:
    deck = list(reversed(range(40)))
    hands, trump, whole = deal(deck, 4, 10, dealer=0)
    assert whole
    assert trump == deck[39]
    assert hands[0] & BIT[trump]
    assert all(h.bit_count() == 10 for h in hands)
    assert sum(hands) == DECK_40
    # seat 1 (la mano) got deck[0], deck[4], ...
    assert hands[1] == sum(BIT[deck[i]] for i in range(0, 40, 4))


@pytest.mark.parametrize("dealer", range(5))
def test_deal_order_five_players(dealer: int) -> None:
    deck = random.Random(dealer).sample(range(40), 40)
    hands, trump, whole = deal(deck, 5, 7, dealer)
    for i in range(35):
        assert hands[(dealer + 1 + i) % 5] & BIT[deck[i]]
    assert trump == deck[35]
    assert not whole


@pytest.mark.parametrize(("players", "cards"), [(3, 12), (4, 10), (5, 8), (6, 6), (8, 5)])
def test_whole_deck_trump_is_the_dealers(players: int, cards: int) -> None:
    for seed in range(5):
        g = Game.new(Rules(players=players, schedule=[cards]), seed=seed)
        assert g.trump_holder == g.dealer
        assert g.hand_of(g.dealer) & BIT[g.trump_card]
        assert sum(g.state.hands) == g.rules.deck
        assert g.hand_dealt_event()["trump"] == {
            "card": card_code(g.trump_card),
            "holder": g.dealer,
        }


@pytest.mark.parametrize(
    ("players", "cards"), [(3, 11), (4, 9), (4, 1), (5, 7), (6, 5), (7, 5), (8, 4)]
)
def test_turned_trump_is_in_no_hand(players: int, cards: int) -> None:
    for seed in range(5):
        g = Game.new(Rules(players=players, schedule=[cards]), seed=seed)
        assert g.trump_holder is None
        assert not sum(g.state.hands) & BIT[g.trump_card]
        assert BIT[g.trump_card] & g.rules.deck


def test_seven_players_five_cards_leave_five_over() -> None:
    g = Game.new(Rules(players=7, schedule=[5]), seed=1)
    assert g.trump_holder is None
    assert (g.rules.deck & ~sum(g.state.hands)).bit_count() == 5


def test_with_deal_whole_deck_trump_must_be_the_dealers() -> None:
    deck = codes(DECK_40)
    hands = [deck[i::4] for i in range(4)]
    trump = hands[2][0]
    g = Game.with_deal(Rules(schedule=[10]), hands, trump, dealer=2)
    assert g.trump_holder == 2
    with pytest.raises(InvalidStateError):
        Game.with_deal(Rules(schedule=[10]), hands, trump, dealer=1)


def test_with_deal_turned_trump_cannot_be_in_a_hand() -> None:
    with pytest.raises(InvalidStateError):
        Game.with_deal(Rules(schedule=[3]), HANDS_3, "O7", dealer=3)


def test_with_deal_checks_card_counts_and_duplicates() -> None:
    with pytest.raises(InvalidStateError):
        Game.with_deal(Rules(schedule=[2]), HANDS_3, "B1", dealer=3)
    dup = [list(h) for h in HANDS_3]
    dup[1][0] = "O7"
    with pytest.raises(InvalidStateError):
        Game.with_deal(Rules(schedule=[3]), dup, "B1", dealer=3)
    with pytest.raises(InvalidStateError):
        Game.with_deal(Rules(schedule=[3]), HANDS_3[:3], "B1", dealer=3)
    # a 2 is not in the 36-card deck
    with pytest.raises(InvalidStateError):
        Game.with_deal(Rules(players=3, schedule=[1]), [["O2"], ["O1"], ["O3"]], "B1", dealer=0)


def test_dealer_plays_the_shown_trump_holder_stays_known() -> None:
    deck = codes(DECK_40)
    hands = [deck[i::4] for i in range(4)]
    g = Game.with_deal(Rules(schedule=[10], montar=False), hands, hands[3][-1], dealer=3)
    assert g.trump_holder == 3
    trump = hands[3][-1]
    while BIT[parse_card(trump)] & g.hand_of(3):
        seat = g.turn
        assert seat is not None
        if g.phase == "bidding":
            g.bid(seat, g.state.legal_bids()[0])
        elif seat == 3 and parse_card(trump) in g.legal_actions():
            g.play(3, trump)
        else:
            g.play(seat, g.legal_actions()[0])
    assert g.trump_holder == 3
    assert card_code(g.trump_card) == trump


# -- seeds, rotation -------------------------------------------------------------------------


def test_same_seed_same_game() -> None:
    rules = Rules(players=5, schedule=[3, 8, 1])
    a, b = Game.new(rules, seed=42), Game.new(rules, seed=42)
    assert a == b
    ra, rb = random.Random(0), random.Random(0)
    while not a.finished:
        a.apply(a.turn, ra.choice(a.legal_actions()))  # type: ignore[arg-type]
        b.apply(b.turn, rb.choice(b.legal_actions()))  # type: ignore[arg-type]
        assert a == b
    assert [h["hands"] for h in a.history] == [h["hands"] for h in b.history]


def test_seed_fixes_every_deal_whatever_the_play() -> None:
    rules = Rules(players=4, schedule=[2, 5, 9])
    a, b = Game.new(rules, seed=5), Game.new(rules, seed=5)
    ra, rb = random.Random(1), random.Random(2)
    for g, r in ((a, ra), (b, rb)):
        while not g.finished:
            g.apply(g.turn, r.choice(g.legal_actions()))  # type: ignore[arg-type]
    assert [h["hands"] for h in a.history] == [h["hands"] for h in b.history]
    assert [h["trump"] for h in a.history] == [h["trump"] for h in b.history]


def test_different_seeds_different_deals_and_first_dealers() -> None:
    rules = Rules(players=4, schedule=[10])
    games = [Game.new(rules, seed=s) for s in range(60)]
    assert len({tuple(g.dealt) for g in games}) == 60
    assert {g.first_dealer for g in games} == {0, 1, 2, 3}
    assert all(g.dealer == g.first_dealer for g in games)


def test_dealer_rotates_every_hand() -> None:
    rng = random.Random(9)
    g = Game.new(Rules(players=6, schedule=[1, 2, 3, 4, 5, 6, 1, 1]), seed=77)
    first = g.dealer
    seen = []
    while not g.finished:
        if g.phase == "bidding" and all(b is None for b in g.bids):
            seen.append(g.dealer)
            assert g.turn == g.mano == (g.dealer + 1) % 6
        g.apply(g.turn, rng.choice(g.legal_actions()))  # type: ignore[arg-type]
    expected = [(first + i) % 6 for i in range(len(g.history))]
    assert seen == expected
    assert [h["dealer"] for h in g.history] == expected


def test_next_hand_dealt_at_once() -> None:
    g = Game.new(Rules(players=4, schedule=[1, 2]), seed=3)
    events: list[dict[str, Any]] = []
    while g.hand_index == 0:
        events = g.apply(g.turn, g.legal_actions()[0])  # type: ignore[arg-type]
    kinds = [e["type"] for e in events]
    assert kinds == ["card_played", "trick_won", "hand_scored", "hand_dealt"]
    dealt = events[-1]
    assert dealt["hand_number"] == 2 and dealt["cards_per_player"] == 2
    assert dealt["hands_total"] == 2
    assert dealt["mano"] == (dealt["dealer"] + 1) % 4
    assert g.phase == "bidding"
    assert all(h.bit_count() == 2 for h in g.state.hands)


# -- end of game and tiebreak -----------------------------------------------------------------


def rig_tie(game: Game, tied: list[int], bids: list[int] | None = None) -> Game:
    """A copy of ``game`` (at the start of a hand) whose totals are set so that,
    once the hand is played with ``bids`` and then always the first legal card,
    the seats ``tied`` share first place (at 100) and the others trail."""
    probe = Game.from_dict(game.to_dict())
    finish_hand_first_legal(probe, bids)
    points = probe.history[-1]["points"]
    d = game.to_dict()
    d["scores"] = [(100 if s in tied else 50) - points[s] for s in range(game.players)]
    return Game.from_dict(d)


def test_copies_are_independent() -> None:
    g = Game.new(Rules(players=4, schedule=[1, 1]), seed=1)
    copy = Game.from_dict(g.to_dict())
    finish_hand_first_legal(copy)
    assert len(copy.history) == 1
    assert g.history == []
    assert g == Game.new(Rules(players=4, schedule=[1, 1]), seed=1)
    d = g.to_dict()
    d["history"].append({"junk": 1})
    d["scores"][0] = 99
    assert g.history == [] and g.scores[0] == 0


def test_no_tie_ends_at_once() -> None:
    g = Game.new(Rules(players=4, schedule=[2]), seed=4)
    g = rig_tie(g, [1])
    finish_hand_first_legal(g)
    assert g.finished and g.phase == "finished"
    assert g.winners == [1]
    assert g.extra_hands == 0
    assert g.turn is None
    assert g.legal_actions() == []


def test_tie_without_tiebreak_is_shared_at_once() -> None:
    g = Game.new(Rules(players=4, schedule=[2, 3], tiebreak=False), seed=4)
    finish_hand_first_legal(g)
    g = rig_tie(g, [0, 2])
    events: list[dict[str, Any]] = []
    while not g.finished:
        events = g.apply(g.turn, g.legal_actions()[0])  # type: ignore[arg-type]
    assert g.winners == [0, 2]
    assert events[-1] == {"type": "game_over", "scores": g.scores, "winners": [0, 2]}
    assert g.hands_total == 2 and len(g.history) == 2


def test_tie_plays_one_card_hands_until_someone_leads_alone() -> None:
    g = Game.new(Rules(players=4, schedule=[3]), seed=8)
    g = rig_tie(g, [1, 3])
    dealer = g.dealer
    finish_hand_first_legal(g)
    assert not g.finished
    assert g.in_tiebreak and g.extra_hands == 1
    assert g.hands_total == 2 and g.hand_number == 2
    assert g.cards_per_player == 1 and all(h.bit_count() == 1 for h in g.state.hands)
    assert g.dealer == (dealer + 1) % 4
    assert g.scores[1] == g.scores[3] == 100
    # Find who wins the one-card trick when everyone bids 0; tie that seat with another.
    probe = Game.from_dict(g.to_dict())
    finish_hand_first_legal(probe, [0, 0, 0, 0])
    taker = probe.history[-1]["tricks"].index(1)
    other = (taker + 1) % 4
    d = g.to_dict()
    d["scores"] = [100 if s in (taker, other) else 0 for s in range(4)]
    g = Game.from_dict(d)
    finish_hand_first_legal(g, [0, 0, 0, 0])
    assert g.finished
    assert g.winners == [other]  # the taker missed its bid of 0: -5; the other made it: +10
    assert g.history[-1]["tiebreak"] is True
    assert g.history[-1]["cards"] == 1
    assert g.extra_hands == 1


def test_tie_after_five_tiebreak_hands_is_shared() -> None:
    g = Game.new(Rules(players=4, schedule=[1]), seed=21)
    dealers = []
    for extra in range(TIEBREAK_HANDS + 1):
        assert g.extra_hands == extra
        assert g.cards_per_player == 1
        dealers.append(g.dealer)
        g = rig_tie(g, [0, 1, 3])
        finish_hand_first_legal(g)
        if extra < TIEBREAK_HANDS:
            assert not g.finished, extra
            assert g.hands_total == 1 + extra + 1
    assert g.finished
    assert g.winners == [0, 1, 3]
    assert g.extra_hands == TIEBREAK_HANDS
    assert len(g.history) == 1 + TIEBREAK_HANDS
    assert [h["tiebreak"] for h in g.history] == [False] + [True] * TIEBREAK_HANDS
    assert dealers == [(dealers[0] + i) % 4 for i in range(TIEBREAK_HANDS + 1)]
    with pytest.raises(WrongPhaseError):
        g.bid(0, 0)
    with pytest.raises(WrongPhaseError):
        g.play(0, "O1")


def test_tiebreak_hands_round_trip() -> None:
    g = Game.new(Rules(players=3, schedule=[2]), seed=2)
    g = rig_tie(g, [0, 1, 2])
    finish_hand_first_legal(g)
    assert g.in_tiebreak
    again = Game.from_json(g.to_json())
    assert again == g
    assert again.in_tiebreak and again.extra_hands == 1


# -- storage and tampered states ------------------------------------------------------------


def mid_hand() -> Game:
    g = worked(HANDS_3, "B1", bids=[0, 2, 1, 1])
    play(g, "O7", "O12", "E1", "O1", "C5")
    return g


def test_json_round_trip_with_format_version() -> None:
    g = mid_hand()
    d = json.loads(g.to_json())
    assert d["format"] == 1
    assert Game.from_json(g.to_json()) == g
    assert Game.from_json(g.to_json().encode()) == g
    again = Game.from_dict(d)
    assert again.legal_actions() == g.legal_actions()
    assert again.last_trick == g.last_trick
    assert again.trick == g.trick


def tampered(change: Any, game: Game | None = None, *, rule: str | None) -> InvalidStateError:
    """Load the stored form of ``game`` (default: ``mid_hand()``) after ``change``: it is
    refused, with nothing loaded, naming ``rule`` as the rule it breaks."""
    d = (game or mid_hand()).to_dict()
    change(d)
    with pytest.raises(InvalidStateError) as info:
        Game.from_dict(d)
    assert info.value.code == "invalid_state"
    assert info.value.rule == rule, str(info.value)
    return info.value


def test_refuses_a_play_breaking_montar() -> None:
    g = worked(HANDS_3, "B1")
    play(g, "O7")

    def change(d: dict[str, Any]) -> None:
        d["hand"]["plays"].append([1, "O5"])

    err = tampered(change, g, rule="montar")
    assert "you must beat the O7" in str(err)


def test_refuses_a_play_breaking_asistir() -> None:
    def change(d: dict[str, Any]) -> None:
        d["hand"]["plays"][1] = [1, "C3"]

    assert "you must follow oros" in str(tampered(change, rule="asistir"))


def test_refuses_a_play_breaking_fallar_and_pisar() -> None:
    # Bastos are trump. On an oros lead seat 2 holds no oros but the trump B2.
    hands = [["O7", "C1", "E4"], ["O12", "O5", "C3"], ["E1", "B2", "C4"], ["O1", "C5", "E3"]]
    g = worked(hands, "B1")
    play(g, "O7", "O12")

    def fallar(d: dict[str, Any]) -> None:
        d["hand"]["plays"].append([2, "C4"])

    assert "you must play a trump" in str(tampered(fallar, g, rule="fallar"))
    # Seat 1 trumps the O7 with B5; seat 2, with no oros, could beat it with B7.
    g = worked([["O7", "C1"], ["B5", "C6"], ["B4", "B7"], ["O1", "C5"]], "B1")
    play(g, "O7", "B5")

    def pisar(d: dict[str, Any]) -> None:
        d["hand"]["plays"].append([2, "B4"])

    assert "higher trump" in str(tampered(pisar, g, rule="pisar"))


def test_refuses_a_card_dealt_twice() -> None:
    def change(d: dict[str, Any]) -> None:
        d["hand"]["dealt"][2][0] = d["hand"]["dealt"][0][0]

    assert "twice" in str(tampered(change, rule="deal"))


def test_refuses_a_card_not_held() -> None:
    def change(d: dict[str, Any]) -> None:
        d["hand"]["plays"][0] = [0, "B4"]

    assert "you do not hold B4" in str(tampered(change, rule="not_in_hand"))


def test_refuses_a_play_out_of_turn() -> None:
    def change(d: dict[str, Any]) -> None:
        d["hand"]["plays"].append([3, "C5"])

    tampered(change, rule="turn")


def test_refuses_the_turned_trump_in_a_hand() -> None:
    def change(d: dict[str, Any]) -> None:
        d["hand"]["trump"] = "O7"

    tampered(change, rule="trump_card")


def test_refuses_a_whole_deck_trump_that_is_not_the_dealers() -> None:
    deck = codes(DECK_40)
    hands = [deck[i::4] for i in range(4)]
    g = Game.with_deal(Rules(schedule=[10]), hands, hands[2][0], dealer=2)

    def change(d: dict[str, Any]) -> None:
        d["hand"]["trump"] = hands[1][0]

    tampered(change, g, rule="trump_card")


def test_refuses_bids_breaking_the_dealer_rule() -> None:
    g = dealt_game()
    for seat in range(3):
        g.bid(seat, 1)

    def change(d: dict[str, Any]) -> None:
        d["hand"]["bids"].append(0)

    tampered(change, g, rule="dealer_restriction")


@pytest.mark.parametrize(
    ("bids", "rule"),
    [
        ([0, 0, 0, 0, 0], "turn"),  # a fifth bid: bidding is over at the dealer
        ([0, 4], "bid_range"),
        ([0, -1], "bid_range"),
        ([0, True], "bid_range"),
        ([0, "1"], "bid_range"),
    ],
)
def test_refuses_bad_bids(bids: list[Any], rule: str) -> None:
    def change(d: dict[str, Any]) -> None:
        d["hand"]["bids"] = bids
        d["hand"]["plays"] = []

    tampered(change, dealt_game(), rule=rule)


def test_refuses_plays_during_bidding() -> None:
    def change(d: dict[str, Any]) -> None:
        d["hand"]["bids"] = [0, 0]

    tampered(change, rule="turn")


def test_refuses_wrong_card_counts() -> None:
    def change(d: dict[str, Any]) -> None:
        d["hand"]["dealt"][0].append("B12")

    tampered(change, rule="deal")


@pytest.mark.parametrize(
    ("key", "value", "rule"),
    [
        ("finished", True, "game_over"),
        ("scores", [0, 0, 0], "players"),
        ("scores", [0, 0, 0, 0, 0], "players"),
        ("first_dealer", 4, "players"),
        ("first_dealer", -1, "players"),
        ("hand_index", -1, "schedule"),
        ("hand_index", 1, "schedule"),
        ("extra_hands", 1, "schedule"),
        ("extra_hands", -1, "schedule"),
        # Not a stored game at all: no rule of the game is broken.
        ("format", 2, None),
        ("format", None, None),
        ("rules", {"players": 9}, None),
        ("rules", {"players": 5}, "players"),  # the scores are for 4
        ("last_trick", [[0, "Q1"]], None),
    ],
)
def test_refuses_tampered_fields(key: str, value: Any, rule: str | None) -> None:
    def change(d: dict[str, Any]) -> None:
        d[key] = value

    tampered(change, rule=rule)


def test_refuses_missing_fields() -> None:
    for key in list(mid_hand().to_dict()):

        def change(d: dict[str, Any], key: str = key) -> None:
            del d[key]

        tampered(change, rule=None)


def test_refuses_a_finished_hand_not_marked_finished() -> None:
    g = worked(HANDS_3, "B1", bids=[0, 2, 1, 1])
    play(g, "O7", "O12", "E1", "O1", "C5", "C1", "C3", "C4", "E4", "O5", "E2")

    def change(d: dict[str, Any]) -> None:
        d["hand"]["plays"].append([3, "E3"])

    tampered(change, g, rule="game_over")


@pytest.mark.parametrize("garbage", [[], "x", None, 3])
def test_refuses_what_is_not_a_game(garbage: Any) -> None:
    with pytest.raises(InvalidStateError):
        Game.from_dict(garbage)


@pytest.mark.parametrize("text", ["nope", "[]", "{}", "", "null"])
def test_from_json_refuses_what_is_not_a_game(text: str) -> None:
    with pytest.raises(InvalidStateError):
        Game.from_json(text)


def test_finished_game_round_trips() -> None:
    g = Game.new(Rules(players=3, schedule=[4], tiebreak=False), seed=6)
    finish_hand_first_legal(g)
    assert g.finished
    again = Game.from_json(g.to_json())
    assert again == g and again.finished and again.winners == g.winners
    assert again.phase == "finished"


def test_repr_mentions_hand_and_phase() -> None:
    g = dealt_game()
    assert "hand 1/1" in repr(g) and "bidding" in repr(g)


def test_cards_list_of_deal_matches_dealt() -> None:
    g = Game.new(Rules(players=4, schedule=[3]), seed=0)
    for seat in range(4):
        assert len(cards_list(g.hand_of(seat))) == 3


@pytest.mark.parametrize("dealer", range(4))
def test_round_trip_keeps_each_bid_with_its_seat(dealer: int) -> None:
    # la mano is seat dealer+1: the bids made so far wrap past seat 3 for most dealers
    g = Game.with_deal(Rules(schedule=[3]), HANDS_3, "B1", dealer=dealer)
    for k, b in enumerate([3, 0, 1, 2]):
        g.bid(g.turn, b)  # type: ignore[arg-type]
        again = Game.from_json(g.to_json())
        assert again.bids == g.bids
        assert again == g
        assert g.bids[(dealer + 1 + k) % 4] == b


def test_a_game_without_a_seed_gets_128_random_bits_and_keeps_them_through_json() -> None:
    seeds = [Game.new(Rules(players=4)).seed for _ in range(50)]
    assert len(set(seeds)) == 50
    # 128 random bits: all 50 past 100 bits fails once in 2^22 runs.
    assert all(s.bit_length() > 100 for s in seeds)
    game = Game.new(Rules(players=4))
    stored = json.loads(game.to_json())
    assert stored["seed"] == str(game.seed)  # text: past the 53 bits JSON readers keep
    assert Game.from_json(game.to_json()) == game
    small = Game.new(Rules(players=4), seed=7)
    assert json.loads(small.to_json())["seed"] == 7


@pytest.mark.parametrize("seed", [None, 1.5, "x1", "-1", True, [1]])
def test_a_stored_seed_that_is_no_whole_number_is_refused(seed: object) -> None:
    stored = json.loads(Game.new(Rules(players=4), seed=7).to_json())
    stored["seed"] = seed
    with pytest.raises(InvalidStateError):
        Game.from_dict(stored)
