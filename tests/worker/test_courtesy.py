"""Long thinking gives way to quick turns on the same machine (core.jobs.courtesy): the
board a worker marks around a quick turn, and a waiting search held by it until the turn
ends, or until its lease runs out when its worker died inside it."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import redis
from flask.testing import FlaskClient

from core.jobs.courtesy import LEASE, Board, board_path
from tests.service.helpers import create_game
from tests.waiting import LONG, scaled
from tests.worker.conftest import Drain


def test_a_workers_quick_turn_marks_the_machines_board(
    client: FlaskClient, connection: redis.Redis, drain: Drain
) -> None:
    board = Board(board_path(connection))
    before = time.monotonic()
    bots = [{"name": f"Bot {s}", "bot": "easy"} for s in range(2)]
    create_game(client, [*bots, {"name": "Ana"}], {"schedule": [1]})
    drain()
    assert board.others()[1] >= before  # a quick turn ended since the game was made


def test_a_search_waits_until_the_quick_turn_beside_it_ends(tmp_path: Path) -> None:
    path = tmp_path / "board"
    quick, search = Board(path), Board(path)
    marked, release = threading.Event(), threading.Event()
    released_at: list[float] = []

    def turn() -> None:
        with quick.quick():
            marked.set()
            release.wait(scaled(LONG))
            released_at.append(time.monotonic())

    thread = threading.Thread(target=turn)
    thread.start()
    assert marked.wait(scaled(LONG))
    waiter = threading.Thread(target=search.wait)
    waiter.start()
    # Time for the search to start waiting; it must return after the release either way.
    time.sleep(0.05)
    release.set()
    waiter.join(scaled(LONG))
    returned_at = time.monotonic()
    thread.join(scaled(LONG))
    assert not waiter.is_alive()
    assert released_at and returned_at >= released_at[0]


def test_a_quick_turn_whose_worker_died_holds_searches_for_its_lease_only(
    tmp_path: Path,
) -> None:
    path = tmp_path / "board"
    dead, search = Board(path), Board(path)
    marked_at = time.monotonic()
    dead._mark(marked_at + LEASE, 0.0)  # as `quick` does, never ended: killed inside it
    search.wait()
    assert time.monotonic() >= marked_at + LEASE
