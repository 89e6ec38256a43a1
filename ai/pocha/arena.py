"""Pocha's arena: whole games of the rules' schedule between bots, on duplicate deals.
How it works: docs/internals.md, ``ai.pocha.arena``.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Sequence
from typing import Any

from ai.arena import Arena, ArenaGame, Roster, play_out
from ai.bot import Bot, Player
from ai.pocha.levels import BOTS, LEVELS, READING_BOTS, make_bot, reading_models
from ai.stats import paired_difference, standings, summarize
from engine.i18n import N_, _
from engine.pocha.game import Game
from engine.pocha.observation import observe
from engine.pocha.rules import Rules


def _with_model(spec: str, player: Player, path: str) -> Player:
    """``BOT@FILE``: the player of a bot that reads the bids, with the models of bidding in
    ``FILE`` (written by ``pocha train-reading``), so that two models can sit at one table."""
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


ROSTER = Roster(
    levels=LEVELS,
    bots=BOTS,
    unknown=N_(
        "unknown bot or level {spec}: the levels are {levels}; the bots are {bots}, "
        "which may carry a budget (ismcts:2000 or ismcts:250ms)"
    ),
    bad_budget=N_(
        "bad budget in {spec}: use a number of iterations (ismcts:2000) or "
        "milliseconds (ismcts:250ms)"
    ),
    level_with_budget=N_(
        "{name} is a level, with its own budget: give it alone, or give the budget "
        "to a bot (ismcts:2000 or ismcts:250ms)"
    ),
    with_model=_with_model,
)


def make_player_bot(player: Player) -> Bot:
    """The bot of ``player``, reading its models of bidding from its file if it has one."""
    return make_bot(player.bot, player.reading_model)


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

    ``seat_bots(game)`` makes the seats' bots when given (``ai.pocha.yardstick`` seats bots
    that are told the game's hidden cards so); else each player's bot is made by name."""
    game = Game.new(rules, seed)
    bots: list[Bot] = seat_bots(game) if seat_bots else [make_player_bot(p) for p in players]
    decisions, think = play_out(game, bots, players, observe, decision_seed, seed)
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


def _run_task(task: ArenaGame) -> dict[str, Any]:
    return play_game(task.rules, task.seed, task.players, task.deal)


ARENA = Arena(ROSTER, _run_task, summarize, standings=standings, difference=paired_difference)
#: ``hard`` (a level), ``heuristic`` (a bot), ``ismcts:2000`` (iterations) or
#: ``ismcts:250ms`` (a time budget); any of them that reads the bids may end in ``@FILE``,
#: a file of models of bidding written by ``pocha train-reading`` (``master@old.json``).
parse_player = ARENA.parse_player
#: Play a run (``ai.arena.Arena.run``): per-bot figures (``ai.stats``) and the records.
run_arena = ARENA.run
