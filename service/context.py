"""Where a request finds the app's long-lived objects: the store, the bot runner and the
`GameService` built on them, made once by `create_app` and kept in `app.extensions`."""

from __future__ import annotations

from dataclasses import dataclass

import redis
from flask import current_app

from core.bots import BotRunner
from core.games import GameService
from core.store import GameStore

EXTENSION = "pocha"


@dataclass(frozen=True)
class Services:
    redis: redis.Redis
    store: GameStore
    bots: BotRunner
    games: GameService


def services() -> Services:
    found: Services = current_app.extensions[EXTENSION]
    return found


def game_service() -> GameService:
    return services().games
