"""The OpenSpiel bridge (optional extra ``pocha[research]``): at every decision of random
oh_hell games the view we build has exactly OpenSpiel's legal actions, and our bots play
whole games at an OpenSpiel table, scored as the engine scores them."""

from __future__ import annotations

import random

import pytest

from ai.pocha.openspiel_bridge import action_of, decide, observation_of_state
from engine.pocha.hand import hand_points
from engine.pocha.rules import Rules

# The bridge itself never imports OpenSpiel: it reads any object with its state's methods.
pyspiel = pytest.importorskip("pyspiel")


def load(players: int, tricks: int) -> tuple[object, dict[str, object]]:
    per_suit = 9 if players in (3, 6) else 10
    params = {
        "players": players,
        "num_suits": 4,
        "num_cards_per_suit": per_suit,
        "num_tricks_fixed": tricks,
        "off_bid_penalty": True,
        "points_per_trick": 5,
    }
    return pyspiel.load_game("oh_hell", params), params


@pytest.mark.parametrize(("players", "tricks"), [(4, 5), (3, 7), (6, 2), (7, 4)])
def test_our_view_has_openspiels_legal_actions_at_every_decision(players: int, tricks: int) -> None:
    game, params = load(players, tricks)
    rng = random.Random(players * 100 + tricks)
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            obs = observation_of_state(state, params)
            assert obs.seat == state.current_player()
            ours = sorted(action_of(a, params) for a in obs.legal_actions)
            assert ours == sorted(state.legal_actions())
            state.apply_action(rng.choice(state.legal_actions()))


def test_our_bots_play_at_an_openspiel_table_and_are_scored_as_the_engine_scores() -> None:
    game, params = load(4, 3)
    rng = random.Random(1)
    state = game.new_initial_state()
    levels = ["heuristic", "hard", "expert", "random"]
    step = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        seat = state.current_player()
        action = decide(state, params, levels[seat], seed=step)
        assert action in state.legal_actions()
        state.apply_action(action)
        step += 1
    # Every seat's return is a Pocha hand score of its bid (exact: 10 + 5 a trick; else -5
    # a trick of difference).
    rules = Rules(players=4, montar=False, fallar=False, pisar=False)
    history = [(h.player, h.action) for h in state.full_history() if h.player >= 0]
    bids = {p: a - 40 for p, a in history if a >= 40}
    for seat, got in enumerate(state.returns()):
        assert got in {hand_points(rules, bids[seat], won) for won in range(4)}
