"""The records that name an account beside its seats in play, and taking it out of them once
the account is forgotten. A game that seats the account or whose table it made (noted at
its making and each change of its seats or table for `IDLE_TTL`, at its end for
`FINISHED_TTL`) and a match that seats it (kept `MATCH_TTL` after its last game) are noted
in the account's set, scored by when each expires at the latest; a note drops those past
it, so the set holds only records still kept, and finds an account forgotten meanwhile
gone, for the caller to take it out at once. The idle sweep's script
(`core.store.accounts.forget`) hands this set and the account's games in play to
`FORGOTTEN`, with its name, and the workers' sweep then takes the id and the name out of
each record still kept, a bounded number a step (`scrub_step`): the id goes, the name
becomes `FORGOTTEN_NAME`. A record that changes under each try of a step (a busy game)
stays pending for a later step, never dropped.
How it works: docs/api.md, "Accounts, rated tables and the ladder".
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import orjson
import redis

from core.store.accounts import FORGOTTEN_SECONDS, LEVEL_PREFIX
from core.store.keys import (
    FORGOTTEN,
    account_key,
    account_records_key,
    events_key,
    forgotten_records_key,
    game_key,
    is_game_id,
)

#: The name a forgotten account's seat is shown under in the records kept after it: its own
#: is free for anyone to take, and must not name someone else's games.
FORGOTTEN_NAME = "(forgotten)"

#: The most records one account's set keeps; the soonest to expire go first beyond it.
MOST_RECORDS = 10_000

#: Records one step of the sweep takes a forgotten account out of, at most.
SCRUB_STEP = 200

#: Tries of one record's compare-and-set in one go; a record that changed under each of them
#: is left pending for a later step of the sweep (`scrub_step`).
SCRUB_TRIES = 5

#: Takes a forgotten account (id, its name then) out of one record (by its id): False when
#: the record kept changing under it (to be tried again later), else True (done, nothing
#: to do, or the record is gone).
Scrubber = Callable[[str, str, str], bool]


# Note records for each account still stored. KEYS: for each account, its set of records
# and its hash. ARGV: the record ("game:ID", "match:ID"), when it expires at the latest, now,
# the most records a set keeps. Returns the accounts gone (by their place in KEYS' pairs).
# A set expires with the last of its records: an account that stops playing, and is kept
# (rated, or by the operator), keeps no set of records all gone.
_NOTE = """
local gone = {}
for i = 1, #KEYS, 2 do
  if redis.call('EXISTS', KEYS[i + 1]) == 1 then
    redis.call('ZADD', KEYS[i], ARGV[2], ARGV[1])
    redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', '(' .. ARGV[3])
    redis.call('ZREMRANGEBYRANK', KEYS[i], 0, -tonumber(ARGV[4]) - 1)
    local last = redis.call('ZRANGE', KEYS[i], -1, -1, 'WITHSCORES')
    if last[2] then redis.call('EXPIREAT', KEYS[i], math.ceil(tonumber(last[2]))) end
  else
    table.insert(gone, (i + 1) / 2)
  end
end
return gone
"""


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def note(
    connection: redis.Redis, account_ids: Iterable[str], record: str, seconds: float
) -> list[str]:
    """`record` (`game:ID`, `match:ID`) names these accounts and is kept `seconds` from
    now at most. One script: an account forgotten meanwhile gets no set, and is among
    those returned (the accounts gone), for the caller to take it out of the record."""
    # Our levels' accounts are never forgotten, and play more games than anyone.
    ids = sorted({a for a in account_ids if not a.startswith(LEVEL_PREFIX)})
    if not ids:
        return []
    now = time.time()
    keys = [key for a in ids for key in (account_records_key(a), account_key(a))]
    gone = connection.eval(
        _NOTE, len(keys), *keys, record, repr(now + seconds), repr(now), MOST_RECORDS
    )
    return [ids[int(place) - 1] for place in gone]


def records_of(connection: redis.Redis, account_id: str) -> list[str]:
    """The records noted as naming the account, soonest to expire first."""
    return [_text(r) for r in connection.zrange(account_records_key(account_id), 0, -1)]


def pending(connection: redis.Redis, most: int = SCRUB_STEP) -> dict[str, str]:
    """Forgotten accounts whose records still name them, `most` of them at most, drawn at
    random: id -> their name then. Drawn, not the first page of an HSCAN: that page is the
    same buckets each step, which emptied leave a big hash's other accounts unreached."""
    drawn: list[Any] = connection.hrandfield(FORGOTTEN, most, withvalues=True)  # type: ignore[assignment]
    return {_text(k): _text(v) for k, v in zip(drawn[::2], drawn[1::2], strict=True)}


def scrub_step(
    connection: redis.Redis, scrubbers: Mapping[str, Scrubber], most: int = SCRUB_STEP
) -> int:
    """Take forgotten accounts out of at most `most` of the records that still name them,
    each by the scrubber of its kind (`game`, `match`); how many records it took them out
    of. A record is struck off only once done, so a worker that dies mid-step leaves the
    rest to the next; a record gone meanwhile costs nothing. One that kept changing under
    the scrubber (a game busy with seat changes) costs its look and stays, moved behind
    the account's others, for a later step: bounded work a step, and no record dropped."""
    done = looked = 0
    for account_id, name in pending(connection, most).items():
        key = forgotten_records_key(account_id)
        records: list[Any] = connection.zrange(key, 0, most - looked - 1)
        for raw in records:
            record = _text(raw)
            kind, noted_by_kind, record_id = record.partition(":")
            if not noted_by_kind:
                # A game in play is noted by its id alone (`core.store.account_seats`).
                kind, record_id = "game", record
            scrubber = scrubbers.get(kind)
            looked += 1
            if scrubber is not None and not scrubber(record_id, account_id, name):
                _put_back(connection, key, raw)
                continue
            connection.zrem(key, raw)
            done += 1
        connection.eval(_DONE, 2, key, FORGOTTEN, account_id)
        if looked >= most:
            break
    return done


# A forgotten account is no longer pending once no record is left naming it. KEYS: its set
# of records left, `FORGOTTEN`. ARGV: its id. One script: a record a write leaves to the
# sweep (`leave_pending`) between a look at the set and the drop would be left for no step.
_DONE = """
if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('HDEL', KEYS[2], ARGV[1]) end
"""


def _put_back(connection: redis.Redis, key: str, record: Any) -> None:
    """Leave `record` in the set of records still naming a forgotten account, behind the
    others (the set's order is only the order they are taken in), for a later step; the
    set waits `FORGOTTEN_SECONDS` again from now."""
    last = connection.zrange(key, -1, -1, withscores=True)
    score = float(last[0][1]) + 1 if last else time.time()
    pipe = connection.pipeline(transaction=False)
    pipe.zadd(key, {record: score}, xx=True)
    pipe.expire(key, FORGOTTEN_SECONDS)
    pipe.execute()


# Leave a record to the sweep. KEYS: the account's set of records left, `FORGOTTEN`. ARGV:
# the record, now, how long the set waits, the account's id and its name then.
_LEAVE = """
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('HSETNX', KEYS[2], ARGV[4], ARGV[5])
"""


def leave_pending(connection: redis.Redis, account_id: str, name: str, record: str) -> None:
    """A forgotten account's scrub of `record` (`game:ID`, `match:ID`), tried where it was
    found naming the account, kept failing: leave it to the workers' sweep, as the
    forgetting leaves the records it knows of. One script (the set and the hash share the
    accounts' slot)."""
    keys = [forgotten_records_key(account_id), FORGOTTEN]
    connection.eval(
        _LEAVE, len(keys), *keys, record, repr(time.time()), FORGOTTEN_SECONDS, account_id, name
    )


# Take a forgotten account out of a game, if its seats are still as read. KEYS: the game's
# hash, its events. ARGV: the seats and table as read, as they become ("" for unchanged),
# then for each event to change its index, as it was and as it becomes. Returns 0 when the
# game changed meanwhile (read again), else 1.
_SCRUB_GAME = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 1 end
if redis.call('HGET', KEYS[1], 'meta') ~= ARGV[1] then return 0 end
if ARGV[2] ~= '' then redis.call('HSET', KEYS[1], 'meta', ARGV[2]) end
for i = 3, #ARGV, 3 do
  if redis.call('LINDEX', KEYS[2], ARGV[i]) == ARGV[i + 1] then
    redis.call('LSET', KEYS[2], ARGV[i], ARGV[i + 2])
  end
end
return 1
"""


def scrub_game(connection: redis.Redis, game_id: str, account_id: str, name: str) -> bool:
    """Take account `account_id` out of the game: each seat it holds loses the account
    (and its key's hash) and is named `FORGOTTEN_NAME`, the table forgets it as its maker,
    and each `seat_taken` event that gave a seat to it is named so too (`_renamed`: not the
    one that seated someone else sitting under the same name). Bounded by the game's own
    events. False when the game's seats or table changed under each of
    `SCRUB_TRIES` tries (for the caller to try again later), else True."""
    if not is_game_id(game_id):
        return True
    for _attempt in range(SCRUB_TRIES):
        raw = connection.hget(game_key(game_id), "meta")
        if raw is None:
            return True
        meta = orjson.loads(raw)
        changed = False
        held = {i for i, s in enumerate(meta.get("seats", [])) if s.get("account") == account_id}
        for seat in meta.get("seats", []):
            if seat.get("account") == account_id:
                seat.pop("account", None)
                seat.pop("key_hash", None)
                seat["name"] = FORGOTTEN_NAME
                changed = True
        table = meta.get("table")
        if isinstance(table, dict) and table.get("maker") == account_id:
            # Whoever takes the name next is not this table's maker (nor kept from it).
            del table["maker"]
            changed = True
        events: list[Any] = []
        if name:
            events = _renamed(connection.lrange(events_key(game_id), 0, -1), held, name)
        if not changed and not events:
            return True
        args = [raw, orjson.dumps(meta) if changed else b"", *events]
        keys = [game_key(game_id), events_key(game_id)]
        if connection.eval(_SCRUB_GAME, len(keys), *keys, *args):
            return True
    return False


def _renamed(events: list[Any], held: set[int], name: str) -> list[Any]:
    """The `seat_taken` events that gave a seat to a forgotten account named `name`, each as
    its index, as it is and as it becomes (named `FORGOTTEN_NAME`), the account having held
    the seats `held`. Others may sit under that name too (people without accounts share
    names): the event that seated whoever holds a seat now is the account's only if the
    account holds that seat. One that seated someone gone since (the seat opened again, or
    a bot took it) may have been the account's, and is renamed, or the name would go on
    naming this game once anyone can take it."""
    seated: dict[int, int] = {}  # seat -> the index of the event that seated its holder
    named: list[tuple[int, Any, dict[str, Any]]] = []
    for index, raw in enumerate(events):
        event = orjson.loads(raw)
        kind, seat = event.get("type"), event.get("seat")
        if kind == "seat_taken":
            seated[seat] = index
            if event.get("name") == name:
                named.append((index, raw, event))
        elif kind in ("seat_opened", "seat_bot"):
            seated.pop(seat, None)
    return [
        part
        for index, raw, event in named
        if seated.get(event["seat"]) != index or event["seat"] in held
        for part in (index, raw, orjson.dumps({**event, "name": FORGOTTEN_NAME}))
    ]
