"""The games not finished in which an account holds a seat, whichever way it sat down (its
key, its webhook, a challenge, a match, a rematch): noted by the store when a seat is given
to the account, dropped when the game ends or is deleted. Disabling the account walks them
to hand each of its seats to the stand-in (`core.play.tables.TableService.take_out`).
How it works: docs/internals.md, `core.store.keys`.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

import redis

from core.store.keys import account_seats_key

#: The most games one account's set keeps; the oldest go first beyond it. Far more than
#: anyone plays at once: it only bounds the set.
MOST_SEATS = 1000


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def note(connection: redis.Redis, account_ids: Iterable[str], game_id: str) -> None:
    """The accounts hold seats in `game_id` now. One pipeline: every account's set shares
    the accounts' hash tag."""
    ids = sorted(set(account_ids))
    if not ids:
        return
    now = time.time()
    pipe = connection.pipeline(transaction=False)
    for account_id in ids:
        key = account_seats_key(account_id)
        pipe.zadd(key, {game_id: now})
        pipe.zremrangebyrank(key, 0, -MOST_SEATS - 1)
    pipe.execute()


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
