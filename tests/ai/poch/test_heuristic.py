"""The heuristic Poch bot: it bets on its set's odds and sheds by the rules.

Rigged deals (``tests.engine.poch.support``) and hands named by card codes.
"""

from __future__ import annotations

import random

import pytest

from ai.poch.heuristic import HeuristicBot, bet_call, sampled_strength, shed_choice
from engine.poch.actions import PASS, SUIT_BASE, amount_of, bet_action, is_bet
from engine.poch.cards import parse_card, parse_suit
from engine.poch.observation import observe
from tests.engine.poch.support import LAYOUT_A, LAYOUT_N, rigged


def _hand(codes: str) -> set[int]:
    return {parse_card(c) for c in codes.split()}


def test_three_kings_are_strong_and_bet_high(monkeypatch: pytest.MonkeyPatch) -> None:
    game = rigged(monkeypatch, LAYOUT_A)  # seat 0 (Vorhand) holds three kings
    obs = observe(game, 0)
    strength = sampled_strength(obs, 200, random.Random(1))
    assert strength > 0.8
    decision = HeuristicBot().decide(obs, seed=1)
    assert is_bet(decision.action) and amount_of(decision.action) >= 5


def test_no_set_passes_but_for_a_rare_bluff(monkeypatch: pytest.MonkeyPatch) -> None:
    game = rigged(monkeypatch, LAYOUT_N)  # nobody holds a set
    obs = observe(game, game.turn)
    assert sampled_strength(obs, 50, random.Random(1)) == 0.0
    calls = [HeuristicBot().decide(obs, seed=s).action for s in range(400)]
    bluffs = [a for a in calls if a != PASS]
    assert all(a == bet_action(1) for a in bluffs)
    assert 1 <= len(bluffs) <= 30  # about 3%


def test_stronger_sets_bet_more_and_nobody_pays_after_a_bet() -> None:
    rng = random.Random(0)
    amounts = []
    for strength in (0.5, 0.7, 0.8, 0.9, 1.0):
        call = bet_call(strength, 0, 40, 0, 4, rng)
        amounts.append(amount_of(call) if is_bet(call) else 0)
    assert amounts == sorted(amounts) and amounts[0] < amounts[-1]
    assert amounts[-1] == 9
    # Once someone has paid, the best set takes the pot whether it pays or not: pass.
    assert bet_call(1.0, 3, 40, 3, 4, rng) == PASS
    # Never more than the chips held.
    assert bet_call(1.0, 0, 2, 0, 4, rng) == bet_action(2)


def test_a_better_pot_is_worth_opening_with_weaker_odds() -> None:
    rng = random.Random(0)
    assert bet_call(0.3, 0, 40, 0, 4, rng) == PASS
    assert is_bet(bet_call(0.3, 0, 40, 0, 30, rng))


def test_starts_in_the_direction_it_keeps_the_choice() -> None:
    # Three aces (the last cards upwards) and one 7: upwards it keeps the choice after
    # clubs, spades and hearts, so it starts upwards, with the 7 of a suit it keeps.
    hand = _hand("CA SA HA C7 D8 D9 H10 SJ")
    legal = sorted(c for c in hand if c in _hand("CA SA HA C7"))
    assert shed_choice(hand, legal, 0) == parse_card("C7")
    # Three 7s and one ace: downwards.
    hand = _hand("C7 S7 H7 DA D8 D9 H10 SJ")
    legal = sorted(_hand("C7 S7 H7 DA"))
    assert shed_choice(hand, legal, 0) == parse_card("DA")


def test_chooses_the_suit_it_keeps_the_choice_after_then_the_longest() -> None:
    legal = [SUIT_BASE + parse_suit(s) for s in "SHD"]
    hand = _hand("SA H7 H8 H9 H10 D7")
    assert shed_choice(hand, legal, 1) == SUIT_BASE + parse_suit("S")  # it holds the spade ace
    hand = _hand("S8 H7 H8 H9 D7")
    assert shed_choice(hand, legal, 1) == SUIT_BASE + parse_suit("H")  # most cards shed
    hand = _hand("S7 H8 H9 H10 D9")
    assert shed_choice(hand, legal, -1) == SUIT_BASE + parse_suit("S")  # downwards, the 7
