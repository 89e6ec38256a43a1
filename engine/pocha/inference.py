"""What a seat can infer about the other seats' hands from its view alone.
How it works: docs/internals.md, ``engine.pocha.inference``.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.pocha.cards import ABOVE, BIT, SUIT_MASK, SUIT_OF, CardSet
from engine.pocha.observation import Observation
from engine.pocha.tricks import beats


@dataclass
class Knowledge:
    """What the observer knows of every seat's hand right now."""

    observer: int
    hand_sizes: list[int]
    # Cards known to be in each seat's hand (the observer's own hand included).
    present: list[CardSet]
    # Cards known not to be in each seat's hand, from the obligations.
    absent: list[CardSet]
    # Cards the observer cannot see: in another hand or still in the stock.
    unseen: CardSet
    # How many unseen cards are in the undealt stock (not in any hand).
    stock_size: int

    def possible(self, seat: int) -> CardSet:
        """Cards that may be in ``seat``'s hand, as far as the observer knows."""
        elsewhere = 0
        for other, cards in enumerate(self.present):
            if other != seat:
                elsewhere |= cards
        return self.present[seat] | (self.unseen & ~self.absent[seat] & ~elsewhere)


def absences_from_play(
    card: int, lead: int, win: int, trump: int, montar: bool, fallar: bool, pisar: bool
) -> CardSet:
    """The cards a player surely did not hold when it played ``card`` onto a
    trick led in ``lead`` with ``win`` winning so far (all play obligations)."""
    if lead < 0:
        return 0
    suit = SUIT_OF[card]
    absent = 0
    if suit != lead:
        absent |= SUIT_MASK[lead]
        if fallar:
            trumps = SUIT_MASK[trump]
            table_trump = SUIT_OF[win] == trump
            if suit != trump:
                # Fallar bound: either no trump at all, or (pisar) none that
                # could over-trump, which leaves the player free.
                absent |= trumps & ABOVE[win] if (table_trump and pisar) else trumps
            elif table_trump and pisar and card < win:
                absent |= ABOVE[win]
    elif montar and SUIT_OF[win] == lead and card < win:
        absent |= ABOVE[win]
    return absent


def infer(obs: Observation) -> Knowledge:
    """The knowledge of ``obs.seat`` (which must be a seat, not a spectator)."""
    if obs.seat is None:
        raise ValueError("a spectator has no hand to infer from")
    rules = obs.rules
    n = rules.players
    trump = obs.trump
    absent = [0] * n
    played = 0
    lead, win = -1, -1
    for i, (seat, card) in enumerate(obs.plays):
        if i % n == 0:
            lead, win = SUIT_OF[card], card
        else:
            absent[seat] |= absences_from_play(
                card, lead, win, trump, rules.montar, rules.fallar, rules.pisar
            )
            if beats(card, win, trump):
                win = card
        played |= BIT[card]
    present = [0] * n
    present[obs.seat] = obs.hand
    hidden = rules.deck & ~played & ~obs.hand
    holder = obs.trump_holder
    if holder is None:
        hidden &= ~BIT[obs.trump_card]
    elif holder != obs.seat and not played & BIT[obs.trump_card]:
        present[holder] |= BIT[obs.trump_card]
    sizes = obs.hand_sizes()
    for seat in range(n):
        absent[seat] &= ~present[seat]
    absent[obs.seat] = rules.deck & ~obs.hand
    in_hands = sum(sizes) - sizes[obs.seat]
    # The turned trump card is already taken out of ``hidden``.
    stock = hidden.bit_count() - in_hands
    return Knowledge(
        observer=obs.seat,
        hand_sizes=sizes,
        present=present,
        absent=absent,
        unseen=hidden,
        stock_size=stock,
    )
