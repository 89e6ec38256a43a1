"""Random Poch positions for the bots' tests: decision points of seeded games.

Games of 3 to 8 players are played by a chooser that mostly passes and bets
small (so that showdowns, unbet deals and every shedding decision all occur);
every decision point met, at a random thinning, is a position: the game and the
observation of the seat to move.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine.poch.actions import HOLD, PASS, bet_action
from engine.poch.game import Game
from engine.poch.observation import Observation, observe
from engine.poch.rules import Rules


def choose(game: Game, rng: random.Random) -> int:
    legal = game.legal_actions()
    if game.phase != "betting":
        return rng.choice(legal)
    roll = rng.random()
    if roll < 0.6:
        return PASS
    if roll < 0.75 and HOLD in legal:
        return HOLD
    small = [a for a in legal if a in {bet_action(game.highest + k) for k in (1, 2, 3)}]
    return rng.choice(small or [PASS])


def random_positions(
    count: int, seed: int, keep: float = 0.3
) -> Iterator[tuple[Game, Observation]]:
    """``count`` positions, each a fresh copy of the game at it and its mover's observation."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        players = rng.randrange(3, 9)
        game = Game.new(Rules(players=players, deals=2), rng.randrange(1 << 30))
        while not game.finished and made < count:
            seat = game.turn
            assert seat is not None
            if rng.random() < keep:
                made += 1
                yield game.clone(), observe(game, seat)
            game.apply(seat, choose(game, rng))
