"""A bot's owed turn as the workers play it: the bot moves, then hands on to the next bot;
and a person's clock run out, played by the stand-in.
How it works: docs/internals.md, `core.play.turns`.
"""

from __future__ import annotations

import logging
from typing import Any

from core.config import load_config
from core.errors import GameNotFound
from core.jobs.admission import ThinkPurse
from core.jobs.tasks import clock_key, finish, owed_work, schedule_turn, turn_key
from core.play.bots import FALLBACK_LEVEL, play_bot_turn
from core.store.redises import Connections, redises_of
from core.store.store import GameStore

log = logging.getLogger(__name__)

#: From this many watchdog recoveries on, the turn is played by the fallback bot at once: a
#: level whose thinking keeps killing workers (memory, a hang) must not stop the game.
SAFE_AFTER_RECOVERIES = 2


def store_for(connections: Connections) -> GameStore:
    """The game store of the worker's Redises, with the deployment's settings."""
    return GameStore.from_settings(redises_of(connections).store, load_config())


def purse_for(connections: Connections) -> ThinkPurse:
    """The think budgets the bots of games spend: in the cells of the API's queue Redis
    (the first group's), where the hints and AI moves of the same clients spend theirs."""
    r = redises_of(connections)
    budget = float(load_config()["THINK_BUDGET"])
    return ThinkPurse(r.groups[0], budget, keys=r.store)


def play_owed_turn(
    connection: Connections, game_id: str, version: int, *, last_try: bool
) -> dict[str, Any]:
    """Play the bot turn of `game_id` at `version` (the fallback bot on the `last_try`),
    hand on to the next bot, and end the turn's task; what was done."""
    if last_try:
        log.warning("game %s version %s: the fallback bot plays this turn", game_id, version)
    store = store_for(connection)
    level = FALLBACK_LEVEL if last_try else None
    record = play_bot_turn(
        store, game_id, version, level=level, owed_task=owed_work, purse=purse_for(connection)
    )
    played = record is not None
    if record is None:
        # Nothing to play: the turn was played already, perhaps by an earlier try of this
        # job that died before handing on. Hand on from wherever the game is now (a turn
        # already handed over is not handed over twice).
        try:
            record = store.load(game_id)
        except GameNotFound:
            record = None
    if record is not None and record.bot_to_move is not None:
        schedule_turn(connection, game_id, record.version, record.payer)
    finish(connection, turn_key(game_id, version))
    return {
        "game": game_id,
        "version": version,
        "played": played,
        "fallback": played and last_try,
        "now": None if record is None else record.version,
    }


def run_out_clock(
    connection: Connections, game_id: str, version: int, *, last_try: bool
) -> dict[str, Any]:
    """A person's clock in `game_id` ran out at `version`: unless they moved meanwhile (the
    game is at another version), the table's stand-in plays their turn (the fallback bot
    on the `last_try`), which counts towards their being away; then hand on to the next
    bot, if a bot is next, and end the clock's task. What was done."""
    store = store_for(connection)
    level = FALLBACK_LEVEL if last_try else None
    record = play_bot_turn(
        store, game_id, version, level=level, owed_task=owed_work, clock_ran_out=True,
        purse=purse_for(connection),
    )  # fmt: skip
    if record is not None and record.bot_to_move is not None:
        schedule_turn(connection, game_id, record.version, record.payer)
    finish(connection, clock_key(game_id, version))
    return {
        "game": game_id,
        "version": version,
        "played": record is not None,
        "now": None if record is None else record.version,
    }
