"""The rules a game is played with: players and every option of docs/rules.md.
How it works: docs/internals.md, ``engine.pocha.rules``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from engine.errors import InvalidRulesError
from engine.i18n import N_, Message, _
from engine.pocha.cards import deck_for
from engine.protocols import DEFAULT_TURN_SECONDS, MAX_TURN_SECONDS, OptionKind

MIN_PLAYERS = 3
MAX_PLAYERS = 8
# After this many extra one-card hands the players still tied share the win.
TIEBREAK_HANDS = 5
# A custom schedule's length is bounded so that no request can order an endless game.
MAX_SCHEDULE_HANDS = 200

Schedule = str | tuple[int, ...] | list[int]
V = TypeVar("V")


def _deck_size(players: int) -> int:
    return 36 if players in (3, 6) else 40


def _top(players: int) -> int:
    return _deck_size(players) // players


def _classic(n: int, top: int) -> tuple[int, ...]:
    return (1,) * n + tuple(range(2, top)) + (top,) * n + tuple(range(top - 1, 1, -1)) + (1,) * n


def _pyramid(n: int, top: int) -> tuple[int, ...]:
    return tuple(range(1, top)) + (top,) * n + tuple(range(top - 1, 0, -1))


# The schedules a game can name, each the card counts of its hands for (players, top).
NAMED_SCHEDULES: dict[str, Callable[[int, int], tuple[int, ...]]] = {
    "classic": _classic,
    "pyramid": _pyramid,
}


@dataclass(frozen=True)
class Option(Generic[V]):
    """One rule option: its key, the values it takes, its default and its meaning.

    ``kind`` is what it takes: ``bool``, true or false; ``int``, an integer from ``low`` to
    ``high``; ``schedule``, one of the named ``choices`` or a list of card counts, at most
    ``max_hands`` long, each of which must fit the deck the players share.  ``doc`` says
    in full what the option does (``GET /api/v1/rules`` and the setup form show it);
    ``summary`` says it in a few words, beside the field in the API document.
    """

    name: str
    kind: OptionKind
    default: V
    doc: str
    summary: str
    low: int = 0
    high: int = 0
    choices: tuple[str, ...] = ()
    max_hands: int = 0

    @property
    def allowed(self) -> Message:
        """The values it takes, in words (a bool's or an int's refusal ends with them)."""
        if self.kind == "bool":
            return _("true or false")
        if self.kind == "int":
            return _("an integer from {low} to {high}", low=self.low, high=self.high)
        names = ", ".join(repr(name) for name in self.choices)
        return _(
            "{names}, or a list of card counts, each from 1 to deck size // players",
            names=names,
        )

    def check(self, value: Any, players: int) -> None:
        """Raise ``InvalidRulesError`` unless ``value`` is one this option takes.

        ``players`` is the game's (already checked) player count: a schedule's card
        counts are bounded by the cards each of them can be dealt.
        """
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise self._refuse(self._must_be(value))
        elif self.kind == "int":
            if (
                isinstance(value, bool)
                or not isinstance(value, int)
                or not self.low <= value <= self.high
            ):
                raise self._refuse(self._must_be(value))
        elif isinstance(value, str):
            if value not in self.choices:
                raise self._refuse(self._not_a_schedule(value))
        elif isinstance(value, tuple | list):
            if not value or len(value) > self.max_hands:
                raise self._refuse(
                    _(
                        "{option} must list between 1 and {most} hands",
                        option=self.name,
                        most=self.max_hands,
                    )
                )
            top = _top(players)
            for count in value:
                if isinstance(count, bool) or not isinstance(count, int) or not (1 <= count <= top):
                    raise self._refuse(
                        _(
                            "every hand of the {option} must deal from 1 to {top} cards to "
                            "each of {players} players, not {value}",
                            option=self.name,
                            top=top,
                            players=players,
                            value=repr(count),
                        )
                    )
        else:
            raise self._refuse(self._not_a_schedule(value))

    def describe(self) -> dict[str, Any]:
        """The option as ``GET /api/v1/rules`` lists it: in words, and with its kind and
        bounds, from which a front end builds its fields."""
        described: dict[str, Any] = {
            "default": self.default,
            "allowed": self.allowed,
            "doc": self.doc,
            "kind": self.kind,
        }
        if self.kind == "int":
            described["minimum"] = self.low
            described["maximum"] = self.high
        elif self.kind == "schedule":
            described["choices"] = list(self.choices)
        return described

    def _must_be(self, value: Any) -> Message:
        return _(
            "{option} must be {allowed}, not {value}",
            option=self.name,
            allowed=self.allowed,
            value=repr(value),
        )

    def _not_a_schedule(self, value: Any) -> Message:
        names = ", ".join(repr(name) for name in self.choices)
        return _(
            "{option} must be {names} or a list of card counts, not {value}",
            option=self.name,
            names=names,
            value=repr(value),
        )

    def _refuse(self, message: str) -> InvalidRulesError:
        return InvalidRulesError(message, option=self.name)


PLAYERS: Option[int] = Option(
    "players",
    "int",
    4,
    low=MIN_PLAYERS,
    high=MAX_PLAYERS,
    doc=N_("Number of seats. With 3 or 6 players the four 2s are removed (36 cards)."),
    summary="Number of seats; optional, must equal the number of players.",
)
SCHEDULE: Option[str] = Option(
    "schedule",
    "schedule",
    "classic",
    choices=tuple(NAMED_SCHEDULES),
    max_hands=MAX_SCHEDULE_HANDS,
    doc=N_(
        "classic: n hands of 1 card, 2..top-1, n hands of top, top-1..2, n hands of "
        "1. pyramid: 1..top-1, n hands of top, top-1..1."
    ),
    summary="The hands of the game: 'classic', 'pyramid', or a list of card counts, each "
    "from 1 to deck size // players (a short game: [1, 2, 3]).",
)
DEALER_RESTRICTION: Option[bool] = Option(
    "dealer_restriction",
    "bool",
    True,
    doc=N_(
        "The dealer may not bid the number that makes the bids add up to the cards each "
        "player holds."
    ),
    summary="The dealer may not bid the number that makes the bids add up to the cards in hand.",
)
MONTAR: Option[bool] = Option(
    "montar",
    "bool",
    True,
    doc=N_(
        "When following suit and no trump has been played (or trump was led), a player "
        "must beat the best lead-suit card if it can."
    ),
    summary="Following suit with no trump on the table, a player must beat the best "
    "lead-suit card if it can.",
)
FALLAR: Option[bool] = Option(
    "fallar",
    "bool",
    True,
    doc=N_("A player with no card of the lead suit must play a trump if it has one."),
    summary="A player with no card of the lead suit must trump if it can.",
)
PISAR: Option[bool] = Option(
    "pisar",
    "bool",
    True,
    doc=N_(
        "When trumping and trumps are already on the table, the trump must beat them; if "
        "it cannot, any card may be played. Only matters when fallar binds."
    ),
    summary="Trumping over trumps, a player must over-trump if it can.",
)
EXACT_BONUS: Option[int] = Option(
    "exact_bonus",
    "int",
    10,
    low=0,
    high=1000,
    doc=N_("Points for making the bid exactly."),
    summary="Points for making a bid exactly.",
)
PER_TRICK: Option[int] = Option(
    "per_trick",
    "int",
    5,
    low=0,
    high=1000,
    doc=N_("Points per trick won when the bid is made exactly."),
    summary="Points per trick won on an exact bid.",
)
PENALTY: Option[int] = Option(
    "penalty",
    "int",
    5,
    low=0,
    high=1000,
    doc=N_("Points lost per trick of difference when the bid is missed."),
    summary="Points lost per trick of difference on a miss.",
)
TIEBREAK: Option[bool] = Option(
    "tiebreak",
    "bool",
    True,
    doc=_(
        "On a tie for first place after the last hand, one-card hands are played until "
        "one player leads alone; after {hands} such hands the tied players share the win.",
        hands=TIEBREAK_HANDS,
    ),
    summary=f"Ties for first place play extra one-card hands (at most {TIEBREAK_HANDS}).",
)


TURN_SECONDS: Option[int] = Option(
    "turn_seconds",
    "int",
    0,
    low=0,
    high=MAX_TURN_SECONDS,
    doc=_(
        "Seconds each person has for a bid or a card; when they run out, a stand-in bot "
        "plays the turn. 0: no clock. Only runs when two or more seats are people; left "
        "out, such a game gets {seconds}.",
        seconds=DEFAULT_TURN_SECONDS,
    ),
    summary=f"Seconds a person has for each turn (0: no clock; {DEFAULT_TURN_SECONDS} "
    "by default with two or more people).",
)

# Every option by key, in the order ``Rules`` checks them and the API lists them: the
# players first, since the schedule's card counts depend on them.
OPTIONS: dict[str, Option[Any]] = {
    option.name: option
    for option in (
        PLAYERS,
        SCHEDULE,
        DEALER_RESTRICTION,
        MONTAR,
        FALLAR,
        PISAR,
        EXACT_BONUS,
        PER_TRICK,
        PENALTY,
        TIEBREAK,
        TURN_SECONDS,
    )
}


@dataclass(frozen=True)
class Rules:
    """Players and options of one game; see ``OPTIONS`` for what each means.

    One field per option, in ``OPTIONS`` order, with its declared default (a test holds
    the two lists together).
    """

    players: int = PLAYERS.default
    schedule: Schedule = SCHEDULE.default
    dealer_restriction: bool = DEALER_RESTRICTION.default
    montar: bool = MONTAR.default
    fallar: bool = FALLAR.default
    pisar: bool = PISAR.default
    exact_bonus: int = EXACT_BONUS.default
    per_trick: int = PER_TRICK.default
    penalty: int = PENALTY.default
    tiebreak: bool = TIEBREAK.default
    turn_seconds: int = TURN_SECONDS.default
    # Derived, kept for speed: the card count of every scheduled hand.
    hand_sizes: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.schedule, list):
            # Stored as a tuple, so that the rules stay hashable.
            object.__setattr__(self, "schedule", tuple(self.schedule))
        for name, option in OPTIONS.items():
            option.check(getattr(self, name), self.players)
        schedule = self.schedule
        if isinstance(schedule, str):
            sizes = NAMED_SCHEDULES[schedule](self.players, self.top)
        else:
            sizes = tuple(schedule)
        object.__setattr__(self, "hand_sizes", sizes)

    @property
    def deck(self) -> int:
        """The deck as a card set: 36 cards for 3 or 6 players, else 40."""
        return deck_for(self.players)

    @property
    def deck_size(self) -> int:
        return _deck_size(self.players)

    @property
    def top(self) -> int:
        """The most cards each player can be dealt."""
        return _top(self.players)

    def to_dict(self) -> dict[str, Any]:
        # Not dataclasses.asdict: it deep-copies the derived hand_sizes only to drop them,
        # and this runs twice per move in the service (storing the game, and its view).
        d = {name: getattr(self, name) for name in OPTIONS}
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
            raise InvalidRulesError(_("rules must be an object of options"), option="rules")
        unknown = sorted(set(data) - set(OPTIONS))
        if unknown:
            raise InvalidRulesError(
                _(
                    "unknown rule option {option}; the options are {options}",
                    option=repr(unknown[0]),
                    options=", ".join(OPTIONS),
                ),
                option=unknown[0],
            )
        return cls(**data)


def describe_options() -> dict[str, dict[str, Any]]:
    """Every option with its default, allowed values, meaning, kind and bounds."""
    return {name: option.describe() for name, option in OPTIONS.items()}
