"""ISMCTS for Poch: a search over one seat's decisions in sampled deals.
How it works: docs/poch.md, ``ai.poch.ismcts``.
"""

from __future__ import annotations

import math
import random
import time

from ai import courtesy
from ai.bot import ActionStat, Budget, Decision, legal_actions, settled
from ai.poch.deals import DealSampler, fork, game_for, knowledge_of
from ai.poch.heuristic import bet_call, shed_choice, table_strength
from engine import draws
from engine.poch.actions import HOLD, PASS, Action, bet_action
from engine.poch.game import Game
from engine.poch.observation import Observation

DEFAULT_ITERATIONS = 400
EXPLORATION = 1.0
# Chips per unit of reward: a deal's swing is mostly within a few dozen chips.
CHIP_SCALE = 10.0
RAISE_STEPS = (1, 2, 4, 8)


class Node:
    """A node of the tree: the decisions since the root that lead to it."""

    __slots__ = ("children", "n", "w")

    def __init__(self) -> None:
        self.children: dict[Action, Node] = {}
        self.n = 0
        self.w = 0.0


def search_actions(game: Game) -> list[Action]:
    """The actions the search weighs: while betting a few amounts, else every legal one."""
    if game.phase != "betting":
        return game.legal_actions()
    assert game.turn is not None
    top, have = game.highest, game.chips[game.turn]
    menu = [PASS]
    if 0 < top <= have:
        menu.append(HOLD)
    menu.extend(bet_action(top + step) for step in RAISE_STEPS if top + step <= have)
    return menu


def policy(game: Game, seat: int, rng: random.Random) -> Action:
    """The heuristic's decision for ``seat`` in a sampled deal (the model of every player)."""
    if game.phase == "betting":
        strength = table_strength(game.hands[seat], game.trump, len(game.order))
        return bet_call(
            strength, game.highest, game.chips[seat], game.pot, game.plates["pocher"], rng
        )
    return shed_choice(game.hands[seat], game.legal_actions(), game.direction)


class ISMCTSBot:
    """Single-observer ISMCTS over Poch's decisions, within a budget."""

    def __init__(self, exploration: float = EXPLORATION, name: str = "ismcts") -> None:
        self.name = name
        self.exploration = exploration

    def decide(
        self,
        obs: Observation,
        budget: Budget | None = None,
        seed: int | None = None,
        analyse: bool = False,
    ) -> Decision:
        legal = legal_actions(obs)
        if len(legal) == 1 and not analyse:
            return Decision(action=legal[0])
        budget = budget or Budget(iterations=DEFAULT_ITERATIONS)
        # Without analysis only the most visited move matters: the search may stop once no
        # move can catch it up (``ai.bot.settled``).
        root, iterations, elapsed = self.search(obs, budget, seed, settle=not analyse)
        stats = []
        for a in legal:
            child = root.children.get(a)
            if child is None:
                continue
            stats.append((a, child.n, child.w / child.n * CHIP_SCALE if child.n else 0.0))
        if not stats:
            # Nothing searched (a zero budget): pass where it may, else the first legal action.
            return Decision(action=legal[0] if PASS not in legal else PASS)
        best = max(stats, key=lambda t: (t[1], t[2]))[0]
        total = sum(v for _, v, _ in stats) or 1
        analysis = tuple(ActionStat(a, v, v / total, m) for a, v, m in stats) if analyse else ()
        return Decision(
            action=best, analysis=analysis, iterations=iterations, elapsed_ms=elapsed * 1000
        )

    def search(
        self, obs: Observation, budget: Budget, seed: int | None, settle: bool = False
    ) -> tuple[Node, int, float]:
        """Run the search from ``obs``; the root, the iterations done and the time. With
        ``settle`` it stops early once the most visited move is the budget's whole run's."""
        assert obs.seat is not None
        me = obs.seat
        rng = random.Random(seed)
        sampler = DealSampler(knowledge_of(obs))
        base = game_for(obs, sampler.sample(rng))
        start_chips = base.chips[me]
        c = self.exploration
        root = Node()
        max_iter = budget.iterations if budget.iterations is not None else 1 << 60
        start = time.perf_counter()
        deadline = start + budget.milliseconds / 1000.0 if budget.milliseconds is not None else None
        wait = courtesy.wait
        it = 0
        while it < max_iter:
            if wait is not None and it & 7 == 0:
                wait()  # a quick turn beside this search goes first (ai.courtesy)
            if it & 7 == 0:
                if deadline is not None and time.perf_counter() >= deadline:
                    break
                # Only past half the budget can a lead exceed the iterations left.
                if settle and 2 * it > max_iter and settled(root, max_iter - it):
                    break
            it += 1
            game = fork(base, sampler.sample(rng))
            node = root
            path = [root]
            expanded = False
            while game.phase != "over" and not expanded:
                seat = game.turn
                assert seat is not None
                if seat != me:
                    action = policy(game, seat, rng)
                    node = node.children.setdefault(action, Node())
                else:
                    acts = search_actions(game)
                    untried = [a for a in acts if a not in node.children]
                    if untried:
                        action = untried[draws.randbelow(len(untried), rng)]
                        node.children[action] = Node()
                        expanded = True
                    else:
                        log_n = math.log(max(1, node.n))
                        action = max(
                            acts,
                            key=lambda a: (
                                node.children[a].w / max(1, node.children[a].n)
                                + c * math.sqrt(log_n / max(1, node.children[a].n))
                            ),
                        )
                    node = node.children[action]
                path.append(node)
                game.apply(seat, action)
            while game.phase != "over":
                seat = game.turn
                assert seat is not None
                game.apply(seat, policy(game, seat, rng))
            reward = (game.chips[me] - start_chips) / CHIP_SCALE
            for n in path:
                n.n += 1
                n.w += reward
        return root, it, time.perf_counter() - start
