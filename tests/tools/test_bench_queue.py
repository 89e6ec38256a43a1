"""`pocha bench queue`'s arithmetic on fixed readings (no timing): jobs queued and
finished in a window, the Redis's CPU and memory per job, and its ceiling."""

from __future__ import annotations

from core.jobs.tasks import RESULT_TTL
from tools.bench_queue import Phase, _Reading, noop, report


def test_a_window_counts_what_was_queued_from_the_backlog_and_the_finished() -> None:
    before = _Reading(at=10.0, redis_cpu=1.0, memory=1_000, backlog=50, finished=100,
                      worker_cpu=2.0)  # fmt: skip
    after = _Reading(at=12.0, redis_cpu=1.5, memory=3_000, backlog=80, finished=400,
                     worker_cpu=5.0)  # fmt: skip
    phase = Phase.between(before, after)
    assert phase.seconds == 2.0
    assert (phase.finished, phase.queued) == (300, 330)  # 300 taken, 30 more waiting
    assert (phase.redis_cpu, phase.memory, phase.worker_cpu) == (0.5, 2_000, 3.0)


def test_report_adds_the_cost_of_queueing_and_taking_a_job() -> None:
    queueing = Phase(seconds=10, queued=10_000, finished=0, redis_cpu=1.0, memory=20_000_000,
                     worker_cpu=0)  # fmt: skip
    taking = Phase(seconds=10, queued=-2_000, finished=2_000, redis_cpu=1.8,
                   memory=10_000_000, worker_cpu=10.0)  # fmt: skip
    both = Phase(seconds=10, queued=1_500, finished=1_500, redis_cpu=1.5, memory=0,
                 worker_cpu=8.0)  # fmt: skip
    lines = report(queueing, taking, both)
    assert lines[0] == (
        "queueing alone: 1000 jobs/s queued; redis 100.0 us cpu/job, 2000 bytes/job waiting"
    )
    assert lines[1] == (
        "taking alone:   200 jobs/s finished; redis 900.0 us cpu/job; workers 5000.0 us cpu/job"
    )
    assert lines[2] == "both at once:   150 jobs/s finished, 150 queued; redis busy 15% of one core"
    # 100 + 900 us a job: a whole core carries 1,000 jobs/s; 2,000 + 5,000 bytes kept.
    assert lines[3] == (
        "per job (queue + take): redis 1000.0 us cpu, so one queue Redis at a whole core "
        "carries at most 1000 jobs/s; 7000 bytes kept per finished job for its "
        f"{RESULT_TTL} s of results"
    )
    assert len(lines) == 4


def test_report_says_when_too_few_jobs_finished() -> None:
    idle = Phase(seconds=10, queued=0, finished=0, redis_cpu=0.01, memory=0, worker_cpu=0)
    lines = report(idle, idle, idle)
    assert lines[-1].startswith("too few jobs finished")


def test_the_job_does_nothing_but_answer() -> None:
    assert noop("g", 3, recovery=1) == {"game": "g", "version": 3, "played": None}
