"""Fixtures of the third game's tests: the API with real RQ workers (`tests/worker`'s), and
Trio registered in this process for the test's length, its responses left out of the
published document's judgement (`tests.contract`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import ai.registry
import engine.registry
from tests.contract import Contract
from tests.thirdgame.bots import BOT_KIND
from tests.thirdgame.engine import GAME_KIND, NAME
from tests.worker.conftest import app, client, connection, workers  # noqa: F401  (fixtures used here)

ROOT = Path(__file__).resolve().parents[2]
#: What a worker process needs to know Trio: the plugin modules, importable from the root.
PLUGIN_ENV = {
    engine.registry.PLUGINS: "tests.thirdgame.engine,tests.thirdgame.bots",
    "PYTHONPATH": str(ROOT),
}


class Unpublished:
    """The ids of Trio's games, jobs and matches, which the contract does not judge."""

    def __init__(self, contract: Contract) -> None:
        self.contract = contract
        self.added: set[str] = set()

    def add(self, *ids: str) -> None:
        self.added.update(ids)
        self.contract.unpublished.update(ids)


@pytest.fixture
def trio(responses_hold_to_the_document: Contract) -> Iterator[Unpublished]:
    engine.registry.register(GAME_KIND)
    ai.registry.register(BOT_KIND)
    unpublished = Unpublished(responses_hold_to_the_document)
    unpublished.add(NAME)
    try:
        yield unpublished
    finally:
        responses_hold_to_the_document.unpublished.difference_update(unpublished.added)
        ai.registry.unregister(NAME)
        engine.registry.unregister(NAME)
