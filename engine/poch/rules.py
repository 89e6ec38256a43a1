"""The rules a Poch game is played with: the options of docs/poch.md and their defaults.
How it works: docs/poch.md, ``engine.poch.rules``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.errors import InvalidRulesError
from engine.i18n import N_, _
from engine.protocols import DEFAULT_TURN_SECONDS, MAX_TURN_SECONDS

MIN_PLAYERS = 3
MAX_PLAYERS = 8
PLATES = ("ace", "king", "queen", "jack", "ten", "marriage", "sequence", "pocher")
MAX_CHIPS = 10_000
MAX_ANTE = 100
MAX_DEALS = 200

# (name, low, high, default, meaning); deals' default depends on players. The meanings
# are marked for the catalogues: GET /api/v1/rules answers them in the caller's language.
OPTIONS: tuple[tuple[str, int, int, int | None, str], ...] = (
    ("players", MIN_PLAYERS, MAX_PLAYERS, 4, N_("Players at the table.")),
    ("chips", 1, MAX_CHIPS, 50, N_("Chips each player starts with.")),
    ("ante", 1, MAX_ANTE, 1, N_("Chips each player puts on each of the eight plates every deal.")),
    ("deals", 1, MAX_DEALS, None, N_("Deals in the game (default two per player).")),
    (
        "turn_seconds",
        0,
        MAX_TURN_SECONDS,
        0,
        _(
            "Seconds each person has for a decision; when they run out, a stand-in bot "
            "decides. 0: no clock. Only runs when two or more seats are people; left out, "
            "such a game gets {seconds}.",
            seconds=DEFAULT_TURN_SECONDS,
        ),
    ),
)
NAMES = frozenset(name for name, *_ in OPTIONS)


def _int_in(name: str, value: Any, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        # Pocha's sentence for an int option (engine.pocha.rules.Option), so one translation.
        allowed = _("an integer from {low} to {high}", low=low, high=high)
        raise InvalidRulesError(
            _(
                "{option} must be {allowed}, not {value}",
                option=name,
                allowed=allowed,
                value=repr(value),
            ),
            option=name,
        )


@dataclass(frozen=True)
class Rules:
    players: int = 4
    chips: int = 50
    ante: int = 1
    deals: int | None = None
    turn_seconds: int = 0

    def __post_init__(self) -> None:
        _int_in("players", self.players, MIN_PLAYERS, MAX_PLAYERS)
        _int_in("chips", self.chips, 1, MAX_CHIPS)
        _int_in("ante", self.ante, 1, MAX_ANTE)
        if self.deals is None:
            object.__setattr__(self, "deals", 2 * self.players)
        _int_in("deals", self.deals, 1, MAX_DEALS)
        _int_in("turn_seconds", self.turn_seconds, 0, MAX_TURN_SECONDS)
        # Decided: a game in which nobody could pay the first ante is refused.
        if self.chips < len(PLATES) * self.ante:
            raise InvalidRulesError(
                _(
                    "chips must be at least 8 x ante ({least}) to pay the first ante",
                    least=len(PLATES) * self.ante,
                ),
                option="chips",
            )

    @property
    def deal_count(self) -> int:
        assert self.deals is not None  # resolved in __post_init__
        return self.deals

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "chips": self.chips,
            "ante": self.ante,
            "deals": self.deals,
            "turn_seconds": self.turn_seconds,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        unknown = set(data) - NAMES
        if unknown:
            name = sorted(unknown)[0]
            raise InvalidRulesError(
                _("unknown Poch option {option}", option=repr(name)), option=name
            )
        return cls(**data)


def describe_options() -> list[dict[str, Any]]:
    """The options for ``GET /api/v1/rules``: key, bounds, default and meaning."""
    return [
        {"name": n, "kind": "int", "low": lo, "high": hi, "default": d, "doc": doc}
        for n, lo, hi, d, doc in OPTIONS
    ]
