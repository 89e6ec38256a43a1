"""The match-game job, as RQ runs it: one slice of one game of a bot-vs-bot match
(`core.jobs.matches.play_slice`), which queues the next slice itself until the game ends."""

from __future__ import annotations

from typing import Any

from rq import get_current_job

from core.jobs.matches import play_slice
from core.store.redises import store_for_jobs


def play_match_game(match_id: str, index: int, recovery: int = 0) -> dict[str, Any]:
    """The job: play a slice of game `index` of the match."""
    job = get_current_job()
    if job is None:
        raise RuntimeError("play_match_game runs as an RQ job")
    return play_slice(
        store_for_jobs(job.connection), match_id, index, job.id, last_try=job.retries_left == 0
    )  # fmt: skip
