"""Running a small Lua script of the store's by its SHA1, for the modules that keep no
client of their own to register it on: one short command on a busy path, the whole script
sent only the first time a server does not know it (a new or flushed one)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

import redis
from redis.exceptions import NoScriptError


@dataclass(frozen=True)
class Lua:
    """A script and its SHA1."""

    source: str
    sha: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "sha", hashlib.sha1(self.source.encode()).hexdigest())

    def __call__(self, connection: redis.Redis, keys: list[str], args: list[Any]) -> Any:
        try:
            return connection.evalsha(self.sha, len(keys), *keys, *args)
        except NoScriptError:
            return connection.eval(self.source, len(keys), *keys, *args)
