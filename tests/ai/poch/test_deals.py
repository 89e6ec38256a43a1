"""The deals the Poch search samples: never against the observation, never from hidden cards.

Checked over many random positions against the rules directly (not through
``Knowledge.consistent``): the seat keeps its cards, every shown honour and shown
set stays with its holder unless played, the card counts hold, what the showdown
showed is each player's best set of the sampled deal, the dealer was dealt a
trump, and an untaken ``sequence`` plate means nobody was dealt it.  The same
observation over a different hidden deal gives the same samples.  ``game_for``
plays a deal on as the real game does.
"""

from __future__ import annotations

import random

from ai.bot import Budget
from ai.poch.deals import DealSampler, game_for, knowledge_of
from ai.poch.ismcts import ISMCTSBot
from engine.poch.cards import EIGHT, NINE, SEVEN, SUITS, Card, best_set, card, parse_card
from engine.poch.game import Game
from engine.poch.observation import Observation, observe
from tests.ai.poch.support import choose, random_positions


def _violations(obs: Observation, hands: list[set[Card]]) -> list[str]:
    """What in ``hands`` contradicts ``obs``, by the rules (empty: nothing)."""
    assert obs.seat is not None and obs.hand is not None and obs.trump is not None
    out = []
    trump = SUITS.index(obs.trump)
    n = len(hands)
    played: list[set[Card]] = [set() for _ in range(n)]
    for s, c in obs.played:
        played[s].add(c)
    every = [c for h in hands for c in h] + [c for _, c in obs.played]
    if sorted(every) != list(range(32)):
        out.append("the cards are not the pack, once each")
    if hands[obs.seat] != set(obs.hand):
        out.append("the seat's own hand changed")
    if tuple(len(h) for h in hands) != obs.hand_sizes:
        out.append("card counts differ")
    gone = {c for _, c in obs.played}
    for e in obs.collected:
        for c in map(parse_card, e["cards"]):
            if c not in gone and c not in hands[e["seat"]]:
                out.append(f"shown honour {c} left seat {e['seat']}")
    for s, cs in obs.showdown.items():
        if any(c not in gone and c not in hands[s] for c in cs):
            out.append(f"shown set left seat {s}")
    dealt = [hands[s] | played[s] for s in range(n)]
    if obs.phase != "betting" and any(b["amount"] > 0 for b in obs.bets):
        for s in range(n):
            if obs.active[s]:
                best = best_set(dealt[s], trump)
                shown = obs.showdown.get(s)
                if (best is None) != (shown is None) or (
                    best is not None and shown is not None and best[1] != sorted(shown)
                ):
                    out.append(f"seat {s}'s best set is not the one it showed")
    if not any(c // 8 == trump for c in dealt[obs.dealer]):
        out.append("the dealer was dealt no trump")
    if not any(e["plate"] == "sequence" for e in obs.collected):
        seq = {card(trump, r) for r in (SEVEN, EIGHT, NINE)}
        if any(seq <= d for d in dealt):
            out.append("someone was dealt the untaken sequence")
    return out


def test_the_true_deal_is_consistent() -> None:
    """The checker above accepts the real deal (so it can tell good from bad)."""
    for game, obs in random_positions(200, seed=11):
        assert _violations(obs, [set(h) for h in game.hands]) == []
        assert knowledge_of(obs).consistent([set(h) for h in game.hands])


def test_the_checker_sees_a_broken_deal() -> None:
    for game, obs in random_positions(30, seed=12):
        hands = [set(h) for h in game.hands]
        seat = obs.seat
        assert seat is not None
        other = (seat + 1) % len(hands)
        if hands[other]:
            hands[seat].add(hands[other].pop())  # a card moves into the seat's own hand
            assert _violations(obs, hands)
            assert not knowledge_of(obs).consistent(hands)


def test_samples_never_contradict_the_observation() -> None:
    rng = random.Random(5)
    capped = 0
    for game, obs in random_positions(400, seed=13, keep=0.4):
        sampler = DealSampler(knowledge_of(obs))
        capped += sampler.capped
        for _ in range(6):
            hands = sampler.sample(rng)
            assert _violations(obs, hands) == [], (game.seed, obs.phase)
            assert sampler.k.consistent(hands)
    # The showdown's bounds were met often, so the harder path of the sampler is tested.
    assert capped >= 40


def test_samples_do_not_depend_on_the_hidden_deal() -> None:
    differ = 0
    for game, obs in random_positions(120, seed=14):
        assert obs.seat is not None
        other = DealSampler(knowledge_of(obs)).sample(random.Random(99))
        twin = game.clone()
        twin.hands = other  # the same public position, other hidden cards
        differ += other != game.hands
        twin_obs = observe(twin, obs.seat)
        assert twin_obs == obs
        for k in range(3):
            a = DealSampler(knowledge_of(obs)).sample(random.Random(k))
            b = DealSampler(knowledge_of(twin_obs)).sample(random.Random(k))
            assert a == b
    assert differ > 60


def test_ismcts_decides_the_same_over_another_hidden_deal() -> None:
    bot = ISMCTSBot()
    for game, obs in random_positions(20, seed=15):
        assert obs.seat is not None
        twin = game.clone()
        twin.hands = DealSampler(knowledge_of(obs)).sample(random.Random(1))
        a = bot.decide(obs, Budget(iterations=30), seed=4, analyse=True)
        b = bot.decide(observe(twin, obs.seat), Budget(iterations=30), seed=4, analyse=True)
        assert (a.action, a.analysis) == (b.action, b.analysis)


def test_game_for_plays_the_deal_as_the_game_does() -> None:
    rng = random.Random(3)
    for game, obs in random_positions(120, seed=16):
        assert obs.seat is not None
        copy = game_for(obs, [set(h) for h in game.hands])
        assert observe(copy, obs.seat).hand == obs.hand
        assert copy.legal_actions() == game.legal_actions()
        deal = game.deal_no
        real: Game = game
        while not copy.finished:
            action = choose(copy, rng)
            seat = copy.turn
            assert seat is not None and real.turn == seat
            copy.apply(seat, action)
            real.apply(seat, action)
        # The copy ends with the deal, paid out as the real game paid it.
        assert real.deal_no > deal or real.finished
        assert copy.deal_results[-1] == real.deal_results[deal - 1]
