"""Long thinking gives way to quick turns on the same machine. The API and the workers of
one machine share a small board in memory (a file in /dev/shm named after the queue
Redis) with a slot per turn (by a hash of its game and version): the API marks a person's
move busy while it writes it and a quick turn when it hands it over, the worker when it
takes it, and the worker writes when it ended. A search that can wait (the long lane's, a
hint's, a match's) sleeps through a busy turn, and for a few seconds after one ended runs
at most half the time, sleeping as long as it ran (`ai.courtesy.wait`): on a machine full
of quick turns it still gets half its time.
Niceness alone leaves the turn, and the API and Redis that carry it, sharing the cores'
other hardware threads and caches with a search that never stops. docs/internals.md,
"Long games give way".
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import mmap
import os
import struct
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import redis

log = logging.getLogger(__name__)

#: The turns of one machine share this many slots: two turns in one slot only end the
#: first one's mark early.
SLOTS = 64
#: A quick turn marks its slot busy for at most this long (seconds), so a turn handed over
#: but never taken, or a worker killed inside one, holds the searches no longer.
LEASE = 0.5
#: How long a waiting search sleeps before it looks again (seconds).
NAP = 0.0005
#: How often a running search reads the board (seconds): a quick turn starting beside it
#: shares the machine for at most this long.
LOOK = 0.0001
#: For this long after a quick turn (seconds), searches that can wait share the machine:
#: after each `SLICE` of running, or as soon as a turn is busy, they sleep as long as they
#: ran since they last slept (at most `MOST_ASLEEP`).
SHARING = 2.0
#: A quick turn stays busy this long after it ended (seconds): its events still have to
#: reach the people, through the API's streams on the same machine.
DELIVERY = 0.002
SLICE = 0.002
MOST_ASLEEP = 0.02

#: Per slot: until when its process is in a quick turn (0: it is not), and when its last
#: quick turn ended (monotonic seconds, the machine's clock every process shares).
_BOARD = struct.Struct(f"{2 * SLOTS}d")
_MARK = struct.Struct("2d")


def board_path(connection: redis.Redis) -> Path:
    """The board of the workers of the queue Redis `connection`, on this machine."""
    kwargs = connection.connection_pool.connection_kwargs
    where = f"{kwargs.get('path') or kwargs.get('host')}:{kwargs.get('port')}/{kwargs.get('db')}"
    name = f"pocha-turns-{hashlib.blake2b(where.encode(), digest_size=8).hexdigest()}"
    shared = Path("/dev/shm")
    return (shared if shared.is_dir() else Path(tempfile.gettempdir())) / name


def slot_of(turn: str) -> int:
    """The slot of a turn (its game's id and version, `turn_name`)."""
    return int.from_bytes(hashlib.blake2b(turn.encode(), digest_size=4).digest()) % SLOTS


def turn_name(game_id: str, version: int) -> str:
    return f"{game_id}:{version}"


def move_name(game_id: str) -> str:
    """The slot name of a person's move being checked and written in game `game_id`."""
    return f"{game_id}:move"


class Board:
    """This process's view of the machine's board."""

    def __init__(self, path: Path) -> None:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            if os.fstat(fd).st_size < _BOARD.size:
                os.ftruncate(fd, _BOARD.size)
            self._map = mmap.mmap(fd, _BOARD.size)
        finally:
            os.close(fd)
        #: When this process's search last woke (monotonic), while sharing; None: it has
        #: run freely.
        self._running_since: float | None = None
        #: When `wait` next reads the board (monotonic).
        self._next_look = 0.0

    @classmethod
    def open(cls, connection: redis.Redis) -> Board | None:
        """The board of `connection`'s workers, or None (logged) where it cannot be made."""
        path = board_path(connection)
        try:
            return cls(path)
        except OSError as exc:
            log.warning("no shared board at %s (%s): long thinking will not give way", path, exc)
            return None

    def _mark(self, turn: str, busy_until: float, ended: float) -> None:
        _MARK.pack_into(self._map, slot_of(turn) * _MARK.size, busy_until, ended)

    def handed_over(self, turn: str) -> None:
        """The API handed a quick turn to the workers: busy until a worker ends it."""
        self._mark(turn, time.monotonic() + LEASE, 0.0)

    @contextlib.contextmanager
    def quick(self, turn: str) -> Iterator[None]:
        """Around a worker's quick turn: the searches that can wait, wait."""
        self._mark(turn, time.monotonic() + LEASE, 0.0)
        try:
            yield
        finally:
            now = time.monotonic()
            self._mark(turn, now + DELIVERY, now)

    def marks_of(self, turn: str) -> tuple[float, float]:
        """Until when `turn`'s slot is busy, and when its latest quick turn ended."""
        busy, ended = _MARK.unpack_from(self._map, slot_of(turn) * _MARK.size)
        return busy, ended

    def marks(self) -> tuple[float, float]:
        """Until when a quick turn is busy, and when the latest one ended (monotonic)."""
        marks = _BOARD.unpack_from(self._map)
        return max(marks[0::2]), max(marks[1::2])

    def wait(self) -> None:
        """Sleep through a busy quick turn, or share the time after one ended, on what this
        search ran since it last slept. Reads the board once in `LOOK` seconds: the
        searches call it every few iterations."""
        now = time.monotonic()
        if now < self._next_look:
            return
        self._next_look = now + LOOK
        busy, ended = self.marks()
        if busy <= now and now - ended >= SHARING:
            self._running_since = None
            return
        since = self._running_since
        if since is None:  # it ran freely before: a whole nap's worth
            since = now - MOST_ASLEEP
            self._running_since = now
        if busy > now:
            end = now + min(now - since, MOST_ASLEEP)
            while busy > now and now < end:
                time.sleep(min(NAP, busy - now, end - now))
                busy = self.marks()[0]
                now = time.monotonic()
            self._running_since = now
        elif now - since >= SLICE:
            time.sleep(min(now - since, MOST_ASLEEP))
            self._running_since = time.monotonic()
