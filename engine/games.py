"""One interface to every game the service plays: Pocha (the default) and Poch.

What is not about a game's rules (the store, the workers, the API's views and moves, the
clients) reaches a game through a `GameKind`: its rules and their options, a new game,
the game from its stored JSON, what one seat sees, the actions' wire forms and the events
that open it. The games themselves share a small surface the store relies on (`turn`,
`finished`, `players`, `rules.turn_seconds`, `legal_actions`, `apply`, `check_turn`,
`copy`, `to_dict`, `history`), so a move is the same code for both and Pocha's move pays
nothing for Poch's existence. A stored game says which it is by its JSON's `game` field;
Pocha's JSON, which predates Poch, has none.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeAlias

from engine import actions as pocha_actions
from engine import rules as pocha_rules
from engine.errors import InvalidStateError
from engine.game import Event, new_seed
from engine.game import Game as PochaGame
from engine.i18n import _
from engine.observation import observe as pocha_observe
from engine.poch import actions as poch_actions
from engine.poch import rules as poch_rules
from engine.poch.game import Game as PochGame
from engine.poch.observation import observe as poch_observe

#: A game of any kind, as the store and the services hold it.
AnyGame: TypeAlias = PochaGame | PochGame

POCHA = "pocha"
POCH = "poch"
#: The game a request that names none gets: every request made before Poch existed.
DEFAULT_GAME = POCHA


@dataclass(frozen=True)
class GameKind:
    """How the service reaches one game's rules (see the module's paragraph)."""

    name: str
    #: The game's name for people.
    title: str
    #: Bounds on the number of players.
    min_players: int
    max_players: int
    #: The game's rules from the API's `rules` object (raises the engine's
    #: `InvalidRulesError`, naming the option, for a bad one).
    rules_from_dict: Callable[[dict[str, Any]], Any]
    #: Every option: default, allowed values, meaning, kind and bounds.
    describe_options: Callable[[], dict[str, dict[str, Any]]]
    #: A new game of these rules dealt from this seed.
    new: Callable[[Any, int | None], AnyGame]
    #: The game from its stored JSON (`InvalidStateError` for anything else).
    from_dict: Callable[[dict[str, Any]], AnyGame]
    #: What a seat (None: a spectator) sees, as JSON.
    observe: Callable[[Any, int | None], dict[str, Any]]
    #: An action from its JSON form (a typed engine error for anything else), and back.
    action_from_wire: Callable[[Any], int]
    action_to_wire: Callable[[int], Any]
    #: The public events a new game starts with.
    opening_events: Callable[[Any], list[Event]]


def _new_pocha(rules: Any, seed: int | None) -> AnyGame:
    return PochaGame.new(rules, seed)


def _new_poch(rules: Any, seed: int | None) -> AnyGame:
    return PochGame.new(rules, new_seed() if seed is None else seed)


def _describe_poch_options() -> dict[str, dict[str, Any]]:
    """Poch's options in the shape Pocha's `Option.describe` gives them."""
    described: dict[str, dict[str, Any]] = {}
    for name, low, high, default, doc in poch_rules.OPTIONS:
        described[name] = {
            "default": default,
            "allowed": _("an integer from {low} to {high}", low=low, high=high),
            "doc": doc,
            "kind": "int",
            "minimum": low,
            "maximum": high,
        }
    return described


KINDS: dict[str, GameKind] = {
    POCHA: GameKind(
        name=POCHA,
        title="Pocha",
        min_players=pocha_rules.MIN_PLAYERS,
        max_players=pocha_rules.MAX_PLAYERS,
        rules_from_dict=pocha_rules.Rules.from_dict,
        describe_options=pocha_rules.describe_options,
        new=_new_pocha,
        from_dict=PochaGame.from_dict,
        observe=lambda game, seat: pocha_observe(game, seat).to_dict(),
        action_from_wire=pocha_actions.action_from_wire,
        action_to_wire=pocha_actions.action_to_wire,
        opening_events=lambda game: [game.hand_dealt_event()],
    ),
    POCH: GameKind(
        name=POCH,
        title="Poch",
        min_players=poch_rules.MIN_PLAYERS,
        max_players=poch_rules.MAX_PLAYERS,
        rules_from_dict=poch_rules.Rules.from_dict,
        describe_options=_describe_poch_options,
        new=_new_poch,
        from_dict=PochGame.from_dict,
        observe=lambda game, seat: poch_observe(game, seat).to_dict(),
        action_from_wire=poch_actions.action_from_wire,
        action_to_wire=poch_actions.action_to_wire,
        opening_events=lambda game: list(game.opening_events),
    ),
}



def kind_of(game: object) -> GameKind:
    """The kind `game` is."""
    return KINDS[POCH] if isinstance(game, PochGame) else KINDS[POCHA]


def game_from_dict(data: dict[str, Any]) -> AnyGame:
    """A stored game of any kind, from the JSON its `to_dict` gave."""
    name = data.get("game", POCHA)
    if name == POCHA:
        return PochaGame.from_dict(data)
    kind = KINDS.get(name) if isinstance(name, str) else None
    if kind is None:
        raise InvalidStateError(f"unknown game {name!r}")
    return kind.from_dict(data)
