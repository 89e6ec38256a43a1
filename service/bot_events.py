"""An account's event stream (`GET /api/v1/bot/events`): one Server-Sent-Events stream for
all the games it sits in with its key and its challenges. It first says what is pending
(each game, the turns waiting for it, the open challenges), then each change as it comes:
woken through Redis pub/sub by the changes of its games and by its account's channel, on
the hub, the slots and the keepalives the games' streams use (`service.events`). An
account holds one stream: a new one replaces the one before, which ends with `event:
replaced`; it ends with `event: closed` as soon as its key is replaced or its account
disabled (both said on the account's channel, which wakes it).
How it works: docs/bots-api.md, "Stream bots".
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import orjson
import redis

from core.errors import REDIS_DOWN, AccountDisabled, GameNotFound, UnknownAccount
from core.store import challenges
from core.store.accounts import Account
from core.store.bot_games import forget_game, games_of, tell
from core.store.keys import account_channel, account_key, account_stream_key
from core.store.records import StoredGame
from engine.registry import kind_of
from service.events import RETRY_MS, UNCOUNTED, EventStream, EventStreams, Follower, Slot

log = logging.getLogger(__name__)

#: What the account channel says when a new stream of the account takes over.
REPLACED = "replaced"

# KEYS: the account's stream key, the account's hash. ARGV: this stream's id, its lease
# (seconds), the hash of the key it was opened with, and "take" to take the account's
# stream (else to keep it). 1 and the lease taken or renewed while the stream is the
# account's; 0 once another replaced it; -1 once that key was replaced; -2 once the account
# was disabled. The key is looked at in the step that takes the stream: a stream whose key
# was checked just before it was replaced takes nothing from the new key's.
_HOLD_LUA = """
local account = redis.call('HMGET', KEYS[2], 'key_hash', 'disabled')
if account[1] ~= ARGV[3] then return -1 end
if account[2] == '1' then return -2 end
if ARGV[4] == 'take' then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
  return 1
end
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('EXPIRE', KEYS[1], ARGV[2])
return 1
"""

# KEYS: the account's stream key. ARGV: this stream's id. Lets the key go if still its own.
_LET_GO_LUA = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0
"""


def message(event: dict[str, object]) -> bytes:
    return b"data: %s\n\n" % orjson.dumps(event)


class Replaced(Exception):
    """Another stream of the account took over."""


class Closed(Exception):
    """The key the stream was opened with opens the account no more, or the account was
    disabled: `reason` says which (`key_replaced`, `account_disabled`)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


#: Why a stream was closed, by what the look at its account answered.
_CLOSED = {-1: "key_replaced", -2: "account_disabled"}


@dataclass
class _Game:
    watch: Follower
    started: bool = False
    #: The version whose turn was last said (0: none yet).
    turn_version: int = 0


class BotStream:
    """One account's stream: what it has said of each game and challenge, and what changed
    since (marked by the hub's listener, read by the stream)."""

    def __init__(
        self, streams: EventStreams, connection: redis.Redis, account: Account,
        client: socket.socket | None, slot: Slot,
    ) -> None:  # fmt: skip
        self.streams = streams
        self.connection = connection
        self.account = account
        self.slot = slot
        self.id = secrets.token_hex(8)
        self.lease = int(streams.slots.lease)
        self._lock = threading.Lock()
        self._inbox = True
        self._dirty: set[str] = set()
        self.games: dict[str, _Game] = {}
        self.said: dict[str, tuple[str, int]] = {}
        # Taken before it listens, and told after: the stream before ends on hearing it.
        taken = self._hold("take")
        if taken == -1:
            raise UnknownAccount()
        if taken == -2:
            raise AccountDisabled()
        tell(connection, account.id, REPLACED)
        self.main = streams.hub.watch(account_channel(account.id), self._inbox_changed, client)

    # -- wake-ups, from the hub's listener -------------------------------------------------

    def _inbox_changed(self) -> None:
        with self._lock:
            self._inbox = True

    def _game_changed(self, game_id: str) -> None:
        with self._lock:
            self._dirty.add(game_id)
        self.main.wake()

    # -- what to say ------------------------------------------------------------------------

    def _hold(self, how: str) -> Any:
        """Take ("take") or keep ("keep") the account's stream: `_HOLD_LUA`'s answer."""
        return self.connection.eval(
            _HOLD_LUA, 2, account_stream_key(self.account.id), account_key(self.account.id),
            self.id, self.lease, self.account.key_hash, how,
        )  # fmt: skip

    def _still_mine(self) -> bool:
        """Whether the stream is still the account's (`Closed` once its key or its
        account is no longer good)."""
        found = self._hold("keep")
        if found in _CLOSED:
            raise Closed(_CLOSED[found])
        return bool(found)

    def news(self) -> list[bytes]:
        """What changed since the last call, as SSE messages (`Replaced` once another
        stream of the account holds it, `Closed` once its key or account is no longer
        good)."""
        with self._lock:
            inbox, dirty = self._inbox, self._dirty
            self._inbox, self._dirty = False, set()
        said: list[bytes] = []
        if inbox:
            if not self._still_mine():
                raise Replaced()
            for game_id in games_of(self.connection, self.account.id):
                if game_id not in self.games:
                    watch = self.streams.hub.watch_game(
                        game_id,
                        lambda g=game_id: self._game_changed(g),  # type: ignore[misc]
                    )
                    self.games[game_id] = _Game(watch)
                    dirty.add(game_id)
            said += self._challenges()
        for game_id in sorted(dirty):
            said += self._game(game_id)
        return said

    def _challenges(self) -> list[bytes]:
        said = []
        for challenge in challenges.of_account(self.connection, self.account.id):
            now = (challenge.status, len(challenge.accepted))
            before = self.said.get(challenge.id)
            self.said[challenge.id] = now
            # On connecting, only the open ones are news.
            if before == now or (before is None and challenge.status != "open"):
                continue
            said.append(message({"type": "challenge", "challenge": challenge.public()}))
        return said

    def _forget(self, game_id: str) -> None:
        game = self.games.pop(game_id, None)
        if game is not None:
            self.streams.hub.leave(game.watch)
        forget_game(self.connection, self.account.id, game_id)

    def _game(self, game_id: str) -> list[bytes]:
        game = self.games.get(game_id)
        if game is None:
            return []
        try:
            record = self.streams.store.load(game_id, history=False)
        except GameNotFound:
            self._forget(game_id)
            return []
        seat = _seat_of(record, self.account.id)
        if seat is None:
            self._forget(game_id)
            return []
        said = []
        about = {"game_id": game_id, "game": kind_of(record.game).name, "seat": seat}
        if not game.started and not record.waiting:
            game.started = True
            said.append(message({"type": "game_started", **about, "rated": record.table.rated}))
        if record.finished:
            said.append(message({"type": "game_finished", **about, "version": record.version}))
            self._forget(game_id)
        elif (
            not record.waiting
            and record.game.turn == seat
            and not record.seats[seat].stood_in
            and game.turn_version != record.version
        ):
            game.turn_version = record.version
            said.append(message({"type": "your_turn", **about, "version": record.version}))
        return said

    # -- the stream -------------------------------------------------------------------------

    def chunks(self) -> Iterator[bytes]:
        yield b"retry: %d\n\n" % RETRY_MS
        streams = self.streams
        deadline = time.monotonic() + streams.max_seconds
        renewed = time.monotonic()
        while True:
            if time.monotonic() - renewed >= streams.keepalive_seconds:
                self.slot.renew()
                renewed = time.monotonic()
            try:
                said = self.news()
            except Replaced:
                yield b'event: replaced\ndata: {"type": "replaced"}\n\n'
                return
            except Closed as closed:
                yield b"event: closed\n" + message({"type": "closed", "reason": closed.reason})
                return
            except REDIS_DOWN as exc:
                log.warning("event stream of account %s ended: Redis (%s)", self.account.id,
                            type(exc).__name__)  # fmt: skip
                return
            yield from said
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return
                woken = self.main.wait(min(streams.keepalive_seconds, remaining))
                if self.main.client_left() or streams.hub.closing:
                    return
                if woken:
                    break
                if time.monotonic() < deadline:
                    self.slot.renew()
                    renewed = time.monotonic()
                    # Challenges expire with no change to tell: looked at each keepalive.
                    self._inbox_changed()
                    yield b": keepalive\n\n"
                    break

    def release(self) -> None:
        self.streams.hub.leave(self.main)
        for game in list(self.games.values()):
            self.streams.hub.leave(game.watch)
        self.games.clear()
        self.slot.give_back()
        with contextlib.suppress(*REDIS_DOWN):
            self.connection.eval(_LET_GO_LUA, 1, account_stream_key(self.account.id), self.id)


def _seat_of(record: StoredGame, account_id: str) -> int | None:
    """The seat the account plays with its key in `record` (not one a webhook plays)."""
    for i, seat in enumerate(record.seats):
        if seat.account == account_id and not seat.webhook and not seat.open:
            return i
    return None


def open_stream(
    streams: EventStreams, connection: redis.Redis, account: Account, address: str | None,
    client: socket.socket | None,
) -> EventStream:  # fmt: skip
    """The account's stream, for a client at `address` (None: not counted) on `client`.
    Raises `TooManyStreams` over the address's cap, `UnknownAccount` or `AccountDisabled`
    when the key `account` was found by was replaced or the account disabled since,
    Redis's errors when it does not answer."""
    slot = streams.slots.take(address) if address else UNCOUNTED
    try:
        stream = BotStream(streams, connection, account, client, slot)
    except BaseException:
        slot.give_back()
        raise
    return EventStream(stream.chunks(), stream.release)
