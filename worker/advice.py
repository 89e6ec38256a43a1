"""The AI-on-demand jobs: `hint` for a seat of a stored game and `move` for a position a
front end keeps itself, as RQ runs them (`core.jobs.advice` queues them and reports on them).

A job that cannot give the advice asked for leaves the reason in its meta, where the
report (`GET /api/v1/jobs/{id}`) reads it for the client.
"""

from __future__ import annotations

from typing import Any

from rq import get_current_job

from core.jobs.advice import AdviceRefused, Thinking, think_hint, think_move
from core.store.redises import store_for_jobs


def _refused(exc: AdviceRefused) -> AdviceRefused:
    job = get_current_job()
    if job is not None:
        job.meta["error"] = exc.message
        job.save_meta()
    return exc


def hint(
    game_id: str,
    seat: int,
    version: int,
    level: str | None = None,
    iterations: int | None = None,
    milliseconds: int | None = None,
) -> dict[str, Any]:
    """The job: the seat's best action now, with the analysis, from its own view only."""
    job = get_current_job()
    if job is None:
        raise RuntimeError("hint runs as an RQ job")
    try:
        return think_hint(
            store_for_jobs(job.connection).store, game_id, seat, version,
            Thinking(level, iterations, milliseconds),
        )  # fmt: skip
    except AdviceRefused as exc:
        raise _refused(exc) from None


def move(
    position: dict[str, Any],
    level: str | None = None,
    iterations: int | None = None,
    milliseconds: int | None = None,
) -> dict[str, Any]:
    """The job: the action of the position's seat, with the analysis."""
    job = get_current_job()
    try:
        return think_move(
            position,
            Thinking(level, iterations, milliseconds),
            None if job is None else store_for_jobs(job.connection).store,
        )
    except AdviceRefused as exc:
        raise _refused(exc) from None
