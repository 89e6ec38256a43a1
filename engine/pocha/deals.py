"""Deals of the hidden cards that fit what one seat knows, and the hand they make.
How it works: docs/internals.md, ``engine.pocha.deals``.
"""

from __future__ import annotations

import random
from itertools import combinations

from engine import draws
from engine.pocha.bidding import bidding_order
from engine.pocha.cards import BIT, CardSet, cards_list
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
            draws.shuffle(deck, rng)
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
                for c in draws.sample(cards, k, rng):
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
            c: [s for s in self.others if not self.absent[s] >> c & 1] + [stock] for c in self.pool
        }

        def place(c: int, visited: set[int]) -> bool:
            seats = allowed[c][:]
            draws.shuffle(seats, rng)
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
        draws.shuffle(cards, rng)
        for c in cards:
            if not place(c, set()):
                raise ValueError("no deal of the unseen cards fits what this seat knows")
        hands = self.present[:]
        hands[self.observer] = own
        for s in self.others:
            for c in held[s]:
                hands[s] |= BIT[c]
        return hands


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
