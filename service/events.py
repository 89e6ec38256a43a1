"""A game's events as Server-Sent Events: the backlog, then each new event as it lands.
How it works: docs/internals.md, `service.events`.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import socket
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from typing import Any

import orjson
import redis

from core.errors import REDIS_DOWN, GameNotFound, ServiceError
from core.store.keys import changes_channel, stream_slots_key
from core.store.redises import is_cluster
from core.store.store import GameStore
from engine.i18n import ngettext

log = logging.getLogger(__name__)

#: Where `create_app` keeps the app's `EventStreams`, in `app.extensions`.
EXTENSION = "pocha_events"
#: How long a disconnected EventSource waits before reconnecting (ms).
RETRY_MS = 1000
#: The hub's longest wait on Redis before it looks again (seconds).
LISTEN_SECONDS = 5.0
#: A hub whose process follows no game this long lets its connection go (seconds).
IDLE_SECONDS = 30.0
#: Pauses between the hub's tries to reach Redis again (seconds), growing up to the last.
RECONNECT_PAUSES = (0.1, 0.2, 0.5, 1.0, 2.0)
#: A stream's slot lapses this long after its last renewal was due (seconds): room for a
#: busy process's late keepalive.
SLOT_MARGIN_SECONDS = 10


def sse_message(raw_event: bytes) -> tuple[bytes, int, bool]:
    """The SSE message of a stored event, its seq, and whether it ends the game."""
    event = orjson.loads(raw_event)
    message = b"id: %d\ndata: %s\n\n" % (event["seq"], raw_event)
    return message, int(event["seq"]), event.get("type") == "game_over"


class TooManyStreams(ServiceError):
    status = 429
    error = "too_many_streams"

    def __init__(self, cap: int, retry_after: int) -> None:
        super().__init__(
            ngettext(
                "Your address already follows {n} event stream, the most it may: close it "
                "(or follow the game by polling GET .../events?after=N) and try again.",
                "Your address already follows {n} event streams, the most it may: close "
                "one (or follow the game by polling GET .../events?after=N) and try again.",
                cap,
            )
        )
        self.retry_after = retry_after


# -- one game's events, shared by the streams that follow it in this process ----------------


class Feed:
    """A game's new events as this process last read them, for every stream following it.

    `announce()` (from the hub) says the game changed; the next `after()` then reads what
    is new from Redis, once, under a lock, while the others wait for it and take the same
    events. Only the events some follower has not sent yet are kept."""

    def __init__(self, store: GameStore, game_id: str, channel: bytes) -> None:
        self.store = store
        self.game_id = game_id
        self.channel = channel
        self.followers: set[Follower] = set()
        self._lock = threading.Lock()
        # Changes announced so far, and how many of them the kept events include.
        self._announced = 0
        self._read: int | None = None
        # The events kept: those with seq in (_first, _first + len(_events)].
        self._first = 0
        self._events: list[bytes] = []
        self._gone = False

    def announce(self) -> None:
        self._announced += 1
        for follower in list(self.followers):
            follower.wake()

    def after(self, seq: int) -> list[bytes]:
        """The game's events with `seq` above `seq`; `GameNotFound` once it is gone."""
        with self._lock:
            if self._gone:
                raise GameNotFound(self.game_id)
            if self._read != self._announced:
                announced = self._announced
                if self._read is None:
                    self._first = seq
                try:
                    fresh = self.store.events_json(self.game_id, self._first + len(self._events))
                except GameNotFound:
                    self._gone = True
                    raise
                self._events.extend(fresh)
                self._read = announced
                self._forget_sent()
            if seq >= self._first:
                return self._events[seq - self._first :]
        # A stream resuming from further back than this process keeps: its own read.
        return self.store.events_json(self.game_id, seq)

    def _forget_sent(self) -> None:
        end = self._first + len(self._events)
        low = min(min((f.last for f in list(self.followers)), default=self._first), end)
        if low > self._first:
            del self._events[: low - self._first]
            self._first = low


class Follower:
    """One stream's place in its game's feed, and what wakes it: a change of the game, or
    its client's socket turning readable (which for an event stream means it closed)."""

    def __init__(self, feed: Feed, after: int, client: socket.socket | None) -> None:
        self.feed = feed
        self.last = after
        self.client = client
        self._woken = threading.Event()
        self._readable = False
        self._stop_watch: Callable[[], None] | None = None
        self._watched = False
        if client is not None:
            self._watch(client)

    def _watch(self, client: socket.socket) -> None:
        self._readable = False
        self._stop_watch = _when_readable(client, self._on_readable)
        self._watched = self._stop_watch is not None

    def wake(self) -> None:
        self._woken.set()

    def _on_readable(self) -> None:
        self._readable = True
        self._woken.set()

    def wait(self, timeout: float) -> bool:
        """Wait until woken or `timeout` seconds pass; whether it was woken."""
        woken = self._woken.wait(timeout)
        # Cleared before the caller reads: a change announced from here on counts in that
        # read (the feed counts announcements before waking) or wakes the next wait.
        self._woken.clear()
        return woken

    def client_left(self) -> bool:
        """Whether the client closed its connection. Under gevent the socket is watched and
        looked at only once readable; otherwise it is looked at each time (one syscall)."""
        if self.client is None or (self._watched and not self._readable):
            return False
        sent = _peek(self.client)
        if sent == b"":
            return True
        if sent is None:
            if self._watched:
                self._watch(self.client)  # woken for nothing: watch again
            return False
        # Bytes after the request (a pipelined one): nothing more to watch for.
        self.stop_watching()
        return False

    def stop_watching(self) -> None:
        if self._stop_watch is not None:
            self._stop_watch()
            self._stop_watch = None
        self._watched = self._readable = False
        self.client = None


class Watch(Follower):
    """A channel followed for its wake-ups alone (an account's stream follows its games and
    its own channel so): it reads no events, so a feed keeps none for it, and each change
    calls `waker` before waking it."""

    def __init__(self, feed: Feed, waker: Callable[[], None], client: socket.socket | None) -> None:
        super().__init__(feed, sys.maxsize, client)
        self._waker = waker

    def wake(self) -> None:
        self._waker()
        super().wake()


def _gevent_patched() -> bool:
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and bool(monkey.is_module_patched("socket"))


def _when_readable(sock: socket.socket, callback: Callable[[], None]) -> Callable[[], None] | None:
    """Call `callback` once when `sock` turns readable, from gevent's loop, with no
    greenlet or thread waiting on it; the function that stops watching. None when the
    server is not gevent's (the socket is then looked at on each wake-up)."""
    if not _gevent_patched():
        return None
    from gevent import get_hub

    watcher = get_hub().loop.io(sock.fileno(), 1)

    def fire() -> None:
        watcher.stop()
        callback()

    watcher.start(fire)
    return watcher.close  # type: ignore[no-any-return]


def _peek(sock: socket.socket) -> bytes | None:
    """The next byte the client sent, without taking it off the socket or blocking: b""
    once the client has closed (or reset) the connection, None while nothing is there."""
    timeout = sock.gettimeout()
    try:
        sock.settimeout(0.0)
        return sock.recv(1, socket.MSG_PEEK)
    except BlockingIOError:
        return None
    except OSError:
        return b""
    finally:
        with contextlib.suppress(OSError):
            sock.settimeout(timeout)


# -- the process's one pub/sub connection -----------------------------------------------


class ChangeHub:
    """This process's pub/sub connection to Redis and the feeds of the games its streams
    follow: a game's channel is subscribed while one of its streams is open here, and a
    listener (a greenlet under gevent, else a thread) announces each change to its feed.

    The listener starts with the first stream of the process (so never in gunicorn's
    master, which only builds the app) and ends with its connection after `IDLE_SECONDS`
    with no stream. When Redis goes away it tries again with growing pauses, and once back
    (redis-py subscribes every channel again) it announces a change to every feed, so each
    stream reads whatever it missed."""

    def __init__(self, client: redis.Redis, store: GameStore) -> None:
        self._client = client
        self._store = store
        self._lock = threading.Lock()
        self._feeds: dict[bytes, Feed] = {}
        self._pubsub: Any = None
        self._pid = 0
        self.closing = False
        _HUBS.add(self)

    def follow(self, game_id: str, after: int, client: socket.socket | None) -> Follower:
        """A new stream of `game_id` from `after` on; its client's socket when known.
        Raises Redis's error when the subscription cannot be made."""
        return self._join(
            changes_channel(game_id), game_id, lambda feed: Follower(feed, after, client)
        )

    def watch(
        self, channel: str, waker: Callable[[], None], client: socket.socket | None = None
    ) -> Follower:
        """Follow `channel` (an account's) for its wake-ups alone: `waker` is called at
        each change, and at each reconnection to Redis (`Watch`)."""
        return self._join(channel, "", lambda feed: Watch(feed, waker, client))

    def watch_game(self, game_id: str, waker: Callable[[], None]) -> Follower:
        """`watch` the changes of `game_id` (its feed is the one its streams read)."""
        return self._join(changes_channel(game_id), game_id, lambda feed: Watch(feed, waker, None))

    def _join(self, name: str, game_id: str, make: Callable[[Feed], Follower]) -> Follower:
        channel = name.encode()
        with self._lock:
            if self._pubsub is None or self._pid != os.getpid():
                # A fork (gunicorn's workers) inherits no listener: start this process's own.
                self._feeds = {}
                self._pubsub = self._client.pubsub()
                self._pid = os.getpid()
                threading.Thread(
                    target=self._listen, args=(self._pubsub,), name="pocha-changes", daemon=True
                ).start()
            feed = self._feeds.get(channel)
            if feed is None:
                feed = Feed(self._store, game_id, channel)
                self._pubsub.subscribe(channel)
                self._feeds[channel] = feed
            follower = make(feed)
            feed.followers.add(follower)
            return follower

    def leave(self, follower: Follower) -> None:
        """The stream has ended: its game's channel is let go once no stream follows it."""
        follower.stop_watching()
        with self._lock:
            feed = follower.feed
            feed.followers.discard(follower)
            if feed.followers or self._feeds.get(feed.channel) is not feed:
                return
            del self._feeds[feed.channel]
            if self._pubsub is not None:
                # Should Redis be away, its reconnection subscribes the channel again and
                # the listener lets it go at its first message.
                with contextlib.suppress(*REDIS_DOWN):
                    self._pubsub.unsubscribe(feed.channel)

    def close_streams(self) -> None:
        """End every stream of this process now (the process is stopping): each ends as
        after `max_seconds`, and its client resumes elsewhere with Last-Event-ID."""
        self.closing = True
        self._announce_all()

    def _announce_all(self) -> None:
        with self._lock:
            feeds = list(self._feeds.values())
        for feed in feeds:
            feed.announce()

    def _listen(self, pubsub: Any) -> None:
        failures = 0
        idle_since = time.monotonic()
        while True:
            try:
                message = pubsub.get_message(timeout=LISTEN_SECONDS)
            except REDIS_DOWN as exc:
                if failures == 0:
                    log.warning("event streams: Redis's change notices lost (%s); "
                                "reconnecting", type(exc).__name__)  # fmt: skip
                # The streams look now: each ends if Redis is still away (its client
                # comes back with Last-Event-ID), or reads what it missed.
                self._announce_all()
                time.sleep(RECONNECT_PAUSES[min(failures, len(RECONNECT_PAUSES) - 1)])
                failures += 1
                if is_cluster(self._client):
                    # Its node may have died: a new connection, until one subscribes.
                    with contextlib.suppress(*REDIS_DOWN):
                        pubsub = self._resubscribed(pubsub)
                continue
            except Exception:
                log.exception("event streams: the change listener failed; going on")
                time.sleep(RECONNECT_PAUSES[-1])
                continue
            if failures:
                log.info("event streams: Redis's change notices are back")
                failures = 0
                self._announce_all()
            if message is not None and message["type"] in ("message", "subscribe"):
                self._dispatch(pubsub, message["channel"])
            with self._lock:
                if self._feeds:
                    idle_since = time.monotonic()
                elif time.monotonic() - idle_since > IDLE_SECONDS:
                    # The next stream of this process starts a new listener.
                    self._pubsub = None
                    with contextlib.suppress(*REDIS_DOWN):
                        pubsub.close()
                    return

    def _resubscribed(self, pubsub: Any) -> Any:
        """A new pub/sub connection in place of `pubsub`, following the same games. On a
        cluster the connection is to one node, which may have died: the new one goes to a
        node that answers now (every node hears every change notice)."""
        with self._lock:
            fresh = self._client.pubsub()
            # What this process follows, or a channel of none: either way the connection
            # is made now, and a node that does not answer raises here.
            fresh.subscribe(*(self._feeds or [b"pocha:streams:listening"]))
            with contextlib.suppress(*REDIS_DOWN):
                pubsub.close()
            self._pubsub = fresh
            return fresh

    def _dispatch(self, pubsub: Any, channel: bytes) -> None:
        feed = self._feeds.get(channel)
        if feed is not None:
            feed.announce()
            return
        with self._lock:
            if channel not in self._feeds:
                with contextlib.suppress(*REDIS_DOWN):
                    pubsub.unsubscribe(channel)


#: Every hub of this process, for `close_all_streams`.
_HUBS: weakref.WeakSet[ChangeHub] = weakref.WeakSet()


def close_all_streams() -> None:
    """End every event stream of this process (gunicorn's worker calls this when told to
    stop, so that open streams do not hold its exit until the graceful timeout)."""
    for hub in list(_HUBS):
        hub.close_streams()


# -- how many streams an address holds ---------------------------------------------------

# KEYS: the address's sorted set. ARGV: the new slot's member, the cap, its lease (seconds).
# Drops lapsed slots, then takes one: {1} when taken, else {0, seconds until the soonest
# lease lapses unless renewed}.
_TAKE_SLOT_LUA = """
local now = redis.call('TIME')
local t = tonumber(now[1]) + tonumber(now[2]) / 1000000
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', t)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  local soonest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, math.ceil(tonumber(soonest[2]) - t)}
end
redis.call('ZADD', KEYS[1], t + tonumber(ARGV[3]), ARGV[1])
redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[3])) + 1)
return {1}
"""

# KEYS: the address's sorted set. ARGV: the slot's member, its lease (seconds). Renews the
# lease of a slot still held (one that lapsed meanwhile is not taken again).
_RENEW_SLOT_LUA = """
local now = redis.call('TIME')
local t = tonumber(now[1]) + tonumber(now[2]) / 1000000
if redis.call('ZADD', KEYS[1], 'XX', 'CH', t + tonumber(ARGV[2]), ARGV[1]) == 1 then
  redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[2])) + 1)
end
return 0
"""


class Slot:
    """One stream's place in its address's count: renewed while it streams, given back
    when it ends."""

    def __init__(self, slots: StreamSlots | None, key: str = "", member: str = "") -> None:
        self._slots = slots
        self._key = key
        self._member = member

    def renew(self) -> None:
        if self._slots is not None:
            with contextlib.suppress(*REDIS_DOWN):  # else it lapses, and the cap forgets it
                self._slots._renew(keys=[self._key], args=[self._member, self._slots.lease])

    def give_back(self) -> None:
        if self._slots is not None:
            with contextlib.suppress(*REDIS_DOWN):  # else it lapses by itself
                self._slots._client.zrem(self._key, self._member)


#: The slot of a stream nobody counts.
UNCOUNTED = Slot(None)


class StreamSlots:
    """The streams each client address holds open, counted in Redis so that every API
    process applies one cap per address. A slot is a lease of `lease` seconds, renewed
    by its stream at every keepalive (`renew_seconds`)."""

    def __init__(self, client: redis.Redis, cap: int, renew_seconds: float) -> None:
        self.cap = cap
        self.lease = renew_seconds + SLOT_MARGIN_SECONDS
        self._client = client
        self._take = client.register_script(_TAKE_SLOT_LUA)
        self._renew = client.register_script(_RENEW_SLOT_LUA)

    def take(self, address: str) -> Slot:
        """A slot for one more stream of `address` (`TooManyStreams` when it holds the cap
        already)."""
        if self.cap <= 0:
            return UNCOUNTED
        key = stream_slots_key(address)
        member = secrets.token_hex(8)
        answer = self._take(keys=[key], args=[member, self.cap, self.lease])
        if not answer[0]:
            raise TooManyStreams(self.cap, max(1, int(answer[1])))
        return Slot(self, key, member)


def _noted(here: Callable[[], None]) -> None:
    """Note a seat's presence; a stream goes on without it if Redis does not answer."""
    with contextlib.suppress(*REDIS_DOWN):
        here()


def _nothing() -> None:
    return None


# -- the stream -----------------------------------------------------------------------


class EventStream:
    """The body of one stream's response: its SSE chunks. Its slot and its place in the
    game's feed are given back when the chunks run out, or at `close()` (which the server
    calls when the response ends however it ends, even unstarted), whichever comes first."""

    def __init__(self, chunks: Iterator[bytes], release: Callable[[], None]) -> None:
        self._chunks = chunks
        self._release: Callable[[], None] | None = release

    def __iter__(self) -> EventStream:
        return self

    def __next__(self) -> bytes:
        try:
            return next(self._chunks)
        except BaseException:
            self._let_go()
            raise

    def close(self) -> None:
        close = getattr(self._chunks, "close", None)
        if close is not None:
            close()
        self._let_go()

    def _let_go(self) -> None:
        if self._release is not None:
            release, self._release = self._release, None
            release()


class EventStreams:
    """Opens event streams: the app's hub, slots and stream settings, in one object."""

    def __init__(
        self,
        client: redis.Redis,
        store: GameStore,
        *,
        max_seconds: float,
        keepalive_seconds: float,
        max_per_address: int,
    ) -> None:
        self.store = store
        self.hub = ChangeHub(client, store)
        self.slots = StreamSlots(client, max_per_address, keepalive_seconds)
        self.max_seconds = max_seconds
        self.keepalive_seconds = keepalive_seconds

    def open(
        self,
        game_id: str,
        after: int,
        address: str | None,
        client: socket.socket | None,
        here: Callable[[], None] | None = None,
        *,
        reset: bool = False,
        finished: bool = False,
    ) -> EventStream:
        """The stream of `game_id`'s events with `seq > after`, then live ones, for a client
        at `address` (None: not counted) on `client` (None: not watched). `here`: called
        when the stream starts and at every keepalive, for a seat that holds it (its
        presence). `reset`: the client had seen more events than the game has: the stream
        starts by telling it so (`event: reset`, with `after` as its id). `finished`: the
        game is over, so the stream ends once it has sent what is left. Raises
        `TooManyStreams` over the cap, Redis's errors when it does not answer."""
        slot = self.slots.take(address) if address else UNCOUNTED
        try:
            follower = self.hub.follow(game_id, after, client)
        except BaseException:
            slot.give_back()
            raise

        def release() -> None:
            self.hub.leave(follower)
            slot.give_back()

        chunks = self._chunks(follower, here or _nothing, slot, reset, finished)
        return EventStream(chunks, release)

    def _chunks(
        self,
        follower: Follower,
        here: Callable[[], None],
        slot: Slot = UNCOUNTED,
        reset: bool = False,
        finished: bool = False,
    ) -> Iterator[bytes]:
        yield b"retry: %d\n\n" % RETRY_MS
        if reset:
            yield b"id: %d\nevent: reset\ndata: {\"last_event\": %d}\n\n" % (
                follower.last, follower.last,
            )  # fmt: skip
        _noted(here)
        deadline = time.monotonic() + self.max_seconds
        renewed = time.monotonic()
        while True:
            if time.monotonic() - renewed >= self.keepalive_seconds:
                # A stream busy with events renews its slot as often as an idle one.
                slot.renew()
                renewed = time.monotonic()
            try:
                backlog = follower.feed.after(follower.last)
            except GameNotFound:
                return
            except REDIS_DOWN as exc:
                log.warning("event stream of %s ended: Redis (%s)", follower.feed.game_id,
                            type(exc).__name__)  # fmt: skip
                return
            for raw in backlog:
                message, follower.last, over = sse_message(raw)
                yield message
                if over:
                    return
            if finished:
                # A game over sends nothing new: what was left is sent.
                return
            # Wait for the next change, a keepalive's worth of silence, or the client to go.
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return
                woken = follower.wait(min(self.keepalive_seconds, remaining))
                if follower.client_left() or self.hub.closing:
                    return
                if woken:
                    break
                if time.monotonic() < deadline:
                    _noted(here)
                    slot.renew()
                    renewed = time.monotonic()
                    yield b": keepalive\n\n"
