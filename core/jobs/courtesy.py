"""Long thinking gives way to quick turns on the same machine. Each worker process has a
slot in a small board shared through memory (a file in /dev/shm named after the queue
Redis): a quick turn marks its slot busy while it runs, and when it ended. A search that
can wait (the long lane's, a hint's, a match's) pauses between iterations while another
slot is busy, and for a few seconds after a quick turn it runs at most half the time
(`ai.courtesy.wait`). Niceness alone leaves the quick turns, and the API and Redis that
carry them, sharing the cores' other hardware threads and caches with a search that never
stops. docs/internals.md, "Long games give way".
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

#: Worker processes on one machine share this many slots (by process id): a collision
#: only makes one quick turn go unseen by one waiting search.
SLOTS = 64
#: A quick turn marks its slot busy for at most this long (seconds), so a worker killed
#: inside one holds the others back no longer; a longer run of turns is yielded to this
#: long, then shares the cores as before.
LEASE = 0.5
#: How long a waiting search sleeps before it looks again (seconds).
NAP = 0.0005
#: How often a running search reads the board (seconds): a quick turn starting beside it
#: shares the machine for at most this long.
LOOK = 0.0005
#: For this long after a quick turn (seconds), searches that can wait share the machine:
#: after each `SLICE` of running they sleep as long as they ran (at most `MOST_ASLEEP`).
SHARING = 2.0
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
        self._slot = os.getpid() % SLOTS
        self._offset = self._slot * _MARK.size
        #: When this process's search last started running (monotonic), while sharing.
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

    def _mark(self, busy_until: float, ended: float) -> None:
        # Each slot is written by its own process only.
        _MARK.pack_into(self._map, self._offset, busy_until, ended)

    @contextlib.contextmanager
    def quick(self) -> Iterator[None]:
        """Around a quick turn: the searches that can wait, wait."""
        self._mark(time.monotonic() + LEASE, 0.0)
        try:
            yield
        finally:
            self._mark(0.0, time.monotonic())

    def others(self) -> tuple[float, float]:
        """Until when a process is in a quick turn, and when the latest quick turn ended
        (this process's own among them: a worker that plays both has people beside it)."""
        marks = _BOARD.unpack_from(self._map)
        return max(marks[0::2]), max(marks[1::2])

    def wait(self) -> None:
        """Return once no other process is in a quick turn (at most `LEASE` after one
        started), having slept as long as the search ran if one ended lately. Looks at
        the board once in `LOOK` seconds: the searches call it every few iterations."""
        now = time.monotonic()
        if now < self._next_look:
            return
        self._next_look = now + LOOK
        busy, ended = self.others()
        if busy > now:
            while busy > now:
                time.sleep(min(NAP, busy - now))
                busy, ended = self.others()
                now = time.monotonic()
            self._running_since = now
            return
        if now - ended >= SHARING:
            self._running_since = None
            return
        since = self._running_since
        if since is None:
            self._running_since = now
        elif now - since >= SLICE:
            time.sleep(min(now - since, MOST_ASLEEP))
            self._running_since = time.monotonic()
