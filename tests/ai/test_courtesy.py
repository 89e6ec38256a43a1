"""Searches that give way (ai.courtesy): they call the waiting hook every few iterations,
and a search that waits decides exactly as one that does not, for a budget in iterations."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ai import courtesy
from ai.bot import Budget
from ai.registry import Decided, decide_in
from engine.poch.game import Game as PochGame
from engine.pocha.game import Game as PochaGame
from engine.pocha.rules import Rules


@pytest.fixture
def calls() -> Iterator[list[int]]:
    """The calls of the waiting hook while the test runs (it is unset after)."""
    made: list[int] = []
    yield made
    courtesy.wait = None


def decided(
    game: PochaGame | PochGame, level: str, iterations: int, calls: list[int] | None
) -> Decided:
    courtesy.wait = None if calls is None else (lambda: calls.append(1))
    assert game.turn is not None
    try:
        decision = decide_in(game, game.turn, level, seed=5, budget=Budget(iterations=iterations))
    finally:
        courtesy.wait = None
    return decision


def waits(done: int, budget: int, every: int) -> int:
    """The hook's calls in a search of ``done`` iterations: before each ``every``-th one, and
    once more before a settled search stops (ai.bot.settled) short of its budget."""
    return -(-done // every) + (done < budget)


def test_pochas_search_waits_every_four_iterations_and_decides_the_same(
    calls: list[int],
) -> None:
    game = PochaGame.new(Rules.from_dict({"players": 4}), seed=3)
    alone = decided(game, "expert", 400, None)
    waited = decided(game, "expert", 400, calls)
    assert waited.report == {**alone.report, "elapsed_ms": waited.report["elapsed_ms"]}
    assert len(calls) == waits(waited.report["iterations"], 400, 4)


def test_pochs_search_waits_every_eight_iterations_and_decides_the_same(
    calls: list[int],
) -> None:
    game = PochGame.new(seed=3)
    alone = decided(game, "hard", 400, None)
    waited = decided(game, "hard", 400, calls)
    assert waited.report == {**alone.report, "elapsed_ms": waited.report["elapsed_ms"]}
    assert len(calls) == waits(waited.report["iterations"], 400, 8)
