"""Whether a hint or an AI move may be queued now: let in by the thinking it orders
(the address's think budget, in seconds, which one request may never exceed), and refused
at once rather than queued behind more than the workers can start soon, counting what its
lane of `pocha-high` waits for.
How it works: docs/internals.md, `core.jobs.admission`.
"""

from __future__ import annotations

import math
import time
import weakref
from dataclasses import dataclass, field
from typing import Any

import redis

from core.config import is_on
from core.errors import Busy, OverThinkBudget, RateLimited
from core.jobs.queues import HIGH, on_demand_lane_of
from core.jobs.status import workers_serving
from core.store.api_keys import ApiKey, name_of_payer, named
from core.store.keys import (
    ADVICE_QUEUED,
    ADVICE_QUEUED_LANES,
    ADVICE_QUEUED_SECONDS,
    think_limit_key,
)
from core.store.records import client_hash
from engine.i18n import N_, _

#: The think budget is so many seconds of thinking per this many seconds of wall time.
WINDOW = 60
#: At most this many on-demand jobs are queued at once, whatever their thinking: the
#: estimate stays small enough to add up in every admission.
MAX_QUEUED_JOBS = 1000
#: How long a count of the workers that take on-demand jobs is used before it is read again.
CAPACITY_SECONDS = 2.0

# KEYS: the payer's budget (a timestamp), queued jobs (id -> drop time), queued seconds
# (id -> seconds), queued lanes (id -> lane). ARGV: now, job id, its seconds (a window's
# budget at most: `Admission.admit` checks), its drop time, wall seconds per second of
# thinking (0: no budget), the window, workers taking the jobs, the longest wait (negative:
# no bound), the most jobs, the keys' TTL (ms), its lane.
# Returns {'ok'}, {'rate_limited', seconds over} or {'busy', seconds over, seconds ahead}.
# The wait is what the workers, serving the lanes in turn, take before the job: every job
# of its own lane, and from each other lane one before each of those and one before it.
# The drop time orders the jobs as they came (each is dropped as long after), and at most
# the most jobs are read.
_ADMIT_LUA = """
local now = tonumber(ARGV[1])
local seconds = tonumber(ARGV[3])
local rate = tonumber(ARGV[5])
local window = tonumber(ARGV[6])
local lane = ARGV[11]
local spent = 0
if rate > 0 then
  local drained_at = tonumber(redis.call('GET', KEYS[1]) or '0')
  spent = math.max(0, drained_at - now) + seconds * rate
  if spent > window then return {'rate_limited', tostring(spent - window)} end
end
while true do
  local dropped = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, 500)
  if #dropped == 0 then break end
  redis.call('HDEL', KEYS[3], unpack(dropped))
  redis.call('HDEL', KEYS[4], unpack(dropped))
  redis.call('ZREM', KEYS[2], unpack(dropped))
end
local max_wait = tonumber(ARGV[8])
if max_wait >= 0 then
  local most = tonumber(ARGV[9])
  local ids = redis.call('ZRANGE', KEYS[2], 0, most - 1)
  local ahead, own, others = 0, 0, {}
  if #ids > 0 then
    local queued = redis.call('HMGET', KEYS[3], unpack(ids))
    local lanes = redis.call('HMGET', KEYS[4], unpack(ids))
    for i = 1, #ids do
      local value = tonumber(queued[i]) or 0
      local other = lanes[i] or ''
      if other == lane then
        own = own + 1
        ahead = ahead + value
      else
        local jobs = others[other]
        if jobs == nil then
          jobs = {}
          others[other] = jobs
        end
        jobs[#jobs + 1] = value
      end
    end
  end
  for _, jobs in pairs(others) do
    for i = 1, math.min(#jobs, own + 1) do ahead = ahead + jobs[i] end
  end
  local wait = ahead / tonumber(ARGV[7])
  if wait > max_wait or #ids >= most then
    return {'busy', tostring(wait - max_wait), tostring(ahead)}
  end
end
if rate > 0 then
  redis.call('SET', KEYS[1], tostring(now + spent), 'PX', math.ceil(spent * 1000))
end
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[2])
redis.call('HSET', KEYS[3], ARGV[2], ARGV[3])
redis.call('HSET', KEYS[4], ARGV[2], lane)
redis.call('PEXPIRE', KEYS[2], ARGV[10])
redis.call('PEXPIRE', KEYS[3], ARGV[10])
redis.call('PEXPIRE', KEYS[4], ARGV[10])
return {'ok'}
"""


@dataclass(eq=False)
class Admission:
    """The checks of one API process (or tool): the think budget per address (None: none)
    and the longest estimated wait (None: no bound, the estimate is kept all the same). It
    keeps a count of workers between requests, so it is one object, compared by identity."""

    budget: float | None
    max_wait: float | None
    max_jobs: int = MAX_QUEUED_JOBS
    #: When the count of workers was read, and the count (threads of a process share it: two
    #: reading it at once is harmless).
    _capacity: tuple[float, int] = field(default=(-math.inf, 1), init=False, repr=False)

    def __post_init__(self) -> None:
        for name, value in (("POCHA_THINK_BUDGET", self.budget),
                            ("POCHA_THINK_WAIT_MAX", self.max_wait)):  # fmt: skip
            if value is not None and not value > 0:
                raise ValueError(f"{name} must be a positive number of seconds, not {value!r}")

    @classmethod
    def from_settings(cls, settings: dict[str, Any]) -> Admission:
        """The checks the settings ask for: the budget comes with the rate limits."""
        budget = float(settings["THINK_BUDGET"]) if is_on(settings["RATE_LIMITS"]) else None
        return cls(budget=budget, max_wait=float(settings["THINK_WAIT_MAX"]))

    def capacity(self, connection: redis.Redis) -> int:
        """The workers taking on-demand jobs, at least one: with none alive, a job waits for
        the first to (re)start, and `/readyz` says so."""
        now = time.monotonic()
        read_at, count = self._capacity
        if now - read_at >= CAPACITY_SECONDS:
            count = max(1, workers_serving(connection, HIGH))
            self._capacity = (now, count)
        return count

    def admit(
        self,
        connection: redis.Redis,
        job_id: str,
        seconds: float,
        address: str | None,
        drop_after: int,
        now: float | None = None,
        key: ApiKey | None = None,
    ) -> str:
        """Take a place for the job `job_id`, estimated at `seconds` of thinking, asked for
        from `address` (or with `key`, whose budget it then spends), which RQ drops
        unstarted after `drop_after` seconds, in its payer's lane of `pocha-high`: that
        lane, to queue it in; `RateLimited` or `Busy` if it may not have one now, and
        `OverThinkBudget` if `seconds` are more than its payer's budget gives in a window
        (`now` is for tests)."""
        now = time.time() if now is None else now
        budget = self.budget
        if key is not None and budget is not None and key.think is not None:
            budget = key.think
        payer = key.payer if key is not None else client_hash(address) if address else None
        lane = on_demand_lane_of(payer)
        rate = WINDOW / budget if budget is not None and payer else 0
        if rate and budget is not None and seconds > budget:
            # More than a window's budget: let in as a burst once the budget drained, it
            # would hold a worker longer than the budget gives anyone, again and again.
            raise OverThinkBudget(
                _(
                    _TOO_MUCH_FOR_KEY if key is not None else _TOO_MUCH,
                    budget=format(budget, "g"),
                    seconds=format(seconds, ".4g"),
                )
            )
        bounded = self.max_wait is not None
        answer = connection.eval(
            _ADMIT_LUA,
            4,
            think_limit_key(payer or ""),
            ADVICE_QUEUED,
            ADVICE_QUEUED_SECONDS,
            ADVICE_QUEUED_LANES,
            repr(now),
            job_id,
            repr(seconds),
            repr(now + drop_after),
            repr(rate),
            WINDOW,
            self.capacity(connection) if bounded else 1,
            repr(self.max_wait) if self.max_wait is not None else -1,
            self.max_jobs,
            drop_after * 1000,
            lane,
        )
        verdict = _text(answer[0])
        if verdict == "ok":
            return lane
        retry_after = max(1, math.ceil(float(_text(answer[1]))))
        if verdict == "rate_limited":
            assert budget is not None
            raise RateLimited(
                _(
                    _THINKING_SPENT_BY_KEY if key is not None else _THINKING_SPENT,
                    budget=format(budget, "g"),
                    seconds=format(seconds, ".2g"),
                    retry_after=retry_after,
                ),
                retry_after,
            )
        queued = float(_text(answer[2]))
        raise Busy(
            _(
                "The bots are busy: {queued} s of thinking is queued for hints and AI moves, "
                "more than they can start within {max_wait} s; try again in {retry_after} s.",
                queued=format(queued, ".0f"),
                max_wait=format(self.max_wait, "g"),
                retry_after=retry_after,
            ),
            retry_after,
        )


#: How long a worker process uses a key's think budget before it reads it again (a key is
#: revoked or made again under its name rarely; its games' bots read it on every decision).
KEY_BUDGET_SECONDS = 10.0
#: The keys' Redis -> key name -> when its budget was read (monotonic) and the budget (None:
#: the default). Only names of keys that made games reach it, so it holds a few entries.
_KEY_BUDGETS: weakref.WeakKeyDictionary[Any, dict[str, tuple[float, float | None]]] = (
    weakref.WeakKeyDictionary()
)


# Spend seconds of a client's think budget. KEYS: its budget (a timestamp). ARGV: now, the
# wall seconds the spending costs (seconds of thinking times the rate), the window.
_SPEND_LUA = """
local now = tonumber(ARGV[1])
local drained_at = tonumber(redis.call('GET', KEYS[1]) or '0')
local at = math.max(drained_at, now) + tonumber(ARGV[2])
redis.call('SET', KEYS[1], tostring(at), 'PX', math.ceil((at - now + tonumber(ARGV[3])) * 1000))
return tostring(at)
"""


@dataclass(frozen=True)
class ThinkPurse:
    """The think budgets that the bots of games spend, each game its maker's
    (`StoredGame.payer`, a `client_hash`), in the same cells as the hints and AI moves
    that client orders (`Admission.admit`)."""

    #: The Redis of those cells: the API's queue Redis (the first group's).
    connection: redis.Redis
    #: Seconds of thinking a minute, per client.
    budget: float
    #: The store, where a game made with a key finds that key's own budget (None: every
    #: payer has `budget`).
    keys: redis.Redis | None = None

    def budget_of(self, payer: str, now: float | None = None) -> float:
        """The think budget of `payer`: its key's own, while the key lives and has one."""
        name = name_of_payer(payer)
        if name is None or self.keys is None:
            return self.budget
        now = time.monotonic() if now is None else now
        # Per Redis the keys live in: a name means another key on another store.
        budgets = _KEY_BUDGETS.setdefault(self.keys, {})
        cached = budgets.get(name)
        if cached is None or now - cached[0] >= KEY_BUDGET_SECONDS:
            key = named(self.keys, name)
            cached = (now, None if key is None else key.think)
            budgets[name] = cached
        return self.budget if cached[1] is None else cached[1]

    def may_think(self, payer: str, now: float | None = None) -> bool:
        """Whether the client still has budget left (its spending drains within the
        window)."""
        now = time.time() if now is None else now
        raw = self.connection.get(think_limit_key(payer))
        return raw is None or float(raw) - now <= WINDOW

    def spend(self, payer: str, seconds: float, now: float | None = None) -> None:
        """The client's bots thought `seconds`."""
        now = time.time() if now is None else now
        self.connection.eval(
            _SPEND_LUA, 1, think_limit_key(payer), repr(now),
            repr(seconds * WINDOW / self.budget_of(payer)), WINDOW,
        )  # fmt: skip


_THINKING_SPENT = N_(
    "Your address has used its thinking time for hints and AI moves (at most {budget} s of "
    "thinking a minute; this request may take {seconds} s); try again in {retry_after} s."
)
_THINKING_SPENT_BY_KEY = N_(
    "Your key has used its thinking time for hints and AI moves (at most {budget} s of "
    "thinking a minute; this request may take {seconds} s); try again in {retry_after} s."
)


_TOO_MUCH = N_(
    "This request may take {seconds} s of thinking, more than your address may spend in a "
    "minute on hints, AI moves and analyses ({budget} s): ask for less thinking, a lower "
    "level or a smaller budget."
)
_TOO_MUCH_FOR_KEY = N_(
    "This request may take {seconds} s of thinking, more than your key may spend in a "
    "minute on hints, AI moves and analyses ({budget} s): ask for less thinking, a lower "
    "level or a smaller budget."
)


#: For tools that queue on-demand jobs themselves: no budget, no bound, the estimate kept.
UNBOUNDED = Admission(budget=None, max_wait=None)


def left_queue(connection: redis.Redis, job_id: str) -> None:
    """The job has left its queue (a worker took it, or it was never queued): its thinking
    is no longer waiting."""
    pipe = connection.pipeline(transaction=False)
    pipe.zrem(ADVICE_QUEUED, job_id)
    pipe.hdel(ADVICE_QUEUED_SECONDS, job_id)
    pipe.hdel(ADVICE_QUEUED_LANES, job_id)
    pipe.execute()


def queued_seconds(connection: redis.Redis) -> float:
    """The estimated thinking queued for the AI on demand now (entries past their drop time
    included until the next admission takes them out)."""
    return sum(float(v) for v in connection.hvals(ADVICE_QUEUED_SECONDS))


def _text(raw: bytes | str) -> str:
    return raw.decode() if isinstance(raw, bytes) else raw
