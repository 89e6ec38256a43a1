"""Running many independent jobs (games, self-play chunks) on all cores.

The arenas, the OpenSpiel match and both trainings play jobs that share
nothing: ``on_cores`` runs a function over them in this process when one
process is asked for (or there is one job), else in a pool of spawned
processes, and yields each result as it comes with a progress callback.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

Job = TypeVar("Job")
Result = TypeVar("Result")


def on_cores(
    run: Callable[[Job], Result],
    jobs: Sequence[Job],
    processes: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    ordered: bool = True,
    chunksize: int = 1,
) -> Iterator[Result]:
    """``run`` over ``jobs`` on ``processes`` processes (default: all cores), each
    result as it is done; in the jobs' order when ``ordered``, else as they finish.
    ``progress(done, total)`` is called after each."""
    processes = processes or multiprocessing.cpu_count()
    total = len(jobs)
    if processes <= 1 or total == 1:
        for done, job in enumerate(jobs, 1):
            result = run(job)
            if progress:
                progress(done, total)
            yield result
        return
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        mapped = pool.imap if ordered else pool.imap_unordered
        for done, result in enumerate(mapped(run, jobs, chunksize), 1):
            if progress:
                progress(done, total)
            yield result
