"""What every bot is, in every game: a decision from one seat's observation, within a budget.

A bot gets an observation (never the game), a ``Budget`` and a seed, and returns a
``Decision``: an action and, when asked, the analysis behind it (per legal action, its
share of the search and the mean score it led to). The same three give the same decision,
unless the budget is a time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from engine.protocols import Action, Observation

ObservationT_contra = TypeVar("ObservationT_contra", contravariant=True)


@dataclass(frozen=True)
class Budget:
    """How much a bot may think: iterations, milliseconds, or both (first hit)."""

    iterations: int | None = None
    milliseconds: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"iterations": self.iterations, "milliseconds": self.milliseconds}


#: A slow machine still runs this many ISMCTS iterations a second (this one runs 20,000+);
#: timeouts assume it, so a budget in iterations cannot time out on a busy worker.
SLOW_ITERATIONS_PER_SECOND = 2_000


def thinking_seconds(budget: Budget) -> float:
    """The longest a decision within `budget` may take (0 for the bots that do not search)."""
    limits = []
    if budget.milliseconds is not None:
        limits.append(budget.milliseconds / 1000)
    if budget.iterations is not None:
        limits.append(budget.iterations / SLOW_ITERATIONS_PER_SECOND)
    return min(limits) if limits else 0.0


@dataclass(frozen=True)
class Level:
    """A level users choose by name: a bot and its budget."""

    name: str
    bot: str
    budget: Budget
    description: str


@dataclass(frozen=True)
class ActionStat:
    """The search's opinion of one legal action: its visits and the mean score it led to."""

    action: Action
    visits: int
    share: float
    mean_score: float

    def to_dict(self, action_to_wire: Callable[[Action], Any], score_name: str) -> dict[str, Any]:
        """As JSON: the action in its wire form, the mean score under the game's name."""
        return {
            "action": action_to_wire(self.action),
            "visits": self.visits,
            "share": round(self.share, 4),
            score_name: round(self.mean_score, 3),
        }


@dataclass(frozen=True)
class Decision:
    """A bot's action and, optionally, why."""

    action: Action
    analysis: tuple[ActionStat, ...] = ()
    iterations: int = 0
    elapsed_ms: float = 0.0

    def to_dict(self, action_to_wire: Callable[[Action], Any], score_name: str) -> dict[str, Any]:
        """As JSON (``BotKind.report`` gives each game's): actions in their wire form."""
        return {
            "action": action_to_wire(self.action),
            "analysis": [a.to_dict(action_to_wire, score_name) for a in self.analysis],
            "iterations": self.iterations,
            "elapsed_ms": round(self.elapsed_ms, 2),
        }


class Bot(Protocol[ObservationT_contra]):
    """The interface of every bot, of the observation of its game."""

    name: str

    def decide(
        self,
        obs: ObservationT_contra,
        budget: Budget | None = None,
        seed: int | None = None,
        analyse: bool = False,
    ) -> Decision: ...


def legal_actions(obs: Observation) -> list[Action]:
    """The observation's legal actions; refuses a seat that is not to move."""
    if obs.seat is None or obs.turn != obs.seat or not obs.legal_actions:
        raise ValueError("the bot's seat is not the one to move")
    return list(obs.legal_actions)


class _Root(Protocol):
    #: Its moves to the children they lead to, each with a visit count ``n``.
    children: dict[Any, Any]


def settled(root: _Root, remaining: int) -> bool:
    """Whether a search tree's most visited move at ``root`` leads every other by more
    visits than ``remaining``: then no run of the remaining iterations can make another the
    most visited, and a search that plays its most visited move may stop here and play what
    its whole budget would."""
    first = 0
    second = 0
    for child in root.children.values():
        visits = child.n
        if visits > first:
            second = first
            first = visits
        elif visits > second:
            second = visits
    return first - second > remaining


@dataclass(frozen=True)
class Player:
    """A seat's bot in an arena or a match: a label for the tables, the bot, its budget and,
    for a bot that reads models from a file (Pocha's reading of the bids), that file (None:
    the shipped models)."""

    label: str
    bot: str
    budget: Budget
    reading_model: str | None = None
