"""The arena: bots play each other on duplicate deals and the numbers say who
is stronger.

A line-up names a bot (or level) per seat.  Every deal (a game seed) is played
once per distinct rotation of the line-up through the seats, so each bot meets the same
cards from every seat and the luck of the deal cancels out.  Games run in
parallel over CPU cores; ``ai.stats`` turns the game records into per-bot
figures.  ``pocha arena`` is the command-line face of ``run_arena``.
"""

from __future__ import annotations

import random
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ai.bot import Bot, Budget
from ai.cores import on_cores
from ai.levels import BOTS, LEVELS, READING_BOTS, make_bot, reading_models
from ai.stats import BotStats, summarize
from engine.game import Game
from engine.i18n import _
from engine.observation import observe
from engine.rules import Rules


@dataclass(frozen=True)
class Player:
    """A seat's bot: a label for the tables, the bot, its budget and, for a bot that
    reads the bids, the file of its models of bidding (None: the shipped ones)."""

    label: str
    bot: str
    budget: Budget
    reading_model: str | None = None

    def make(self) -> Bot:
        return make_bot(self.bot, self.reading_model)


def parse_player(spec: str) -> Player:
    """``hard`` (a level), ``heuristic`` (a bot), ``ismcts:2000`` (iterations)
    or ``ismcts:250ms`` (a time budget); any of them that reads the bids may end in
    ``@FILE``, a file of models of bidding written by ``pocha train-reading``
    (``master@old.json``), so that two models can sit at one table."""
    spec = spec.strip()
    bare, at, path = spec.partition("@")
    if at:
        player = parse_player(bare)
        if player.bot not in READING_BOTS:
            raise ValueError(
                _(
                    "{spec} gives a model of bidding to {bot}, which does not read the bids; "
                    "the bots that do are {bots}",
                    spec=repr(spec),
                    bot=player.bot,
                    bots=", ".join(READING_BOTS),
                )
            )
        try:
            reading_models(path)
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ValueError(
                _(
                    "cannot read the models of bidding in {path}, as pocha train-reading "
                    "writes them: {error}",
                    path=repr(path),
                    error=str(exc) or type(exc).__name__,
                )
            ) from None
        return Player(spec, player.bot, player.budget, path)
    if spec in LEVELS:
        level = LEVELS[spec]
        return Player(spec, level.bot, level.budget)
    name, _colon, arg = spec.partition(":")
    if name in LEVELS and name not in BOTS:
        raise ValueError(
            _(
                "{name} is a level, with its own budget: give it alone, or give the budget "
                "to a bot (ismcts:2000 or ismcts:250ms)",
                name=repr(name),
            )
        )
    if name not in BOTS:
        raise ValueError(
            _(
                "unknown bot or level {spec}: the levels are {levels}; the bots are {bots}, "
                "which may carry a budget (ismcts:2000 or ismcts:250ms)",
                spec=repr(spec),
                levels=", ".join(LEVELS),
                bots=", ".join(BOTS),
            )
        )
    if not arg:
        return Player(spec, name, Budget())
    try:
        if arg.endswith("ms"):
            return Player(spec, name, Budget(milliseconds=float(arg[:-2])))
        return Player(spec, name, Budget(iterations=int(arg)))
    except ValueError:
        raise ValueError(
            _(
                "bad budget in {spec}: use a number of iterations (ismcts:2000) or "
                "milliseconds (ismcts:250ms)",
                spec=repr(spec),
            )
        ) from None


def decision_seed(seed: int, *parts: int) -> int:
    """The seed of one decision of a game (its seat and step): the same game replays
    the same, wherever it is played (the arena here, a match on the workers)."""
    return zlib.crc32(repr((seed, *parts)).encode())


def play_game(
    rules: Rules,
    seed: int,
    players: Sequence[Player],
    deal: Any = None,
    seat_bots: Callable[[Game], list[Bot]] | None = None,
) -> dict[str, Any]:
    """Play one game; its record (bots per seat, per-hand results, timings).

    ``seat_bots(game)`` makes the seats' bots when given (``ai.yardstick`` seats bots
    that are told the game's hidden cards so); else each player's bot is made by name."""
    game = Game.new(rules, seed)
    bots: list[Bot] = seat_bots(game) if seat_bots else [p.make() for p in players]
    n = rules.players
    decisions = [0] * n
    think = [0.0] * n
    step = 0
    while game.phase != "finished":
        seat = game.turn
        assert seat is not None
        obs = observe(game, seat)
        t0 = time.perf_counter()
        decision = bots[seat].decide(
            obs, players[seat].budget, decision_seed(seed, seat, step)
        )
        think[seat] += (time.perf_counter() - t0) * 1000.0
        decisions[seat] += 1
        game.apply(seat, decision.action)
        step += 1
    return game_record(game, seed, players, deal, decisions, think)


def game_record(
    game: Game,
    seed: int,
    players: Sequence[Player],
    deal: Any,
    decisions: Sequence[int],
    think: Sequence[float],
) -> dict[str, Any]:
    """The record of a finished game (the arena's, and a match's on the workers)."""
    return {
        "seed": seed,
        "deal": seed if deal is None else deal,
        "rules": game.rules.to_dict(),
        "seats": [p.label for p in players],
        "hands": [
            {"cards": h["cards"], "bids": h["bids"], "tricks": h["tricks"], "points": h["points"]}
            for h in game.history
        ],
        "scores": list(game.scores),
        "winners": list(game.winners),
        "decisions": list(decisions),
        "think_ms": [round(t, 3) for t in think],
    }


@dataclass(frozen=True)
class ArenaGame:
    """One game of an arena run: a deal's seed, seated as one rotation of the line-up."""

    rules: Rules
    seed: int
    players: tuple[Player, ...]
    deal: int


def _run_task(task: ArenaGame) -> dict[str, Any]:
    return play_game(task.rules, task.seed, task.players, task.deal)


def distinct_rotations(lineup: Sequence[Player]) -> list[tuple[Player, ...]]:
    """The line-up turned through the seats, each seating once (``a,b,a,b`` gives two)."""
    n = len(lineup)
    seatings: list[tuple[Player, ...]] = []
    for r in range(n):
        seats = tuple(lineup[(s - r) % n] for s in range(n))
        if seats not in seatings:
            seatings.append(seats)
    return seatings


def tasks_for(
    rules: Rules, lineup: Sequence[Player], deals: int, seed: int, duplicate: bool = True
) -> list[ArenaGame]:
    """Every (deal, distinct rotation) game of an arena run, deal-major.

    A rotation that seats the line-up as an earlier one did (``a,b,a,b`` turned by two
    seats) would replay the same game, decision seeds and all, so it is played once."""
    n = rules.players
    if len(lineup) != n:
        raise ValueError(f"the line-up names {len(lineup)} seats; the rules have {n} players")
    rng = random.Random(seed)
    seatings = distinct_rotations(lineup) if duplicate else [tuple(lineup)]
    out: list[ArenaGame] = []
    for d in range(deals):
        game_seed = rng.randrange(1 << 53)
        out.extend(ArenaGame(rules, game_seed, seats, d) for seats in seatings)
    return out


def run_arena(
    rules: Rules,
    lineup: Sequence[Player],
    deals: int,
    seed: int = 0,
    processes: int | None = None,
    duplicate: bool = True,
    progress: Callable[[int, int], None] | None = None,
    play: Callable[[ArenaGame], dict[str, Any]] = _run_task,
) -> tuple[list[BotStats], list[dict[str, Any]]]:
    """Play ``deals`` deals (each once per distinct rotation); per-bot stats and records.
    ``play`` plays one game of them (a module's function, sent to the other processes)."""
    tasks = tasks_for(rules, lineup, deals, seed, duplicate)
    records = list(on_cores(play, tasks, processes, progress, ordered=False))
    records.sort(key=lambda r: (r["deal"], r["seats"]))
    return summarize(records), records
