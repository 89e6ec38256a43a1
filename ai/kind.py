"""How the service, the workers and the arena reach one game's bots: its ``BotKind``, which
joins the game (``engine.registry``), its arena (levels, bots, how a match's games are
played, recorded and summed up, and what they cost) and its bots by name. ``decide`` is the
one door through which a level decides; ``ai.registry`` holds one kind per game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ai.arena import Arena, ArenaGame, distinct_rotations, task_for, tasks_for
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
    #: The seed of one decision of a game, from the game's seed, its seat and its step,
    #: and a finished game's record (game, seed, players, deal, decisions, think_ms): as
    #: the arena has them, so a match's games are arena games.
    decision_seed: Callable[..., int]
    record: Callable[..., dict[str, Any]]
    #: Whether a bot searches, and the iterations it uses without a budget.
    searches: Callable[[str], bool]
    default_iterations: int
    #: A typical machine's search speed, for a match's CPU estimate.
    iterations_per_second: float
    #: The level that plays when a seat's level is unknown or its bot fails, and on a
    #: turn's last try: one of the game's levels, cheap and sure.
    fallback_level: str
    #: What the JSON of an analysis calls an action's mean score (Poch's are chips).
    score_name: str = "mean_score"
    #: What a decision of a bot that does not search takes, bookkeeping included.
    rule_based_seconds: Callable[[str], float] = lambda bot: 0.001
    #: The rules a match's game is played with (Poch's arena plays each deal as a one-deal
    #: game), and the deals of each such game when the arena fixes them (None: the rules').
    match_rules: Callable[[Any], Any] = lambda rules: rules
    match_deals: int | None = None
    #: The sentence (an ``N_`` template, ``{value}``: the deals asked for) that refuses a
    #: match asking for other deals than ``match_deals``.
    match_deals_refused: str = ""

    def __post_init__(self) -> None:
        if self.fallback_level not in self.levels:
            raise ValueError(
                f"{self.game.name}'s fallback level {self.fallback_level!r} is none of its "
                f"levels ({', '.join(self.levels)})"
            )

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

    def tasks_for(
        self, rules: Any, lineup: Sequence[Player], deals: int, seed: int, duplicate: bool
    ) -> list[ArenaGame]:
        """Every (deal, seating) game of a match, as the arena lists them."""
        return tasks_for(rules, lineup, deals, seed, duplicate)

    def task_for(
        self,
        rules: Any,
        lineup: Sequence[Player],
        deals: int,
        seed: int,
        duplicate: bool,
        index: int,
    ) -> ArenaGame:
        """Game `index` of those `tasks_for` lists, made alone (a match's slice plays one)."""
        return task_for(rules, lineup, deals, seed, duplicate, index)

    def seatings(self, seats: Sequence[Any]) -> int:
        """With duplicate deals, how many games each deal is: the line-up's distinct
        rotations (``a,b,a,b`` has two). Given the players, as ``tasks_for`` seats them: two
        texts of one player (``hard`` and `` hard``) are one."""
        return len(distinct_rotations(list(seats)))

    def parse_player(self, spec: str) -> Player:
        """A seat's text (``hard``, ``heuristic``, ``ismcts:300``) as a player (ValueError
        with a sentence for anything else)."""
        return self.arena.parse_player(spec)

    def summarize(self, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """A match's per-bot figures from its game records, as JSON, best first."""
        return [stats.to_dict() for stats in self.arena.summarize(records)]

    def leads(
        self, records: list[dict[str, Any]]
    ) -> tuple[dict[str, dict[str, Any]], dict[str, Any] | None] | None:
        """As the arena reports them (``ai.stats.Difference.to_dict``), from game records:
        each bot's lead over the rest of the table paired by deal, by bot; and with two
        bots, the best one's lead over the other (else None). None if the game's arena
        reports no lead."""
        standings, difference = self.arena.standings, self.arena.difference
        if standings is None or difference is None:
            return None
        stats = self.arena.summarize(records)
        leads = {st.bot: st.lead.to_dict() for st in standings(records, stats)}
        if len(stats) != 2:
            return leads, None
        return leads, difference(records, stats[0].bot, stats[1].bot).to_dict()

    def decide(
        self,
        obs: Any,
        level: str | None = None,
        seed: int | None = None,
        budget: Budget | None = None,
        analyse: bool = False,
    ) -> Decision:
        """The decision of the named level (or bot, with ``budget``; None: the fallback
        level) for ``obs``."""
        level = level or self.fallback_level
        if level in self.levels:
            spec = self.levels[level]
            return self.make_bot(spec.bot).decide(obs, budget or spec.budget, seed, analyse)
        return self.make_bot(level).decide(obs, budget, seed, analyse)

    def report(self, decision: Decision) -> dict[str, Any]:
        """A decision as the API sends it, in the game's wire form."""
        return decision.to_dict(self.game.action_to_wire, self.score_name)
