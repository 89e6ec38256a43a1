"""Challenges between accounts, as stored: who made one, the accounts and bot levels it
seats (the maker first), the game, its rules and whether it is rated, each challenged
account's answer and the challenge's status (`open`, then `accepted`, `declined`,
`cancelled` or `expired`; `starting` while its game is being made). Made in one script
that caps the open challenges of the maker and those waiting for each account it names;
an answer is one script too, so that the last acceptance, and only it, makes the game.
Every change tells the accounts' event streams. A challenge to an account that blocks its
maker (`core.store.blocks`) is refused in the making script; blocking sets the blocked
account's challenges to the blocker aside (`set_aside`). How it works: docs/bots-api.md.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field
from typing import Any

import redis

from core.store.bot_games import tell
from core.store.keys import (
    account_blocks_key,
    account_challenges_key,
    challenge_key,
    challenges_lately_key,
    challenges_made_key,
    challenges_received_key,
    plain_id,
)

#: The most open challenges one account may have made at once.
MOST_MADE = 10
#: The most open challenges that may wait for one account at once, whoever made them.
MOST_RECEIVED = 20
#: The most of those that may come from one challenger, or from one client address: else
#: two accounts made at one address would hold all of an account's waiting places, and
#: nobody else could challenge it for as long as they kept them.
MOST_FROM_ONE = 5
#: How long an ended challenge stays readable (seconds).
KEEP_SECONDS = 3600
#: Challenges count again while they are remembered (until `KEEP_SECONDS` after each
#: ends), whatever their end: else making and cancelling them (or letting them expire)
#: over and over, each time within the caps on open ones above, would flood an account's
#: event stream and the set of its challenges. The most one account may have made lately:
MOST_MADE_LATELY = 200
#: The most challenges one account may have received lately, whoever made them:
MOST_RECEIVED_LATELY = 200
#: The most of those from one challenger, or one client address (as `MOST_FROM_ONE`):
MOST_FROM_ONE_LATELY = 20
#: The statuses of a challenge that has ended.
ENDED = ("accepted", "declined", "cancelled", "expired")

# KEYS: challenge hash, the maker's open set, its own set and its set of those made lately,
# then per challenged account six: its open set, its own set, its set of those received
# lately, and of those received lately from the maker, and from the maker's source, and the
# set of the accounts it blocks. ARGV:
# now, expires, forget at, id, most made, most received, most from one, the maker, its
# source (a client address's hash, or ""), most made lately, most received lately, most
# from one lately, then the fields as pairs. {1}; {-1, seconds}: the maker has too many
# open; {-2, index, seconds}: the challenged account at index (1-based) has too many
# waiting; {-3, index, seconds}: too many of those are the maker's, or its source's;
# {-4, seconds}: the maker made too many lately; {-5, index, seconds}: the challenged
# account at index received too many lately; {-6, index, seconds}: too many of those came
# from the maker, or its source; {-7, index}: the challenged account at index blocks the
# maker (asked first, so that a refused maker is told so, whatever else). A waiting
# challenge's hash is found by its id beside this one's, under the same hash tag. Every
# count lately is one ZCARD, so that the script's time does not grow with what the caps
# allow.
_MAKE_LUA = """
local now, expires, forget = tonumber(ARGV[1]), ARGV[2], ARGV[3]
-- An account's sets live until the last challenge in them expires (its open sets) or is
-- forgotten (the others): an account challenged no more would otherwise keep the ids of
-- its old ones for ever.
local function keep_until(key, when)
  local at = math.ceil(tonumber(when))
  local left = redis.call('TTL', key)
  if left < 0 or now + left < at then redis.call('EXPIREAT', key, at) end
end
-- How many a set of challenges remembered holds, and when its soonest is forgotten.
local function lately(key)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  local soonest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  return redis.call('ZCARD', key), tonumber(soonest[2] or now)
end
local prefix = string.sub(KEYS[1], 1, #KEYS[1] - #ARGV[4])
local most_from_one, maker, source = tonumber(ARGV[7]), ARGV[8], ARGV[9]
local made_lately, received_lately = tonumber(ARGV[10]), tonumber(ARGV[11])
local from_one_lately = tonumber(ARGV[12])
local n = (#KEYS - 4) / 6
for i = 1, n do
  if redis.call('ZSCORE', KEYS[4 + 6 * i], maker) then return {-7, i} end
end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[5]) then
  local soonest = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
  return {-1, math.ceil(tonumber(soonest[2]) - now)}
end
local made, made_soonest = lately(KEYS[4])
if made >= made_lately then return {-4, math.ceil(made_soonest - now)} end
for i = 1, n do
  local base = 4 + 6 * (i - 1)
  local mine, soonest = lately(KEYS[base + 4])
  if mine >= from_one_lately then return {-6, i, math.ceil(soonest - now)} end
  if source ~= '' then
    mine, soonest = lately(KEYS[base + 5])
    if mine >= from_one_lately then return {-6, i, math.ceil(soonest - now)} end
  end
  local received, received_soonest = lately(KEYS[base + 3])
  if received >= received_lately then return {-5, i, math.ceil(received_soonest - now)} end
end
for i = 1, n do
  local waiting = KEYS[4 + 6 * (i - 1) + 1]
  redis.call('ZREMRANGEBYSCORE', waiting, '-inf', now)
  if redis.call('ZCARD', waiting) >= tonumber(ARGV[6]) then
    local soonest = redis.call('ZRANGE', waiting, 0, 0, 'WITHSCORES')
    return {-2, i, math.ceil(tonumber(soonest[2]) - now)}
  end
  local mine, soonest = 0, nil
  local open = redis.call('ZRANGE', waiting, 0, -1, 'WITHSCORES')
  for j = 1, #open, 2 do
    local from = redis.call('HMGET', prefix .. open[j], 'challenger', 'payer')
    if from[1] == maker or (source ~= '' and from[2] == source) then
      mine = mine + 1
      soonest = soonest or tonumber(open[j + 1])
    end
  end
  if mine >= most_from_one then
    return {-3, i, math.ceil(soonest - now)}
  end
end
redis.call('HSET', KEYS[1], unpack(ARGV, 13))
redis.call('EXPIREAT', KEYS[1], math.ceil(tonumber(forget)))
redis.call('ZADD', KEYS[2], expires, ARGV[4])
redis.call('ZADD', KEYS[3], forget, ARGV[4])
redis.call('ZADD', KEYS[4], forget, ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
keep_until(KEYS[2], expires)
keep_until(KEYS[3], forget)
keep_until(KEYS[4], forget)
for i = 1, n do
  local base = 4 + 6 * (i - 1)
  redis.call('ZADD', KEYS[base + 1], expires, ARGV[4])
  keep_until(KEYS[base + 1], expires)
  local last = source ~= '' and 5 or 4
  for k = 2, last do
    redis.call('ZADD', KEYS[base + k], forget, ARGV[4])
    keep_until(KEYS[base + k], forget)
  end
  redis.call('ZREMRANGEBYSCORE', KEYS[base + 2], '-inf', now)
end
return {1}
"""

# KEYS: challenge hash. ARGV: now, the answering account, its answer (`accepted`,
# `declined`, or `cancelled` from the maker), then every challenged account. {status, 1}
# when the answer was taken (`starting`: this acceptance was the last one, its caller makes
# the game), {status, 0} when the challenge was no longer open; nil: no such challenge.
_ANSWER_LUA = """
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return nil end
if status ~= 'open' then return {status, 0} end
if tonumber(redis.call('HGET', KEYS[1], 'expires')) <= tonumber(ARGV[1]) then
  redis.call('HSET', KEYS[1], 'status', 'expired')
  return {'expired', 0}
end
if ARGV[3] ~= 'accepted' then
  redis.call('HSET', KEYS[1], 'status', ARGV[3])
  return {ARGV[3], 1}
end
redis.call('HSET', KEYS[1], 'answer:' .. ARGV[2], 'accepted')
for i = 4, #ARGV do
  if redis.call('HGET', KEYS[1], 'answer:' .. ARGV[i]) ~= 'accepted' then return {'open', 1} end
end
redis.call('HSET', KEYS[1], 'status', 'starting')
return {'starting', 1}
"""


# KEYS: the blocker's set of the challenges received lately from the account it blocks now,
# its set of those received lately from anyone, its own set, the challenges' key prefix
# (`challenge_key("")`). ARGV: now. The ids of the open ones, which it declines here. Each
# of them leaves the other two sets: it no longer counts against the blocker's cap on
# challenges received, nor stays in its list (which the caps keep to some hundreds).
_SET_ASIDE_LUA = """
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local declined = {}
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local found = redis.call('HMGET', KEYS[4] .. id, 'status', 'expires')
  if found[1] == 'open' and tonumber(found[2]) > now then
    redis.call('HSET', KEYS[4] .. id, 'status', 'declined')
    table.insert(declined, id)
  end
  redis.call('ZREM', KEYS[2], id)
  redis.call('ZREM', KEYS[3], id)
end
return declined
"""


@dataclass(frozen=True)
class Challenge:
    """A challenge as stored; `status` as it stands now (an open one past its expiry is
    `expired`)."""

    id: str
    challenger: str
    game: str
    rules: dict[str, Any]
    rated: bool
    #: The seats in order: `{"account": id}` or `{"bot": level}`; the maker's first.
    seats: list[dict[str, str]]
    status: str
    created: float
    expires: float
    accepted: list[str] = field(default_factory=list)
    game_id: str | None = None
    #: Whose think budget its game's bots and stand-in spend: the challenger's address's
    #: (`StoredGame.payer`); never shown.
    payer: str | None = None

    def public(self) -> dict[str, Any]:
        """What its accounts and anyone with its id see of it."""
        return {
            "id": self.id,
            "challenger": self.challenger,
            "game": self.game,
            "rules": self.rules,
            "rated": self.rated,
            "seats": [{"account": s.get("account"), "bot": s.get("bot")} for s in self.seats],
            "status": self.status,
            "accepted": sorted(self.accepted),
            "created": self.created,
            "expires": self.expires,
            "game_id": self.game_id,
        }

    @property
    def challenged(self) -> list[str]:
        """The accounts it names, in seat order, the maker left out."""
        return [s["account"] for s in self.seats[1:] if "account" in s]

    @property
    def accounts(self) -> list[str]:
        """Every account it involves: the maker and the challenged."""
        return [self.challenger, *self.challenged]


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _read(fields: dict[str, str], now: float) -> Challenge:
    status = fields["status"]
    expires = float(fields["expires"])
    if status in ("open", "starting") and expires <= now:
        status = "expired"
    return Challenge(
        id=fields["id"],
        challenger=fields["challenger"],
        game=fields["game"],
        rules=json.loads(fields["rules"]),
        rated=fields["rated"] == "1",
        seats=json.loads(fields["seats"]),
        status=status,
        created=float(fields["created"]),
        expires=expires,
        accepted=[k.removeprefix("answer:") for k, v in fields.items()
                  if k.startswith("answer:") and v == "accepted"],
        game_id=fields.get("game_id") or None,
        payer=fields.get("payer") or None,
    )  # fmt: skip


class TooMany(Exception):
    """The maker has `MOST_MADE` open challenges (`account` None), or `account` has
    `MOST_RECEIVED` waiting, or `MOST_FROM_ONE` of them from the maker or its address
    (`from_one`); `retry_after`: seconds until the soonest of those expires. `lately`: the
    same counts of the challenges remembered instead of the open ones (`MOST_MADE_LATELY`,
    `MOST_RECEIVED_LATELY`, `MOST_FROM_ONE_LATELY`), until the soonest is forgotten."""

    def __init__(
        self, account: str | None, retry_after: int, from_one: bool = False, lately: bool = False
    ) -> None:
        super().__init__(account)
        self.account = account
        self.retry_after = retry_after
        self.from_one = from_one
        self.lately = lately


class Refused(Exception):
    """`account` blocks the maker (`core.store.blocks`): nothing was written."""

    def __init__(self, account: str) -> None:
        super().__init__(account)
        self.account = account


def _from(who: str) -> str:
    """The `challenges_lately_key` part of the challenges from one challenger or address."""
    return "from:" + hashlib.sha256(who.encode()).hexdigest()[:32]


def make(
    connection: redis.Redis,
    challenger: str,
    game: str,
    rules: dict[str, Any],
    rated: bool,
    seats: list[dict[str, str]],
    seconds: float,
    now: float | None = None,
    payer: str | None = None,
    source: str | None = None,
) -> Challenge:
    """A new open challenge, expiring in `seconds`, told to every account it names; or
    `Refused` (a challenged account blocks the maker), or `TooMany`. `payer`: whose think
    budget its game will spend; `source`: the payer when it is a client address's (an
    integrator's key relays many people, and is not capped as one), whose challenges
    waiting for one account are capped as the maker's are."""
    now = time.time() if now is None else now
    challenge_id = plain_id()
    expires = now + seconds
    forget = expires + KEEP_SECONDS
    fields = {
        "id": challenge_id, "challenger": challenger, "game": game,
        "rules": json.dumps(rules), "rated": "1" if rated else "0", "seats": json.dumps(seats),
        "status": "open", "created": repr(now), "expires": repr(expires),
    }  # fmt: skip
    if payer is not None:
        fields["payer"] = payer
    challenged = [s["account"] for s in seats[1:] if "account" in s]
    keys = [
        challenge_key(challenge_id), challenges_made_key(challenger),
        account_challenges_key(challenger), challenges_lately_key(challenger, "made"),
    ]  # fmt: skip
    from_maker, from_source = _from(f"account:{challenger}"), _from(f"source:{source or ''}")
    for account in challenged:
        keys += [
            challenges_received_key(account), account_challenges_key(account),
            challenges_lately_key(account, "received"), challenges_lately_key(account, from_maker),
            challenges_lately_key(account, from_source), account_blocks_key(account),
        ]  # fmt: skip
    answer = connection.eval(
        _MAKE_LUA, len(keys), *keys, repr(now), repr(expires), repr(forget), challenge_id,
        MOST_MADE, MOST_RECEIVED, MOST_FROM_ONE, challenger, source or "",
        MOST_MADE_LATELY, MOST_RECEIVED_LATELY, MOST_FROM_ONE_LATELY,
        *(x for pair in fields.items() for x in pair),
    )  # fmt: skip
    refused = int(answer[0])
    if refused == -7:
        raise Refused(challenged[int(answer[1]) - 1])
    if refused in (-1, -4):
        raise TooMany(None, max(1, int(answer[1])), lately=refused == -4)
    if refused < 0:
        account = challenged[int(answer[1]) - 1]
        raise TooMany(
            account, max(1, int(answer[2])), from_one=refused in (-3, -6), lately=refused < -3
        )
    for account in [challenger, *challenged]:
        tell(connection, account)
    return _read(fields, now)


def get(connection: redis.Redis, challenge_id: str, now: float | None = None) -> Challenge | None:
    raw = connection.hgetall(challenge_key(challenge_id))
    if not raw:
        return None
    return _read({_text(k): _text(v) for k, v in raw.items()}, time.time() if now is None else now)


def answer(
    connection: redis.Redis, challenge: Challenge, account: str, what: str,
    now: float | None = None,
) -> tuple[str | None, bool]:  # fmt: skip
    """`account` answers `what` (`accepted`, `declined`; the maker: `cancelled`): the
    status after it and whether the answer was taken (see `_ANSWER_LUA`); a challenge
    that ends leaves the open sets and is told to its accounts."""
    now = time.time() if now is None else now
    raw = connection.eval(
        _ANSWER_LUA, 1, challenge_key(challenge.id), repr(now), account, what,
        *challenge.challenged,
    )  # fmt: skip
    if raw is None:
        return None, False
    status, taken = _text(raw[0]), bool(int(raw[1]))
    if status in ENDED:
        _closed(connection, challenge)
    elif status == "open":
        for someone in challenge.accounts:
            tell(connection, someone)
    return status, taken


def set_aside(
    connection: redis.Redis, account_id: str, challenger_id: str, now: float | None = None
) -> list[str]:
    """`account_id` blocks `challenger_id` now: the challenges `challenger_id` made to it
    that are still open are declined (and told), and none of those remembered counts any
    more against its cap on challenges received lately, nor is listed as its own. The ids
    declined. Run after the block is stored: a challenge made before it is in the set walked
    here, and one made after it is refused."""
    now = time.time() if now is None else now
    keys = [
        challenges_lately_key(account_id, _from(f"account:{challenger_id}")),
        challenges_lately_key(account_id, "received"),
        account_challenges_key(account_id),
        challenge_key(""),
    ]
    declined = [_text(c) for c in connection.eval(_SET_ASIDE_LUA, len(keys), *keys, repr(now))]
    for challenge_id in declined:
        found = get(connection, challenge_id, now)
        if found is not None:
            _closed(connection, found)
    return declined


def started(connection: redis.Redis, challenge: Challenge, game_id: str) -> None:
    """The game of a challenge every account accepted was made: it is `accepted`."""
    connection.hset(challenge_key(challenge.id), mapping={"status": "accepted", "game_id": game_id})
    _closed(connection, challenge)


# KEYS: the challenge, then the sets of the accounts each challenged account blocks. ARGV:
# the maker. 'open' again, or 'declined' when a challenged account blocked the maker while
# the game was being made (the block declines only open challenges, and set this one aside).
_FAILED_LUA = """
for i = 2, #KEYS do
  if redis.call('ZSCORE', KEYS[i], ARGV[1]) then
    redis.call('HSET', KEYS[1], 'status', 'declined')
    return 'declined'
  end
end
redis.call('HSET', KEYS[1], 'status', 'open')
return 'open'
"""


def failed(connection: redis.Redis, challenge: Challenge) -> None:
    """Its game could not be made: it is open again (an acceptance may be sent again),
    unless a challenged account has blocked its maker since: then it is declined."""
    keys = [challenge_key(challenge.id), *map(account_blocks_key, challenge.challenged)]
    status = _text(connection.eval(_FAILED_LUA, len(keys), *keys, challenge.challenger))
    if status == "declined":
        _closed(connection, challenge)


def _closed(connection: redis.Redis, challenge: Challenge) -> None:
    pipe = connection.pipeline(transaction=False)
    pipe.zrem(challenges_made_key(challenge.challenger), challenge.id)
    for account in challenge.challenged:
        pipe.zrem(challenges_received_key(account), challenge.id)
    pipe.execute()
    for account in challenge.accounts:
        tell(connection, account)


def of_account(
    connection: redis.Redis, account_id: str, now: float | None = None
) -> list[Challenge]:
    """The challenges an account made or received that are still remembered, oldest first."""
    now = time.time() if now is None else now
    ids = connection.zrangebyscore(account_challenges_key(account_id), now, "+inf")
    pipe = connection.pipeline(transaction=False)
    for challenge_id in ids:
        pipe.hgetall(challenge_key(_text(challenge_id)))
    found = [
        _read({_text(k): _text(v) for k, v in raw.items()}, now) for raw in pipe.execute() if raw
    ]
    return sorted(found, key=lambda c: c.created)
