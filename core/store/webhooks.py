"""A bot account's webhook as stored: its URL, the secret its calls are signed with (kept
as it is, since signing needs it; shown to the owner once), whether it is paused, and the
count of its calls: decisions, time spent, failures in total and in a row, the last
failure's reason. `N` failures in a row pause it in the same script that counts them. It is
removed with its account's key when that is replaced (`core.store.accounts.replace_key`),
and a call counted after that brings back nothing. An answered call is the account in use
for the idle sweep, noted in the same script (`core.store.accounts.note_played`).
How it works: docs/bots-api.md.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from typing import Any

import redis

from core.store.accounts import PLAYED_EVERY, PLAYED_LUA
from core.store.keys import account_key, webhook_key

#: What a secret looks like, so that one pasted in the wrong place is recognisable.
SECRET_PREFIX = "whsec_"

# KEYS: webhook hash, account hash. ARGV: ok ("1"/"0"), milliseconds, reason, pause after,
# now, `PLAYED_EVERY`. The failures in a row after it, and 1 when this failure paused the
# bot. An answer notes the account playing in the same round trip, written only when its
# note is older than `PLAYED_EVERY`: a webhook answering every second writes it once an hour.
_COUNT_LUA = (
    PLAYED_LUA
    + """
if redis.call('EXISTS', KEYS[1]) == 0 then return {0, 0} end
if ARGV[1] == '1' then
  note_played(KEYS[2], ARGV[5], ARGV[6])
  redis.call('HINCRBY', KEYS[1], 'decisions', 1)
  redis.call('HINCRBYFLOAT', KEYS[1], 'decision_ms', ARGV[2])
  redis.call('HSET', KEYS[1], 'in_a_row', 0)
  return {0, 0}
end
redis.call('HINCRBY', KEYS[1], 'failures', 1)
local row = redis.call('HINCRBY', KEYS[1], 'in_a_row', 1)
redis.call('HSET', KEYS[1], 'last_failure', ARGV[3])
if row >= tonumber(ARGV[4]) and redis.call('HGET', KEYS[1], 'paused') ~= '1' then
  redis.call('HSET', KEYS[1], 'paused', '1')
  return {row, 1}
end
return {row, 0}
"""
)


# KEYS: webhook hash, account hash. ARGV: the hash of the key the request was checked with
# ("": whichever), URL, secret. 1, or 0 when the account's key is no longer that one: a
# registration checked just before its key was replaced (which removes the webhook) must not
# land after it, or whoever held the leaked key would keep the webhook.
_REGISTER_LUA = """
if ARGV[1] ~= '' and redis.call('HGET', KEYS[2], 'key_hash') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'url', ARGV[2], 'secret', ARGV[3], 'paused', '0', 'in_a_row', 0)
return 1
"""

# KEYS: webhook hash. 1, or 0 when there is none: checked in the step that writes, so that a
# webhook removed meanwhile (its key replaced) is not brought back as a count with no URL.
_RESUME_LUA = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'paused', '0', 'in_a_row', 0)
return 1
"""


@dataclass(frozen=True)
class Webhook:
    """A bot's webhook and its count."""

    account: str
    url: str
    secret: str
    paused: bool = False
    decisions: int = 0
    decision_ms: float = 0.0
    failures: int = 0
    in_a_row: int = 0
    last_failure: str | None = None

    @property
    def mean_ms(self) -> float | None:
        """The mean time of its answered decisions (ms), None before the first."""
        return self.decision_ms / self.decisions if self.decisions else None

    def public(self) -> dict[str, Any]:
        """What its owner and its page see (never the secret)."""
        return {
            "url": self.url,
            "paused": self.paused,
            "decisions": self.decisions,
            "mean_decision_ms": None if self.mean_ms is None else round(self.mean_ms, 1),
            "failures": self.failures,
            "failures_in_a_row": self.in_a_row,
            "last_failure": self.last_failure,
        }


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def register(
    connection: redis.Redis, account_id: str, url: str, key_hash: str | None = None
) -> str | None:
    """Set (or replace) `account_id`'s webhook to `url`, unpaused, with a new secret: the
    secret, shown once. The count of earlier calls is kept. `key_hash`: the hash of the key
    the request was checked with (None: whichever); if that key was replaced since, nothing
    is written and the answer is None."""
    secret = SECRET_PREFIX + secrets.token_urlsafe(32)
    done = connection.eval(
        _REGISTER_LUA, 2, webhook_key(account_id), account_key(account_id),
        key_hash or "", url, secret,
    )  # fmt: skip
    return secret if done == 1 else None


def remove(connection: redis.Redis, account_id: str) -> bool:
    """Forget the webhook; False if there was none."""
    return bool(connection.delete(webhook_key(account_id)))


def get(connection: redis.Redis, account_id: str) -> Webhook | None:
    raw = connection.hgetall(webhook_key(account_id))
    if not raw:
        return None
    f = {_text(k): _text(v) for k, v in raw.items()}
    return Webhook(
        account=account_id,
        url=f["url"],
        secret=f["secret"],
        paused=f.get("paused") == "1",
        decisions=int(f.get("decisions", 0)),
        decision_ms=float(f.get("decision_ms", 0.0)),
        failures=int(f.get("failures", 0)),
        in_a_row=int(f.get("in_a_row", 0)),
        last_failure=f.get("last_failure") or None,
    )


def count(
    connection: redis.Redis,
    account_id: str,
    *,
    ok: bool,
    milliseconds: float = 0.0,
    reason: str = "",
    pause_after: int = 5,
) -> bool:
    """Count one call of the webhook: answered (`ok`, in `milliseconds`: the account noted
    playing, as `core.store.accounts.note_played` notes it), or failed for `reason`. Whether
    this failure paused the bot."""
    _row, paused = connection.eval(
        _COUNT_LUA, 2, webhook_key(account_id), account_key(account_id), "1" if ok else "0",
        repr(milliseconds), reason, max(1, pause_after), repr(time.time()), PLAYED_EVERY,
    )  # fmt: skip
    return bool(paused)


def resume(connection: redis.Redis, account_id: str) -> bool:
    """Unpause the bot, its failures in a row forgotten; False if it has no webhook."""
    return bool(connection.eval(_RESUME_LUA, 1, webhook_key(account_id)))
