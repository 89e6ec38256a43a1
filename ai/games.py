"""The bots of every game behind one call: a game's levels, and a seat's decision.

The service and the workers ask for a bot's move in a stored game without knowing which
game it is (`engine.games`): `levels_of` names the levels a game's seats may have, and
`decide_in` lets the named level decide for one seat from what that seat observes (never
the game itself: each game's bots take only its observation), returning the action in
the game's one action space. Both games share the level names a service uses by default
(`heuristic`, the fallback, and `medium`, the stand-in), so tables work alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ai import levels as pocha_levels
from ai.bot import Budget
from ai.poch import levels as poch_levels
from engine.games import POCH, POCHA, AnyGame, GameKind
from engine.observation import observe as pocha_observe
from engine.poch.game import Game as PochGame
from engine.poch.observation import observe as poch_observe

#: Each game's levels, by name, each with its `description` (`ai.levels.Level` or
#: `ai.poch.levels.Level`).
LEVELS: dict[str, Mapping[str, Any]] = {
    POCHA: pocha_levels.LEVELS,
    POCH: poch_levels.LEVELS,
}


def levels_of(kind: GameKind | str) -> Mapping[str, Any]:
    """The levels a bot seat of this game may have, read now."""
    return LEVELS[kind if isinstance(kind, str) else kind.name]


@dataclass(frozen=True)
class Decided:
    """A bot's decision in any game: its action (the game's action space) and its JSON
    (the action in wire form, the analysis, the iterations and the time)."""

    action: int
    report: dict[str, Any]


def decide_in(
    game: AnyGame,
    seat: int,
    level: str,
    seed: int | None = None,
    budget: Budget | None = None,
    analyse: bool = False,
) -> Decided:
    """What the `level` bot (or bot, with `budget`) in `seat` decides now, from that
    seat's observation only."""
    if isinstance(game, PochGame):
        obs = poch_observe(game, seat)
        poch = poch_levels.decide(obs, level, seed=seed, budget=budget, analyse=analyse)
        return Decided(poch.action, poch.to_dict())
    pocha = pocha_levels.decide(
        pocha_observe(game, seat), level, seed=seed, budget=budget, analyse=analyse
    )
    return Decided(pocha.action, pocha.to_dict())

