"""Reading the other seats' hands from their bids: how likely a deal is.

A seat that bid three tricks of five holds a strong hand; a deal of the unseen
cards that gives it nothing but low cards is possible, but unlikely.  Uniform
deals (``engine.deals``) treat both alike.  ``BidReading`` weighs a deal by the
likelihood of every bid the other seats made, had they held that deal's cards:
the player-modelling inference of Rebstock, Solinas, Buro and Sturtevant
(2019), with a cheap model of how a seat bids.  A seat's bid is taken as its
hand's estimated tricks (``ai.hand_value``, scaled for the players),
stretched and shifted as ISMCTS bids, plus a normal spread, over the bids it was
allowed.  The estimate reads the hand the seat held when it bid: the cards it
holds in the deal and the ones it has played since.

The fit of the model: in ISMCTS self-play (4 players, the classic schedule, 300
iterations a decision; 1,688 bids) bids were 1.13 times the estimate plus 0.08,
with a spread of 0.6 tricks, which gave the observed bids the highest likelihood.

The plays say little beyond what ``engine.inference`` already reads from the
obligations: with montar, fallar and pisar a seat that follows rarely chooses
between taking the trick and not, so only the bids are read here.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ai.hand_value import hand_estimate
from engine.bidding import bidding_order, dealer_forbidden_bid
from engine.cards import BIT, CardSet
from engine.hand import HandState
from engine.observation import Observation

#: Bids against the hand's estimate in ISMCTS self-play (module docstring).
STRETCH = 1.13
SHIFT = 0.08
SPREAD = 0.6

#: The estimate's tables count tricks as four players take them; with more players a
#: side card takes fewer (the heuristic's scaling, relative to four players).
PLAYERS_FACTOR = {3: 1.2, 4: 1.0, 5: 0.93, 6: 0.79, 7: 0.74, 8: 0.74}


class BidReading:
    """The likelihood of the other seats' bids under a deal of the unseen cards."""

    def __init__(self, obs: Observation) -> None:
        seat = obs.seat
        assert seat is not None
        n = obs.players
        cards = obs.cards_per_player
        played = [0] * n
        for s, card in obs.plays:
            played[s] |= BIT[card]
        self.trump = obs.trump
        self.factor = STRETCH * PLAYERS_FACTOR[n]
        # (seat, cards it played, its bid, the bids it was allowed) for every other seat
        # that has bid.
        self.bids: list[tuple[int, CardSet, int, tuple[int, ...]]] = []
        before = 0
        for s in bidding_order(obs.dealer, n):
            bid = obs.bids[s]
            if bid is None:
                break
            allowed = tuple(range(cards + 1))
            if s == obs.dealer and obs.rules.dealer_restriction:
                forbidden = dealer_forbidden_bid(cards, before)
                allowed = tuple(b for b in allowed if b != forbidden)
            if s != seat:
                self.bids.append((s, played[s], bid, allowed))
            before += bid

    @property
    def informative(self) -> bool:
        """Whether any other seat has bid: else every deal is as likely."""
        return bool(self.bids)

    def log_weight(self, hands: list[CardSet]) -> float:
        """The log-likelihood of the bids made, had the seats held ``hands`` (with the
        cards they have played since), up to a constant."""
        total_log = 0.0
        exp = math.exp
        trump = self.trump
        factor = self.factor
        k = -0.5 / (SPREAD * SPREAD)
        for s, played, bid, allowed in self.bids:
            mu = factor * hand_estimate(hands[s] | played, trump) + SHIFT
            total = 0.0
            for b in allowed:
                total += exp(k * (b - mu) * (b - mu))
            total_log += k * (bid - mu) * (bid - mu) - math.log(total)
        return total_log

    def cumulative_weights(self, deals: list[list[CardSet]]) -> list[float]:
        """Running sums of the deals' likelihoods, scaled so that the likeliest is 1:
        draw a deal in proportion to its likelihood with ``bisect`` on a uniform draw
        times the last sum."""
        logs = [self.log_weight(h) for h in deals]
        top = max(logs)
        out = []
        running = 0.0
        for lw in logs:
            running += math.exp(lw - top)
            out.append(running)
        return out


def modelled_bid(st: HandState, rand: Callable[[], float]) -> int:
    """A bid for the seat to move drawn from the same model: how the reading expects
    a seat with this hand to bid."""
    mu = STRETCH * PLAYERS_FACTOR[st.n] * hand_estimate(st.hands[st.turn], st.trump) + SHIFT
    k = -0.5 / (SPREAD * SPREAD)
    bids = st.legal_bids()
    weights = [math.exp(k * (b - mu) * (b - mu)) for b in bids]
    r = rand() * sum(weights)
    for b, w in zip(bids, weights, strict=True):
        r -= w
        if r < 0:
            return b
    return bids[-1]
