"""The timed turns a bot account plays with its key (a stream bot's, at tables and in
matches at tables): how many it moved in, their mean time from the turn's start, and how
many of its turns' clocks ran out so that the stand-in played them. Shown on the bot's
page. Three counters per bot account, kept without a TTL as the account itself is: they
never grow in number, and a person's turns are not counted (`Seat.bot_account`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import redis

from core.store.keys import account_turns_key


@dataclass(frozen=True)
class Turns:
    decisions: int = 0
    decision_ms: float = 0.0
    clocks_ran_out: int = 0

    def public(self) -> dict[str, Any]:
        mean = self.decision_ms / self.decisions if self.decisions else None
        return {
            "decisions": self.decisions,
            "mean_decision_ms": None if mean is None else round(mean, 1),
            "clocks_ran_out": self.clocks_ran_out,
        }


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def count_move(connection: redis.Redis, account_id: str, milliseconds: float) -> None:
    """The account moved in a timed turn, `milliseconds` after the turn began."""
    pipe = connection.pipeline(transaction=False)  # one key: one node
    pipe.hincrby(account_turns_key(account_id), "decisions", 1)
    pipe.hincrbyfloat(account_turns_key(account_id), "decision_ms", max(0.0, milliseconds))
    pipe.execute()


def count_clock_ran_out(connection: redis.Redis, account_id: str) -> None:
    """The clock of one of the account's turns ran out: the stand-in played it."""
    connection.hincrby(account_turns_key(account_id), "clocks_ran_out", 1)


def get(connection: redis.Redis, account_id: str) -> Turns | None:
    """The account's count, or None if it never had a timed turn."""
    raw = connection.hgetall(account_turns_key(account_id))
    if not raw:
        return None
    f = {_text(k): _text(v) for k, v in raw.items()}
    return Turns(
        int(f.get("decisions", 0)), float(f.get("decision_ms", 0.0)),
        int(f.get("clocks_ran_out", 0)),
    )  # fmt: skip
