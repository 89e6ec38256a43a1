"""Deals of the hidden cards that fit what one seat knows, and the hand they make.
How it works: docs/internals.md, ``engine.pocha.deals``.
"""

from __future__ import annotations

import random
from itertools import combinations

from engine.pocha import bits as bits_of
from engine.pocha.bidding import bidding_order
from engine.pocha.cards import BIT, Card, CardSet, cards_list
from engine.pocha.hand import HandState
from engine.pocha.inference import Knowledge
from engine.pocha.observation import Observation


class DealSampler:
    """Deals the unseen cards to the other seats, consistent with ``Knowledge``."""

    def __init__(self, knowledge: Knowledge) -> None:
        k = knowledge
        n = len(k.hand_sizes)
        self.observer = k.observer
        self.present = list(k.present)
        known = 0
        for seat in range(n):
            if seat != k.observer:
                known |= k.present[seat]
        self.pool_mask = k.unseen & ~known
        self.pool = cards_list(self.pool_mask)
        self.need = [k.hand_sizes[s] - k.present[s].bit_count() for s in range(n)]
        self.need[k.observer] = 0
        self.absent = [k.absent[s] & self.pool_mask for s in range(n)]
        others = [s for s in range(n) if s != k.observer and self.need[s] > 0]
        # Most constrained seat first, so the greedy deal rarely dead-ends.
        others.sort(key=lambda s: (self.pool_mask & ~self.absent[s]).bit_count() - self.need[s])
        self.others = others
        self.free = not any(self.absent[s] for s in others)

    def sample(self, own: CardSet, rng: random.Random) -> list[CardSet]:
        """Every seat's hand in one deal that fits: ``own`` for the observer (its hand
        now), the known cards and a random share of the unseen ones for the others."""
        hands = self.present[:]
        hands[self.observer] = own
        pool = self.pool
        if self.free:
            deck = pool[:]
            shuffle(deck, rng)
            i = 0
            for s in self.others:
                m = hands[s]
                for c in deck[i : i + self.need[s]]:
                    # Through a local, so that the compiled | is on C integers (deals.pxd).
                    bit = BIT[c]
                    m |= bit
                i += self.need[s]
                hands[s] = m
            return hands
        for _ in range(20):
            avail = self.pool_mask
            ok = True
            for s in self.others:
                possible = avail & ~self.absent[s]
                k = self.need[s]
                cards = [c for c in pool if possible >> c & 1]
                if len(cards) < k:
                    ok = False
                    break
                m = hands[s]
                for c in sample(cards, k, rng):
                    bit = BIT[c]
                    m |= bit
                avail &= ~m
                hands[s] = m
            if ok:
                return hands
            hands = self.present[:]
            hands[self.observer] = own
        return self._match(own, rng)

    def shortfall(self) -> tuple[tuple[int, ...], int, int] | None:
        """Why no deal fits, if none does: a group of other seats that must still hold
        more cards between them than there are unseen cards their plays allow them to
        hold, as (seats, cards they must hold, cards they may hold); else None.

        By Hall's condition a deal exists exactly when no such group exists (the
        undealt stock takes whatever is left)."""
        seats = [s for s in range(len(self.need)) if s != self.observer and self.need[s] > 0]
        for size in range(1, len(seats) + 1):
            for group in combinations(seats, size):
                wanted = sum(self.need[s] for s in group)
                fits = 0
                for s in group:
                    fits |= self.pool_mask & ~self.absent[s]
                if fits.bit_count() < wanted:
                    return group, wanted, fits.bit_count()
        return None

    def _match(self, own: CardSet, rng: random.Random) -> list[CardSet]:
        """A deal found by augmenting paths (a random capacitated matching of
        cards to seats, the undealt stock taking the rest): slower than the
        greedy deal, but it always finds a deal when one exists, as the real
        one does."""
        stock = -1
        capacity = {s: self.need[s] for s in self.others}
        capacity[stock] = len(self.pool) - sum(capacity.values())
        held: dict[int, list[int]] = {s: [] for s in capacity}
        allowed = {
            c: [s for s in self.others if not self.absent[s] >> c & 1] + [stock]
            for c in self.pool
        }

        def place(c: int, visited: set[int]) -> bool:
            seats = allowed[c][:]
            rng.shuffle(seats)
            for s in seats:
                if s in visited or capacity[s] == 0:
                    continue
                visited.add(s)
                if len(held[s]) < capacity[s]:
                    held[s].append(c)
                    return True
                for i, other in enumerate(held[s]):
                    if place(other, visited):
                        held[s][i] = c
                        return True
            return False

        cards = self.pool[:]
        rng.shuffle(cards)
        for c in cards:
            if not place(c, set()):
                raise ValueError("no deal of the unseen cards fits what this seat knows")
        hands = self.present[:]
        hands[self.observer] = own
        for s in self.others:
            for c in held[s]:
                hands[s] |= BIT[c]
        return hands


def shuffle(deck: list[Card], rng: random.Random) -> None:
    """``rng.shuffle(deck)``: the same draws of the same ``getrandbits``, so the same order
    (``tests/engine/pocha/test_deals.py`` holds the two together), written out so that the
    compiled engine runs it as C rather than ``random``'s Python; faster in Python too, with
    no call of ``_randbelow`` a card. Another kind of generator gets its own shuffle."""
    if type(rng) is not random.Random:
        rng.shuffle(deck)
        return
    getrandbits = rng.getrandbits
    i = len(deck) - 1
    bits = len(deck).bit_length()
    while i > 0:
        # random.Random._randbelow(i + 1): ``bits`` is (i + 1).bit_length(), which falls by
        # one as i + 1 passes a power of two.
        if i + 1 < 1 << (bits - 1):
            bits -= 1
        j = getrandbits(bits)
        while j > i:
            j = getrandbits(bits)
        deck[i], deck[j] = deck[j], deck[i]
        i -= 1


def sample(cards: list[Card], k: int, rng: random.Random) -> list[Card]:
    """``rng.sample(cards, k)``: the same draws of the same ``getrandbits``, so the same
    cards in the same order (``tests/engine/pocha/test_deals.py`` holds the two together),
    written out as ``shuffle`` is, for the compiled engine to run as C. Another kind of
    generator gets its own sample."""
    if type(rng) is not random.Random:
        return rng.sample(cards, k)
    getrandbits = rng.getrandbits
    n = len(cards)
    if not 0 <= k <= n:
        raise ValueError("Sample larger than population or is negative")
    result = [0] * k
    # random.Random.sample's choice between its two ways: a pool when n is at most its
    # setsize, 21, or 21 + 4 ** ceil(log4(3k)) >= 85 past 5 draws; a card set holds at most
    # 64 cards, so past 5 draws it is always the pool.
    if n <= 21 or k > 5:
        pool = cards[:]
        for i in range(k):
            # random.Random._randbelow(n - i)
            bits = bits_of.bit_length(n - i)
            j = getrandbits(bits)
            while j >= n - i:
                j = getrandbits(bits)
            result[i] = pool[j]
            pool[j] = pool[n - i - 1]
    else:
        selected = 0
        one = 1
        bits = bits_of.bit_length(n)
        for i in range(k):
            j = getrandbits(bits)
            while j >= n or selected >> j & 1:
                j = getrandbits(bits)
            selected |= one << j
            result[i] = cards[j]
    return result


def state_from_observation(obs: Observation, hands: list[CardSet]) -> HandState:
    """The fast state of the hand in ``obs`` with the given (sampled) hands."""
    rules = obs.rules
    st = HandState(rules, [0] * rules.players, obs.trump, obs.dealer, obs.cards_per_player)
    # Replay the public actions onto the dealt hands (hands + played cards).
    dealt = hands[:]
    for seat, c in obs.plays:
        dealt[seat] |= BIT[c]
    st.hands = dealt
    for seat in bidding_order(obs.dealer, rules.players):
        b = obs.bids[seat]
        if b is None:
            break
        st.apply_bid(b)
    for _, c in obs.plays:
        st.apply_card(c)
    return st
