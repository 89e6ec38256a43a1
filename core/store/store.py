"""Games in Redis: the only code that reads or writes them. A move is read-apply-write with
a Lua compare-and-set on the game's version.
How it works: docs/internals.md, `core.store.store`.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

import orjson
import redis
from hiredis import pack_command
from redis.commands.core import Script
from redis.exceptions import NoScriptError

from core.errors import (
    REDIS_DOWN,
    Conflict,
    GameNotFound,
    NotReplicated,
    NotStarted,
    StaleVersion,
    TableCodeTaken,
)
from core.store import account_records, account_seats
from core.store.keys import (
    LOBBY,
    advice_key,
    changes_channel,
    due_key,
    events_key,
    game_key,
    hash_slot,
    is_game_id,
    listed_by_key,
    move_once_key,
    new_id,
    rated_key,
    table_key,
)
from core.store.ratings import DEFAULT_LIMITS, MARK_EXTRA_SECONDS, Limits, count_game, note_rated
from core.store.records import (
    GAME_FIELDS,
    NO_TABLE,
    AppliedAction,
    CreatedGame,
    OwedTaskMaker,
    Seat,
    StoredGame,
    Table,
    hash_token,
    seen_field,
    with_seat,
)
from core.store.redises import is_cluster, queue_urls_of
from core.store.scripts import (
    APPLY_LUA,
    COUNT_AND_APPLY_LUA,
    COUNT_AND_LOAD_LUA,
    COUNT_ONLY_LUA,
    TOUCH_LUA,
)
from engine.i18n import _
from engine.protocols import Action, Event
from engine.registry import AnyGame, game_from_dict, kind_of

log = logging.getLogger(__name__)

#: A read of the lobby looks at most this many times the tables it shows (`GameStore.lobby`).
LOBBY_READ_FACTOR = 4


#: The errors of a cluster node that no longer serves a slot, or of a cluster failing over:
#: the command is sent again through the cluster client, which learns the new layout.
_RELOCATED = ("MOVED", "ASK", "CLUSTERDOWN", "TRYAGAIN")

#: A person is written down as seen at most this often per seat and process (seconds).
TOUCH_SECONDS = 5.0


class Counter(Protocol):
    """A request's count against one rate limit (see `service.ratelimits`): a key that
    lives `ttl` seconds (the limit's window) and the most counts it allows."""

    @property
    def key(self) -> str: ...
    @property
    def ttl(self) -> int: ...
    @property
    def limit(self) -> int: ...

    def refused(self) -> Exception:
        """The error for a request over the limit."""
        ...


#: Games whose parsed state and seats a store keeps (per process; see `_parsed_state`).
_PARSED_GAMES = 4096


def _counted(
    counters: Sequence[Counter], keys: list[str], args: list[Any]
) -> tuple[list[str], list[Any]]:
    """The keys and arguments of a counting script (see `COUNT_LUA`)."""
    return (
        [*(c.key for c in counters), *keys],
        [len(counters), *(c.ttl for c in counters), *(c.limit for c in counters), *args],
    )


def _check_counts(counters: Sequence[Counter], counts: list[int]) -> None:
    """Raise the error of the first counter over its limit, if any."""
    for counter, count in zip(counters, counts, strict=True):
        if count > counter.limit:
            raise counter.refused()


# Every store of this process, so that a forked child (a gunicorn worker) drops the
# per-thread connections it inherited instead of sharing its parent's sockets.
_STORES: weakref.WeakSet[GameStore] = weakref.WeakSet()


def _after_fork_in_child() -> None:
    for store in list(_STORES):
        store._forget_connections()


os.register_at_fork(after_in_child=_after_fork_in_child)


#: How long a move's Idempotency-Key is remembered (seconds): far longer than any retry.
MOVE_ONCE_TTL = 3600

#: How close to `maxmemory` Redis counts as full: a new game or a move needs some room,
#: and Redis's own figure drops back a little after each write it refuses.
FULL_MARGIN_BYTES = 128 * 1024


def is_full(connection: redis.Redis) -> bool:
    """Whether Redis is at its `maxmemory` (within FULL_MARGIN_BYTES) and, evicting nothing,
    refuses writes (one INFO call: for readiness checks, not for every request)."""
    if is_cluster(connection):
        # Any full primary refuses the games of its slots.
        cluster: Any = connection
        found = cluster.info("memory", target_nodes=cluster.PRIMARIES)
        return any(_full(memory) for memory in found.values())
    return _full(connection.info("memory"))


def _full(memory: dict[str, Any]) -> bool:
    limit = int(memory.get("maxmemory", 0))
    return (
        limit > 0
        and memory.get("maxmemory_policy") == "noeviction"
        and int(memory.get("used_memory", 0)) >= limit - min(FULL_MARGIN_BYTES, limit // 20)
    )


#: What a game's `meta` field holds, parsed: its seats, the host token's hash, when it was
#: made, whether its seed was chosen, its table and who pays for its bots' thinking.
_Meta = tuple[tuple[Seat, ...], str, float, bool, Table, "str | None"]


def _meta_of(record: StoredGame) -> dict[str, Any]:
    """The `meta` field of a game: everything beside its cards that is not counted."""
    meta: dict[str, Any] = {
        "seats": [s.to_dict() for s in record.seats],
        "host_token_hash": record.host_token_hash,
        "created": record.created,
        "seeded": record.seeded,
    }
    if record.table is not NO_TABLE:
        meta["table"] = record.table.to_dict()
    if record.payer is not None:
        meta["payer"] = record.payer
    return meta


@dataclass(frozen=True)
class _Write:
    """A move's write: the apply script's keys and arguments, and what it stores."""

    keys: list[str]
    args: list[Any]
    state: bytes
    total: int
    events: list[dict[str, Any]]
    seats: tuple[Seat, ...]
    table: Table
    deadline: float | None
    #: The new meta as stored, or b"" when the seats and the table are unchanged.
    meta: bytes
    #: When each seat was last seen, with the change.
    seen: tuple[float, ...]


class GameStore:
    """Create, read, change and delete games in one Redis database or a Redis Cluster.

    On a cluster every script's keys share the game's hash slot (`core.store.keys`), except a
    move's rate-limit counts, which are keyed by the client's address: there they are
    taken in a round trip of their own before the move, where one Redis takes them in the
    move's own script. `wait_replicas`: a write returns only once that many replicas have
    it (Redis WAIT, at most `wait_timeout_ms`), else raises `NotReplicated`."""

    def __init__(
        self,
        client: redis.Redis,
        *,
        finished_ttl: int,
        idle_ttl: int,
        wait_replicas: int = 0,
        wait_timeout_ms: int = 500,
        queue_groups: int = 1,
        rating_limits: Limits = DEFAULT_LIMITS,
    ) -> None:
        self.redis = client
        #: The pair cap and provisional time of rated games (`core.store.ratings.Limits`).
        self.rating_limits = rating_limits
        self.clustered = is_cluster(client)
        #: Queue Redises, each listing its tasks apart (`core.store.keys.due_key`).
        self.queue_groups = queue_groups
        self.wait_replicas = wait_replicas
        self.wait_timeout_ms = wait_timeout_ms
        self._local = threading.local()
        _STORES.add(self)
        self.finished_ttl = finished_ttl
        self.idle_ttl = idle_ttl
        self._apply = client.register_script(APPLY_LUA)
        self._count_only = client.register_script(COUNT_ONLY_LUA)
        self._count_and_load = client.register_script(COUNT_AND_LOAD_LUA)
        self._count_and_apply = client.register_script(COUNT_AND_APPLY_LUA)
        self._touch = client.register_script(TOUCH_LUA)
        # game id -> (stored bytes, what they parse to, version, events, deadline).
        self._states: dict[str, tuple[bytes, AnyGame, int, int, float | None]] = {}
        self._metas: dict[str, tuple[bytes, _Meta]] = {}
        # game id -> when each seat was last seen, as last read (for a kept game's view).
        self._seen: dict[str, tuple[float, ...]] = {}
        # (game id, seat) -> when this process last wrote that the seat was seen.
        self._touched: dict[tuple[str, int], float] = {}

    @classmethod
    def from_settings(cls, client: redis.Redis, settings: dict[str, Any]) -> GameStore:
        """The store on `client` with the deployment's TTLs and replica wait (`core.config`)."""
        return cls(
            client,
            finished_ttl=int(settings["FINISHED_TTL"]),
            idle_ttl=int(settings["IDLE_TTL"]),
            wait_replicas=int(settings["WAIT_REPLICAS"]),
            wait_timeout_ms=int(settings["WAIT_TIMEOUT_MS"]),
            queue_groups=max(1, len(queue_urls_of(settings))),
            rating_limits=Limits.from_settings(settings),
        )

    def _connection(self) -> redis.Redis:
        """This thread's own connection, for the two commands of every move: taking a
        connection from the shared pool and giving it back (with its fork and lock checks)
        costs more than the command itself. Threads are few and long-lived (gunicorn's
        pool), so this holds one connection per thread. On a cluster, the cluster client
        (see `_node` for the moves' own connections)."""
        if self.clustered:
            return self.redis
        client: redis.Redis | None = getattr(self._local, "client", None)
        if client is None:
            client = redis.Redis(
                connection_pool=self.redis.connection_pool, single_connection_client=True
            )
            self._local.client = client
        return client

    def _due_key(self, task: str) -> str:
        return due_key(task, self.clustered, self.queue_groups)

    def _node(self, key: str) -> redis.Redis:
        """On a cluster, this thread's own connection to the primary serving `key`'s hash
        slot, as the cluster client last learned it: the cluster client's routing of each
        command (in Python) cost a move more CPU than the rest of its Redis calls."""
        cluster: Any = self.redis
        node = cluster.nodes_manager.get_node_from_slot(hash_slot(key))
        nodes: dict[str, redis.Redis] | None = getattr(self._local, "nodes", None)
        if nodes is None:
            nodes = self._local.nodes = {}
        client = nodes.get(node.name)
        if client is None:
            pool = node.redis_connection.connection_pool
            client = redis.Redis(connection_pool=pool, single_connection_client=True)
            nodes[node.name] = client
        return client

    def _forget_connections(self) -> None:
        self._local = threading.local()

    def _run(
        self, script: Script, keys: list[str], args: list[Any], *, durable: bool = False
    ) -> Any:
        """`script(keys, args)` on this thread's connection, sent straight down it.

        redis-py wraps each command in layers a move pays for twice (a check of deprecated
        arguments, a retry policy, hooks for telemetry, a lock): together they cost more
        CPU than sending the command and parsing its reply. The plain path is taken when
        nothing is wrong; a script Redis does not know yet (a new or flushed server) or a
        broken connection goes through redis-py's own call, which loads the script,
        reconnects and retries as it always does.

        `durable`: a write a player will be told of; with `wait_replicas`, it is not
        returned before that many replicas have it."""
        if self.clustered:
            return self._run_on_node(script, keys, args, durable and bool(self.wait_replicas))
        client = self._connection()
        connection = client.connection
        if connection is not None:
            try:
                connection.send_packed_command([_packed(script, keys, args)])
                result = connection.read_response()
            except NoScriptError:
                result = None
            except (redis.ConnectionError, redis.TimeoutError):
                connection.disconnect()
                result = None
            else:
                if durable and self.wait_replicas and _wrote(result):
                    self._check_replicas(client.execute_command("WAIT", *self._wait_args()))
                return result
        result = script(keys=keys, args=args, client=client)
        if durable and self.wait_replicas and _wrote(result):
            self._check_replicas(client.execute_command("WAIT", *self._wait_args()))
        return result

    def _run_on_node(
        self, script: Script, keys: list[str], args: list[Any], wait: bool = False
    ) -> Any:
        """`script` straight down this thread's connection to the node of its keys' slot
        (then, with `wait`, a WAIT down the same connection); through the cluster client
        (which follows a moved slot, waits out a failover and learns the new layout) when
        that node refuses it or does not answer."""
        node = self._node(keys[-1])
        connection = node.connection
        if connection is not None:
            try:
                try:
                    connection.send_packed_command([_packed(script, keys, args)])
                    result = connection.read_response()
                except NoScriptError:
                    result = script(keys=keys, args=args, client=node)
                if wait and _wrote(result):
                    self._check_replicas(node.execute_command("WAIT", *self._wait_args()))
                return result
            except (redis.ConnectionError, redis.TimeoutError):
                connection.disconnect()
                self._local.nodes = {}
            except redis.ResponseError as exc:
                if not str(exc).startswith(_RELOCATED):
                    raise
        if wait:
            return self._run_replicated_on_cluster(script, keys, args)
        return script(keys=keys, args=args, client=self.redis)

    def _wait_args(self) -> tuple[int, int]:
        return self.wait_replicas, self.wait_timeout_ms

    def _check_replicas(self, acknowledged: Any) -> None:
        if int(acknowledged) < self.wait_replicas:
            raise NotReplicated(
                _(
                    "Your move was recorded, but no replica confirmed it in time: reload the "
                    "game to see whether it stands."
                )
            )

    def _run_replicated_on_cluster(self, script: Script, keys: list[str], args: list[Any]) -> Any:
        """The script and a WAIT down one connection to the node serving the keys' slot:
        WAIT counts the replicas that have the writes of its own connection."""
        cluster: Any = self.redis
        for attempt in range(3):
            node = cluster.get_node_from_key(keys[0])
            pipe = node.redis_connection.pipeline(transaction=False)
            pipe.evalsha(script.sha, len(keys), *keys, *args)
            pipe.execute_command("WAIT", *self._wait_args())
            try:
                result, acknowledged = pipe.execute()
            except NoScriptError:
                node.redis_connection.script_load(script.script)
                continue
            except (redis.ConnectionError, redis.TimeoutError, redis.ResponseError) as exc:
                # The slot moved (a failover, a resharding) or the node is gone: learn the
                # cluster's layout again, then try on the slot's owner now.
                if attempt == 2:
                    raise
                if isinstance(exc, redis.ResponseError) and not str(exc).startswith(_RELOCATED):
                    raise
                cluster.nodes_manager.initialize()
                continue
            if _wrote(result):
                self._check_replicas(acknowledged)
            return result
        return script(keys=keys, args=args, client=cluster)

    def ttl_for(self, game: AnyGame) -> int:
        return self.finished_ttl if game.finished else self.idle_ttl

    # -- create -------------------------------------------------------------------------

    def create(
        self,
        game: AnyGame,
        seats: Sequence[tuple[str, str | None] | Seat],
        *,
        seeded: bool = False,
        owed_task: OwedTaskMaker | None = None,
        table: Table = NO_TABLE,
        host_token: str | None = None,
        payer: str | None = None,
        game_id: str | None = None,
    ) -> CreatedGame:
        """Store a new game whose seats are (name, bot level or None), or `Seat`s as they
        are (an open seat, a rematch's reserved one); make the tokens of the people's seats
        that are taken. `seeded`: its seed was chosen by the creator. `owed_task`: as for
        `apply_action`, when a bot acts first or a clock starts. `table`: a table people
        gather at; with a code, the code is made to find the game (`TableCodeTaken` if
        another game holds it) and, if `listed`, the game goes into the lobby.
        `host_token`: the host's token, made here unless given. `payer`: whose think
        budget its bots spend (`StoredGame.payer`). `game_id`: the id chosen beforehand
        (`new_id`), by one who claimed it elsewhere first."""
        if len(seats) != game.players:
            raise ValueError(f"{len(seats)} seats for a game of {game.players}")
        host_token = host_token or secrets.token_urlsafe(32)
        given = [s if isinstance(s, Seat) else Seat(s[0], s[1]) for s in seats]
        tokens = tuple(None if s.bot or s.open else secrets.token_urlsafe(32) for s in given)
        stored_seats = tuple(
            replace(seat, token_hash=hash_token(token)) if token else seat
            for seat, token in zip(given, tokens, strict=True)
        )
        game_id = game_id or new_id()  # 16 characters, in one of the spread hash slots
        created = time.time()
        record = StoredGame(
            game_id, 1, 1, game, stored_seats, hash_token(host_token), created, seeded, table,
            payer,
        )  # fmt: skip
        meta = _meta_of(record)
        opening = kind_of(game).opening_events(game)
        first = [_dumps(e) for e in _numbered(opening, after=0, version=1)]
        ttl = self.ttl_for(game)
        if table.code is not None and not self.redis.set(
            table_key(table.code), game_id, nx=True, ex=ttl
        ):
            raise TableCodeTaken(table.code)
        record.deadline = record.clock_due(created)
        fields: dict[str, Any] = {
            "state": _dump_state(game),
            "history": _dumps(game.history),
            "meta": _dumps(meta),
            "version": 1,
            "events": len(first),
        }
        if record.deadline is not None:
            fields["clock"] = repr(record.deadline)
        # One transaction on the game's hash slot (its owed task and that task's due set
        # share it); the lobby, another slot on a cluster, lists the table once it exists.
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(game_key(game_id), mapping=fields)  # type: ignore[arg-type]
        pipe.rpush(events_key(game_id), *first)
        pipe.expire(game_key(game_id), ttl)
        pipe.expire(events_key(game_id), ttl)
        owes = record.bot_to_move is not None or record.deadline is not None
        owed = (
            owed_task(game_id, 1, record.deadline, payer, long=record.thinks_long)
            if owed_task and owes
            else None
        )
        if owed is not None:
            pipe.hset(owed.hash_key, mapping=owed.fields)  # type: ignore[arg-type]
            pipe.expire(owed.hash_key, owed.ttl)
            pipe.zadd(self._due_key(owed.member), {owed.member: owed.score})
        pipe.execute()
        if table.rated:
            note_rated(self.redis, game_id, created)
        if table.listed and table.waiting:
            self.redis.zadd(LOBBY, {game_id: created})
        standing = account_seats.note(self.redis, _accounts_of(stored_seats), game_id)
        # Its maker, seated or not, and its seats' accounts: found by a forgetting, and one
        # forgotten since the request read it is taken out at once.
        self._note_record(game_id, stored_seats, table, ttl)
        return CreatedGame(record, host_token, tokens, standing)

    # -- read ---------------------------------------------------------------------------

    def load(
        self,
        game_id: str,
        *,
        history: bool = True,
        counters: Sequence[Counter] = (),
        consume: bool = False,
    ) -> StoredGame:
        """The game with this id, in one round trip; `GameNotFound` if there is none.

        `history=False` leaves the score sheet of finished hands out (`game.history` is
        empty): a move needs only the hand in play, and the sheet, which grows all game,
        was the largest part of reading one. `apply_action` adds a finished hand's record
        to the stored sheet either way.

        `counters`: rate-limit counts to take in the same round trip (a move's); over any
        of their limits, the counter's `refused()` error is raised and nothing is read.
        `consume`: the caller will change the game (a move): it may be given this
        process's parsed copy itself rather than a copy of it (see `_parsed_state`)."""
        fields = [*GAME_FIELDS, "history"] if history else list(GAME_FIELDS)
        known = is_game_id(game_id)
        if counters and not self.clustered:
            # Counted even for an id that names no game: every try counts.
            key = game_key(game_id if known else "-")
            counts, values = self._run(self._count_and_load, *_counted(counters, [key], fields))
            _check_counts(counters, counts)
        elif counters:
            _check_counts(counters, self.count(counters))
            if known:
                values = self._read_fields(game_key(game_id), fields)
        elif known:
            values = self._read_fields(game_key(game_id), fields)
        if not known:
            raise GameNotFound(game_id)
        return self._record(game_id, values, consume)

    def _read_fields(self, key: str, fields: list[str]) -> list[Any]:
        """The hash's `fields`, down this thread's own connection (to the key's node, on a
        cluster; through the cluster client if that node does not serve it any more)."""
        if not self.clustered:
            # Straight down the connection, as `_run` sends a move's script: a view read is
            # this one command, and redis-py's layers around it cost more than it does.
            client = self._connection()
            connection = client.connection
            if connection is not None:
                try:
                    command: tuple[Any, ...] = ("HMGET", key, *fields)
                    connection.send_packed_command([pack_command(command)])
                    values: list[Any] = connection.read_response()
                    return values
                except (redis.ConnectionError, redis.TimeoutError):
                    connection.disconnect()
            return client.hmget(key, fields)
        try:
            return self._node(key).hmget(key, fields)
        except (redis.ConnectionError, redis.TimeoutError):
            self._local.nodes = {}
        except redis.ResponseError as exc:
            if not str(exc).startswith(_RELOCATED):
                raise
        return self.redis.hmget(key, fields)

    def _record(self, game_id: str, values: Sequence[Any], consume: bool) -> StoredGame:
        """The game from its stored `GAME_FIELDS` (and the score sheet after them, if
        read); `GameNotFound` if they are missing."""
        state, meta_raw, version_raw, events_raw, clock = values[:5]
        sheet = values[len(GAME_FIELDS)] if len(values) > len(GAME_FIELDS) else None
        if state is None or meta_raw is None or version_raw is None or events_raw is None:
            raise GameNotFound(game_id)
        version, events = int(version_raw), int(events_raw)
        seats, host_token_hash, created, seeded, table, payer = self._parsed_meta(game_id, meta_raw)
        seen = tuple(float(raw or 0) for raw in values[5 : 5 + len(seats)])
        self._remember(self._seen, game_id, seen)
        deadline = None if clock is None else float(clock)
        return StoredGame(
            id=game_id,
            version=version,
            events=events,
            game=self._parsed_state(game_id, state, sheet, consume, version, events, deadline),
            seats=seats,
            host_token_hash=host_token_hash,
            created=created,
            seeded=seeded,
            table=table,
            payer=payer,
            deadline=deadline,
            seen=seen,
        )

    def take_kept(self, game_id: str) -> StoredGame | None:
        """The game as this process last read or wrote it, taken out of the cache to be
        changed (see `apply_kept`), or None. It may be out of date: another process may
        have changed the game since."""
        entry = self._states.pop(game_id, None)
        meta = self._metas.get(game_id)
        if entry is None or meta is None:
            return None
        _kind, game, version, events, deadline = entry
        return StoredGame(
            game_id, version, events, game, *meta[1], deadline=deadline,
            seen=self._seen.get(game_id, ()),
        )  # fmt: skip

    # A process reads the same games again and again (every move reads its game; a client
    # keeps its connection, so its moves come to the same process). What was parsed last
    # for each game is kept, by the exact bytes it was parsed from: bytes equal to the
    # stored ones are the same game, whatever else has happened, so a hit is never stale.
    # A cached game is handed out as a copy, or, to a caller that is about to change it (a
    # move, whose write caches the result), taken out of the cache itself.

    def _parsed_state(
        self,
        game_id: str,
        state: bytes,
        sheet: bytes | None,
        consume: bool,
        version: int,
        events: int,
        deadline: float | None,
    ) -> AnyGame:
        cached = self._states.get(game_id)
        if cached is not None and cached[0] == state:
            if consume and self._states.pop(game_id, None) is cached:
                game = cached[1]
            else:
                game = cached[1].copy()
                if cached[2:] != (version, events, deadline):
                    # The same game, whose clock or count moved on (`take_kept` hands it out).
                    self._states[game_id] = (state, cached[1], version, events, deadline)
        else:
            game = _load_state(state, None)
            if not consume:  # a move's write keeps the game it makes
                self._remember(
                    self._states, game_id, (state, game.copy(), version, events, deadline)
                )
        if sheet is not None:
            game.history = orjson.loads(sheet)
        return game

    def _parsed_meta(self, game_id: str, raw: bytes) -> _Meta:
        cached = self._metas.get(game_id)
        if cached is not None and cached[0] == raw:
            return cached[1]
        meta = orjson.loads(raw)
        table = meta.get("table")
        parsed = (
            tuple(Seat.from_dict(s) for s in meta["seats"]),
            str(meta["host_token_hash"]),
            float(meta["created"]),
            bool(meta.get("seeded", False)),
            NO_TABLE if table is None else Table.from_dict(table),
            meta.get("payer"),
        )
        self._remember(self._metas, game_id, (raw, parsed))
        return parsed

    @staticmethod
    def _remember(cache: dict[str, Any], game_id: str, entry: Any) -> None:
        if len(cache) >= _PARSED_GAMES and game_id not in cache:
            # Crude but cheap: games in play come straight back.
            cache.clear()
        cache[game_id] = entry

    def count(self, counters: Sequence[Counter]) -> list[int]:
        """Take rate-limit counts alone (for a request that failed before reading a game)."""
        (counts,) = self._run(self._count_only, *_counted(counters, [], []))
        return [int(n) for n in counts]

    def version(self, game_id: str) -> int | None:
        """The game's current version, or None if it does not exist (cheap: one field)."""
        if not is_game_id(game_id):
            return None
        raw = self.redis.hget(game_key(game_id), "version")
        return None if raw is None else int(raw)

    def events_json(self, game_id: str, after: int = 0) -> list[bytes]:
        """The game's events with `seq > after`, as stored (JSON); `GameNotFound` if none."""
        if not is_game_id(game_id):
            raise GameNotFound(game_id)
        pipe = self.redis.pipeline(transaction=False)
        pipe.exists(game_key(game_id))
        pipe.lrange(events_key(game_id), max(after, 0), -1)
        exists, raw = pipe.execute()
        if not exists:
            raise GameNotFound(game_id)
        return list(raw)

    def event_count(self, game_id: str) -> int:
        """How many events the game has (its last `seq`); `GameNotFound` if there is none."""
        if not is_game_id(game_id):
            raise GameNotFound(game_id)
        pipe = self.redis.pipeline(transaction=False)
        pipe.exists(game_key(game_id))
        pipe.llen(events_key(game_id))
        exists, count = pipe.execute()
        if not exists:
            raise GameNotFound(game_id)
        return int(count)

    def events(self, game_id: str, after: int = 0) -> list[dict[str, Any]]:
        """The game's events with `seq > after`, decoded."""
        return [orjson.loads(e) for e in self.events_json(game_id, after)]

    def advice(self, game_id: str) -> list[dict[str, Any]]:
        """What the bots thought at their decisions (`apply_action`'s `advice`, each with
        the `seq` of its move's first event), in order. It shows the bots' hands: only for
        a finished game's record."""
        if not is_game_id(game_id):
            raise GameNotFound(game_id)
        return [orjson.loads(e) for e in self.redis.lrange(advice_key(game_id), 0, -1)]

    # -- change -------------------------------------------------------------------------

    def apply_action(
        self,
        game_id: str,
        seat: int,
        action: Action | Callable[[AnyGame], Action],
        expected_version: int | None = None,
        *,
        record: StoredGame | None = None,
        owed_task: OwedTaskMaker | None = None,
        stand_in: bool = False,
        advice: dict[str, Any] | None = None,
    ) -> AppliedAction:
        """Apply `seat`'s action (the game's action space) atomically and return
        the new game.

        `action` may be a function that reads it from the game, called once the version is
        checked (a person's move as sent: its errors come after a stale version's).
        `expected_version`: refuse with `StaleVersion` unless the game is at this version
        (a client's If-Match, or the version a bot job was queued for): the move path's one
        check, then the write's compare-and-set. `record`: the game
        as the caller already loaded it, to save a round trip; it is consumed (its game is
        changed). `owed_task`: when the move leaves a bot to act, what to register with it
        (see `OwedTask`), given the game and its new version. Raises the engine's
        `GameError` for a refused move (nothing is written), `Conflict` when another
        write landed between the read and this one, and `GameNotFound`. `stand_in`: the
        table's stand-in plays the move for the person in `seat` (see `_move`). `advice`:
        what the bot that chose the move thought (`core.play.bot_advice`), kept beside the game
        with the move, and only if the move is written.
        """
        waiting = record is not None and record.waiting
        if record is None:
            record = self.load(game_id)
        elif record.id != game_id:
            raise ValueError("record belongs to another game")
        if expected_version is not None and record.version != expected_version:
            raise StaleVersion(
                _(
                    "The game is at version {version}, not {expected}: reload it and try again.",
                    version=record.version,
                    expected=expected_version,
                ),
                version=record.version,
            )
        if callable(action):
            action = action(record.game)
        if waiting:
            raise NotStarted()
        write = self._move(record, seat, action, owed_task, stand_in, advice)
        result = self._run(self._apply, write.keys, write.args, durable=True)
        if result == -1:
            raise GameNotFound(game_id)
        if result == -2:
            raise Conflict(
                _(
                    "Another move was applied to this game at the same moment; reload it and "
                    "try again."
                )
            )
        return self._written(record, write, int(result))

    def apply_kept(
        self,
        record: StoredGame,
        seat: int,
        action: Action,
        *,
        owed_task: OwedTaskMaker | None = None,
        counters: Sequence[Counter] = (),
    ) -> AppliedAction | StoredGame:
        """Apply a move to the game as this process kept it (`take_kept`), taking the
        request's rate-limit counts, in one round trip.

        The write is a compare-and-set on the kept version, so an out-of-date game is
        never written over: then nothing is written and the stored game comes back
        instead (as `load(history=False, consume=True)` would give it, the counts already
        taken), for the caller to decide the move again on it. Raises the engine's
        `GameError` for a move the kept game refuses (nothing is counted or written: the
        caller must decide again on a fresh read), the counter's error over a limit, and
        `GameNotFound`."""
        game_id = record.id
        if record.waiting:
            raise NotStarted()
        write = self._move(record, seat, action, owed_task)
        if self.clustered:
            # The counts first (their own slot), so a move over a limit writes nothing.
            if counters:
                _check_counts(counters, self.count(counters))
            status = self._run(self._apply, write.keys, write.args, durable=True)
            fields = self._read_fields(game_key(game_id), list(GAME_FIELDS)) if status == -2 else []
        else:
            counts, status, fields = self._run(
                self._count_and_apply, *_counted(counters, write.keys, write.args), durable=True
            )
            _check_counts(counters, counts)
        if status == -1:
            raise GameNotFound(game_id)
        if status == -2:
            return self._record(game_id, fields, True)
        return self._written(record, write, int(status))

    def _move(
        self,
        record: StoredGame,
        seat: int,
        action: Action,
        owed_task: OwedTaskMaker | None,
        stand_in: bool = False,
        advice: dict[str, Any] | None = None,
    ) -> _Write:
        """Apply the move to `record`'s game (consumed) and make the apply script's keys
        and arguments. `stand_in`: the table's stand-in bot plays it for the person in
        `seat` (recorded in the move's event); when the person was not away already, their
        clock ran out, which counts towards `away`. A person's own move ends their being
        away."""
        game = record.game
        hands_done = len(game.history)
        events = game.apply(seat, action)
        seats = record.seats
        person = seats[seat]
        if stand_in:
            events[0] = {**events[0], "by": "stand_in"}
        if person.bot is None:
            # A webhook bot's seat misses no turn: its failures count on its account.
            changed = person.after_turn(stand_in and not person.webhook)
            if changed.away and not person.away:
                events.append({"type": "seat_away", "seat": seat})
            elif person.away and not changed.away:
                events.append({"type": "seat_back", "seat": seat})
            if changed is not person:
                seats = with_seat(seats, seat, changed)
        return self._change(
            record,
            events,
            seats,
            record.table,
            owed_task,
            state=_dump_state(game),
            sheet=b",".join(_dumps(h) for h in game.history[hands_done:]),
            here=None if stand_in or person.bot is not None else seat,
            # The number of the move's first event (its decision's), for the record.
            advice=b"" if advice is None else _dumps({**advice, "seq": record.events + 1}),
        )

    def _change(
        self,
        record: StoredGame,
        events: list[Event],
        seats: tuple[Seat, ...],
        table: Table,
        owed_task: OwedTaskMaker | None,
        *,
        state: bytes = b"",
        sheet: bytes = b"",
        keep_clock: bool = False,
        here: int | None = None,
        advice: bytes = b"",
    ) -> _Write:
        """The apply script's keys and arguments for a change of `record` (whose game the
        caller has changed already, if it did) to these seats and table, with these events
        (not numbered yet). A change that leaves a bot or a stand-in to act owes its turn,
        one that leaves a person on the clock owes the clock's end (`owed_task`).
        `keep_clock`: the seat to act is the same one as before and its clock keeps
        running to the same deadline (a change of the table, not a move). `here`: the
        seat of the person who made the change, noted as seen now. `advice`: an entry to
        append to the game's advice (JSON)."""
        game_id = record.id
        version = record.version + 1
        numbered = _numbered(events, after=record.events, version=version)
        total = record.events + len(numbered)
        after = StoredGame(
            game_id, version, total, record.game, seats, record.host_token_hash,
            record.created, record.seeded, table, record.payer,
        )  # fmt: skip
        deadline = after.clock_due(time.time())
        if keep_clock and deadline is not None and record.deadline is not None:
            deadline = record.deadline
        keys = [game_key(game_id), events_key(game_id), advice_key(game_id)]
        owed_args: list[Any] = []
        owes = after.bot_to_move is not None or deadline is not None
        owed = (
            owed_task(game_id, version, deadline, record.payer, long=after.thinks_long)
            if owed_task is not None and owes
            else None
        )
        if owed is not None:
            keys += [owed.hash_key, self._due_key(owed.member)]
            owed_args = [owed.ttl, owed.score, owed.member]
            owed_args += [x for pair in owed.fields.items() for x in pair]
        meta = b""
        if seats != record.seats or table != record.table:
            meta = _dumps(_meta_of(after))
        seen = record.seen
        seen_args: list[Any] = ["", ""]
        if here is not None:
            now = time.time()
            seen_args = [seen_field(here), repr(now)]
            marks = list(seen) + [0.0] * (len(seats) - len(seen))
            marks[here] = now
            seen = tuple(marks)
            self._remember_touch((game_id, here), now)
        args: list[Any] = [
            record.version,
            state,
            total,
            self.ttl_for(record.game),
            changes_channel(game_id),
            sheet,
            meta,
            "" if deadline is None else repr(deadline),
            *seen_args,
            advice,
            len(owed_args),
            *owed_args,
            *[_dumps(e) for e in numbered],
        ]
        return _Write(keys, args, state, total, numbered, seats, table, deadline, meta, seen)

    def _written(self, record: StoredGame, write: _Write, version: int) -> AppliedAction:
        game = record.game
        if write.state:
            # The game as the next read of it will parse it (without the score sheet).
            stored = game.copy()
            stored.history = []
            self._remember(
                self._states, record.id, (write.state, stored, version, write.total, write.deadline)
            )
        else:
            self._states.pop(record.id, None)
        new_record = StoredGame(
            record.id,
            version,
            write.total,
            game,
            write.seats,
            record.host_token_hash,
            record.created,
            record.seeded,
            write.table,
            record.payer,
            write.deadline,
            write.seen,
        )
        self._remember(self._seen, record.id, write.seen)
        if write.state and write.table.rated and game.finished:
            self._count_rated(new_record)
        if write.state and game.finished:
            account_seats.forget(self.redis, _accounts_of(write.seats), record.id)
        if game.finished:
            # Kept `finished_ttl` from this write (the move that ended it, or a change of
            # its table after, a rematch's).
            self._note_record(record.id, write.seats, write.table, self.finished_ttl)
        elif write.meta:
            # Seats or table written from a read made before a forgetting and its scrub
            # (whose write moves no version) name the account again: read after the write,
            # it is gone, and taken out at once rather than when the game ends.
            self._note_record(record.id, write.seats, write.table, self.idle_ttl)
        if write.meta:
            meta = (
                write.seats, record.host_token_hash, record.created, record.seeded,
                write.table, record.payer,
            )  # fmt: skip
            self._remember(self._metas, record.id, (write.meta, meta))
        return AppliedAction(new_record, write.events)

    def _note_record(
        self, game_id: str, seats: Sequence[Seat], table: Table, seconds: float
    ) -> None:
        """The game names its seats' accounts and its table's maker for `seconds` more:
        noted for each (`core.store.account_records`; a seat's game in play is noted in
        `core.store.account_seats` too, the maker's only here). One forgotten before this
        read is taken out of it now, under the name its seat shows; should the game keep
        changing under that, it is left to the workers' sweep."""
        names = _named(seats, table)
        if not names:
            return
        record = f"game:{game_id}"
        try:
            gone = account_records.note(self.redis, names, record, seconds)
            for account_id in gone:
                name = names[account_id]
                if not account_records.scrub_game(self.redis, game_id, account_id, name):
                    account_records.leave_pending(self.redis, account_id, name, record)
        except REDIS_DOWN:
            # The write stands, and its answer is no error: the game is only not found by
            # a forgetting while it is kept, bar its seats' games in play.
            log.warning("game %s: its accounts' records not noted", game_id)

    @property
    def rated_mark_ttl(self) -> int:
        """How long the mark that a rated game was counted is kept (seconds)."""
        return self.finished_ttl + MARK_EXTRA_SECONDS

    def is_counted(self, game_id: str) -> bool:
        """Whether a rated game's result is counted in its players' ratings."""
        return bool(self.redis.exists(rated_key(game_id)))

    def _count_rated(self, record: StoredGame) -> None:
        """Count a rated game's result in its players' ratings, on the move that ended it.
        Should this fail (Redis away, ratings changing under it, or this process dies),
        the game stays among the uncounted ones that the workers' sweep counts
        (`core.store.ratings.count_unrated`): the move stands, and its answer is no error."""
        try:
            # Read again with its whole score sheet (a move reads only the hand in play):
            # the bids of every hand are counted with the rating.
            count_game(
                self.redis, self.load(record.id), self.rated_mark_ttl, limits=self.rating_limits
            )
        except REDIS_DOWN:
            log.warning("rated game %s: its ratings are left to the sweep", record.id)
        except Exception:
            log.exception("rated game %s: its ratings are left to the sweep", record.id)

    def change_table(
        self,
        record: StoredGame,
        seats: tuple[Seat, ...],
        table: Table,
        events: list[Event],
        *,
        owed_task: OwedTaskMaker | None = None,
        keep_clock: bool = True,
    ) -> AppliedAction:
        """Write `record`'s game with new seats or table (someone took a seat, the game
        started, a person went away, came back or left), with these events, if it is still
        at `record.version`: `Conflict` if another change came first (the caller reads the
        game again and decides again), `GameNotFound` if it is gone. The lobby drops a
        table that stops waiting. `keep_clock`: as for `_change`."""
        write = self._change(record, events, seats, table, owed_task, keep_clock=keep_clock)
        result = self._run(self._apply, write.keys, write.args, durable=True)
        if result == -1:
            raise GameNotFound(record.id)
        if result == -2:
            raise Conflict(_("The table changed at the same moment; reload it and try again."))
        if record.table.waiting and not table.waiting:
            self.redis.zrem(LOBBY, record.id)
        seated = _accounts_of(seats) - _accounts_of(record.seats)
        # Read back with the note: whoever seated an account settles a disable or a new key
        # that came at the same moment (`core.play.tables.TableService.settle`).
        standing = account_seats.note(self.redis, seated, record.id)
        return replace(self._written(record, write, int(result)), standing=standing)

    # -- presence -------------------------------------------------------------------------

    def touch(self, record: StoredGame, seat: int, now: float | None = None) -> None:
        """Note that the person in `seat` is here now. Written at most every
        `TOUCH_SECONDS` per seat by each process: presence is counted in tens of seconds."""
        now = time.time() if now is None else now
        seen = list(record.seen) + [0.0] * (len(record.seats) - len(record.seen))
        seen[seat] = now
        record.seen = tuple(seen)  # the view made from this record shows them here
        key = (record.id, seat)
        if now - self._touched.get(key, 0.0) < TOUCH_SECONDS:
            return
        self._remember_touch(key, now)
        # Only while the game exists: a late touch must not make a hash of one field.
        self._run(self._touch, [game_key(record.id)], [seen_field(seat), repr(now)])
        if record.waiting and record.table.listed:
            # Back in the lobby if a read of it took the table off while nobody was about
            # (a table that started meanwhile is dropped again by the next read).
            self.redis.zadd(LOBBY, {record.id: record.created}, nx=True)

    def _remember_touch(self, key: tuple[str, int], now: float) -> None:
        if len(self._touched) >= _PARSED_GAMES * 2:
            self._touched.clear()
        self._touched[key] = now

    # -- tables -------------------------------------------------------------------------

    def game_of_table(self, code: str) -> str | None:
        """The id of the game a table code finds, if any."""
        raw = self.redis.get(table_key(code))
        return None if raw is None else raw.decode() if isinstance(raw, bytes) else str(raw)

    def listed_by(self, holder: str) -> list[StoredGame]:
        """The tables client `holder` listed (`note_listed`) that are still in the lobby;
        the others are forgotten here."""
        key = listed_by_key(holder)
        found: list[StoredGame] = []
        gone: list[str] = []
        for raw in self.redis.zrange(key, 0, -1):
            game_id = raw.decode() if isinstance(raw, bytes) else str(raw)
            try:
                if self.redis.zscore(LOBBY, game_id) is None:
                    raise GameNotFound(game_id)
                found.append(self.load(game_id, history=False))
            except GameNotFound:
                gone.append(game_id)
        if gone:
            self.redis.zrem(key, *gone)
        return found

    def note_listed(self, holder: str, game_id: str) -> None:
        """Client `holder` listed the table of game `game_id` (kept while a waiting game
        lives)."""
        key = listed_by_key(holder)
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(key, {game_id: time.time()})
        pipe.expire(key, int(self.idle_ttl))
        pipe.execute()

    def lobby(
        self, limit: int, keep: Callable[[StoredGame], bool] | None = None
    ) -> list[StoredGame]:
        """The listed tables still waiting for people, newest first (at most `limit`), only
        those `keep` keeps when given (their people still about): the others are taken off
        the lobby until one of their people is seen again (`touch` lists them again), so
        that abandoned tables cannot make a read of the lobby grow with their number. Tables
        that started, were deleted or expired are dropped from the lobby here. At most
        `LOBBY_READ_FACTOR` times `limit` tables are read at once."""
        # Entries older than a waiting game lives are gone whatever happened to them.
        self.redis.zremrangebyscore(LOBBY, "-inf", time.time() - self.idle_ttl)
        found: list[StoredGame] = []
        start = 0
        read = 0
        while len(found) < limit and read < LOBBY_READ_FACTOR * limit:
            ids = [
                i.decode() if isinstance(i, bytes) else str(i)
                for i in self.redis.zrevrange(LOBBY, start, start + limit - 1)
            ]
            if not ids:
                break
            start += len(ids)
            read += len(ids)
            pipe = self.redis.pipeline(transaction=False)
            for game_id in ids:
                pipe.hmget(game_key(game_id), list(GAME_FIELDS))
            gone = []
            for game_id, values in zip(ids, pipe.execute(), strict=True):
                try:
                    record = self._record(game_id, values, False)
                except GameNotFound:
                    gone.append(game_id)
                    continue
                if not record.waiting or (keep is not None and not keep(record)):
                    gone.append(game_id)
                elif len(found) < limit:
                    found.append(record)
            if gone:
                self.redis.zrem(LOBBY, *gone)
                start -= len(gone)
        return found

    def claim_move(
        self, game_id: str, seat: int, idempotency_key: str, fingerprint: str
    ) -> tuple[str, str] | None:
        """Claim the move the seat sends with `idempotency_key`: None when this request is
        the first to send it (it should apply the move, then `settle_move` or
        `release_move`), else what the first one left: `pending` or the version it made,
        and the fingerprint of the request that claimed it (`move_fingerprint`).

        The fingerprint rides in the same value, so telling a retry from another move
        under a reused key costs no round trip more."""
        key = move_once_key(game_id, seat, idempotency_key)
        if self.redis.set(key, f"pending {fingerprint}", nx=True, ex=MOVE_ONCE_TTL):
            return None
        found = self.redis.get(key)
        # Gone between the two calls (released by a refused first try): claim it again.
        if found is None:
            return self.claim_move(game_id, seat, idempotency_key, fingerprint)
        text = found.decode() if isinstance(found, bytes) else str(found)
        state, _space, claimed_by = text.partition(" ")
        return state, claimed_by

    def settle_move(
        self, game_id: str, seat: int, idempotency_key: str, fingerprint: str, version: int
    ) -> None:
        """The claimed move was applied and made `version`."""
        self.redis.set(move_once_key(game_id, seat, idempotency_key),
                       f"{version} {fingerprint}", xx=True, keepttl=True)  # fmt: skip

    def release_move(self, game_id: str, seat: int, idempotency_key: str) -> None:
        """The claimed move was refused: the same key may be sent again."""
        self.redis.delete(move_once_key(game_id, seat, idempotency_key))

    def delete(self, game_id: str) -> bool:
        """Forget the game and its events; False if there was nothing to delete."""
        if not is_game_id(game_id):
            return False
        # Not a MULTI: Redis refuses a whole transaction while it is out of memory, and a
        # delete is what gives memory back. The notice to event streams may follow apart.
        code = None
        seated: set[str] = set()
        with contextlib.suppress(GameNotFound):
            found = self.load(game_id, history=False)
            code, seated = found.table.code, _accounts_of(found.seats)
        pipe = self.redis.pipeline(transaction=False)
        # One key per DEL: a cluster's pipeline sends each key to its own node.
        pipe.delete(game_key(game_id))
        pipe.delete(events_key(game_id))
        pipe.delete(advice_key(game_id))
        pipe.zrem(LOBBY, game_id)
        if code is not None:
            pipe.delete(table_key(code))
        deleted, *_rest = pipe.execute()
        account_seats.forget(self.redis, seated, game_id)
        # Apart: a cluster's pipeline takes no PUBLISH (it goes to every node).
        self.redis.publish(changes_channel(game_id), "deleted")
        return bool(deleted)

    def ttl(self, game_id: str) -> int:
        """Seconds before the game expires (-2 if it does not exist), for tests and ops."""
        return int(self.redis.ttl(game_key(game_id)))


def _packed(script: Script, keys: list[str], args: list[Any]) -> bytes:
    """`EVALSHA` of `script` in Redis's protocol, packed by hiredis in one call: redis-py's
    own packing encodes each argument in Python first, and a move's write has about fifty
    (its events, its owed task's fields). The arguments are str, bytes, int and float,
    which hiredis writes exactly as redis-py's encoder does."""
    packed: bytes = pack_command(("EVALSHA", script.sha, len(keys), *keys, *args))
    return packed


def _wrote(result: Any) -> bool:
    """Whether a change script wrote (a new version: the apply script's result, or the
    status in the counting one's); a refused or lost compare-and-set, or a request over a
    limit, wrote nothing, and has nothing for a replica to confirm."""
    status = result[1] if isinstance(result, list) else result
    return isinstance(status, int) and status > 0


def _numbered(events: list[Event], *, after: int, version: int) -> list[dict[str, Any]]:
    """The events as stored: each with its `seq` and the game `version` it led to."""
    return [
        {"seq": after + i, "version": version, **event} for i, event in enumerate(events, start=1)
    ]


def _dumps(data: Any) -> bytes:
    # orjson: several times faster than the json module, and a move's time is mostly
    # spent turning the game into JSON and back.
    return orjson.dumps(data)


def _dump_state(game: AnyGame) -> bytes:
    """The engine's JSON of the game without its history (stored apart). The history is
    lent out of the game for the call, which saves the engine copying what we drop."""
    history = game.history
    game.history = []
    try:
        return _dumps(game.to_dict())
    finally:
        game.history = history


def _load_state(state: bytes | str, history: bytes | str | None) -> AnyGame:
    """The game from its stored state and history (validated by the engine's loader)."""
    game = game_from_dict(orjson.loads(state))
    if history is not None:
        game.history = orjson.loads(history)
    return game


def _named(seats: Sequence[Seat], table: Table) -> dict[str, str]:
    """The accounts a game's seats and table name -> the name a seat shows them under (""
    for a table's maker who holds no seat there)."""
    names = {s.account: s.name for s in seats if s.account is not None}
    if table.maker is not None:
        names.setdefault(table.maker, "")
    return names


def _accounts_of(seats: Sequence[Seat]) -> set[str]:
    """The accounts holding seats (a bot level's seat holds none: it plays as its level)."""
    return {s.holder for s in seats if s.holder is not None}
