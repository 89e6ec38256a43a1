"""What a bot-vs-bot match needs of each game: the small per-game part of `core.matches`.

A match is the same machinery for every game (the spec, the refusals, the tasks on the low
queue, the slices and their checkpoints, the records and the report); what differs is
reached through a `MatchKind`: the game's rules, its bots and levels (`parse_player`), its
arena's games (`tasks_for`: the deals, the duplicate seatings), how a game is played (its
bots, observations and decision seeds, exactly as its arena plays), its record and its
per-bot summary, and what its decisions cost, for the CPU estimate.

- Pocha (`ai.pocha.arena`, `ai.stats`): a game is the whole game of the rules' schedule; each
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

import ai.poch.arena
import ai.poch.ismcts
import ai.poch.levels
import ai.pocha.arena
import ai.pocha.ismcts
import ai.pocha.levels
import engine.poch.game
import engine.poch.observation
import engine.poch.rules
import engine.pocha.game
import engine.pocha.observation
import engine.pocha.rules
from ai.arena import tasks_for
from ai.bot import Budget
from ai.registry import BOT_KINDS
from engine.registry import POCH, POCHA


class Seat(Protocol):
    """A seat's bot, as either arena parses it (`ai.bot.Player`)."""

    @property
    def label(self) -> str: ...
    @property
    def bot(self) -> str: ...
    @property
    def budget(self) -> Budget: ...


class ArenaTask(Protocol):
    """One game of an arena run (`ai.arena.ArenaGame`)."""

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


def _pocha_decisions(rules: engine.pocha.rules.Rules) -> int:
    """Bids and cards of one game's scheduled hands."""
    return sum(rules.players * (cards + 1) for cards in rules.hand_sizes)


def _poch_decisions(rules: engine.poch.rules.Rules) -> int:
    """A deal's decisions: a bet or pass per seat, the start card and at most two suits
    chosen (the last suit runs by itself)."""
    return rules.players + 3


def distinct_seatings(seats: Sequence[str]) -> int:
    """The distinct rotations of the line-up (`a,b,a,b` has two), as both games' arenas
    play them."""
    n = len(seats)
    return len({tuple(seats[(s - r) % n] for s in range(n)) for r in range(n)})


MATCH_KINDS: dict[str, MatchKind] = {
    POCHA: MatchKind(
        name=POCHA,
        rules_from_dict=engine.pocha.rules.Rules.from_dict,
        rules_to_dict=lambda rules: rules.to_dict(),
        parse_player=ai.pocha.arena.parse_player,
        tasks_for=tasks_for,
        seatings=distinct_seatings,
        game_rules=lambda rules: rules,
        deals_per_game=None,  # the rules' schedule
        new_game=engine.pocha.game.Game.new,
        game_from_dict=engine.pocha.game.Game.from_dict,
        make_bot=ai.pocha.levels.make_bot,
        observe=engine.pocha.observation.observe,
        decision_seed=ai.pocha.arena.decision_seed,
        record=ai.pocha.arena.game_record,
        summarize=BOT_KINDS[POCHA].summarize,
        decisions_per_game=_pocha_decisions,
        searches=lambda bot: bot.startswith("ismcts") or bot == "learned",
        default_iterations=ai.pocha.ismcts.DEFAULT_ITERATIONS,
        # A typical machine's ISMCTS speed (timeouts assume a slower one); the rule-based
        # bots take well under a millisecond, bookkeeping included.
        iterations_per_second=10_000,
        rule_based_seconds=lambda bot: 0.001,
    ),
    POCH: MatchKind(
        name=POCH,
        rules_from_dict=engine.poch.rules.Rules.from_dict,
        rules_to_dict=lambda rules: rules.to_dict(),
        parse_player=ai.poch.arena.parse_player,
        tasks_for=tasks_for,
        seatings=distinct_seatings,
        game_rules=ai.poch.arena.one_deal,
        deals_per_game=1,
        new_game=engine.poch.game.Game.new,
        game_from_dict=engine.poch.game.Game.from_dict,
        make_bot=ai.poch.levels.make_bot,
        observe=engine.poch.observation.observe,
        decision_seed=ai.poch.arena.decision_seed,
        record=ai.poch.arena.deal_record,
        summarize=BOT_KINDS[POCH].summarize,
        decisions_per_game=_poch_decisions,
        searches=lambda bot: bot == "ismcts",
        default_iterations=ai.poch.ismcts.DEFAULT_ITERATIONS,
        # docs/poch.md: 400 iterations in about 100 ms, the heuristic 2-4 ms a decision.
        iterations_per_second=4_000,
        rule_based_seconds=lambda bot: 0.005 if bot == "heuristic" else 0.001,
    ),
}


def match_kind(name: str) -> MatchKind:
    """The match part of the game called `name` (KeyError for none)."""
    return MATCH_KINDS[name]
