"""What a Poch bot is: a decision from one seat's observation, within a budget.

The same shape as ``ai.bot`` for Pocha: a bot is given an
``engine.poch.observation.Observation`` (never the game), a ``Budget`` (reused
from ``ai.bot``) and a seed, and returns a ``Decision`` whose action is one of
``engine.poch.actions``.  The Pocha ``Decision`` writes actions in Pocha's wire
form, so Poch has its own, in Poch's.  The same observation, budget and seed
give the same decision, unless the budget is a time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from ai.bot import Budget
from engine.poch.actions import Action, action_to_wire
from engine.poch.observation import Observation


@dataclass(frozen=True)
class ActionStat:
    """The search's opinion of one action: its visits and mean chips won."""

    action: Action
    visits: int
    share: float
    mean_chips: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": action_to_wire(self.action),
            "visits": self.visits,
            "share": round(self.share, 4),
            "mean_chips": round(self.mean_chips, 3),
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
    """The interface of every Poch bot."""

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
    if obs.seat is None or obs.turn != obs.seat or not obs.legal_actions:
        raise ValueError("the bot's seat is not the one to move")
    return list(obs.legal_actions)


__all__ = ["ActionStat", "Bot", "Budget", "Decision", "legal_actions"]
