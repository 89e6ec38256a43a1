"""The shape every game meets, so that nothing above the rules asks which game it holds.

A game (`Game`) is one object with a seat to move, its legal actions and `apply`, as in
OpenSpiel; what one seat may know of it is an `Observation`. An action is one `int` in a
space each game defines, sent to clients in its JSON form (`WireAction`). `GameKind` is how
the service reaches one game's rules; `engine.registry` holds one per game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeAlias

#: A move of any game, whatever its phase: one `int` of the game's action space.
Action: TypeAlias = int
#: An action's JSON form (a game's `action_to_wire`): a number or a code.
WireAction: TypeAlias = int | str
#: What a rule option takes, as `GameKind.describe_options` says (`kind`): true or false,
#: an integer within bounds, or a schedule (one of its names, or a list of card counts).
OptionKind: TypeAlias = Literal["bool", "int", "schedule"]
#: A public event a move caused, as JSON, for front ends to animate.
Event: TypeAlias = dict[str, Any]

#: The clock of a game with two or more people when its creator says nothing (seconds):
#: enough to think over a bid with eight cards on a phone, short enough that a table is
#: not kept waiting long by someone who walked away (after two turns run out, the
#: stand-in plays theirs at once).
DEFAULT_TURN_SECONDS = 60
#: The longest clock a game may have (an hour a turn is a correspondence game).
MAX_TURN_SECONDS = 3600


class Game(Protocol):
    """The surface of a game that the store, the workers and the bots rely on."""

    @property
    def rules(self) -> Any: ...
    @property
    def players(self) -> int: ...
    @property
    def turn(self) -> int | None: ...
    @property
    def finished(self) -> bool: ...
    @property
    def history(self) -> list[Any]: ...
    def legal_actions(self) -> list[Action]: ...
    def apply(self, seat: int, action: Action) -> list[Event]: ...
    def check_turn(self, seat: int, playing: bool) -> None: ...
    def copy(self) -> Any: ...
    def to_dict(self) -> dict[str, Any]: ...


class Observation(Protocol):
    """What one seat may know of a game (`seat` None: a spectator), as the bots read it."""

    @property
    def seat(self) -> int | None: ...
    @property
    def turn(self) -> int | None: ...
    @property
    def legal_actions(self) -> tuple[Action, ...]: ...
    def to_dict(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class GameKind:
    """How the service reaches one game's rules: everything a store, a worker or a view
    asks of a game without knowing which it is."""

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
    #: A new game of these rules dealt from this seed (None: a fresh one).
    new: Callable[[Any, int | None], Any]
    #: The game from its stored JSON (`InvalidStateError` for anything else).
    from_dict: Callable[[dict[str, Any]], Any]
    #: What a seat (None: a spectator) sees: the game's `Observation`, as the bots read it.
    observation: Callable[[Any, int | None], Any]
    #: An action from its JSON form (a typed engine error for anything else), and back.
    action_from_wire: Callable[[Any], int]
    action_to_wire: Callable[[int], Any]
    #: The public events a new game starts with.
    opening_events: Callable[[Any], list[Event]]
    #: What a seat (None: a spectator) sees, as the API's views carry it (`waiting`: the
    #: game waits at its table, so no card shows and nobody is to move).
    view: Callable[[Any, int | None, bool], dict[str, Any]]
    #: The decisions the game's endpoints take (`/bids`, `/plays`...); the sentence that
    #: refuses one it does not; and the action a move sent to one of them names (a typed
    #: engine error for none).
    decisions: tuple[str, ...]
    wrong_decision: Callable[[str], str]
    read_move: Callable[[WireAction, str], Action]
    #: The score sheet: the envelope given (id, version, players) with the game's results.
    history: Callable[[Any, dict[str, Any]], dict[str, Any]]
    #: A client's position checked into the seat's `Observation` (`InvalidStateError`,
    #: saying why, for one no game could reach), and the fields such a position may hold.
    position_from_dict: Callable[[dict[str, Any]], Any]
    position_fields: tuple[str, ...]
    #: The decisions of one game of these rules, at most (tiebreaks aside).
    decisions_per_game: Callable[[Any], int]
    #: A finished game's part of its record (docs/records.md) from the game (its score
    #: sheet included) and its public events in order: its `rules`, its `deals` as the
    #: game's own record format has them, the final `scores` and the `winners`
    #: (`InvalidStateError` for a game not over, or events that do not give it).
    record: Callable[[Any, list[Event]], dict[str, Any]]
    #: A record (as `record` makes it, in its envelope) played again from its hands: each
    #: decision in order, with the game just before it (played on once the next is asked
    #: for), the seat and the action (`InvalidStateError`, saying why, for a record that
    #: breaks the rules or does not fit). None: this game's records cannot be read back.
    replay_record: Callable[[dict[str, Any]], Iterator[tuple[Any, int, int]]] | None = None
    #: Of a record `replay_record` has read to its end, only what that reads, as `record`
    #: writes it (`rules`, `deals`, `scores`): the same decisions and the same checks, none
    #: of the fields nothing reads. None: the record is kept whole.
    record_as_read: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    #: The public events that open a decision (each move's first event): the n-th of them
    #: in a game's events is its record's n-th decision.
    decision_events: tuple[str, ...] = ()

    def observe(self, game: Any, seat: int | None) -> dict[str, Any]:
        """What a seat (None: a spectator) sees, as JSON."""
        view: dict[str, Any] = self.observation(game, seat).to_dict()
        return view
