"""The PettingZoo environment (optional extra ``pocha[research]``): PettingZoo's own API
test, and a game played through it by our heuristic bot, deciding from the same view."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test

from ai.pocha.heuristic import HeuristicBot
from ai.pocha.pettingzoo_env import ACTIONS, env, legal_bids
from engine.pocha.observation import observe
from engine.pocha.rules import Rules


@pytest.mark.parametrize(
    "rules", [Rules(schedule=[2, 1]), Rules(players=5, schedule=[3], fallar=False)]
)
def test_pettingzoo_api_test_passes(rules: Rules) -> None:
    api_test(env(rules), num_cycles=200)


def test_a_game_through_the_environment_scores_what_the_engine_scores() -> None:
    e = env(Rules(players=3, schedule=[3, 1]))
    e.reset(seed=7)
    bot = HeuristicBot()
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        assert obs["action_mask"].shape == (ACTIONS,)
        game = e.game
        assert game is not None
        view = observe(game, e.possible_agents.index(agent))
        action = bot.decide(view).action
        assert obs["action_mask"][action] == 1
        if view.bidding:
            assert legal_bids(obs["action_mask"]) == sorted(a - 64 for a in view.legal_actions)
        e.step(action)
    game = e.game
    assert game is not None and game.phase == "finished"
    assert [totals[a] for a in e.possible_agents] == [float(s) for s in game.scores]
    assert np.all(obs["observation"] <= 1.0)
