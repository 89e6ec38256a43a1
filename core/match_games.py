"""What a bot-vs-bot match needs of each game: the small per-game part of `core.matches`.

A match is the same machinery for every game (the spec, the refusals, the tasks on the low
queue, the slices and their checkpoints, the records and the report); what differs is
reached through a `MatchKind`: the game's rules, its bots and levels (`parse_player`), its
arena's games (`tasks_for`: the deals, the duplicate seatings), how a game is played (its
bots, observations and decision seeds, exactly as its arena plays), its record and its
per-bot summary, and what its decisions cost, for the CPU estimate.

- Pocha (`ai.arena`, `ai.stats`): a game is the whole game of the rules' schedule; each
  deal is played once per distinct rotation of the line-up; the summary is the mean score
  per hand.
- Poch (`ai.poch.arena`): a game is one deal (a one-deal game, as the arena plays it);
  each deal is played once per distinct rotation of the line-up; the summary is chips per
  deal with its 95% interval.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ai import arena as pocha_arena
from ai import levels as pocha_levels
from ai import stats as pocha_stats
from ai.bot import Budget
from ai.ismcts import DEFAULT_ITERATIONS as POCHA_ISMCTS_ITERATIONS
from ai.poch import arena as poch_arena
from ai.poch import levels as poch_levels
from ai.poch.ismcts import DEFAULT_ITERATIONS as POCH_ISMCTS_ITERATIONS
from engine import rules as pocha_rules
from engine.game import Game as PochaGame
from engine.games import POCH, POCHA
from engine.observation import observe as pocha_observe
from engine.poch import rules as poch_rules
from engine.poch.game import Game as PochGame
from engine.poch.observation import observe as poch_observe


class Seat(Protocol):
    """A seat's bot, as either arena parses it (`ai.arena.Player`, `ai.poch.arena.Player`)."""

    @property
    def label(self) -> str: ...
    @property
    def bot(self) -> str: ...
    @property
    def budget(self) -> Budget: ...


class ArenaTask(Protocol):
    """One game of an arena run (`ai.arena.ArenaGame`, or the Poch arena's `_Task`)."""

    @property
    def rules(self) -> Any: ...
    @property
    def seed(self) -> int: ...
    @property
    def players(self) -> Sequence[Any]: ...
    @property
    def deal(self) -> int: ...


@dataclass(frozen=True)
class MatchKind:
    """How a match reaches one game (see the module's paragraph)."""

    name: str
    #: The match's rules from the request's options, `players` set from the seats (the
    #: engine's `InvalidRulesError` for a bad option).
    rules_from_dict: Callable[[dict[str, Any]], Any]
    rules_to_dict: Callable[[Any], dict[str, Any]]
    #: A seat's text (`hard`, `heuristic`, `ismcts:300`) as a player (ValueError with a
    #: sentence for anything else).
    parse_player: Callable[[str], Seat]
    #: Every (deal, seating) game of the match, as the arena lists them.
    tasks_for: Callable[[Any, Sequence[Any], int, int, bool], Sequence[ArenaTask]]
    #: With duplicate deals, how many games each deal is (the arena's seatings of it).
    seatings: Callable[[Sequence[str]], int]
    #: The rules a game is played with (Poch's arena plays each deal as a one-deal game),
    #: and the deals of every game when the match fixes them (Poch: 1).
    game_rules: Callable[[Any], Any]
    deals_per_game: int | None
    #: A new game from the rules a game is played with, and a seed.
    new_game: Callable[[Any, int], Any]
    game_from_dict: Callable[[dict[str, Any]], Any]
    make_bot: Callable[[str], Any]
    observe: Callable[[Any, int], Any]
    decision_seed: Callable[..., int]
    #: A finished game's record: (game, seed, players, deal, decisions, think_ms).
    record: Callable[..., dict[str, Any]]
    #: Per-bot figures of records, as JSON, best first.
    summarize: Callable[[list[dict[str, Any]]], list[dict[str, Any]]]
    #: Decisions in one game, at most (tiebreak hands aside), for the CPU estimate.
    decisions_per_game: Callable[[Any], int]
    #: Whether a bot searches, and the iterations it uses without a budget.
    searches: Callable[[str], bool]
    default_iterations: int
    #: A typical machine's search speed, and what a decision of a bot that does not
    #: search takes (bookkeeping included), for the CPU estimate.
    iterations_per_second: float
    rule_based_seconds: Callable[[str], float]


def _pocha_decisions(rules: pocha_rules.Rules) -> int:
    """Bids and cards of one game's scheduled hands."""
    return sum(rules.players * (cards + 1) for cards in rules.hand_sizes)


def _poch_decisions(rules: poch_rules.Rules) -> int:
    """A deal's decisions: a bet or pass per seat, the start card and at most two suits
    chosen (the last suit runs by itself)."""
    return rules.players + 3


def distinct_seatings(seats: Sequence[str]) -> int:
    """The distinct rotations of the line-up (`a,b,a,b` has two), as both games' arenas
    play them."""
    n = len(seats)
    return len({tuple(seats[(s - r) % n] for s in range(n)) for r in range(n)})


def _pocha_summary(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [s.to_dict() for s in pocha_stats.summarize(records)]


def _poch_summary(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [s.to_dict() for s in poch_arena.summarize(records)]


MATCH_KINDS: dict[str, MatchKind] = {
    POCHA: MatchKind(
        name=POCHA,
        rules_from_dict=pocha_rules.Rules.from_dict,
        rules_to_dict=lambda rules: rules.to_dict(),
        parse_player=pocha_arena.parse_player,
        tasks_for=pocha_arena.tasks_for,
        seatings=distinct_seatings,
        game_rules=lambda rules: rules,
        deals_per_game=None,  # the rules' schedule
        new_game=PochaGame.new,
        game_from_dict=PochaGame.from_dict,
        make_bot=pocha_levels.make_bot,
        observe=pocha_observe,
        decision_seed=pocha_arena.decision_seed,
        record=pocha_arena.game_record,
        summarize=_pocha_summary,
        decisions_per_game=_pocha_decisions,
        searches=lambda bot: bot.startswith("ismcts") or bot == "learned",
        default_iterations=POCHA_ISMCTS_ITERATIONS,
        # A typical machine's ISMCTS speed (timeouts assume a slower one); the rule-based
        # bots take well under a millisecond, bookkeeping included.
        iterations_per_second=10_000,
        rule_based_seconds=lambda bot: 0.001,
    ),
    POCH: MatchKind(
        name=POCH,
        rules_from_dict=poch_rules.Rules.from_dict,
        rules_to_dict=lambda rules: rules.to_dict(),
        parse_player=poch_arena.parse_player,
        tasks_for=poch_arena.tasks_for,
        seatings=distinct_seatings,
        game_rules=poch_arena.one_deal,
        deals_per_game=1,
        new_game=PochGame.new,
        game_from_dict=PochGame.from_dict,
        make_bot=poch_levels.make_bot,
        observe=poch_observe,
        decision_seed=poch_arena.decision_seed,
        record=poch_arena.deal_record,
        summarize=_poch_summary,
        decisions_per_game=_poch_decisions,
        searches=lambda bot: bot == "ismcts",
        default_iterations=POCH_ISMCTS_ITERATIONS,
        # docs/poch.md: 400 iterations in about 100 ms, the heuristic 2-4 ms a decision.
        iterations_per_second=4_000,
        rule_based_seconds=lambda bot: 0.005 if bot == "heuristic" else 0.001,
    ),
}


def match_kind(name: str) -> MatchKind:
    """The match part of the game called `name` (KeyError for none)."""
    return MATCH_KINDS[name]
