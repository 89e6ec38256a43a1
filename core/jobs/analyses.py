"""A game record's analysis on demand (`POST /api/v1/analyses`): the record read back and
checked at once, then each decision weighed by a level (`ai.analysis`) in a job on
`pocha-high`, let in by the asker's think budget like a hint, the job keeping of the record
only what the analysis reads; and its report for `GET /api/v1/analyses/{id}`, whose random
id only the asker is given. docs/records.md, "Analysing a record".
"""

from __future__ import annotations

from typing import Any

import redis
from rq import get_current_job

from ai.analysis import analyse, by_seat
from ai.bot import thinking_seconds
from ai.registry import levels_of, no_such_level
from core.jobs.advice import AdviceRefused, Asker, enqueue_on_demand, wait_for_report
from core.jobs.queues import JOB_SECONDS, Timing
from core.jobs.tasks import job_name
from engine.errors import InvalidStateError
from engine.i18n import _
from engine.registry import KINDS

KIND = "analysis"
#: The longest an analysis may think (seconds): a longer one is refused, naming the levels
#: that fit. A worker's job, so it keeps one worker no longer than a few hints would.
MOST_SECONDS = 60.0
#: What reading the record back and weighing costs a decision besides the level's thinking
#: (seconds, on a slow machine).
DECISION_SECONDS = 0.002


class AnalysisRefused(ValueError):
    """The analysis cannot be asked for; the message (translated by the caller's language)
    says why, and `field` which part of the request."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def read_back(record: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """The record read back and checked against its game's rules: what the analysis reads
    of it (its game, and its game's `record_as_read`), and how many decisions it holds;
    `AnalysisRefused` for a record of no game here, or one no game could give."""
    game = record.get("game")
    kind = KINDS.get(game) if isinstance(game, str) else None
    if kind is None or kind.replay_record is None:
        raise AnalysisRefused(
            _("This service analyses records of {games}.", games=", ".join(
                name for name, k in KINDS.items() if k.replay_record is not None
            )),
            "record",
        )  # fmt: skip
    try:
        decisions = sum(1 for _decision in kind.replay_record(record))
    except InvalidStateError as exc:
        raise AnalysisRefused(
            _("The record cannot be read back: {why}", why=exc.message), "record"
        ) from None
    # The job waits in Redis for minutes, queued and answered: it keeps no field the
    # replay and the report do not read, however much of them a record carries.
    if kind.record_as_read is None:
        return record, decisions
    return {"game": game, **kind.record_as_read(record)}, decisions


def seconds_of(game: str, level: str, decisions: int) -> float:
    """The longest an analysis of `decisions` at `level` may think (seconds)."""
    budget = levels_of(game)[level].budget
    return decisions * (thinking_seconds(budget) + DECISION_SECONDS)


def ask_analysis(
    connection: redis.Redis,
    record: dict[str, Any],
    level: str,
    seed: int,
    asker: Asker | None = None,
) -> tuple[str, int]:
    """Queue the analysis of `record` at `level` (the job holds what `read_back` keeps of
    it); the job's id and the record's decisions.
    `AnalysisRefused` for a record that is not one, a level its game has not, or an
    analysis that would think longer than `MOST_SECONDS`; the admission's refusals as for
    hints."""
    read, decisions = read_back(record)
    game = str(read["game"])
    levels = levels_of(game)
    if level not in levels:
        raise AnalysisRefused(no_such_level(level, levels), "level")
    longest = seconds_of(game, level, decisions)
    if longest > MOST_SECONDS:
        fitting = [n for n in levels if seconds_of(game, n, decisions) <= MOST_SECONDS]
        raise AnalysisRefused(
            _(
                "Weighing {decisions} decisions at {level} may take {seconds} s, more than "
                "the {most} s an analysis may think; choose one of {levels}.",
                decisions=decisions,
                level=level,
                seconds=round(longest),
                most=round(MOST_SECONDS),
                levels=", ".join(fitting),
            ),
            "level",
        )
    job_id = enqueue_on_demand(
        connection, KIND, job_name(analysis), (read, level, seed), {}, asker or Asker(),
        estimated=longest + JOB_SECONDS, longest=longest,
    )  # fmt: skip
    return job_id, decisions


def analysis(record: dict[str, Any], level: str, seed: int) -> dict[str, Any]:
    """The job: every decision of the record weighed by `level`, and the seats' summary."""
    try:
        weighed = analyse(record, level, seed)
    except (InvalidStateError, KeyError) as exc:
        # Checked when asked: only a level gone since (a plugin unloaded) gets here.
        message = _("The record could not be analysed: {why}", why=str(exc))
        job = get_current_job()
        if job is not None:
            job.meta["error"] = message
            job.save_meta()
        raise AdviceRefused(message) from None
    return {
        "level": level,
        "seed": seed,
        "decisions": [w.to_dict() for w in weighed],
        "seats": by_seat(weighed, KINDS[record["game"]].rules_from_dict(record["rules"]).players),
    }


def analysis_report(
    connection: redis.Redis, job_id: str, wait: float = 0.0, timing: Timing | None = None
) -> dict[str, Any] | None:
    """An analysis job's report (as `core.jobs.advice.job_report` makes them) once it is
    finished or failed, or after `wait` seconds; None for no such analysis."""
    return wait_for_report(connection, job_id, wait, timing, kinds=(KIND,))
