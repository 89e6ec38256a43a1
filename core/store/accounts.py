"""Accounts: a lasting name for a person or a bot, opened by a secret key that is shown once
and stored hashed, and replaced by its holder or the operator (`replace_key`, which removes
a bot's webhook with the key before). Names are unique by their skeleton (Unicode NFKC,
letters of other alphabets that look like Latin ones taken as those, case, accents and
spacing ignored), so no account can take a name that imitates another's. Our bot levels
have fixed accounts of their own (`level_account`), made on first use: the same bot always
behind each, so that everyone's rating is measured against the same opponents.
Nothing here grows without bound: the store holds `Lifetime.most` accounts at most (sign-up
past it is `AccountsFull`, checked in the script that makes the account), and an account not
in use (no rating, not disabled, not kept by the operator, not a level, neither its key used,
nor a seat given it, nor its bot playing by webhook or in a match for `Lifetime.idle_days`)
is forgotten by the workers' sweep (`forget_idle`), its name free again and every key named
by its id gone with it, and the games and matches still kept that name it left to the
workers to take it out of (`core.store.account_records`).
How it works: docs/api.md, "Accounts, rated tables and the ladder".
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import redis
from confusable_homoglyphs.confusables import confusables_data

from ai.registry import BOT_KINDS
from core.errors import AccountsFull, NameTaken
from core.store.bot_games import tell
from core.store.keys import (
    ACCOUNT_KEYS,
    ACCOUNT_NAMES,
    ACCOUNTS_MADE,
    ACCOUNTS_SWEEP_DUE,
    ACCOUNTS_SWEPT_TO,
    FORGOTTEN,
    account_blocks_key,
    account_challenges_key,
    account_games_key,
    account_key,
    account_records_key,
    account_seats_key,
    account_stream_key,
    account_turns_key,
    challenges_lately_key,
    challenges_made_key,
    challenges_received_key,
    forgotten_records_key,
    plain_id,
    rating_history_key,
    ratings_key,
    webhook_key,
)
from engine.registry import KINDS as GAMES

#: What a key looks like, so that one pasted in the wrong place is recognisable.
KEY_PREFIX = "pa_"
#: The kinds of account.
KINDS = ("person", "bot")
#: The id of a bot level's account starts with this (a person's id never does).
LEVEL_PREFIX = "level-"
#: The longest name an account may have (characters as sent).
LONGEST_NAME = 32
#: What the account's channel says when its key was replaced or it was disabled: its event
#: stream, opened under the key it had, ends.
KEY_REPLACED = "key_replaced"
DISABLED = "disabled"

# Characters people mistake for one another within ASCII itself, once case is folded:
# capital I (folded to i), small l, the digit 1 and the bar are one stroke; 0 is o.
_ASCII_LOOKALIKES = {"i": "l", "1": "l", "|": "l", "0": "o"}
# Pairs of letters that read as one.
_PAIRS = (("rn", "m"), ("vv", "w"))
# Spacing and joining marks that do not tell two names apart.
_IGNORED = frozenset(" -_.'·")

# KEYS: account hash, keys hash, names hash, made set. ARGV: id, skeleton, key hash (or
# ""), created, the most accounts (0: no cap), then the account's fields as pairs. 1; 0
# when the skeleton is taken; -1 when the store holds the most accounts already. Counted in
# the step that adds the account, so a burst of sign-ups cannot overshoot the cap.
_CREATE_LUA = """
local most = tonumber(ARGV[5])
if most > 0 and redis.call('ZCARD', KEYS[4]) >= most then return -1 end
if redis.call('HSETNX', KEYS[3], ARGV[2], ARGV[1]) == 0 then return 0 end
for i = 6, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
if ARGV[3] ~= '' then redis.call('HSET', KEYS[2], ARGV[3], ARGV[1]) end
redis.call('ZADD', KEYS[4], ARGV[4], ARGV[1])
return 1
"""

# KEYS: keys hash, the accounts' key prefix. ARGV: key hash. The account's fields, or nil.
_FIND_LUA = """
local id = redis.call('HGET', KEYS[1], ARGV[1])
if not id then return nil end
return redis.call('HGETALL', KEYS[2] .. id)
"""

# KEYS: account hash, keys hash, the account's webhook hash. ARGV: id, the hash of the key
# being replaced ("": whatever it is), the new key's hash. 1, or 2 when a webhook was
# removed with it; 0: the key is no longer that one; -1: no such account, or one with no key
# (a bot level's). The old hash stops opening the account in the same step as the new one
# starts: two replacements of one key leave one key, never two. The webhook (its URL and
# signing secret) goes in that step too: a key is replaced because it leaked, and whoever
# held it may have pointed the webhook at their own server, which would go on playing the
# bot's games.
_REPLACE_KEY_LUA = """
local current = redis.call('HGET', KEYS[1], 'key_hash')
if not current or current == '' then return -1 end
if ARGV[2] ~= '' and current ~= ARGV[2] then return 0 end
redis.call('HDEL', KEYS[2], current)
redis.call('HSET', KEYS[1], 'key_hash', ARGV[3])
redis.call('HSET', KEYS[2], ARGV[3], ARGV[1])
return 1 + redis.call('DEL', KEYS[3])
"""

# KEYS: account hash, names hash. ARGV: id, new name, new skeleton. 1; 0: the name is
# taken; -1: no such account.
_RENAME_LUA = """
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
local holder = redis.call('HGET', KEYS[2], ARGV[3])
if holder and holder ~= ARGV[1] then return 0 end
local old = redis.call('HGET', KEYS[1], 'skeleton')
if old and old ~= ARGV[3] then redis.call('HDEL', KEYS[2], old) end
redis.call('HSET', KEYS[2], ARGV[3], ARGV[1])
redis.call('HSET', KEYS[1], 'name', ARGV[2], 'skeleton', ARGV[3])
return 1
"""

# KEYS: account hash. ARGV: when. Written only to an account that exists: one forgotten
# by the idle sweep just after its key was looked up must not come back as a bare `seen`.
_SEEN_LUA = """
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], 'seen', ARGV[1]) end
"""

#: An account's bot playing without its key (its webhook answering, a match seating it
#: starting or ending a game) is noted at most this often (seconds): a note an hour old
#: says as much to a sweep counting in days as one a second old, and costs no write.
PLAYED_EVERY = 3600

# A Lua function noting, in the account hash `account`, that its bot played at `now`
# (`played`), unless it was noted less than `every` seconds before: one read, and no write
# most of the time. Written only to an account that exists, like `seen`.
PLAYED_LUA = """
local function note_played(account, now, every)
  local at = redis.call('HGET', account, 'played')
  if at and tonumber(at) > tonumber(now) - tonumber(every) then return end
  if redis.call('EXISTS', account) == 1 then redis.call('HSET', account, 'played', now) end
end
"""

# KEYS: the accounts' hashes. ARGV: now, `PLAYED_EVERY`.
_PLAYED_LUA = PLAYED_LUA + "for i = 1, #KEYS do note_played(KEYS[i], ARGV[1], ARGV[2]) end"

# KEYS: names hash, keys hash, made set, the forgotten accounts' hash (`FORGOTTEN`), each
# game's ratings hash, then for each account in turn its keys (`account_keys`, its hash and
# seats first, its records last), its history list in each game and its set of records
# left to take it out of (`forgotten_records_key`). ARGV: the latest use that leaves an
# account idle, the number of games, the levels' id prefix, "1" to only tell, the number of
# an account's keys, how long that set waits, then the accounts' ids. Returns the
# ids of those forgotten (or, only telling, that would be); one in use, or gone, is not.
# Every condition is read again here, in the step that deletes: a key used, a seat given, a
# webhook's answer or a match's game noted (`played`) or a rating counted a moment before
# keeps the account. One script for the whole step: every key is in the accounts' hash
# slot, and a cluster's pipeline runs no scripts.
_FORGET_LUA = """
local before, games, prefix = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3]
local own = tonumber(ARGV[5])
local stride = own + games + 1
local forgotten = {}
for n = 7, #ARGV do
  local id = ARGV[n]
  local at = 4 + games + (n - 7) * stride
  local function idle()
    if string.sub(id, 1, #prefix) == prefix then return false end
    local a = redis.call('HMGET', KEYS[at + 1], 'created', 'seen', 'kept', 'disabled', 'played')
    if not a[1] or a[3] == '1' or a[4] == '1' then return false end
    if tonumber(a[2] or a[1]) >= before then return false end
    if a[5] and tonumber(a[5]) >= before then return false end
    local newest = redis.call('ZREVRANGE', KEYS[at + 2], 0, 0, 'WITHSCORES')
    if newest[2] and tonumber(newest[2]) >= before then return false end
    for i = 1, games do
      if redis.call('HEXISTS', KEYS[4 + i], id) == 1 then return false end
      if redis.call('EXISTS', KEYS[at + own + i]) == 1 then return false end
    end
    return true
  end
  if idle() then
    if ARGV[4] ~= '1' then
      local a = redis.call('HMGET', KEYS[at + 1], 'skeleton', 'key_hash', 'name')
      if a[1] and redis.call('HGET', KEYS[1], a[1]) == id then
        redis.call('HDEL', KEYS[1], a[1])
      end
      if a[2] and a[2] ~= '' and redis.call('HGET', KEYS[2], a[2]) == id then
        redis.call('HDEL', KEYS[2], a[2])
      end
      redis.call('ZREM', KEYS[3], id)
      -- Its games in play and the records that name it, left for the sweep to take its id
      -- and name out of (their keys are in other slots).
      local pending = KEYS[at + own + games + 1]
      redis.call('ZUNIONSTORE', pending, 2, KEYS[at + 2], KEYS[at + own])
      if redis.call('EXISTS', pending) == 1 then
        redis.call('EXPIRE', pending, ARGV[6])
        redis.call('HSET', KEYS[4], id, a[3] or '')
      end
      redis.call('DEL', unpack(KEYS, at + 1, at + own))
    end
    table.insert(forgotten, id)
  end
end
return forgotten
"""


@cache
def _latin_lookalikes() -> dict[str, str]:
    """Each character that Unicode's confusables say looks like an ASCII letter or digit ->
    that letter or digit (a small letter first, then a capital, then a digit)."""
    table: dict[str, str] = {}
    for char, glyphs in confusables_data.items():
        if char.isascii():
            continue
        ascii_glyphs = [
            g["c"] for g in glyphs if len(g["c"]) == 1 and g["c"].isascii() and g["c"].isalnum()
        ]
        if ascii_glyphs:
            table[char] = min(ascii_glyphs, key=lambda c: (not c.islower(), not c.isupper(), c))
    return table


def skeleton(name: str) -> str:
    """What two names that look alike have in common: NFKC, lookalikes of other alphabets
    as the ASCII letter they imitate, case folded, accents, spacing and dots dropped, i, l
    and 1 taken as one letter, 0 as o, and `rn` read as `m`. Two accounts never share
    one."""
    text = unicodedata.normalize("NFKC", name)
    lookalikes = _latin_lookalikes()
    text = "".join(lookalikes.get(ch, ch) for ch in text)
    text = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(
        _ASCII_LOOKALIKES.get(ch, ch)
        for ch in text
        if unicodedata.category(ch) != "Mn" and ch not in _IGNORED and not ch.isspace()
    )
    for pair, one in _PAIRS:
        text = text.replace(pair, one)
    return text


def hash_key(key: str) -> str:
    """What is stored instead of a key: its SHA-256, hex (256 random bits: a fast hash is
    enough)."""
    return hashlib.sha256(key.encode()).hexdigest()


def _new_key() -> tuple[str, str]:
    """A new key (256 random bits) and what is stored of it."""
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    return key, hash_key(key)


@dataclass(frozen=True)
class Account:
    """What is stored of an account: never its key."""

    id: str
    name: str
    kind: str
    created: float
    seen: float
    disabled: bool = False
    #: The SHA-256 of its key, hex; "" for a bot level's account, which has no key.
    key_hash: str = ""
    #: A bot its owner lets anyone seat in an unrated match (otherwise only its own key does).
    open_to_matches: bool = False
    #: Kept by the operator from the idle sweep (`forget_idle`), however long unused.
    kept: bool = False

    @property
    def level(self) -> str | None:
        """The bot level this account is, if it is one of ours."""
        return self.id.removeprefix(LEVEL_PREFIX) if self.id.startswith(LEVEL_PREFIX) else None

    @classmethod
    def from_fields(cls, fields: dict[str, str]) -> Account:
        return cls(
            id=fields["id"],
            name=fields["name"],
            kind=fields["kind"],
            created=float(fields["created"]),
            seen=float(fields.get("seen", fields["created"])),
            disabled=fields.get("disabled") == "1",
            key_hash=fields.get("key_hash", ""),
            open_to_matches=fields.get("open_to_matches") == "1",
            kept=fields.get("kept") == "1",
        )


def _decoded(raw: Any) -> dict[str, str]:
    items = raw.items() if isinstance(raw, dict) else zip(raw[::2], raw[1::2], strict=True)
    return {
        (k.decode() if isinstance(k, bytes) else str(k)): (
            v.decode() if isinstance(v, bytes) else str(v)
        )
        for k, v in items
    }


def level_account_id(level: str) -> str:
    """The id of the account a bot level plays rated games as."""
    return LEVEL_PREFIX + level


@cache
def reserved_skeletons() -> frozenset[str]:
    """The skeletons of our bot levels' names: theirs alone, even before their accounts
    exist."""
    levels = {name for bots in BOT_KINDS.values() for name in bots.levels}
    return frozenset(skeleton(level) for level in levels)


def _store(connection: redis.Redis, account: Account, name_skeleton: str, most: int = 0) -> int:
    fields = {
        "id": account.id,
        "name": account.name,
        "kind": account.kind,
        "created": repr(account.created),
        "seen": repr(account.seen),
        "disabled": "0",
        "key_hash": account.key_hash,
        "skeleton": name_skeleton,
    }
    made = connection.eval(
        _CREATE_LUA, 4, account_key(account.id), ACCOUNT_KEYS, ACCOUNT_NAMES, ACCOUNTS_MADE,
        account.id, name_skeleton, account.key_hash, repr(account.created), most,
        *(x for pair in fields.items() for x in pair),
    )  # fmt: skip
    return int(made)


def create(
    connection: redis.Redis, name: str, kind: str, now: float | None = None, most: int = 0
) -> tuple[str, Account]:
    """A new account named `name` (a name already cleaned for showing: `PlayerName`) and
    its key, shown to its holder once. `NameTaken` when its skeleton is another account's or
    a bot level's; `AccountsFull` when the store holds `most` accounts already (0: no
    cap)."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind of account {kind!r}")
    name_skeleton = skeleton(name)
    if not name_skeleton or name_skeleton in reserved_skeletons():
        raise NameTaken()
    key, key_hash = _new_key()
    made = time.time() if now is None else now
    account = Account(plain_id(), name, kind, made, made, False, key_hash)
    stored = _store(connection, account, name_skeleton, most)
    if stored == -1:
        raise AccountsFull()
    if stored == 0:
        raise NameTaken()
    return key, account


def level_account(connection: redis.Redis, level: str) -> Account:
    """The account of our bot level `level` (made on first use: its name is the level's)."""
    found = get(connection, level_account_id(level))
    if found is not None:
        return found
    now = time.time()
    account = Account(level_account_id(level), level, "bot", now, now)
    # A second maker loses the race harmlessly: the name is the level's either way. Our
    # levels are never refused for the cap: their accounts are few and ours.
    _store(connection, account, skeleton(level))
    found = get(connection, account.id)
    assert found is not None
    return found


def get(connection: redis.Redis, account_id: str) -> Account | None:
    fields = connection.hgetall(account_key(account_id))
    return Account.from_fields(_decoded(fields)) if fields else None


def by_name(connection: redis.Redis, name: str) -> Account | None:
    """The account whose name is `name`, or looks like it (by skeleton), or None."""
    found = connection.hget(ACCOUNT_NAMES, skeleton(name))
    if found is None:
        return None
    return get(connection, found.decode() if isinstance(found, bytes) else str(found))


def names(connection: redis.Redis, account_ids: Sequence[str]) -> dict[str, str]:
    """The name of each account of `account_ids` that exists (one pipeline)."""
    pipe = connection.pipeline(transaction=False)
    for account_id in account_ids:
        pipe.hget(account_key(account_id), "name")
    return {
        account_id: name.decode() if isinstance(name, bytes) else str(name)
        for account_id, name in zip(account_ids, pipe.execute(), strict=True)
        if name is not None
    }


def find(connection: redis.Redis, key: str) -> Account | None:
    """The account whose key `key` is, or None (one round trip; compared in constant
    time with the stored hash)."""
    digest = hash_key(key)
    raw = connection.eval(_FIND_LUA, 2, ACCOUNT_KEYS, account_key(""), digest)
    if not raw:
        return None
    account = Account.from_fields(_decoded(raw))
    return account if hmac.compare_digest(account.key_hash, digest) else None


def note_seen(connection: redis.Redis, account_id: str, now: float | None = None) -> None:
    """The account's key was used now (a use that keeps it from the idle sweep, as its bot
    playing is: `note_played`)."""
    when = repr(time.time() if now is None else now)
    connection.eval(_SEEN_LUA, 1, account_key(account_id), when)


def note_played(
    connection: redis.Redis, account_ids: Sequence[str], now: float | None = None
) -> None:
    """These accounts' bots are playing without their keys (a match seating them starts or
    ends a game; a webhook's answer is noted with its count, `core.store.webhooks.count`):
    in use, as a key's use is, for the idle sweep. One script, and a write only for an
    account not noted in the last `PLAYED_EVERY` seconds. Kept apart from `seen`, which
    tells a key's holder when the key was last used: a use they did not make is a leak."""
    ids = [a for a in account_ids if not a.startswith(LEVEL_PREFIX)]
    if ids:
        when = repr(time.time() if now is None else now)
        keys = [account_key(a) for a in dict.fromkeys(ids)]
        connection.eval(_PLAYED_LUA, len(keys), *keys, when, PLAYED_EVERY)


def listed(connection: redis.Redis, start: int = 0, count: int = 100) -> list[Account]:
    """Accounts in the order they were made, `count` from `start`."""
    ids = connection.zrange(ACCOUNTS_MADE, start, start + count - 1)
    pipe = connection.pipeline(transaction=False)
    for account_id in ids:
        assert isinstance(account_id, (bytes, str))
        pipe.hgetall(
            account_key(account_id.decode() if isinstance(account_id, bytes) else account_id)
        )
    return [Account.from_fields(_decoded(f)) for f in pipe.execute() if f]


def is_disabled(connection: redis.Redis, account_id: str) -> bool:
    """Whether the operator disabled the account (one field read, not the whole account)."""
    return connection.hget(account_key(account_id), "disabled") in (b"1", "1")


def set_disabled(connection: redis.Redis, account_id: str, disabled: bool = True) -> bool:
    """Disable (or enable again) an account; False if there is none."""
    key = account_key(account_id)
    if not connection.exists(key):
        return False
    connection.hset(key, "disabled", "1" if disabled else "0")
    if disabled:
        # Its event stream, wherever it is held, ends at once rather than at its next look.
        tell(connection, account_id, DISABLED)
    return True


@dataclass(frozen=True)
class NewKey:
    """A key just made for an account, to be shown to its holder once."""

    key: str
    #: Whether the account's webhook was removed with the key before: its owner registers
    #: it again with the new key (and so gets a new signing secret).
    webhook_removed: bool


def replace_key(
    connection: redis.Redis, account_id: str, replacing: str | None = None
) -> NewKey | None:
    """A new key for the account: the key before opens nothing from that moment (its event
    stream ends) and the account's webhook is removed in the same step, URL and signing
    secret (whoever held the key may have pointed it at their own server); the seats stay
    the account's. `replacing`: the key being replaced, by its holder; None for the
    operator, whatever the key is. None if there is no such account (or it has no key: a
    bot level's), or if `replacing` is no longer its key (replaced meanwhile)."""
    key, key_hash = _new_key()
    done = connection.eval(
        _REPLACE_KEY_LUA, 3, account_key(account_id), ACCOUNT_KEYS, webhook_key(account_id),
        account_id, "" if replacing is None else hash_key(replacing), key_hash,
    )  # fmt: skip
    if done not in (1, 2):
        return None
    tell(connection, account_id, KEY_REPLACED)
    return NewKey(key, webhook_removed=done == 2)


def set_open_to_matches(connection: redis.Redis, account_id: str, open_: bool) -> bool:
    """Let anyone seat the bot in an unrated match, or only its own key; False if there is
    no such account."""
    key = account_key(account_id)
    if not connection.exists(key):
        return False
    connection.hset(key, "open_to_matches", "1" if open_ else "0")
    return True


def rename(connection: redis.Redis, account_id: str, name: str) -> bool:
    """Give an account another name (`NameTaken` if it imitates another's); False if there
    is no such account."""
    name_skeleton = skeleton(name)
    if not name_skeleton or name_skeleton in reserved_skeletons():
        raise NameTaken()
    done = connection.eval(
        _RENAME_LUA, 2, account_key(account_id), ACCOUNT_NAMES, account_id, name, name_skeleton
    )
    if done == 0:
        raise NameTaken()
    return bool(done == 1)


def set_kept(connection: redis.Redis, account_id: str, kept: bool = True) -> bool:
    """Keep an account from the idle sweep however long it goes unused (or no longer);
    False if there is none."""
    key = account_key(account_id)
    if not connection.exists(key):
        return False
    connection.hset(key, "kept", "1" if kept else "0")
    return True


def count(connection: redis.Redis) -> int:
    """How many accounts the store holds (our levels' among them)."""
    return int(connection.zcard(ACCOUNTS_MADE))


@dataclass(frozen=True)
class Lifetime:
    """How long an account not in use lasts, and how many accounts the store holds."""

    #: Days after which an account not in use is forgotten (0: never).
    idle_days: int = 180
    #: The most accounts (0: no cap).
    most: int = 100_000

    @classmethod
    def from_settings(cls, settings: dict[str, Any]) -> Lifetime:
        """The deployment's (`core.config`)."""
        return cls(int(settings["ACCOUNT_IDLE_DAYS"]), int(settings["MAX_ACCOUNTS"]))

    @property
    def idle_seconds(self) -> float:
        return self.idle_days * 86_400.0


def account_keys(account_id: str) -> list[str]:
    """Every key named by an account's id that goes with it when it is forgotten, but its
    ratings' and histories' (an account with those is never forgotten), the challenges it
    made or received (each expires by itself within minutes of its end) and its sets of those
    received from one challenger or address (each expires an hour after its last one ends).
    The account's hash first; its names and keys hashes hold one field of it each. Its id
    in other accounts' sets of those they block stays until they unblock it, or until a
    set full of blocks lets the ids of accounts gone go (`core.store.blocks`)."""
    return [
        account_key(account_id),
        account_seats_key(account_id),
        account_games_key(account_id),
        account_turns_key(account_id),
        webhook_key(account_id),
        account_challenges_key(account_id),
        challenges_made_key(account_id),
        challenges_received_key(account_id),
        challenges_lately_key(account_id, "made"),
        challenges_lately_key(account_id, "received"),
        account_stream_key(account_id),
        account_blocks_key(account_id),
        # Last: the forgetting script reads it, with the games in play, before the deletion.
        account_records_key(account_id),
    ]


def forget(
    connection: redis.Redis, account_ids: Sequence[str], idle_before: float, dry_run: bool = False
) -> list[str]:
    """Forget each account that is not in use: not one of our levels, not kept, not
    disabled, no rating nor rating history in any game, and neither seen, nor given a seat,
    nor noted playing (`note_played`) since `idle_before`. Its name is free again and every
    key of `account_keys` gone, all in one script; its games in play and the records naming
    it are left, with its name, for the workers to take it out of
    (`core.store.account_records`). Those forgotten (`dry_run`: those that would be,
    forgetting nothing)."""
    if not account_ids:
        return []
    keys = [ACCOUNT_NAMES, ACCOUNT_KEYS, ACCOUNTS_MADE, FORGOTTEN]
    keys += (ratings_key(game) for game in GAMES)
    for account_id in account_ids:
        keys += account_keys(account_id)
        keys += (rating_history_key(game, account_id) for game in GAMES)
        keys.append(forgotten_records_key(account_id))
    done = connection.eval(
        _FORGET_LUA, len(keys), *keys,
        repr(idle_before), len(GAMES), LEVEL_PREFIX, int(dry_run), len(account_keys("")),
        FORGOTTEN_SECONDS, *account_ids,
    )  # fmt: skip
    return [raw.decode() if isinstance(raw, bytes) else str(raw) for raw in done]


#: How long the records still naming a forgotten account wait for the sweep at most
#: (seconds): longer than any of them is kept (a finished game a day by default, a match a
#: week after its last game), so that only a sweep that never comes leaves them to expire.
FORGOTTEN_SECONDS = 30 * 86_400

#: Accounts one step of the idle sweep looks at: a step forgetting 200 took 12 to 23 ms of a
#: worker's loop and held Redis for 4 ms (docs/api.md, "Accounts, rated tables and the
#: ladder").
SWEEP_STEP = 200
#: Seconds between the workers' steps of the idle sweep.
SWEEP_EVERY = 60


@dataclass(frozen=True)
class SweepStep:
    """What one step of the idle sweep did."""

    #: The accounts it looked at.
    looked_at: int
    #: The ids of those it forgot (or, in a dry run, would forget).
    forgotten: tuple[str, ...]
    #: Where the next step starts (a rank in the order made; 0: the sweep went round).
    next_start: int


def forget_idle(
    connection: redis.Redis,
    idle_seconds: float,
    now: float | None = None,
    start: int | None = None,
    most: int = SWEEP_STEP,
    dry_run: bool = False,
) -> SweepStep:
    """One step of the idle sweep: look at `most` accounts in the order they were made, from
    `start` (None: where the step before stopped, kept in Redis, and the next start kept
    there in turn), and forget those not in use for `idle_seconds` (`forget`). A step reads
    `most` accounts' fields in one pipeline and runs one script for those that look idle;
    round after round, every account is looked at once per `count / most` steps, so
    the work per step is bounded however many accounts there are, and a restarted worker
    goes on where the last step stopped. `dry_run`: forget none, only tell which."""
    shared = start is None and not dry_run
    if start is None:
        raw = connection.get(ACCOUNTS_SWEPT_TO) if shared else None
        start = int(raw) if raw is not None else 0
    if idle_seconds <= 0:
        return SweepStep(0, (), start)
    before = (time.time() if now is None else now) - idle_seconds
    ids = [
        raw.decode() if isinstance(raw, bytes) else str(raw)
        for raw in connection.zrange(ACCOUNTS_MADE, start, start + most - 1)
    ]
    pipe = connection.pipeline(transaction=False)
    for account_id in ids:
        pipe.hmget(account_key(account_id), ["created", "seen", "kept", "disabled", "played"])
    idle = [
        account_id
        for account_id, (created, seen, kept, disabled, played) in zip(
            ids, pipe.execute(), strict=True
        )
        if created is not None
        and not account_id.startswith(LEVEL_PREFIX)
        and kept not in (b"1", "1")
        and disabled not in (b"1", "1")
        and float(seen or created) < before
        and float(played or 0) < before
    ]
    forgotten = tuple(forget(connection, idle, before, dry_run))
    # The forgotten left the order made: the accounts after them moved up as many places.
    gone = 0 if dry_run else len(forgotten)
    next_start = 0 if len(ids) < most else start + len(ids) - gone
    if shared:
        connection.set(ACCOUNTS_SWEPT_TO, next_start)
    return SweepStep(len(ids), forgotten, next_start)


def sweep_due(connection: redis.Redis, every: int = SWEEP_EVERY) -> bool:
    """Whether this worker takes the next step of the idle sweep: one of the workers, once
    every `every` seconds (the first to ask after that)."""
    return bool(connection.set(ACCOUNTS_SWEEP_DUE, "1", nx=True, ex=every))
