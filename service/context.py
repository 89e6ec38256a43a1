"""Where a request finds the app's long-lived objects: the store, the bot runner, the
`GameService` built on them and the admission of the AI on demand, made once by
`create_app` and kept in `app.extensions`; and the request being served."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Request, current_app, request

from core.jobs.admission import Admission
from core.play.bots import BotRunner
from core.play.games import GameService
from core.store.redises import Redises
from core.store.store import GameStore

EXTENSION = "pocha"


@dataclass(frozen=True)
class Services:
    #: The store and the queues (`core.store.redises`).
    redises: Redises
    store: GameStore
    bots: BotRunner
    games: GameService
    admission: Admission


def current_request() -> Request:
    """The request being served, found once: each `flask.request.name` finds the request
    anew through the context (three calls), and a hook on every request that reads
    several of its attributes would pay that for each."""
    found: Request = request._get_current_object()  # type: ignore[attr-defined]
    return found


def services() -> Services:
    found: Services = current_app.extensions[EXTENSION]
    return found


def game_service() -> GameService:
    return services().games
