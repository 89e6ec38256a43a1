"""How the service, the workers and the arena reach one game's bots: its ``BotKind``, which
joins the game (``engine.registry``), its arena (levels, bots, a match's summary) and its
bots by name. ``decide`` is the one door through which a level decides, and ``report`` the
decision's JSON in the game's wire form; ``ai.registry`` holds one kind per game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ai.arena import Arena
from ai.bot import Bot, Budget, Decision, Level, Player
from engine.protocols import GameKind


@dataclass(frozen=True)
class BotKind:
    """One game's bots (see the module's paragraph)."""

    #: The game: its name, its observation and its actions' wire form.
    game: GameKind
    #: Its arena: the seats' texts it reads, and the per-bot figures of records.
    arena: Arena[Any]
    #: The bot called so (ValueError for none).
    make_bot: Callable[[str], Bot[Any]]
    #: What the JSON of an analysis calls an action's mean score (Poch's are chips).
    score_name: str = "mean_score"

    @property
    def name(self) -> str:
        return self.game.name

    @property
    def levels(self) -> Mapping[str, Level]:
        """The levels a seat may have, by name."""
        return self.arena.roster.levels

    @property
    def bots(self) -> tuple[str, ...]:
        return self.arena.roster.bots

    def parse_player(self, spec: str) -> Player:
        """A seat's text (``hard``, ``heuristic``, ``ismcts:300``) as a player (ValueError
        with a sentence for anything else)."""
        return self.arena.parse_player(spec)

    def summarize(self, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """A match's per-bot figures from its game records, as JSON, best first."""
        return [stats.to_dict() for stats in self.arena.summarize(records)]

    def decide(
        self,
        obs: Any,
        level: str = "heuristic",
        seed: int | None = None,
        budget: Budget | None = None,
        analyse: bool = False,
    ) -> Decision:
        """The decision of the named level (or bot, with ``budget``) for ``obs``."""
        if level in self.levels:
            spec = self.levels[level]
            return self.make_bot(spec.bot).decide(obs, budget or spec.budget, seed, analyse)
        return self.make_bot(level).decide(obs, budget, seed, analyse)

    def report(self, decision: Decision) -> dict[str, Any]:
        """A decision as the API sends it, in the game's wire form."""
        return decision.to_dict(self.game.action_to_wire, self.score_name)
