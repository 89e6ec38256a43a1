"""Bid calibration: does a bot bid, on average, the tricks it then takes?
How it works: docs/internals.md, ``ai.pocha.calibration``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ai.pocha.arena import parse_player, run_arena
from engine.pocha.rules import Rules

# The play obligations' combinations that differ: pisar only matters when fallar binds.
OBLIGATIONS: tuple[tuple[bool, bool, bool], ...] = (
    (True, True, True),
    (True, True, False),
    (True, False, True),
    (False, True, True),
    (False, True, False),
    (False, False, True),
)


@dataclass(frozen=True)
class Calibration:
    players: int
    montar: bool
    fallar: bool
    pisar: bool
    hands: int
    mean_bid: float
    mean_tricks: float
    exact_rate: float
    mean_score: float

    @property
    def gap(self) -> float:
        """Mean bid minus mean tricks: below zero the bot underbids."""
        return self.mean_bid - self.mean_tricks


def calibrate(
    bot: str = "heuristic",
    against: str = "hard",
    players: Sequence[int] = (3, 4, 5, 6, 7, 8),
    games: int = 20,
    seed: int = 0,
    processes: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[Calibration]:
    """``bot`` in one seat, ``against`` in the others, under every rule set; one line per
    set, of ``bot``'s figures."""
    out = []
    sets = [(n, o) for n in players for o in OBLIGATIONS]
    for i, (n, (montar, fallar, pisar)) in enumerate(sets):
        rules = Rules(players=n, montar=montar, fallar=fallar, pisar=pisar)
        me = parse_player(bot)
        lineup = [me] + [parse_player(against)] * (n - 1)
        stats, _ = run_arena(
            rules, lineup, games, seed=seed + i, processes=processes, duplicate=False
        )
        (s,) = [s for s in stats if s.bot == me.label]
        out.append(
            Calibration(
                n,
                montar,
                fallar,
                pisar,
                s.hands,
                s.mean_bid,
                s.mean_tricks,
                s.exact_rate,
                s.mean_score,
            )
        )
        if progress:
            progress(i + 1, len(sets))
    return out
