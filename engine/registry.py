"""The one registry of the games the service plays: Pocha (the default) and Poch.

What is not about a game's rules (the store, the workers, the API's views and moves, the
clients) reaches a game through its `GameKind` (`engine.protocols`), found here by name or
by the game itself; a stored game says which it is by its JSON's `game` field. A game from
outside the package joins with `register` (and leaves with `unregister`); the modules that
`POCHA_GAME_PLUGINS` names (comma-separated) are imported when this module is, and each
one's `GAME_KIND` registered, so every process (the API's, each worker) knows the same games.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import Any, TypeAlias

import engine.poch.kind
import engine.pocha.kind
from engine import poch, pocha
from engine.errors import InvalidStateError
from engine.protocols import GameKind

__all__ = [
    "DEFAULT_GAME",
    "KINDS",
    "PLUGINS",
    "POCH",
    "POCHA",
    "AnyGame",
    "GameKind",
    "game_from_dict",
    "kind_of",
    "plugins",
    "register",
    "unregister",
]

#: The environment variable naming the modules of games from outside the package.
PLUGINS = "POCHA_GAME_PLUGINS"

#: A game of any kind, as the store and the services hold it.
AnyGame: TypeAlias = pocha.Game | poch.Game

POCHA = pocha.Game.kind
POCH = poch.Game.kind
#: The game a request that names none gets: every request made before Poch existed.
DEFAULT_GAME = POCHA

KINDS: dict[str, GameKind] = {
    kind.name: kind for kind in (engine.pocha.kind.KIND, engine.poch.kind.KIND)
}


def kind_of(game: AnyGame) -> GameKind:
    """The kind `game` is."""
    return KINDS[game.kind]


def game_from_dict(data: dict[str, Any]) -> AnyGame:
    """A stored game of any kind, from the JSON its `to_dict` gave (Pocha's names none)."""
    name = data.get("game", POCHA)
    if name == POCHA:
        return pocha.Game.from_dict(data)
    kind = KINDS.get(name) if isinstance(name, str) else None
    if kind is None:
        raise InvalidStateError(f"unknown game {name!r}")
    game: AnyGame = kind.from_dict(data)
    return game


def register(kind: GameKind) -> None:
    """Make `kind` a game the service plays (a name already taken is refused)."""
    if kind.name in KINDS and KINDS[kind.name] is not kind:
        raise ValueError(f"a game called {kind.name!r} is already registered")
    KINDS[kind.name] = kind


def unregister(name: str) -> None:
    """Forget the game called `name` (one `register` added)."""
    if name in (POCHA, POCH):
        raise ValueError(f"{name!r} is one of the service's own games")
    KINDS.pop(name, None)


def plugins() -> list[ModuleType]:
    """The modules `POCHA_GAME_PLUGINS` names, imported."""
    names = [n.strip() for n in os.environ.get(PLUGINS, "").split(",") if n.strip()]
    return [importlib.import_module(name) for name in names]


for _plugin in plugins():
    if hasattr(_plugin, "GAME_KIND"):
        register(_plugin.GAME_KIND)
