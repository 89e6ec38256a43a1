"""The keys of server-side integrators, stored hashed: a front end that relays many people
through one address carries a key and is limited per key, with the key's own budgets.
How it works: docs/internals.md, `core.store.api_keys`.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import time
from dataclasses import asdict, dataclass

import redis
from limits import parse_many

from core.store.keys import API_KEY_NAMES, API_KEYS
from engine.i18n import Message, _

#: A key's name: lower-case letters, digits and dashes, starting with a letter. It becomes a
#: metric label and part of Redis keys, so it holds nothing else.
NAME = re.compile(r"[a-z][a-z0-9-]{0,31}")
#: What a key looks like, so that one pasted in the wrong place is recognisable.
KEY_PREFIX = "pk_"
#: The payer (`StoredGame.payer`) and the count of a key's requests: never a client hash
#: (hex) nor an address.
PAYER_PREFIX = "key:"

# KEYS: the records by hash, the hashes by name. ARGV: name, hash, record. 1, or 0 when
# the name is taken.
_CREATE_LUA = """
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return 1
"""

# KEYS: as above. ARGV: name. 1, or 0 when there is no key of that name.
_REVOKE_LUA = """
local digest = redis.call('HGET', KEYS[2], ARGV[1])
if not digest then return 0 end
redis.call('HDEL', KEYS[1], digest)
redis.call('HDEL', KEYS[2], ARGV[1])
return 1
"""


class KeyRefused(ValueError):
    """A key cannot be made or revoked as asked: `message`, a sentence for the operator (in
    English as `str(error)`, in the operator's language through the catalogues)."""

    def __init__(self, message: Message) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class ApiKey:
    """What is stored of one key: never the key itself."""

    name: str
    #: The SHA-256 of the key, hex.
    hash: str
    #: Its limit on bids and cards, and on hints and AI moves (flask-limiter strings), and
    #: its think budget (seconds a minute); None: the service's.
    moves: str | None = None
    ai: str | None = None
    think: float | None = None
    created: float = 0.0

    @property
    def payer(self) -> str:
        """Whose counts and think budget its requests and games spend."""
        return payer_of(self.name)

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, raw: bytes | str) -> ApiKey:
        fields = json.loads(raw)
        return cls(
            name=str(fields["name"]),
            hash=str(fields["hash"]),
            moves=fields.get("moves"),
            ai=fields.get("ai"),
            think=None if fields.get("think") is None else float(fields["think"]),
            created=float(fields.get("created", 0.0)),
        )


def payer_of(name: str) -> str:
    return PAYER_PREFIX + name


def is_key_payer(payer: str) -> bool:
    return payer.startswith(PAYER_PREFIX)


def name_of_payer(payer: str) -> str | None:
    """The key's name if `payer` is a key's, else None (a client hash)."""
    return payer.removeprefix(PAYER_PREFIX) if payer.startswith(PAYER_PREFIX) else None


def hash_key(key: str) -> str:
    """What is stored instead of a key: its SHA-256, hex (the key is 256 random bits, so a
    fast hash is enough)."""
    return hashlib.sha256(key.encode()).hexdigest()


def check_budgets(moves: str | None, ai: str | None, think: float | None) -> None:
    """Refuse budgets that cannot work, with a sentence."""
    for option, value in (("--moves", moves), ("--ai", ai)):
        if value is None:
            continue
        try:
            parse_many(value)
        except ValueError as exc:
            raise KeyRefused(
                _(
                    "{option} is not a rate limit such as '600/minute;20000/day': {value}",
                    option=option,
                    value=repr(value),
                )
            ) from exc
    if think is not None and not think > 0:
        raise KeyRefused(
            _("--think must be a positive number of seconds, not {think}", think=repr(think))
        )


def create(
    connection: redis.Redis,
    name: str,
    *,
    moves: str | None = None,
    ai: str | None = None,
    think: float | None = None,
    now: float | None = None,
) -> tuple[str, ApiKey]:
    """A new key named `name` (refused if the name is taken), and what is stored of it."""
    if not NAME.fullmatch(name):
        raise KeyRefused(
            _(
                "a key's name is 1 to 32 lower-case letters, digits and dashes, starting "
                "with a letter: not {name}",
                name=repr(name),
            )
        )
    check_budgets(moves, ai, think)
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    stored = ApiKey(
        name=name, hash=hash_key(key), moves=moves, ai=ai, think=think,
        created=time.time() if now is None else now,
    )  # fmt: skip
    made = connection.eval(
        _CREATE_LUA, 2, API_KEYS, API_KEY_NAMES, name, stored.hash, stored.to_json()
    )
    if not made:
        raise KeyRefused(_("there is a key named {name} already: revoke it first", name=repr(name)))
    return key, stored


def revoke(connection: redis.Redis, name: str) -> bool:
    """Revoke the key named `name`; False if there is none."""
    return bool(connection.eval(_REVOKE_LUA, 2, API_KEYS, API_KEY_NAMES, name))


def listed(connection: redis.Redis) -> list[ApiKey]:
    """Every key, by name."""
    found = [ApiKey.from_json(raw) for raw in connection.hvals(API_KEYS)]
    return sorted(found, key=lambda k: k.name)


def find(connection: redis.Redis, key: str) -> ApiKey | None:
    """The key's record, or None for a key never made or revoked."""
    digest = hash_key(key)
    raw = connection.hget(API_KEYS, digest)
    if raw is None:
        return None
    stored = ApiKey.from_json(raw)
    return stored if hmac.compare_digest(stored.hash, digest) else None


def named(connection: redis.Redis, name: str) -> ApiKey | None:
    """The key named `name`, or None (never made, or revoked)."""
    digest = connection.hget(API_KEY_NAMES, name)
    if digest is None:
        return None
    raw = connection.hget(API_KEYS, digest)
    return None if raw is None else ApiKey.from_json(raw)
