"""The workers forget accounts not in use by themselves: real `pocha worker` processes, one
of which takes a step of the idle sweep each minute (the first at its start), forget an
account unused for longer than the idle days and leave one seen since."""

from __future__ import annotations

import time

import redis

from core.store import accounts
from core.store.keys import ACCOUNTS_SWEEP_DUE
from tests.waiting import LONG
from tests.worker.conftest import WorkerProcesses, wait_until

DAYS = 86_400.0


def test_the_workers_forget_an_unused_account(
    connection: redis.Redis, workers: WorkerProcesses
) -> None:
    long_ago = time.time() - 40 * DAYS
    _key, idle = accounts.create(connection, "Dormido", "person", now=long_ago)
    _key, seen = accounts.create(connection, "Despierto", "person", now=long_ago)
    accounts.note_seen(connection, seen.id)
    workers.start(POCHA_ACCOUNT_IDLE_DAYS="30")
    wait_until(lambda: accounts.get(connection, idle.id) is None, LONG, "the idle account gone")
    assert accounts.get(connection, seen.id) is not None
    # The step is taken once a minute between the workers: the mark says when the next is.
    assert 0 < connection.ttl(ACCOUNTS_SWEEP_DUE) <= accounts.SWEEP_EVERY
