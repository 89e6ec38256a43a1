"""The fast path: one hand of Pocha as a small mutable state for search.
How it works: docs/internals.md, ``engine.pocha.hand``.
"""

from __future__ import annotations

import random as _random
from collections.abc import Callable, Sequence

from engine.pocha import bits
from engine.pocha.actions import BID_BASE, Action
from engine.pocha.bidding import dealer_forbidden_bid, mano_of
from engine.pocha.cards import BIT, SUIT_OF, Card, CardSet
from engine.pocha.legality import legal_cards
from engine.pocha.rules import Rules

NO_BID = -1


class HandState:
    """One hand in progress: bidding, then tricks, then done."""

    __slots__ = (
        "bid_sum",
        "bidding",
        "bids",
        "cards",
        "dealer",
        "fallar",
        "hands",
        "in_trick",
        "lead",
        "leader",
        "montar",
        "n",
        "pisar",
        "restrict",
        "tricks",
        "tricks_left",
        "trump",
        "turn",
        "win",
        "winner",
    )

    n: int
    trump: int
    montar: bool
    fallar: bool
    pisar: bool
    restrict: bool
    cards: int
    dealer: int
    hands: list[CardSet]
    bids: list[int]
    bid_sum: int
    tricks: list[int]
    turn: int
    bidding: bool
    lead: int
    win: int
    winner: int
    in_trick: int
    leader: int
    tricks_left: int

    def __init__(
        self,
        rules: Rules,
        hands: Sequence[CardSet],
        trump: int,
        dealer: int,
        cards: int,
    ) -> None:
        n = rules.players
        self.n = n
        self.trump = trump
        self.montar = rules.montar
        self.fallar = rules.fallar
        self.pisar = rules.pisar
        self.restrict = rules.dealer_restriction
        self.cards = cards
        self.dealer = dealer
        self.hands = list(hands)
        self.bids = [NO_BID] * n
        self.bid_sum = 0
        self.tricks = [0] * n
        self.turn = mano_of(dealer, n)
        self.bidding = True
        self.lead = -1
        self.win = -1
        self.winner = -1
        self.in_trick = 0
        self.leader = self.turn
        self.tricks_left = cards

    def copy(self) -> HandState:
        new = HandState.__new__(HandState)
        new.n = self.n
        new.trump = self.trump
        new.montar = self.montar
        new.fallar = self.fallar
        new.pisar = self.pisar
        new.restrict = self.restrict
        new.cards = self.cards
        new.dealer = self.dealer
        new.hands = self.hands[:]
        new.bids = self.bids[:]
        new.bid_sum = self.bid_sum
        new.tricks = self.tricks[:]
        new.turn = self.turn
        new.bidding = self.bidding
        new.lead = self.lead
        new.win = self.win
        new.winner = self.winner
        new.in_trick = self.in_trick
        new.leader = self.leader
        new.tricks_left = self.tricks_left
        return new

    @property
    def mano(self) -> int:
        return mano_of(self.dealer, self.n)

    @property
    def done(self) -> bool:
        return not self.bidding and self.tricks_left == 0

    def forbidden_bid(self) -> int:
        """The bid the player to move may not make (the dealer rule), or -1."""
        if self.restrict and self.turn == self.dealer:
            return dealer_forbidden_bid(self.cards, self.bid_sum)
        return -1

    def legal_bids(self) -> list[int]:
        """The numbers of tricks the seat to move may bid."""
        forbidden = self.forbidden_bid()
        return [b for b in range(self.cards + 1) if b != forbidden]

    def legal_actions(self) -> list[Action]:
        """What the seat to move may do, as actions (``engine.pocha.actions``) in ascending
        order: its bids while bidding, then its legal cards; none once the hand is done."""
        if self.bidding:
            forbidden = self.forbidden_bid()
            return [BID_BASE + b for b in range(self.cards + 1) if b != forbidden]
        if not self.tricks_left:
            return []
        m = self.legal_mask()
        actions = []
        while m:
            actions.append(bits.bit_length(m & -m) - 1)
            m &= m - 1
        return actions

    def legal_mask(self) -> CardSet:
        return legal_cards(
            self.hands[self.turn],
            self.lead,
            self.win,
            self.trump,
            self.montar,
            self.fallar,
            self.pisar,
        )

    def apply_action(self, action: Action) -> None:
        """Apply a bid or card action for the seat to move, unchecked."""
        if action >= BID_BASE:
            self.apply_bid(action - BID_BASE)
        else:
            self.apply_card(action)

    def apply_bid(self, bid: int) -> None:
        seat = self.turn
        self.bids[seat] = bid
        self.bid_sum += bid
        if seat == self.dealer:
            self.bidding = False
            self.turn = self.leader
        else:
            self.turn = (seat + 1) % self.n

    def apply_card(self, card: Card) -> int:
        """Play ``card`` for the seat to move; the trick's winner if this card
        completed a trick, else -1."""
        seat = self.turn
        # Through locals, so that the compiled engine does the ^ on C integers (hand.pxd).
        hand = self.hands[seat]
        bit = BIT[card]
        hand ^= bit
        self.hands[seat] = hand
        if self.lead < 0:
            self.lead = SUIT_OF[card]
            self.win = card
            self.winner = seat
            self.leader = seat
            self.in_trick = 1
        else:
            # engine.pocha.tricks.beats, written out: the call costs this loop 4% of a random hand
            # (callgrind, pocha bench engine's hands: 466k instructions a hand called, 446k
            # inline); tests/engine/pocha/test_tricks.py holds the two to the same winners.
            suit = SUIT_OF[card]
            if suit == SUIT_OF[self.win]:
                if card > self.win:
                    self.win = card
                    self.winner = seat
            elif suit == self.trump:
                self.win = card
                self.winner = seat
            self.in_trick += 1
        if self.in_trick == self.n:
            winner = self.winner
            self.tricks[winner] += 1
            self.tricks_left -= 1
            self.turn = winner
            self.leader = winner
            self.lead = -1
            self.win = -1
            self.in_trick = 0
            return winner
        self.turn = (seat + 1) % self.n
        return -1


def hand_points(rules: Rules, bid: int, won: int) -> int:
    """Points of one hand: exact bonus plus per trick, or a penalty per trick off."""
    if bid == won:
        return rules.exact_bonus + rules.per_trick * won
    return -rules.penalty * abs(bid - won)


def random_card(mask: CardSet, rand: Callable[[], float]) -> Card:
    """A uniformly chosen card of a non-empty set."""
    count = bits.bit_count(mask)
    if count > 1:
        k = int(rand() * count)
        while k:
            mask &= mask - 1
            k -= 1
    return bits.bit_length(mask & -mask) - 1


def play_out(state: HandState, rand: Callable[[], float] = _random.random) -> None:
    """Finish the hand with uniformly random legal bids and cards (a playout)."""
    while state.bidding:
        bids = state.legal_bids()
        state.apply_bid(bids[int(rand() * len(bids))])
    hands = state.hands
    trump, montar, fallar, pisar = state.trump, state.montar, state.fallar, state.pisar
    while state.tricks_left:
        legal = legal_cards(hands[state.turn], state.lead, state.win, trump, montar, fallar, pisar)
        count = bits.bit_count(legal)
        if count > 1:
            k = int(rand() * count)
            while k:
                legal &= legal - 1
                k -= 1
        state.apply_card(bits.bit_length(legal & -legal) - 1)


def deal(
    deck: Sequence[Card], players: int, cards: int, dealer: int
) -> tuple[list[CardSet], Card, bool]:
    """Deal a shuffled deck one card at a time from la mano to the dealer.

    Returns the hands, the card that sets trump, and whether the whole deck
    was dealt (then that card is the dealer's last card and stays in its hand).
    """
    hands = [0] * players
    mano = mano_of(dealer, players)
    dealt = cards * players
    # Card i goes to the seat i places after la mano: each seat's cards are every
    # players-th from its first, gathered in a local (C integers in the compiled engine).
    for k in range(players):
        m = 0
        i = k
        while i < dealt:
            bit = BIT[deck[i]]
            m |= bit
            i += players
        hands[(mano + k) % players] = m
    if dealt < len(deck):
        return hands, deck[dealt], False
    return hands, deck[dealt - 1], True
