"""Bot turns and clocks as tasks and RQ jobs: the bot moves, then the next bot, in one
job; a person's clock run out, played by the stand-in; and the runners that hand them on.
How it works: docs/internals.md, `core.play.turns`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import logging
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import redis
from rq import get_current_job

from core.config import load_config
from core.errors import GameNotFound
from core.jobs.admission import ThinkPurse
from core.jobs.courtesy import Board, move_name, turn_name
from core.jobs.queues import (
    LONG_LANE,
    TURN_LANES,
    TURN_QUEUES,
    TURN_TIMEOUT,
    Timing,
    lane_of,
    queue,
)
from core.jobs.tasks import (
    TURN_RETRIES,
    Task,
    current_job_id,
    finish,
    job_name,
    owed_task_of,
    submit,
)
from core.play.bots import play_bot_turn
from core.play.tables import seat_view
from core.play.webhooks import Settings
from core.play.webhooks import ask as ask_webhook
from core.store.accounts import Lifetime, SweepStep, forget_idle, sweep_due
from core.store.keys import game_key
from core.store.ratings import count_unrated
from core.store.records import OwedTask, OwedTaskMaker, StoredGame
from core.store.redises import Connections, redises_of, store_for_jobs
from core.store.store import GameStore
from engine.protocols import Action

log = logging.getLogger(__name__)

#: From this many watchdog recoveries on, the turn is played by the fallback bot at once: a
#: level whose thinking keeps killing workers (memory, a hang) must not stop the game.
SAFE_AFTER_RECOVERIES = 2


# Cached, so that a worker reads its settings once, not at every job: the store and the
# purse of a worker's Redises are the same for its whole life.
@functools.lru_cache(maxsize=16)
def store_for(connections: Connections) -> GameStore:
    """The game store of the worker's Redises, with the deployment's settings."""
    return GameStore.from_settings(redises_of(connections).store, load_config())


def count_unrated_games(connections: Connections) -> int:
    """Count in the ratings the finished rated games whose last move's process died before
    it counted them (`core.store.ratings.count_unrated`); run by the workers' sweep."""
    store = store_for(connections)

    def load(game_id: str) -> StoredGame | None:
        try:
            # With its whole score sheet: every hand's bids are counted with the rating.
            return store.load(game_id)
        except GameNotFound:
            return None

    return count_unrated(store.redis, load, store.rated_mark_ttl, limits=store.rating_limits)


@functools.lru_cache(maxsize=1)
def _account_lifetime() -> Lifetime:
    return Lifetime.from_settings(load_config())


def forget_idle_accounts(connections: Connections) -> SweepStep | None:
    """One step of the sweep of accounts not in use (`core.store.accounts.forget_idle`),
    taken by one worker a minute between them; run by the workers' sweep. None when another
    worker took this minute's step."""
    store = store_for(connections).redis
    if not sweep_due(store):
        return None
    step = forget_idle(store, _account_lifetime().idle_seconds)
    if step.forgotten:
        log.info("forgot %d accounts not in use", len(step.forgotten))
    return step


@functools.lru_cache(maxsize=16)
def purse_for(connections: Connections) -> ThinkPurse:
    """The think budgets the bots of games spend: in the cells of the API's queue Redis
    (the first group's), where the hints and AI moves of the same clients spend theirs."""
    r = redises_of(connections)
    budget = float(load_config()["THINK_BUDGET"])
    return ThinkPurse(r.groups[0], budget, keys=r.store)


@functools.lru_cache(maxsize=1)
def _timing() -> Timing:
    return Timing.from_env()


def held_by(job_id: str) -> OwedTaskMaker:
    """What a move of a run owes: the next bot's turn, its task held already by the job
    `job_id` that plays it next (not `pending`, so nobody queues a job for it), or a
    person's clock as any move owes it."""

    def owed(
        game_id: str, version: int, deadline: float | None, payer: str | None,
        long: bool = False,
    ) -> OwedTask:  # fmt: skip
        task = owed_work(game_id, version, deadline, payer, long)
        return task if deadline is not None else _held(task, job_id)

    return owed


def _held(task: OwedTask, job_id: str) -> OwedTask:
    """`task` as held by the job `job_id` already: no job is to be queued for it."""
    fields = {k: v for k, v in task.fields.items() if k != "pending"}
    fields["job"] = job_id
    return dataclasses.replace(task, fields=fields)


#: Set in a worker asked to stop (SIGTERM, Ctrl-C): a run in hand plays the turn it is on
#: and hands the rest to a new job, which waits in its queue for a worker.
RUNS_END = threading.Event()


#: A run looks this often (seconds) whether another lane's bot turn waits.
LOOK_EVERY = 0.01


def others_waiting(queues: redis.Redis, lane: str) -> bool:
    """Whether a job waits in a lane of `pocha-turns` other than `lane`, or, for the long
    lane, in it too: another long game's turn, which a run there hands over to (one round
    trip). The long lane does not end a run in another: its workers take that lane last."""
    pipe = queues.pipeline(transaction=False)
    for name in TURN_LANES if lane != LONG_LANE else TURN_QUEUES:
        if name != lane or name == LONG_LANE:
            pipe.llen(queue(queues, name).key)
    return any(pipe.execute())


class _Run:
    """What each move of a run owes, decided as the move is written: the next bot's turn
    held by the run's job while the run goes on (`held_by`), else as any move owes it;
    `held` says which the last move wrote. A run in `lane` goes on while its slice lasts,
    its worker is not stopping and no other lane has a turn waiting (looked at every
    `LOOK_EVERY`): the lanes are the clients' shares of the workers (`core.jobs.queues`), and
    another client's turn then waits for one turn of this run, as it did for one job."""

    def __init__(
        self, job_id: str | None, ends: float, lane: str | None, queues: redis.Redis
    ) -> None:
        self.job_id = job_id
        self.ends = ends
        self.lane = lane
        self.queues = queues
        self.looked_at: float | None = None
        self.held = False

    def goes_on(self) -> bool:
        now = time.monotonic()
        if self.job_id is None or now >= self.ends or RUNS_END.is_set():
            return False
        if self.lane is None or (self.looked_at is not None and now - self.looked_at < LOOK_EVERY):
            return True
        self.looked_at = now
        try:
            return not others_waiting(self.queues, self.lane)
        except redis.RedisError:
            return False  # handed over: the next job is queued as any job is

    def __call__(
        self, game_id: str, version: int, deadline: float | None, payer: str | None,
        long: bool = False,
    ) -> OwedTask:  # fmt: skip
        self.held = deadline is None and self.job_id is not None and self.goes_on()
        task = owed_work(game_id, version, deadline, payer, long)
        return _held(task, self.job_id) if self.held and self.job_id is not None else task


def _resumed(
    connection: Connections, store: GameStore, game_id: str, version: int, job_id: str
) -> tuple[StoredGame | None, int]:
    """Where a job asked to play `version` starts: there, or, for a try of a run that died
    after moving on, at the game's turn whose task this job holds. The game as read, or
    None when it is gone, and the version to play."""
    try:
        record = store.load(game_id)
    except GameNotFound:
        return None, version
    held = (
        record.version != version
        and record.bot_to_move is not None
        and current_job_id(connection, turn_key(game_id, record.version)) == job_id
    )
    if held:
        log.info("game %s: job %s takes its run up again at %s", game_id, job_id, record.version)
        return record, record.version
    return record, version


def webhook_asker(store: GameStore) -> Callable[[StoredGame, int], Action | None]:
    """Asks a bot account's webhook for its seat's action, sending the seat's view, and
    counts the call on the account (`core.play.webhooks.ask`); None: the stand-in plays."""
    settings = Settings.from_config()

    def asked(record: StoredGame, seat: int) -> Action | None:
        account = record.seats[seat].account
        if account is None:
            return None
        view = seat_view(record, seat)
        action, _why = ask_webhook(store.redis, account, record.game, seat, view, settings)
        return action

    return asked


def play_owed_turns(
    connection: Connections,
    game_id: str,
    version: int,
    *,
    last_try: bool,
    job_id: str | None = None,
    lane: str | None = None,
    timing: Timing | None = None,
) -> dict[str, Any]:
    """Play the bot turn of `game_id` at `version` (the fallback bot on the `last_try`),
    then, as the job `job_id` taken from `lane`, the bot turns after it, up to a person's
    turn, the game's end, `timing.turn_slice` or a turn waiting in another lane; hand on
    what is left to a new job and end each turn's task. Without `job_id` (or on the last
    try) one turn is played. What was done."""
    if last_try:
        log.warning("game %s version %s: the fallback bot plays this turn", game_id, version)
    timing = timing or _timing()
    store = store_for(connection)
    purse = purse_for(connection)
    run = _Run(
        None if last_try else job_id,
        time.monotonic() + timing.turn_slice,
        lane,
        redises_of(connection).queues,
    )
    first = version
    asker = webhook_asker(store)
    record: StoredGame | None = None
    if job_id is not None and not last_try:
        record, version = _resumed(connection, store, game_id, version, job_id)
        if record is None:
            finish(connection, turn_key(game_id, version))
            return _done(game_id, first, 0, last_try, None)
    played = 0
    while True:
        # Decided as the move is written: the turn it owes is then either held by this job,
        # which plays it next, or queued as a job of its own.
        run.held = False
        applied = play_bot_turn(
            store, game_id, version, record, owed_task=run, purse=purse, fallback=last_try,
            ask=asker,
        )  # fmt: skip
        if applied is None:
            # Nothing to play: the turn was played already, perhaps by an earlier try of this
            # job that died before handing on. Hand on from wherever the game is now (a turn
            # already handed over is not handed over twice).
            try:
                record = store.load(game_id)
            except GameNotFound:
                record = None
            if record is not None and record.bot_to_move is not None:
                schedule_turn(connection, game_id, record.version, record.payer, record.thinks_long)
            finish(connection, turn_key(game_id, version))
            break
        played += 1
        record = applied
        if applied.bot_to_move is not None and not run.held:
            schedule_turn(connection, game_id, applied.version, applied.payer, applied.thinks_long)
        finish(connection, turn_key(game_id, version))
        if applied.bot_to_move is None or not run.held:
            break
        version = applied.version
    return _done(game_id, first, played, last_try, record)


def _done(
    game_id: str, version: int, played: int, last_try: bool, record: StoredGame | None
) -> dict[str, Any]:
    return {
        "game": game_id,
        "version": version,
        "played": played > 0,
        "turns": played,
        "fallback": played > 0 and last_try,
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
    record = play_bot_turn(
        store, game_id, version, owed_task=owed_work, clock_ran_out=True,
        purse=purse_for(connection), fallback=last_try,
    )  # fmt: skip
    if record is not None and record.bot_to_move is not None:
        schedule_turn(connection, game_id, record.version, record.payer, record.thinks_long)
    finish(connection, clock_key(game_id, version))
    return {
        "game": game_id,
        "version": version,
        "played": record is not None,
        "now": None if record is None else record.version,
    }


# -- the turns' tasks and jobs ------------------------------------------------------------


def turn_key(game_id: str, version: int) -> str:
    """The task of a bot's turn: in its game's hash slot (`{game_id}`)."""
    return f"turn:{{{game_id}}}:{version}"


def turn_task(game_id: str, version: int, payer: str | None = None, long: bool = False) -> Task:
    """The bot turn of `game_id` at `version`, on the turns' own queue, in the lane of the
    game's maker, or the long lane for a game whose bots think long
    (`core.jobs.queues.lane_of`); RQ job id from both."""
    return Task(
        key=turn_key(game_id, version),
        prefix=f"pocha-turn-{game_id}-{version}",
        func=job_name(play_turn),
        args=(game_id, version),
        queue=lane_of(payer, long=long),
        timeout=TURN_TIMEOUT,
        retries=TURN_RETRIES,
    )


def owed_turn(game_id: str, version: int, payer: str | None = None, long: bool = False) -> OwedTask:
    """The bot turn of `game_id` at `version`, to register with the move that makes it."""
    return owed_task_of(turn_task(game_id, version, payer, long))


def clock_key(game_id: str, version: int) -> str:
    """The task of a clock's end: in its game's hash slot (`{game_id}`)."""
    return f"clock:{{{game_id}}}:{version}"


def clock_task(game_id: str, version: int, payer: str | None = None, long: bool = False) -> Task:
    """The end of a person's clock in `game_id` at `version`: the stand-in plays the turn
    if the game is still there. On the turns' queue, like a bot's turn."""
    return Task(
        key=clock_key(game_id, version),
        prefix=f"pocha-clock-{game_id}-{version}",
        func=job_name(run_out),
        args=(game_id, version),
        queue=lane_of(payer, long=long),
        timeout=TURN_TIMEOUT,
        retries=TURN_RETRIES,
        timer=True,
        only_if=(game_key(game_id), "version", str(version)),
    )


def owed_work(
    game_id: str,
    version: int,
    deadline: float | None,
    payer: str | None = None,
    long: bool = False,
) -> OwedTask:
    """What a change of `game_id` (made by `payer`; `long`: its bots think long) to
    `version` owes: the bot's (or stand-in's) turn, or, with a `deadline`, the end of the
    person's clock then (`store.OwedTaskMaker`)."""
    if deadline is None:
        return owed_turn(game_id, version, payer, long)
    return owed_task_of(clock_task(game_id, version, payer, long), due=deadline)


def schedule_turn(
    connections: Connections,
    game_id: str,
    version: int,
    payer: str | None = None,
    long: bool = False,
) -> bool:
    """Hand the bot turn of `game_id` (made by `payer`; `long`: its bots think long) at
    `version` to the workers (once: False if it was handed already)."""
    return submit(connections, turn_task(game_id, version, payer, long))


def play_turn(game_id: str, version: int, recovery: int = 0) -> dict[str, Any]:
    """Play the bot turn of `game_id` at `version` and the bot turns that follow it (an RQ
    job); what was done."""
    job = get_current_job()
    if job is None:
        raise RuntimeError("play_turn runs as an RQ job")
    last_try = job.retries_left == 0 or recovery >= SAFE_AFTER_RECOVERIES
    return play_owed_turns(
        store_for_jobs(job.connection), game_id, version, last_try=last_try, job_id=job.id,
        lane=job.origin,
    )  # fmt: skip


def run_out(game_id: str, version: int, recovery: int = 0) -> dict[str, Any]:
    """A person's clock ran out in `game_id` at `version` (an RQ job): the stand-in plays
    their turn unless they moved first; what was done."""
    job = get_current_job()
    if job is None:
        raise RuntimeError("run_out runs as an RQ job")
    last_try = job.retries_left == 0 or recovery >= SAFE_AFTER_RECOVERIES
    return run_out_clock(store_for_jobs(job.connection), game_id, version, last_try=last_try)


class RQBotRunner:
    """Hands each bot turn to the RQ workers (`pocha worker`), as one job per version."""

    plays_inline = False

    def __init__(self, connections: Connections) -> None:
        self.redises = redises_of(connections)
        #: This machine's board of quick turns, which long searches beside them give way
        #: to (`core.jobs.courtesy`).
        self.board = Board.open(self.redises.queues)

    #: Pauses between tries to hand a turn over while Redis does not answer (seconds).
    RETRY_PAUSES = (0.05, 0.2, 0.5)

    def person_moving(self, game_id: str) -> AbstractContextManager[None]:
        # A quick turn of its own: the move's checks and write run beside the same
        # searches as the bot turn it may hand over.
        if self.board is None:
            return contextlib.nullcontext()
        return self.board.quick(move_name(game_id))

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
        if self.board is not None and not long:
            self.board.handed_over(turn_name(game_id, version))
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

    def person_moving(self, game_id: str) -> AbstractContextManager[None]:
        return contextlib.nullcontext()

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
