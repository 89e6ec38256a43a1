"""The arena of every game: bots play each other on duplicate deals, and the records say
who is stronger.

Each deal is played once per distinct rotation of the line-up (``tasks_for``), so the luck
of the deal cancels out. A game's ``Arena`` says how it reads a seat's text (its
``Roster``), plays and records one game, and sums the records up; ``Arena.run`` plays a run.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any, Generic, TypeVar

from ai.bot import Bot, Budget, Level, Player
from ai.cores import on_cores
from ai.stats import Difference, Standing
from engine.i18n import _

Stats = TypeVar("Stats")


@dataclass(frozen=True)
class Roster:
    """What a seat's text may name in one game: its levels and bots, and the sentences
    (``N_`` templates, in the game's words and examples of budgets) that refuse the rest."""

    levels: Mapping[str, Level]
    bots: tuple[str, ...]
    #: An unknown bot or level: ``{spec}``, ``{levels}``, ``{bots}``.
    unknown: str
    #: A budget that is no number: ``{spec}``.
    bad_budget: str
    #: A level given a budget, ``{name}``; None: such a text is an unknown bot.
    level_with_budget: str | None = None
    #: ``BOT@FILE``: the player of ``BOT`` reading its models from ``FILE`` (the text,
    #: the player of ``BOT`` and the file); None: the game's bots read no file.
    with_model: Callable[[str, Player, str], Player] | None = None


def parse_player(spec: str, roster: Roster) -> Player:
    """``hard`` (a level), ``heuristic`` (a bot), ``ismcts:2000`` (iterations) or
    ``ismcts:250ms`` (a time budget); where the roster allows it, ``BOT@FILE``."""
    spec = spec.strip()
    if roster.with_model is not None:
        bare, at, path = spec.partition("@")
        if at:
            return roster.with_model(spec, parse_player(bare, roster), path)
    if spec in roster.levels:
        level = roster.levels[spec]
        return Player(spec, level.bot, level.budget)
    name, _colon, arg = spec.partition(":")
    if roster.level_with_budget and name in roster.levels and name not in roster.bots:
        raise ValueError(_(roster.level_with_budget, name=repr(name)))
    if name not in roster.bots:
        raise ValueError(
            _(
                roster.unknown,
                spec=repr(spec),
                levels=", ".join(roster.levels),
                bots=", ".join(roster.bots),
            )
        )
    if not arg:
        return Player(spec, name, Budget())
    try:
        if arg.endswith("ms"):
            return Player(spec, name, Budget(milliseconds=float(arg[:-2])))
        return Player(spec, name, Budget(iterations=int(arg)))
    except ValueError:
        raise ValueError(_(roster.bad_budget, spec=repr(spec))) from None


@dataclass(frozen=True)
class ArenaGame:
    """One game of an arena run: a deal's seed, seated as one rotation of the line-up."""

    rules: Any
    seed: int
    players: tuple[Player, ...]
    deal: int


def play_out(
    game: Any,
    bots: Sequence[Bot],
    players: Sequence[Player],
    observe: Callable[[Any, int], Any],
    decision_seed: Callable[..., int],
    seed: int,
) -> tuple[list[int], list[float]]:
    """Play `game` to its end: the seat to act decides with its bot from what `observe`
    shows it, with its player's budget and the seed `decision_seed(seed, seat, step)`.
    Per seat, the decisions it made and the milliseconds they took."""
    decisions = [0] * len(bots)
    think = [0.0] * len(bots)
    step = 0
    while not game.finished:
        seat = game.turn
        assert seat is not None
        obs = observe(game, seat)
        t0 = time.perf_counter()
        decision = bots[seat].decide(obs, players[seat].budget, decision_seed(seed, seat, step))
        think[seat] += (time.perf_counter() - t0) * 1000.0
        decisions[seat] += 1
        game.apply(seat, decision.action)
        step += 1
    return decisions, think


def distinct_rotations(lineup: Sequence[Player]) -> list[tuple[Player, ...]]:
    """The line-up turned through the seats, each seating once (``a,b,a,b`` gives two)."""
    n = len(lineup)
    seatings: list[tuple[Player, ...]] = []
    for r in range(n):
        seats = tuple(lineup[(s - r) % n] for s in range(n))
        if seats not in seatings:
            seatings.append(seats)
    return seatings


def deal_seeds(seed: int) -> Iterator[int]:
    """The seeds of an arena run's deals, in deal order: drawn in turn from one Mersenne
    Twister seeded with the run's ``seed``."""
    rng = random.Random(seed)
    while True:
        yield rng.randrange(1 << 53)


def seatings_of(lineup: Sequence[Player], duplicate: bool) -> list[tuple[Player, ...]]:
    """The seatings each deal of a run is played in: its distinct rotations with duplicate
    deals, else the line-up as it is."""
    return distinct_rotations(lineup) if duplicate else [tuple(lineup)]


def _check_lineup(rules: Any, lineup: Sequence[Player]) -> None:
    if len(lineup) != rules.players:
        raise ValueError(
            f"the line-up names {len(lineup)} seats; the rules have {rules.players} players"
        )


def tasks_for(
    rules: Any, lineup: Sequence[Player], deals: int, seed: int, duplicate: bool = True
) -> list[ArenaGame]:
    """Every (deal, distinct rotation) game of an arena run, deal-major.

    A rotation that seats the line-up as an earlier one did (``a,b,a,b`` turned by two
    seats) would replay the same game, decision seeds and all, so it is played once."""
    _check_lineup(rules, lineup)
    seatings = seatings_of(lineup, duplicate)
    out: list[ArenaGame] = []
    for d, game_seed in enumerate(islice(deal_seeds(seed), deals)):
        out.extend(ArenaGame(rules, game_seed, seats, d) for seats in seatings)
    return out


def task_for(
    rules: Any, lineup: Sequence[Player], deals: int, seed: int, duplicate: bool, index: int
) -> ArenaGame:
    """``tasks_for(rules, lineup, deals, seed, duplicate)[index]``, made alone: it draws the
    deal seeds up to its own deal's (a deal's seed is known only by drawing those before it:
    ``randrange`` draws again whenever it rejects a draw) and makes no other game. IndexError
    for an index outside the run (a negative one included: a game has none)."""
    _check_lineup(rules, lineup)
    seatings = seatings_of(lineup, duplicate)
    if not 0 <= index < deals * len(seatings):
        raise IndexError(f"game {index} of an arena run of {deals * len(seatings)} games")
    deal, seating = divmod(index, len(seatings))
    game_seed = next(islice(deal_seeds(seed), deal, None))
    return ArenaGame(rules, game_seed, seatings[seating], deal)


@dataclass(frozen=True)
class Arena(Generic[Stats]):
    """One game's arena: the seats' texts it reads, how it plays one game of a run and
    records it (``play``, a module's function: it is sent to the other processes), and
    what the records sum up to, per bot."""

    roster: Roster
    play: Callable[[ArenaGame], dict[str, Any]]
    summarize: Callable[[list[dict[str, Any]]], list[Stats]]
    #: Games sent to a process at a time (short games travel in bunches).
    chunksize: int = 1
    #: Each bot's standing from records and the per-bot figures ``summarize`` made of them
    #: (in their order): its lead over the rest of the table, paired by deal; and one bot's
    #: lead over another, paired by deal (records, bot, other). None: the game's arena
    #: reports neither.
    standings: Callable[[list[dict[str, Any]], list[Stats]], list[Standing]] | None = None
    difference: Callable[[list[dict[str, Any]], str, str], Difference] | None = None

    def parse_player(self, spec: str) -> Player:
        return parse_player(spec, self.roster)

    def run(
        self,
        rules: Any,
        lineup: Sequence[Player],
        deals: int,
        seed: int = 0,
        processes: int | None = None,
        duplicate: bool = True,
        progress: Callable[[int, int], None] | None = None,
        play: Callable[[ArenaGame], dict[str, Any]] | None = None,
    ) -> tuple[list[Stats], list[dict[str, Any]]]:
        """Play ``deals`` deals (each once per distinct rotation, over the cores); per-bot
        figures, and the records in the order of deal and seating. ``play`` plays each game
        in place of the arena's own (a module's function too)."""
        tasks = tasks_for(rules, lineup, deals, seed, duplicate)
        play = play or self.play
        records = list(
            on_cores(play, tasks, processes, progress, ordered=False, chunksize=self.chunksize)
        )
        records.sort(key=lambda r: (r["deal"], r["seats"]))
        return self.summarize(records), records
