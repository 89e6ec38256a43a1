"""The heuristic Poch bot: bets on its set's strength, sheds to go out first.
How it works: docs/poch.md, ``ai.poch.heuristic``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from functools import cache

from ai.bot import Budget, Decision, legal_actions
from ai.poch.deals import DealSampler, knowledge_of
from engine.poch.actions import PASS, SUIT_BASE, Action, bet_action
from engine.poch.cards import ACE, NUM_CARDS, SEVEN, SUITS, Card, best_set, card, rank_of, suit_of
from engine.poch.observation import Observation

# Deals sampled to judge a set's strength, and how often the bot bluffs.
STRENGTH_SAMPLES = 120
BLUFF_RATE = 0.03
# What starting the shedding is worth to the best set's holder, in chips (a guess:
# the starter sheds first and often keeps the choice).
STARTER_VALUE = 1.5


def sampled_strength(obs: Observation, samples: int, rng: random.Random) -> float:
    """The chance that the seat's best set is the best at the table, over sampled deals."""
    assert obs.seat is not None and obs.hand is not None and obs.trump is not None
    trump = SUITS.index(obs.trump)
    mine = best_set(obs.hand, trump)
    if mine is None:
        return 0.0
    sampler = DealSampler(knowledge_of(obs))
    best = 0
    for _ in range(samples):
        hands = sampler.sample(rng)
        if all(
            (other := best_set(hands[s], trump)) is None or other[0] < mine[0]
            for s in range(len(hands))
            if s != obs.seat and hands[s]
        ):
            best += 1
    return best / samples


@cache
def _strength_table(players: int) -> dict[tuple[int, int, bool], float]:
    """For each set key, the share of random deals in which it was the best at the table."""
    rng = random.Random(f"poch-strength:{players}")
    wins: dict[tuple[int, int, bool], list[int]] = {}
    deck = list(range(NUM_CARDS))
    for _ in range(4000):
        rng.shuffle(deck)
        trump = rng.randrange(4)
        keys = [best_set(deck[s::players], trump) for s in range(players)]
        found = [k[0] for k in keys if k is not None]
        if not found:
            continue
        top = max(found)
        for key in found:
            entry = wins.setdefault(key, [0, 0])
            entry[0] += key == top
            entry[1] += 1
    return {k: w / t for k, (w, t) in wins.items()}


def table_strength(hand: Iterable[Card], trump: int, players: int) -> float:
    """A cheap strength of a hand's best set: how often a set like it is the best."""
    mine = best_set(hand, trump)
    if mine is None:
        return 0.0
    key = mine[0]
    table = _strength_table(players)
    if key in table:
        return table[key]
    return 1.0 if key[0] >= 3 else 0.0


def bet_call(
    strength: float,
    top: int,
    chips: int,
    pot: int,
    pocher: int,
    rng: random.Random,
) -> Action:
    """The betting call for a set this strong; see the module's paragraph.  Every call
    it makes is legal: passing always is, and it bets only when nobody has."""
    if top > 0:
        return PASS
    # Opening with b chips: the pot (and pocher) if best; else b and the fine, 2 x (pot + b).
    won = pot + pocher + STARTER_VALUE
    gain = strength * won - (1.0 - strength) * (1 + 2 * (pot + 1))
    if gain > 0:
        amount = 1 + int(8 * max(0.0, strength - 0.6) / 0.4)
    elif rng.random() < BLUFF_RATE:
        amount = 1
    else:
        return PASS
    amount = min(amount, chips)
    return bet_action(amount) if amount >= 1 else PASS


def _last_rank(direction: int) -> int:
    return ACE if direction > 0 else SEVEN


def shed_choice(hand: set[Card], legal: list[Action], direction: int) -> Action:
    """The start card or next suit that sheds fastest; ``direction`` 0 while starting."""

    def suit_score(suit: int, d: int) -> tuple[int, int]:
        keeps = card(suit, _last_rank(d)) in hand
        return (int(keeps), sum(1 for c in hand if suit_of(c) == suit))

    if direction == 0:
        # A start card: 7 -> upwards, ace -> downwards.
        def start_score(c: Card) -> tuple[int, int, int, int]:
            d = 1 if rank_of(c) == SEVEN else -1
            control = sum(1 for s in range(4) if card(s, _last_rank(d)) in hand)
            keeps, count = suit_score(suit_of(c), d)
            return (control, keeps, count, -c)

        return max(legal, key=start_score)
    return max(legal, key=lambda a: (*suit_score(a - SUIT_BASE, direction), -a))


class HeuristicBot:
    name = "heuristic"

    def __init__(self, samples: int = STRENGTH_SAMPLES) -> None:
        self.samples = samples

    def decide(
        self,
        obs: Observation,
        budget: Budget | None = None,
        seed: int | None = None,
        analyse: bool = False,
    ) -> Decision:
        legal = legal_actions(obs)
        if len(legal) == 1:
            return Decision(action=legal[0])
        rng = random.Random(seed)
        assert obs.seat is not None and obs.hand is not None
        if obs.phase == "betting":
            top = max((b["amount"] for b in obs.bets), default=0)
            if top > 0:
                return Decision(action=PASS)
            strength = sampled_strength(obs, self.samples, rng)
            action = bet_call(
                strength, top, obs.chips[obs.seat], obs.pot, obs.plates["pocher"], rng
            )
            return Decision(action=action)
        direction = {"up": 1, "down": -1}.get(obs.direction or "", 0)
        return Decision(action=shed_choice(set(obs.hand), legal, direction))


__all__ = ["HeuristicBot", "bet_call", "sampled_strength", "shed_choice", "table_strength"]
