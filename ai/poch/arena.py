"""Poch's arena: one-deal games between bots on duplicate deals; chips per deal decide.
How it works: docs/poch.md, ``ai.poch.arena``.
"""

from __future__ import annotations

import zlib
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ai.arena import Arena, ArenaGame, Roster, play_out
from ai.bot import Player
from ai.poch.levels import BOTS, LEVELS, make_bot
from ai.stats import REST, Curve, Difference, Standing, ci95, running_totals
from engine.i18n import N_
from engine.poch.game import Game
from engine.poch.observation import observe
from engine.poch.rules import Rules

ROSTER = Roster(
    levels=LEVELS,
    bots=BOTS,
    unknown=N_(
        "unknown Poch bot or level {spec}: the levels are {levels}; the bots are "
        "{bots}, which may carry a budget (ismcts:300 or ismcts:50ms)"
    ),
    bad_budget=N_("bad budget in {spec}: ismcts:300 or ismcts:50ms"),
)


def decision_seed(seed: int, *parts: int) -> int:
    """The seed of one decision of a game (its seat and step)."""
    return zlib.crc32(repr(("poch", seed, *parts)).encode())


def play_deal(rules: Rules, seed: int, players: Sequence[Player], deal: int) -> dict[str, Any]:
    """Play one deal (a one-deal game) from ``seed``; its record."""
    one = one_deal(rules)
    game = Game.new(one, seed)
    bots = [make_bot(p.bot) for p in players]
    decisions, think = play_out(game, bots, players, observe, decision_seed, seed)
    return deal_record(game, seed, players, deal, decisions, think)


def one_deal(rules: Rules) -> Rules:
    """The rules a deal is played with: ``rules`` as a one-deal game."""
    return rules if rules.deals == 1 else Rules.from_dict({**rules.to_dict(), "deals": 1})


def deal_record(
    game: Game,
    seed: int,
    players: Sequence[Player],
    deal: int,
    decisions: Sequence[int],
    think: Sequence[float],
) -> dict[str, Any]:
    """The record of a finished one-deal game (the arena's, and a match's on the workers)."""
    one = game.rules
    return {
        "game": "poch",
        "seed": seed,
        "deal": deal,
        "rules": one.to_dict(),
        "seats": [p.label for p in players],
        "chips": [c - one.chips for c in game.chips],
        "winner": game.deal_results[0]["winner"] if game.deal_results else None,
        "decisions": list(decisions),
        "think_ms": [round(t, 3) for t in think],
    }


def _run_task(task: ArenaGame) -> dict[str, Any]:
    return play_deal(task.rules, task.seed, task.players, task.deal)


@dataclass
class PochStats:
    """One bot's figures over an arena run."""

    bot: str
    deals: int
    seats_played: int
    chips_per_deal: float
    ci95: float | None
    wins: float  # deals its seat went out first, per seat played
    ms_per_decision: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "deals": self.deals,
            "seats_played": self.seats_played,
            "chips_per_deal": round(self.chips_per_deal, 4),
            "ci95": None if self.ci95 is None else round(self.ci95, 4),
            "out_first": round(self.wins, 4),
            "ms_per_decision": round(self.ms_per_decision, 3),
        }


def summarize(records: Sequence[dict[str, Any]]) -> list[PochStats]:
    """Per-bot chips per deal with a 95% interval over deals, best first."""
    per_deal: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    out_first: dict[str, int] = defaultdict(int)
    decisions: dict[str, int] = defaultdict(int)
    think: dict[str, float] = defaultdict(float)
    for rec in records:
        for seat, bot in enumerate(rec["seats"]):
            per_deal[bot][rec["deal"]].append(rec["chips"][seat])
            out_first[bot] += rec["winner"] == seat
            decisions[bot] += rec["decisions"][seat]
            think[bot] += rec["think_ms"][seat]
    out = []
    for bot, deals in per_deal.items():
        means = [sum(v) / len(v) for v in deals.values()]
        seats = sum(len(v) for v in deals.values())
        out.append(
            PochStats(
                bot=bot,
                deals=len(deals),
                seats_played=seats,
                chips_per_deal=sum(means) / len(means),
                ci95=ci95(means),
                wins=out_first[bot] / seats,
                ms_per_decision=think[bot] / decisions[bot] if decisions[bot] else 0.0,
            )
        )
    out.sort(key=lambda s: -s.chips_per_deal)
    return out


def _chips_by_deal(records: Sequence[dict[str, Any]]) -> dict[int, dict[Any, list[int]]]:
    """Per deal, per bot (and the rest of each bot's table, under ``(REST, bot)``): the
    chips each of its seats won or lost, over the rotations."""
    out: dict[int, dict[Any, list[int]]] = defaultdict(lambda: defaultdict(list))
    for rec in records:
        for seat, bot in enumerate(rec["seats"]):
            out[rec["deal"]][bot].append(rec["chips"][seat])
            for other in set(rec["seats"]) - {bot}:
                out[rec["deal"]][(REST, other)].append(rec["chips"][seat])
    return out


def standings(records: Sequence[dict[str, Any]], stats: Sequence[PochStats]) -> list[Standing]:
    """Each bot's standing (``stats``' order): going out first, per seat, against one seat
    in the players; and its chips per deal less the rest of the table's, paired by deal
    (the lead's ``per_hand`` is per deal here)."""
    by_deal = _chips_by_deal(records)
    players = len(records[0]["seats"]) if records else 1
    return [
        Standing.over_deals(
            s.bot,
            s.wins,
            s.deals,
            even_win_rate=1 / players,
            lead=Difference.by_deal(
                s.bot, REST, ((by[s.bot], by[REST, s.bot]) for by in by_deal.values())
            ),
        )
        for s in stats
    ]


def paired_difference(records: Sequence[dict[str, Any]], bot: str, other: str) -> Difference:
    """``bot``'s chips per deal less ``other``'s, paired by deal (the difference's
    ``per_hand`` is per deal here)."""
    return Difference.by_deal(
        bot, other, ((by[bot], by[other]) for by in _chips_by_deal(records).values())
    )


def chip_curves(records: Sequence[dict[str, Any]]) -> list[Curve]:
    """Each bot's running chips over the deals: at each deal the mean of its seats' chips
    over the rotations, so that the last total over the deals is its chips per deal and
    the last interval over the deals its ``ci95``."""
    by_deal = _chips_by_deal(records)
    bots = {bot for rec in records for bot in rec["seats"]}
    return running_totals(
        (deal, {bot: sum(by[bot]) / len(by[bot]) for bot in bots if by[bot]})
        for deal, by in sorted(by_deal.items())
    )


ARENA = Arena(
    ROSTER, _run_task, summarize, chunksize=4, standings=standings, difference=paired_difference
)
#: ``hard`` (a level), ``heuristic`` (a bot) or ``ismcts:300`` (iterations) or
#: ``ismcts:50ms`` (a time).
parse_player = ARENA.parse_player
#: Play a run (``ai.arena.Arena.run``): chips per deal per bot, and the records.
run_arena = ARENA.run
