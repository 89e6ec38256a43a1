"""The games not finished in which an account holds a seat, whichever way it sat down (its
key, its webhook, a challenge, a match, a rematch): noted by the store when a seat is given
to the account, dropped when the game ends or is deleted. Disabling the account walks them
to hand each of its seats to the stand-in (`core.play.tables.TableService.take_out`),
replacing its key walks them to make the seat tokens handed out under the key before open
nothing (`core.play.tables.TableService.drop_seat_tokens`), and its owner's list of them
reads them (`core.play.tables.TableService.games_in_play`). Noting a seat reads back the
account's standing (disabled, its key now) after the note: a disable or a new key is written
before its walk reads this set, so a seating at the same moment is seen by one or the other.
A note writes only while the account's hash exists, in the script that checks it: the idle
sweep (`core.store.accounts.forget`) may forget the account between its seat and the note,
and a set written after that would outlive it. How it works: docs/internals.md, `core.store.keys`.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import redis

from core.store.keys import account_key, account_seats_key

#: The most games one account's set keeps; the oldest go first beyond it. Far more than
#: anyone plays at once: it only bounds the set.
MOST_SEATS = 1000


# Note a seat for each account still stored, and read back each one's standing. KEYS: for
# each account, its set of games in play and its hash. ARGV: the game's id, the time, the
# most games a set keeps. Returns each account's [disabled, key_hash] (false for a field
# missing, both for an account gone).
_NOTE = """
local out = {}
for i = 1, #KEYS, 2 do
  if redis.call('EXISTS', KEYS[i + 1]) == 1 then
    redis.call('ZADD', KEYS[i], ARGV[2], ARGV[1])
    redis.call('ZREMRANGEBYRANK', KEYS[i], 0, -tonumber(ARGV[3]) - 1)
  end
  table.insert(out, redis.call('HMGET', KEYS[i + 1], 'disabled', 'key_hash'))
end
return out
"""


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


@dataclass(frozen=True)
class Standing:
    """An account as a seating reads it back, just after noting its seat."""

    disabled: bool
    #: The hash of its key now ("" for an account gone, or one with no key).
    key_hash: str


def note(connection: redis.Redis, account_ids: Iterable[str], game_id: str) -> dict[str, Standing]:
    """The accounts hold seats in `game_id` now: each one's standing, read after the note.
    One script (every account's set and hash share the accounts' hash tag): an account
    forgotten meanwhile gets no set, and reads back as gone."""
    ids = sorted(set(account_ids))
    if not ids:
        return {}
    keys = [key for a in ids for key in (account_seats_key(a), account_key(a))]
    read = connection.eval(_NOTE, len(keys), *keys, game_id, repr(time.time()), MOST_SEATS)
    return {
        account_id: Standing(_text(disabled or "") == "1", _text(key_hash or ""))
        for account_id, (disabled, key_hash) in zip(ids, read, strict=True)
    }


def forget(connection: redis.Redis, account_ids: Iterable[str], game_id: str) -> None:
    """`game_id` is over (finished, deleted or gone) for these accounts."""
    ids = sorted(set(account_ids))
    if not ids:
        return
    pipe = connection.pipeline(transaction=False)
    for account_id in ids:
        pipe.zrem(account_seats_key(account_id), game_id)
    pipe.execute()


def games_of(connection: redis.Redis, account_id: str) -> list[str]:
    """The games not finished in which the account holds a seat, oldest first."""
    return [_text(g) for g in connection.zrange(account_seats_key(account_id), 0, -1)]
