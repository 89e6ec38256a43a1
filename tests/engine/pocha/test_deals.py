"""Deals of the hidden cards: every sampled deal fits what the seat knows, and a position
no deal explains is told apart, with the seats it cannot be dealt to."""

from __future__ import annotations

import random

import pytest

from engine.pocha.cards import BIT, parse_cards
from engine.pocha.deals import DealSampler, state_from_observation
from engine.pocha.inference import Knowledge, infer
from tests.engine.pocha.engine_support import random_positions


def test_sampled_deals_never_break_a_constraint() -> None:
    rng = random.Random(0)
    for game, obs in random_positions(150, seed=7):
        assert obs.seat is not None
        knowledge = infer(obs)
        sampler = DealSampler(knowledge)
        n = obs.players
        played = 0
        for _, c in obs.plays:
            played |= BIT[c]
        sizes = obs.hand_sizes()
        # The real hands are one of the deals the seat must consider possible.
        for s in range(n):
            assert game.state.hands[s] & ~knowledge.possible(s) == 0
        for _ in range(20):
            hands = sampler.sample(obs.hand, rng)
            assert hands[obs.seat] == obs.hand
            seen = 0
            for s in range(n):
                h = hands[s]
                assert h.bit_count() == sizes[s]
                assert h & seen == 0, "a card dealt twice"
                assert h & played == 0, "a played card dealt again"
                assert h & ~obs.rules.deck == 0
                if s != obs.seat:
                    assert h & knowledge.absent[s] == 0, "an inferred absence broken"
                    assert knowledge.present[s] & ~h == 0, "a known card missing"
                    assert h & obs.hand == 0
                seen |= h
            if obs.trump_holder is None:
                assert seen & BIT[obs.trump_card] == 0, "the turned card dealt"
            # The deal made into the hand's state: the same seat to move and tricks won.
            st = state_from_observation(obs, hands)
            assert st.turn == obs.turn
            assert st.hands == hands
            assert tuple(st.tricks) == obs.tricks_won
            assert st.legal_actions() == list(obs.legal_actions)
        assert sampler.shortfall() is None


def knowledge(absent: dict[int, list[str]], sizes: list[int]) -> Knowledge:
    """Seat 0 holds O4; the unseen cards are O1, O3, C1 and C3, all in seats 1-3's hands
    (``sizes``); ``absent``: the cards each seat's plays rule out."""
    unseen = parse_cards(["O1", "O3", "C1", "C3"])
    n = len(sizes)
    return Knowledge(
        observer=0,
        hand_sizes=sizes,
        present=[parse_cards(["O4"])] + [0] * (n - 1),
        absent=[0] + [parse_cards(absent.get(s, [])) for s in range(1, n)],
        unseen=unseen,
        stock_size=0,
    )


def test_no_shortfall_when_the_plays_leave_room() -> None:
    k = knowledge({1: ["O1", "O3"], 2: ["C1", "C3"]}, [1, 2, 2, 0])
    sampler = DealSampler(k)
    assert sampler.shortfall() is None
    hands = sampler.sample(parse_cards(["O4"]), random.Random(1))
    assert hands[1] == parse_cards(["C1", "C3"]) and hands[2] == parse_cards(["O1", "O3"])


@pytest.mark.parametrize(
    ("absent", "expected"),
    [
        # Seat 1 must hold 2 cards, and its plays ruled out all but C3.
        ({1: ["O1", "O3", "C1"]}, ((1,), 2, 1)),
        # Seats 1 and 2 showed no oros: between them 4 cards, only the 2 copas fit.
        ({1: ["O1", "O3"], 2: ["O1", "O3"]}, ((1, 2), 4, 2)),
    ],
)
def test_shortfall_names_the_seats_no_deal_can_serve(
    absent: dict[int, list[str]], expected: tuple[tuple[int, ...], int, int]
) -> None:
    sampler = DealSampler(knowledge(absent, [1, 2, 2, 0]))
    assert sampler.shortfall() == expected
    with pytest.raises(ValueError, match="no deal of the unseen cards fits"):
        sampler.sample(parse_cards(["O4"]), random.Random(0))


def test_the_same_seed_deals_the_same() -> None:
    for _, obs in random_positions(30, seed=2):
        sampler = DealSampler(infer(obs))
        a = [sampler.sample(obs.hand, r) for r in [random.Random(9)] for _ in range(5)]
        b = [sampler.sample(obs.hand, r) for r in [random.Random(9)] for _ in range(5)]
        assert a == b
