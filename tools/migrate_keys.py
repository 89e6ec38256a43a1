"""`pocha migrate-keys`: bring a Redis written by an earlier Pocha to the key names of this
one, in place, and its games' score sheets out of their states into a field of their own.
How it works: docs/operating.md, `tools.migrate_keys`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

import orjson
import redis

from core.store.keys import TASKS_DUE, task_key

#: An old name: a game's or match's keys, the id right after the prefix, untagged.
_OLD = re.compile(r"^pocha:(game|match):(?!\{)([A-Za-z0-9_-]{1,64})(:.*)?$")
#: An old name of a game's own hash (not of its events or other keys).
_OLD_GAME = re.compile(r"^pocha:game:(?!\{)[A-Za-z0-9_-]{1,64}$")
#: An old task: its kind, its untagged game or match id, the rest.
_OLD_TASK = re.compile(r"^(turn|clock|match):(?!\{)([A-Za-z0-9_-]{1,64})(:.*)$")


@dataclass
class Migrated:
    keys: int = 0
    tasks: int = 0
    #: Games whose score sheet was taken out of their state.
    sheets: int = 0


def new_name(key: str) -> str | None:
    """The name of `key` in this version, or None when it needs no change."""
    found = _OLD.match(key)
    if found:
        kind, ident, rest = found.groups()
        return f"pocha:{kind}:{{{ident}}}{rest or ''}"
    if key.startswith("pocha:task:"):
        task = new_task(key.removeprefix("pocha:task:"))
        return None if task is None else task_key(task)
    return None


def new_task(task: str) -> str | None:
    """A task's key (`turn:ID:5`) in this version, or None when it needs no change."""
    found = _OLD_TASK.match(task)
    if not found:
        return None
    kind, ident, rest = found.groups()
    return f"{kind}:{{{ident}}}{rest}"


def _rename_condition(connection: redis.Redis, task_hash: str) -> None:
    """A clock's task names the game hash whose version it ends (`only_if`): by its new
    name, or the clock would find no game and end without the stand-in playing."""
    raw = connection.hget(task_hash, "only_if")
    if not raw:
        return
    hash_key, name, value = json.loads(raw)
    renamed = new_name(hash_key)
    if renamed is not None:
        connection.hset(task_hash, "only_if", json.dumps([renamed, name, value]))


def split_sheet(connection: redis.Redis, key: str) -> bool:
    """Store game hash `key`'s score sheet apart, as this version reads it, if its state
    holds it (as every game did before the sheet got its `history` field): else a move
    writes the state without it, and the sheet would hold only the hands ended after.
    Whether it did so."""
    if connection.hexists(key, "history"):
        return False
    raw = connection.hget(key, "state")
    if raw is None:
        return False
    state = orjson.loads(raw)
    sheet = state.get("history") if isinstance(state, dict) else None
    if not isinstance(sheet, list):
        return False
    state["history"] = []
    pipe = connection.pipeline(transaction=True)
    pipe.hset(key, mapping={"state": orjson.dumps(state), "history": orjson.dumps(sheet)})
    pipe.execute()
    return True


def _rename(connection: redis.Redis, key: str, renamed: str) -> bool:
    """Whether `key` was renamed to `renamed` now: not if the new name is taken, nor if
    `key` is gone (renamed already)."""
    try:
        return bool(connection.renamenx(key, renamed))
    except redis.ResponseError as error:
        if "no such key" in str(error).lower():
            return False
        raise


#: A due entry renamed: the new member, at the old one's score, only if the old is there.
_RENAME_DUE = """
if redis.call('ZREM', KEYS[1], ARGV[1]) == 1 then
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
  return 1
end
return 0
"""


def migrate(connection: redis.Redis) -> Migrated:
    """Rename every old key of `connection`'s database, and the due entries of old tasks;
    an old game's score sheet is first taken out of its state (`split_sheet`)."""
    done = Migrated()
    for raw in connection.scan_iter(match="pocha:*", count=1000):
        key = raw.decode() if isinstance(raw, bytes) else str(raw)
        renamed = new_name(key)
        if renamed is None:
            continue
        # Before the rename, so that a run that dies in between leaves the game to the next.
        if _OLD_GAME.match(key) and split_sheet(connection, key):
            done.sheets += 1
        # RENAMENX: a key that exists under both names (a rerun after new writes) keeps
        # the new one. SCAN may return a key twice, the second time after its rename.
        if _rename(connection, key, renamed):
            done.keys += 1
            if renamed.startswith("pocha:task:"):
                _rename_condition(connection, renamed)
    for raw, score in connection.zscan_iter(TASKS_DUE):
        member = raw.decode() if isinstance(raw, bytes) else str(raw)
        task = new_task(member)
        if task is None:
            continue
        # One script: a member the scan returns twice, renamed already, is not added back
        # (its task may have been taken since).
        done.tasks += int(connection.eval(_RENAME_DUE, 1, TASKS_DUE, member, task, repr(score)))
    return done
