"""The bot-turn job, as RQ runs it: `core.play.turns.play_owed_turns` from one (game, version),
the run of bot turns that starts there.

When thinking fails, times out or loses its worker, RQ tries again; the last try, and any
try after the watchdog had to rescue the turn `SAFE_AFTER_RECOVERIES` times, plays the
fallback bot.
"""

from __future__ import annotations

from typing import Any

from rq import get_current_job

from core.play.turns import SAFE_AFTER_RECOVERIES, play_owed_turns, run_out_clock
from core.store.redises import store_for_jobs


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
