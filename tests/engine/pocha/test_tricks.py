"""Who wins a trick, the bidding order and the dealer rule: the engine's one copy of each,
against hand-worked examples and the reference rules written again on card codes."""

from __future__ import annotations

import random

import pytest

from engine.pocha.bidding import bidding_order, dealer_forbidden_bid, mano_of
from engine.pocha.cards import BIT, NUM_CARDS, SUIT_OF, card_code, cards_list, parse_card
from engine.pocha.hand import HandState, deal
from engine.pocha.rules import Rules
from engine.pocha.tricks import BEATERS, beats, trick_winner, winning_play
from tests.engine.pocha.engine_checks import ref_legal_bids, ref_winner

OROS, COPAS, ESPADAS, BASTOS = range(4)


def trick(*entries: str) -> list[tuple[int, int]]:
    """`"2:O5"` -> (2, the O5)."""
    return [(int(seat), parse_card(code)) for seat, code in (e.split(":") for e in entries)]


@pytest.mark.parametrize(
    ("card", "win", "trump", "expected"),
    [
        ("O1", "O3", BASTOS, True),  # the as is the strongest card of its suit
        ("O3", "O12", BASTOS, True),  # then the tres
        ("O12", "O3", BASTOS, False),
        ("O7", "O10", BASTOS, False),  # the sota (10) beats the 7
        ("C1", "O2", BASTOS, False),  # another suit that is not trump never wins
        ("B2", "O1", BASTOS, True),  # the lowest trump beats any other suit
        ("B2", "B4", BASTOS, False),  # a trump onto a trump must be stronger
        ("O1", "B2", BASTOS, False),  # nothing but a higher trump beats a trump
        ("O4", "O2", OROS, True),  # trump led: it is just the suit
    ],
)
def test_beats(card: str, win: str, trump: int, expected: bool) -> None:
    assert beats(parse_card(card), parse_card(win), trump) is expected


def test_the_beaters_table_is_beats_as_card_sets() -> None:
    for trump in range(4):
        for win in range(NUM_CARDS):
            for card in range(NUM_CARDS):
                if card != win:
                    assert bool(BEATERS[trump][win] & BIT[card]) == beats(card, win, trump)
            assert not BEATERS[trump][win] & BIT[win]


def test_trick_winner_worked_examples() -> None:
    # Oros led, no trump: the best oro wins even when a stronger copa is played.
    assert trick_winner(trick("0:O7", "1:C1", "2:O12", "3:O5"), BASTOS) == 2
    # One trump wins over every lead-suit card; two trumps: the higher.
    assert trick_winner(trick("1:O1", "2:B4", "3:O3", "0:B5"), BASTOS) == 0
    # The leader keeps a trick nobody follows or trumps.
    assert trick_winner(trick("3:E4", "0:O1", "1:C1", "2:C3"), BASTOS) == 3
    assert winning_play(trick("0:O7", "1:O12"), BASTOS) == (1, parse_card("O12"))
    assert winning_play(trick("2:C5"), OROS) == (2, parse_card("C5"))


def test_trick_winner_agrees_with_the_reference_rules() -> None:
    rng = random.Random(3)
    for _ in range(3000):
        players = rng.randint(3, 8)
        cards = rng.sample(range(NUM_CARDS), players)
        leader = rng.randrange(players)
        plays = [((leader + i) % players, c) for i, c in enumerate(cards)]
        trump = rng.randrange(4)
        expected = ref_winner([(s, card_code(c)) for s, c in plays], "OCEB"[trump])
        assert trick_winner(plays, trump) == expected
        seat, card = winning_play(plays, trump)
        assert seat == expected and (seat, card) in plays
        assert SUIT_OF[card] in (trump, SUIT_OF[cards[0]])


def test_the_hand_state_gives_each_trick_to_trick_winner() -> None:
    """HandState.apply_card writes the rule out for speed: it must agree, trick by trick."""
    rng = random.Random(8)
    for _ in range(300):
        players = rng.randint(3, 8)
        rules = Rules(players=players)
        cards = rng.randint(1, rules.top)
        deck = cards_list(rules.deck)
        rng.shuffle(deck)
        hands, trump_card, _ = deal(deck, players, cards, rng.randrange(players))
        state = HandState(rules, hands, SUIT_OF[trump_card], 0, cards)
        while state.bidding:
            state.apply_bid(rng.choice(state.legal_bids()))
        trick: list[tuple[int, int]] = []
        while not state.done:
            seat = state.turn
            card = rng.choice(cards_list(state.legal_mask()))
            trick.append((seat, card))
            winner = state.apply_card(card)
            if len(trick) == players:
                assert winner == trick_winner(trick, SUIT_OF[trump_card])
                trick = []
            else:
                assert winner == -1
                assert state.win == winning_play(trick, SUIT_OF[trump_card])[1]


@pytest.mark.parametrize("players", range(3, 9))
def test_bidding_goes_from_la_mano_round_to_the_dealer(players: int) -> None:
    for dealer in range(players):
        order = bidding_order(dealer, players)
        assert sorted(order) == list(range(players))
        assert order[0] == mano_of(dealer, players) == (dealer + 1) % players
        assert order[-1] == dealer
        assert all(order[i + 1] == (order[i] + 1) % players for i in range(players - 1))


def test_the_dealer_rule() -> None:
    # 3 cards each; the others bid 1 + 1 + 0: the dealer may not bid 1.
    assert dealer_forbidden_bid(3, 2) == 1
    assert dealer_forbidden_bid(3, 3) == 0  # the others took every trick: 0 is forbidden
    assert dealer_forbidden_bid(3, 0) == 3  # nobody bid: the dealer may not bid them all
    assert dealer_forbidden_bid(3, 4) == -1  # already over: every bid is allowed
    for cards in range(1, 13):
        for others in range(0, 3 * cards):
            forbidden = dealer_forbidden_bid(cards, others)
            allowed = [b for b in range(cards + 1) if b != forbidden]
            assert allowed == ref_legal_bids(cards, [others], True, True)
