"""Long thinking gives way to quick turns on the same machine (core.jobs.courtesy): the
board the API and a worker mark around a quick turn, and a waiting search held by it until
the turn ends, or until its lease runs out when it was never taken or its worker died."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import redis
from flask.testing import FlaskClient

from core.jobs.courtesy import LEASE, MOST_ASLEEP, Board, board_path, move_name, turn_name
from tests.service.helpers import bearer, create_game, humans, move, tokens_of
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
    assert board.marks()[1] >= before  # a quick turn ended since the game was made


def test_a_persons_move_marks_the_machines_board_while_it_is_written(
    client: FlaskClient, connection: redis.Redis
) -> None:
    board = Board(board_path(connection))
    created = create_game(client, humans(3), {"schedule": [1]})
    game_id, tokens = created["id"], tokens_of(created)
    seat = client.get(f"/api/v1/games/{game_id}").json["turn"]
    mine = client.get(f"/api/v1/games/{game_id}", headers=bearer(tokens[seat])).json
    before = time.monotonic()
    assert move(client, game_id, tokens[seat], mine["you"]["legal"][0]).status_code == 200
    busy, ended = board.marks_of(move_name(game_id))
    assert before <= ended <= time.monotonic()  # marked, and ended with the request
    assert busy - ended < LEASE  # not left to its lease


def test_a_search_sleeps_through_a_quick_turn_beside_it(tmp_path: Path) -> None:
    path = tmp_path / "board"
    quick, search = Board(path), Board(path)
    marked, release = threading.Event(), threading.Event()
    released_at: list[float] = []
    started_at: list[float] = []

    def turn() -> None:
        with quick.quick(turn_name("g", 1)):
            marked.set()
            release.wait(scaled(LONG))
            released_at.append(time.monotonic())

    def wait() -> None:
        started_at.append(time.monotonic())
        search.wait()

    thread = threading.Thread(target=turn)
    thread.start()
    assert marked.wait(scaled(LONG))
    waiter = threading.Thread(target=wait)
    waiter.start()
    # Time for the search to start waiting; it must return after the release either way,
    # or once it has slept what it may (it has run freely: MOST_ASLEEP).
    time.sleep(0.005)
    release.set()
    waiter.join(scaled(LONG))
    returned_at = time.monotonic()
    thread.join(scaled(LONG))
    assert not waiter.is_alive()
    assert returned_at >= min(released_at[0], started_at[0] + MOST_ASLEEP)


def test_a_turn_handed_over_and_never_ended_holds_a_search_for_its_lease_only(
    tmp_path: Path,
) -> None:
    path = tmp_path / "board"
    api, search = Board(path), Board(path)
    api.handed_over(turn_name("g", 1))  # never taken, or its worker killed inside it
    marked_at = time.monotonic()
    slept = 0.0
    while time.monotonic() < marked_at + LEASE:
        started = time.monotonic()
        search.wait()
        slept += time.monotonic() - started
        search._next_look = 0.0  # as a search a look's time later
    # It slept, and on no more than it ran: at most half the lease, give or take a nap.
    assert slept > 0.0
    busy, _ = search.marks()
    assert busy <= time.monotonic()


def test_a_search_on_a_machine_full_of_quick_turns_still_runs(tmp_path: Path) -> None:
    path = tmp_path / "board"
    workers, search = Board(path), Board(path)
    workers._mark(turn_name("g", 1), time.monotonic() + 3600, 0.0)  # busy for an hour
    waiter = threading.Thread(target=search.wait)
    waiter.start()
    waiter.join(scaled(LONG))  # it sleeps what it ran, never the hour
    assert not waiter.is_alive()
