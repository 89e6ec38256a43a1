"""The rules a game is played with: players and every option of RULES.md.

``Rules`` is a frozen value: validated when made, hashable, and turned to and
from a plain dict for JSON.  An option with a bad value raises
``InvalidRulesError`` naming the option and what it allows, so the HTTP API can
pass the sentence on unchanged.  ``OPTIONS`` describes every option (default,
allowed values, meaning) for ``GET /api/v1/rules``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from engine.cards import deck_for
from engine.errors import InvalidRulesError

MIN_PLAYERS = 3
MAX_PLAYERS = 8
SCHEDULES = ("classic", "pyramid")
# After this many extra one-card hands the players still tied share the win.
TIEBREAK_HANDS = 5

Schedule = str | tuple[int, ...] | list[int]

OPTIONS: dict[str, dict[str, Any]] = {
    "players": {
        "default": 4,
        "allowed": f"an integer from {MIN_PLAYERS} to {MAX_PLAYERS}",
        "doc": "Number of seats. With 3 or 6 players the four 2s are removed (36 cards).",
    },
    "schedule": {
        "default": "classic",
        "allowed": "'classic', 'pyramid', or a list of card counts, each from 1 to "
        "deck size // players",
        "doc": "classic: n hands of 1 card, 2..top-1, n hands of top, top-1..2, n hands of "
        "1. pyramid: 1..top-1, n hands of top, top-1..1.",
    },
    "dealer_restriction": {
        "default": True,
        "allowed": "true or false",
        "doc": "The dealer may not bid the number that makes the bids add up to the "
        "cards each player holds.",
    },
    "montar": {
        "default": True,
        "allowed": "true or false",
        "doc": "When following suit and no trump has been played (or trump was led), a "
        "player must beat the best lead-suit card if it can.",
    },
    "fallar": {
        "default": True,
        "allowed": "true or false",
        "doc": "A player with no card of the lead suit must play a trump if it has one.",
    },
    "pisar": {
        "default": True,
        "allowed": "true or false",
        "doc": "When trumping and trumps are already on the table, the trump must beat "
        "them; if it cannot, any card may be played. Only matters when fallar binds.",
    },
    "exact_bonus": {
        "default": 10,
        "allowed": "an integer from 0 to 1000",
        "doc": "Points for making the bid exactly.",
    },
    "per_trick": {
        "default": 5,
        "allowed": "an integer from 0 to 1000",
        "doc": "Points per trick won when the bid is made exactly.",
    },
    "penalty": {
        "default": 5,
        "allowed": "an integer from 0 to 1000",
        "doc": "Points lost per trick of difference when the bid is missed.",
    },
    "tiebreak": {
        "default": True,
        "allowed": "true or false",
        "doc": "On a tie for first place after the last hand, one-card hands are played "
        f"until one player leads alone; after {TIEBREAK_HANDS} such hands the tied "
        "players share the win.",
    },
}


def _check_bool(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise InvalidRulesError(f"{name} must be true or false, not {value!r}", option=name)
    return value


def _check_int(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidRulesError(
            f"{name} must be an integer from {low} to {high}, not {value!r}", option=name
        )
    return value


@dataclass(frozen=True)
class Rules:
    """Players and options of one game; see ``OPTIONS`` for what each means."""

    players: int = 4
    schedule: Schedule = "classic"
    dealer_restriction: bool = True
    montar: bool = True
    fallar: bool = True
    pisar: bool = True
    exact_bonus: int = 10
    per_trick: int = 5
    penalty: int = 5
    tiebreak: bool = True
    # Derived, kept for speed: the card count of every scheduled hand.
    hand_sizes: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _check_int("players", self.players, MIN_PLAYERS, MAX_PLAYERS)
        for name in ("dealer_restriction", "montar", "fallar", "pisar", "tiebreak"):
            _check_bool(name, getattr(self, name))
        for name in ("exact_bonus", "per_trick", "penalty"):
            _check_int(name, getattr(self, name), 0, 1000)
        schedule = self.schedule
        top = self.top
        if isinstance(schedule, list):
            schedule = tuple(schedule)
            object.__setattr__(self, "schedule", schedule)
        if isinstance(schedule, str):
            if schedule not in SCHEDULES:
                raise InvalidRulesError(
                    f"schedule must be 'classic', 'pyramid' or a list of card counts, "
                    f"not {schedule!r}",
                    option="schedule",
                )
            sizes = _classic(self.players, top) if schedule == "classic" else _pyramid(
                self.players, top
            )
        elif isinstance(schedule, tuple):
            if not schedule or len(schedule) > 200:
                raise InvalidRulesError(
                    "schedule must list between 1 and 200 hands", option="schedule"
                )
            for count in schedule:
                if isinstance(count, bool) or not isinstance(count, int) or not (
                    1 <= count <= top
                ):
                    raise InvalidRulesError(
                        f"every hand of the schedule must deal from 1 to {top} cards to "
                        f"each of {self.players} players, not {count!r}",
                        option="schedule",
                    )
            sizes = schedule
        else:
            raise InvalidRulesError(
                f"schedule must be 'classic', 'pyramid' or a list of card counts, "
                f"not {schedule!r}",
                option="schedule",
            )
        object.__setattr__(self, "hand_sizes", sizes)

    @property
    def deck(self) -> int:
        """The deck as a card set: 36 cards for 3 or 6 players, else 40."""
        return deck_for(self.players)

    @property
    def deck_size(self) -> int:
        return 36 if self.players in (3, 6) else 40

    @property
    def top(self) -> int:
        """The most cards each player can be dealt."""
        return self.deck_size // self.players

    def to_dict(self) -> dict[str, Any]:
        # Not dataclasses.asdict: it deep-copies the derived hand_sizes only to drop them,
        # and this runs twice per move in the service (storing the game, and its view).
        d = {name: getattr(self, name) for name in _OPTION_FIELDS}
        if not isinstance(self.schedule, str):
            d["schedule"] = list(self.schedule)
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Rules:
        """Rules from a dict such as ``{"players": 5, "montar": false}``.

        Missing options take their defaults; an unknown option is an error.
        """
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise InvalidRulesError("rules must be an object of options", option="rules")
        unknown = sorted(set(data) - set(OPTIONS))
        if unknown:
            raise InvalidRulesError(
                f"unknown rule option {unknown[0]!r}; the options are "
                + ", ".join(OPTIONS),
                option=unknown[0],
            )
        return cls(**data)


# The fields that are options (the constructor's arguments), in declaration order.
_OPTION_FIELDS = tuple(f.name for f in fields(Rules) if f.init)


def _classic(n: int, top: int) -> tuple[int, ...]:
    return (
        (1,) * n
        + tuple(range(2, top))
        + (top,) * n
        + tuple(range(top - 1, 1, -1))
        + (1,) * n
    )


def _pyramid(n: int, top: int) -> tuple[int, ...]:
    return tuple(range(1, top)) + (top,) * n + tuple(range(top - 1, 0, -1))


def describe_options() -> dict[str, dict[str, Any]]:
    """Every option with its default, allowed values and meaning."""
    return {name: dict(spec) for name, spec in OPTIONS.items()}
