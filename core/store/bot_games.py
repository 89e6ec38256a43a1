"""The games an account sits in with its key, as its event stream (`GET /api/v1/bot/events`)
follows them: noted when the account takes a seat, forgotten once its stream has said the
game ended (or the game expired). Noting one tells the account's stream on its channel. A
note writes only while the account's hash exists, in the script that checks it: the idle
sweep (`core.store.accounts.forget`) may forget the account between its seat and the note.
How it works: docs/bots-api.md, "Stream bots".
"""

from __future__ import annotations

import time
from typing import Any

import redis

from core.store.keys import account_channel, account_games_key, account_key

#: The most games an account's stream follows; the oldest go first beyond it.
MOST_GAMES = 1000


# Note a game for an account still stored. KEYS: its set of games, its hash. ARGV: the
# game's id, the time, the most games the set keeps.
_NOTE = """
if redis.call('EXISTS', KEYS[2]) == 1 then
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -tonumber(ARGV[3]) - 1)
end
"""


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def tell(connection: redis.Redis, account_id: str, what: str = "changed") -> None:
    """Wake the account's event stream, wherever it is held. Apart from any pipeline: a
    cluster's pipeline takes no PUBLISH."""
    connection.publish(account_channel(account_id), what)


def note_game(connection: redis.Redis, account_id: str, game_id: str) -> None:
    """The account sits in `game_id` now: its stream follows the game."""
    keys = [account_games_key(account_id), account_key(account_id)]
    connection.eval(_NOTE, len(keys), *keys, game_id, repr(time.time()), MOST_GAMES)
    tell(connection, account_id)


def games_of(connection: redis.Redis, account_id: str) -> list[str]:
    """The games the account's stream follows, oldest first."""
    return [_text(g) for g in connection.zrange(account_games_key(account_id), 0, -1)]


def forget_game(connection: redis.Redis, account_id: str, game_id: str) -> None:
    connection.zrem(account_games_key(account_id), game_id)
