"""The accounts an account blocks, as stored: one sorted set per account of the blocked
accounts' ids, scored by when each was blocked. A blocked account's challenges to the
blocker are refused in the script that makes a challenge (`core.store.challenges`), so a
block and a challenge racing it never both pass; a seat at a table and a match's seats
read them too (`blocking`), for the accounts about to share a game. The set has no TTL, as
the account itself: it holds `MOST_BLOCKS` at most (an account forgotten since it was
blocked gives its place up when the set is full) and goes with the account when it is
forgotten (`core.store.accounts.account_keys`). How it works: docs/bots-api.md, "Blocking".
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

import redis

from core.store.keys import account_blocks_key, account_key

#: The most accounts one account may block at once.
MOST_BLOCKS = 1000

# KEYS: the blocker's set, the accounts' key prefix (`account_key("")`). ARGV: the blocked
# account's id, now, the most. {1, when}: blocked now or before (then `when` is the first
# time); {0}: the set holds the most already. A set at the most first lets go of the
# accounts forgotten since they were blocked: they can challenge nobody, and their ids
# would hold its places for ever. That walk reads the whole set, once, only when it is full.
_BLOCK_LUA = """
local since = redis.call('ZSCORE', KEYS[1], ARGV[1])
if since then return {1, since} end
local most = tonumber(ARGV[3])
if redis.call('ZCARD', KEYS[1]) >= most then
  for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
    if redis.call('EXISTS', KEYS[2] .. id) == 0 then redis.call('ZREM', KEYS[1], id) end
  end
  if redis.call('ZCARD', KEYS[1]) >= most then return {0} end
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
return {1, ARGV[2]}
"""


@dataclass(frozen=True)
class Block:
    """One account blocked: its id, and when it was blocked (Unix time)."""

    account: str
    since: float


class BlocksFull(Exception):
    """The account blocks `MOST_BLOCKS` accounts already."""


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def block(
    connection: redis.Redis, blocker: str, blocked: str, now: float | None = None,
    most: int = MOST_BLOCKS,
) -> Block:  # fmt: skip
    """`blocker` blocks `blocked` (again: nothing changes, and `since` is the first time);
    `BlocksFull` when it blocks `most` accounts already."""
    when = time.time() if now is None else now
    done = connection.eval(
        _BLOCK_LUA, 2, account_blocks_key(blocker), account_key(""), blocked, repr(when), most
    )
    if int(done[0]) == 0:
        raise BlocksFull(blocker)
    return Block(blocked, float(done[1]))


def unblock(connection: redis.Redis, blocker: str, blocked: str) -> bool:
    """`blocker` blocks `blocked` no more; whether it did."""
    return bool(connection.zrem(account_blocks_key(blocker), blocked))


def of_account(connection: redis.Redis, blocker: str) -> list[Block]:
    """The accounts `blocker` blocks, the latest blocked first."""
    found: list[tuple[bytes, float]] = connection.zrevrange(  # type: ignore[assignment]
        account_blocks_key(blocker), 0, -1, withscores=True
    )
    return [Block(_text(member), float(score)) for member, score in found]


def blocking(connection: redis.Redis, pairs: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """Which of the (blocker, blocked) `pairs` hold a block: one round trip (every set
    shares the accounts' hash tag, so a cluster's pipeline goes to one node), none for no
    pairs. A pair of one account twice never does."""
    asked = list(dict.fromkeys((a, b) for a, b in pairs if a != b))
    if not asked:
        return []
    pipe = connection.pipeline(transaction=False)
    for blocker, blocked in asked:
        pipe.zscore(account_blocks_key(blocker), blocked)
    return [pair for pair, since in zip(asked, pipe.execute(), strict=True) if since is not None]
