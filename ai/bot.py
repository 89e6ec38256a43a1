"""What every bot is: a decision from one seat's observation, within a budget.

A bot is given an ``Observation`` (never the game), a ``Budget`` and a seed,
and returns a ``Decision``: an action of ``engine.actions`` (the one int space
of bids and cards) and, when asked, the analysis behind it (for each legal
action, its share of the search and its mean hand score).  ``to_dict`` gives
the JSON form, where a bid is its number of tricks and a card its code.  The
same observation, budget and seed give the same decision, except that a time
budget makes the amount of search depend on the machine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from engine.actions import Action, action_to_wire
from engine.observation import Observation


@dataclass(frozen=True)
class Budget:
    """How much a bot may think: iterations, milliseconds, or both (first hit)."""

    iterations: int | None = None
    milliseconds: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"iterations": self.iterations, "milliseconds": self.milliseconds}


@dataclass(frozen=True)
class Level:
    """A level users choose by name: a bot and its budget (for either game's bots)."""

    name: str
    bot: str
    budget: Budget
    description: str


@dataclass(frozen=True)
class ActionStat:
    """The search's opinion of one legal action."""

    action: Action
    visits: int
    share: float
    mean_score: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": action_to_wire(self.action),
            "visits": self.visits,
            "share": round(self.share, 4),
            "mean_score": round(self.mean_score, 3),
        }


@dataclass(frozen=True)
class Decision:
    """A bot's action and, optionally, why."""

    action: Action
    analysis: tuple[ActionStat, ...] = ()
    iterations: int = 0
    elapsed_ms: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": action_to_wire(self.action),
            "analysis": [a.to_dict() for a in self.analysis],
            "iterations": self.iterations,
            "elapsed_ms": round(self.elapsed_ms, 2),
        }


class Bot(Protocol):
    """The interface of every bot."""

    name: str

    def decide(
        self,
        obs: Observation,
        budget: Budget | None = None,
        seed: int | None = None,
        analyse: bool = False,
    ) -> Decision: ...


def legal_actions(obs: Observation) -> list[Action]:
    """The observation's legal actions; refuses a seat that is not to move."""
    if obs.turn != obs.seat or obs.seat is None:
        raise ValueError("the bot's seat is not the one to move")
    return list(obs.legal)
