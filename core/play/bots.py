"""Who plays a bot's turn: the `BotRunner` interface and the two runners behind it
(the workers through RQ, or inline in the request).
How it works: docs/internals.md, `core.play.bots`.
"""

from __future__ import annotations

import hashlib
import logging
import time
from typing import Protocol

import redis

from ai.registry import decide_in, levels_of
from core.errors import Conflict, GameNotFound, StaleVersion
from core.jobs.admission import ThinkPurse
from core.jobs.tasks import owed_work, schedule_turn
from core.play.bot_metrics import record_decision
from core.store.records import OwedTask, OwedTaskMaker, StoredGame
from core.store.redises import Connections, redises_of
from core.store.store import GameStore
from engine.errors import GameError
from engine.protocols import Action
from engine.registry import kind_of

log = logging.getLogger(__name__)

#: The level that plays when a seat's level is unknown now or its bot fails: cheap and sure.
FALLBACK_LEVEL = "heuristic"


class BotRunner(Protocol):
    """Hands a bot's turn to whatever plays it."""

    #: Whether `game_changed` returns only once the bots have played (so the caller reads
    #: the game again to show their moves), or as soon as the turn is handed over.
    plays_inline: bool

    def game_changed(
        self, game_id: str, version: int, payer: str | None = None, long: bool = False
    ) -> None:
        """Game `game_id` (made by `payer`, `StoredGame.payer`; `long`: its bots think long,
        `StoredGame.thinks_long`) is now at `version` and a bot must act."""

    def owed_turn(
        self, game_id: str, version: int, deadline: float | None, payer: str | None = None,
        long: bool = False,
    ) -> OwedTask | None:  # fmt: skip
        """What to write with a change that leaves a bot to act at `version`, or a person
        on the clock until `deadline` (or None), in a game `payer` made."""


def bot_seed(game_seed: int, version: int) -> int:
    """The seed of the bot decision taken at `version` of a game: reproducible, and
    different at every turn."""
    digest = hashlib.sha256(f"pocha-bot:{game_seed}:{version}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def level_of(record: StoredGame, seat: int, level: str | None = None) -> str:
    """The level the bot in `seat` thinks at: `level` if given, else its own (the table's
    stand-in's for a person's seat), else the fallback (a level removed since the game
    began)."""
    level = level or record.seats[seat].bot or record.table.stand_in or FALLBACK_LEVEL
    return level if level in levels_of(kind_of(record.game)) else FALLBACK_LEVEL


def _searches(record: StoredGame, level: str) -> bool:
    """Whether the level thinks for a while (a search), rather than answering at once."""
    budget = levels_of(kind_of(record.game))[level].budget
    return budget.iterations is not None or budget.milliseconds is not None


def bot_action(record: StoredGame, seat: int, level: str | None = None) -> Action:
    """What the bot in `seat` does now, decided from that seat's observation only, at its
    own level or at `level` (a worker's last resort plays the fallback level)."""
    level = level_of(record, seat, level)
    game = record.game
    seed = bot_seed(game.seed, record.version)
    try:
        return decide_in(game, seat, level, seed=seed).action
    except Exception:
        # A broken bot must not hang a game: the fallback plays instead.
        if level == FALLBACK_LEVEL:
            raise
        log.exception("bot level %s failed; playing %s instead", level, FALLBACK_LEVEL)
        return decide_in(game, seat, FALLBACK_LEVEL, seed=seed).action


def play_bot_turn(
    store: GameStore,
    game_id: str,
    version: int,
    record: StoredGame | None = None,
    level: str | None = None,
    owed_task: OwedTaskMaker | None = None,
    clock_ran_out: bool = False,
    purse: ThinkPurse | None = None,
) -> StoredGame | None:
    """Play the bot turn of `game_id` at `version`; the game after it, or None when there
    is nothing to do (the game moved on, ended, was deleted, or a person is to act).

    `record`: the game as last seen at `version`, to skip reading it again (the write
    still checks the version, so a stale record only costs a dropped turn). A person's
    turn is played by the table's stand-in when they are away or have left, or, with
    `clock_ran_out`, when it is still the turn whose clock ran out. `owed_task`: what the
    move owes (the next bot's turn, the next person's clock), written with it. `purse`:
    the think budgets, of which a game with a `payer` spends its maker's; once that is
    spent, the fallback level plays until it comes back."""
    if record is None or record.id != game_id:
        try:
            record = store.load(game_id)
        except GameNotFound:
            return None
    seat = record.bot_to_move
    if clock_ran_out and seat is None and record.deadline is not None:
        seat = record.game.turn
    if record.version != version or seat is None:
        return None
    stand_in = record.seats[seat].bot is None
    level = level_of(record, seat, level)
    payer = record.payer if purse is not None and _searches(record, level) else None
    if payer is not None and purse is not None and not purse.may_think(payer):
        level, payer = FALLBACK_LEVEL, None
    started = time.perf_counter()
    action = bot_action(record, seat, level)
    thought = time.perf_counter() - started
    if payer is not None and purse is not None:
        purse.spend(payer, thought)
    try:
        applied = store.apply_action(
            game_id, seat, action, expected_version=version, record=record,
            owed_task=owed_task, stand_in=stand_in,
        ).record  # fmt: skip
    except (Conflict, StaleVersion, GameNotFound):
        record_decision(store.redis, "turn", level, thought)
        return None
    except GameError:
        # The bot chose a move the engine refuses: a bot bug, so log it and let the
        # fallback bot play this turn rather than leave the game stuck.
        log.exception("bot in seat %s of game %s chose a refused move", seat, game_id)
        record = store.load(game_id)
        if record.version != version:
            return None
        fallback = decide_in(record.game, seat, FALLBACK_LEVEL, seed=version).action
        try:
            return store.apply_action(
                game_id, seat, fallback, expected_version=version, record=record,
                owed_task=owed_task, stand_in=stand_in,
            ).record  # fmt: skip
        except (Conflict, StaleVersion, GameNotFound):
            return None
    record_decision(store.redis, "turn", level, thought, applied=True)
    return applied


class RQBotRunner:
    """Hands each bot turn to the RQ workers (`pocha worker`), as one job per version."""

    plays_inline = False

    def __init__(self, connections: Connections) -> None:
        self.redises = redises_of(connections)

    #: Pauses between tries to hand a turn over while Redis does not answer (seconds).
    RETRY_PAUSES = (0.05, 0.2, 0.5)

    def owed_turn(
        self, game_id: str, version: int, deadline: float | None, payer: str | None = None,
        long: bool = False,
    ) -> OwedTask:  # fmt: skip
        return owed_work(game_id, version, deadline, payer, long)

    def game_changed(
        self, game_id: str, version: int, payer: str | None = None, long: bool = False
    ) -> None:
        # The turn's task was written with the change (see `owed_turn`); this queues its
        # first job, waiting out a blip of Redis so the bot plays at once. Should Redis not
        # take it even so, the watchdog queues the turn at the task's first check: the
        # change that was written stands, and the request need not fail.
        for pause in (*self.RETRY_PAUSES, None):
            try:
                schedule_turn(self.redises, game_id, version, payer, long)
                return
            except (redis.ConnectionError, redis.TimeoutError):
                if pause is None:
                    log.warning(
                        "game %s: turn %s not handed over; the watchdog will", game_id, version
                    )
                    return
                log.warning(
                    "game %s: handing turn %s to the workers failed; retrying", game_id, version
                )
                time.sleep(pause)


class InlineBotRunner:
    """Plays bot turns synchronously, in the request that handed them the turn."""

    plays_inline = True

    def owed_turn(
        self, game_id: str, version: int, deadline: float | None, payer: str | None = None,
        long: bool = False,
    ) -> OwedTask | None:  # fmt: skip
        # A bot's turn is played before the request ends; a clock's end needs the workers.
        if deadline is None:
            return None
        return owed_work(game_id, version, deadline, payer, long)

    def __init__(self, store: GameStore, max_turns: int = 100_000) -> None:
        self.store = store
        # A guard against a loop we did not foresee; a whole classic game of 8 bots is
        # far below it.
        self.max_turns = max_turns

    def game_changed(
        self, game_id: str, version: int, payer: str | None = None, long: bool = False
    ) -> None:
        record: StoredGame | None = None
        for _ in range(self.max_turns):
            record = play_bot_turn(self.store, game_id, version, record, owed_task=self.owed_turn)
            if record is None or record.bot_to_move is None:
                return
            version = record.version
        log.error("game %s: bots still to move after %d turns", game_id, self.max_turns)
