"""The one registry of every game's bots: a game's levels, and a seat's decision.

The service and the workers reach a stored game's bots without knowing which game it is:
`levels_of` names the levels its seats may have, and `decide_in` lets a level decide for
one seat from that seat's observation only, answering in the game's action space. A game
from outside the package brings its bots with `register` (and takes them away with
`unregister`); each module `POCHA_GAME_PLUGINS` names (`engine.registry.plugins`) that has
a `BOT_KIND` has it registered when this module is imported.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import ai.poch.kind
import ai.pocha.kind
from ai.bot import ActionStat, Budget, Level
from ai.kind import BotKind
from engine.i18n import Message, _
from engine.protocols import Action
from engine.registry import AnyGame, GameKind, kind_of, plugins

__all__ = [
    "BOT_KINDS",
    "LEVELS",
    "BotKind",
    "Decided",
    "bot_kind",
    "decide_in",
    "levels_of",
    "register",
    "unregister",
]

#: Each game's bots, by the game's name.
BOT_KINDS: dict[str, BotKind] = {
    kind.name: kind for kind in (ai.pocha.kind.KIND, ai.poch.kind.KIND)
}
#: Each game's levels, by name, each with its `description`.
LEVELS: dict[str, Mapping[str, Level]] = {name: kind.levels for name, kind in BOT_KINDS.items()}
#: The games whose bots ship with the package (never unregistered).
_OWN = frozenset(BOT_KINDS)


def register(kind: BotKind) -> None:
    """Give the game `kind` plays (registered in `engine.registry`) its bots."""
    if kind.name in BOT_KINDS and BOT_KINDS[kind.name] is not kind:
        raise ValueError(f"the game {kind.name!r} already has its bots")
    BOT_KINDS[kind.name] = kind
    LEVELS[kind.name] = kind.levels


def unregister(name: str) -> None:
    """Take away the bots of the game called `name` (one `register` added)."""
    if name in _OWN:
        raise ValueError(f"{name!r} is one of the service's own games")
    BOT_KINDS.pop(name, None)
    LEVELS.pop(name, None)


for _plugin in plugins():
    if hasattr(_plugin, "BOT_KIND"):
        register(_plugin.BOT_KIND)


@dataclass(frozen=True)
class Decided:
    """A bot's decision in any game: its action (the game's action space), its JSON (the
    action in wire form, the analysis, the iterations and the time), and the analysis as
    the bot gave it (when asked for)."""

    action: Action
    report: dict[str, Any]
    analysis: tuple[ActionStat, ...] = ()


def bot_kind(game: GameKind | str) -> BotKind:
    """The bots of this game (or of the game called so)."""
    return BOT_KINDS[game if isinstance(game, str) else game.name]


def levels_of(kind: GameKind | str) -> Mapping[str, Level]:
    """The levels a bot seat of this game may have, read now."""
    return bot_kind(kind).levels


def no_such_level(level: str, levels: Iterable[str]) -> Message:
    """Why `level` is refused for a game whose bots have the `levels`."""
    return _(
        "This game's bots have no level {level}; its levels are {levels}.",
        level=repr(level),
        levels=", ".join(levels),
    )


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
    bots = bot_kind(kind_of(game))
    obs = bots.game.observation(game, seat)
    decision = bots.decide(obs, level, seed=seed, budget=budget, analyse=analyse)
    return Decided(decision.action, bots.report(decision), decision.analysis)
