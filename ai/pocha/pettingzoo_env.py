"""Pocha as a PettingZoo AEC environment, on the engine's real rules (``pocha[research]``).
How it works: docs/internals.md, ``ai.pocha.pettingzoo_env``.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from engine.pocha.actions import BID_BASE, bid_of
from engine.pocha.cards import BIT, NUM_CARDS
from engine.pocha.game import Game
from engine.pocha.observation import Observation, observe
from engine.pocha.rules import MAX_PLAYERS, Rules

MAX_TRICKS = 12
ACTIONS = BID_BASE + MAX_TRICKS + 1
# hand, played this hand, on the table, face-up trump: 40 bits each; then per seat (up to
# eight, the agent first) its bid and tricks won; then bidding?, cards in hand.
OBSERVATION = 4 * NUM_CARDS + 2 * MAX_PLAYERS + 2


def _bits(cards: int) -> np.ndarray:
    return np.array([cards >> c & 1 for c in range(NUM_CARDS)], dtype=np.float32)


def observation_vector(obs: Observation) -> np.ndarray:
    """The seat's view as numbers in [0, 1]."""
    seat = obs.seat
    assert seat is not None
    n = obs.players
    played = 0
    for _, c in obs.plays:
        played |= BIT[c]
    table = 0
    for _, c in obs.trick:
        table |= BIT[c]
    per_seat = np.zeros(2 * MAX_PLAYERS, dtype=np.float32)
    for k in range(n):
        s = (seat + k) % n
        bid = obs.bids[s]
        # 0 means "not bid yet"; a bid of b is (b + 1) / 13.
        per_seat[2 * k] = 0.0 if bid is None else (bid + 1) / (MAX_TRICKS + 1)
        per_seat[2 * k + 1] = obs.tricks_won[s] / MAX_TRICKS
    tail = np.array([float(obs.bidding), obs.cards_per_player / MAX_TRICKS], dtype=np.float32)
    return np.concatenate(
        [_bits(obs.hand), _bits(played), _bits(table), _bits(BIT[obs.trump_card]), per_seat, tail]
    )


class PochaEnv(AECEnv):
    """A whole game of Pocha, turn by turn."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": [],
        "name": "pocha_v0",
        "is_parallelizable": False,
    }

    def __init__(self, rules: Rules | None = None) -> None:
        super().__init__()
        self.rules = rules or Rules()
        self.possible_agents = [f"player_{s}" for s in range(self.rules.players)]
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (OBSERVATION,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (ACTIONS,), dtype=np.int8),
            }
        )
        self._action_space = spaces.Discrete(ACTIONS)
        self.game: Game | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.game = Game.new(self.rules, seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        turn = self.game.turn
        assert turn is not None
        self.agent_selection = self.possible_agents[turn]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.game is not None
        obs = observe(self.game, self._seat(agent))
        mask = np.zeros(ACTIONS, dtype=np.int8)
        for a in obs.legal_actions:
            mask[a] = 1
        return {"observation": observation_vector(obs), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        assert game is not None and action is not None
        seat = self._seat(agent)
        if int(action) not in game.legal_actions():
            raise ValueError(f"{agent} may not play action {action} now")
        self._cumulative_rewards[agent] = 0.0
        hands_done = len(game.history)
        game.apply(seat, int(action))
        self.rewards = {a: 0.0 for a in self.agents}
        if len(game.history) > hands_done:
            points = game.history[-1]["points"]
            for a in self.agents:
                self.rewards[a] = float(points[self._seat(a)])
        if game.phase == "finished":
            self.terminations = {a: True for a in self.agents}
        else:
            turn = game.turn
            assert turn is not None
            self.agent_selection = self.possible_agents[turn]
        self._accumulate_rewards()

    def render(self) -> None:
        return None

    def close(self) -> None:
        return None


def env(rules: Rules | None = None) -> PochaEnv:
    """The environment, as PettingZoo's modules name their constructor."""
    return PochaEnv(rules)


def legal_bids(mask: np.ndarray) -> list[int]:
    """The bids (numbers of tricks) a mask allows: a helper for agents."""
    return [bid_of(int(a)) for a in np.flatnonzero(mask) if a >= BID_BASE]
