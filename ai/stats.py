"""Statistics of played games, per bot: the arena's and the matches' numbers.

Input is game records (plain dicts, as ``ai.arena.play_game`` makes and the
worker stores as JSON lines); output is, per bot, the mean score per hand with
a 95% confidence interval, the win rate per game (a shared win counts as a
fraction), the exact-bid rate, the mean bid beside the mean tricks taken (a
bot whose bids are calibrated has the two equal) and the time per decision.  The interval is
taken over deals, not hands: the hands of one game and the rotations of one
duplicate deal are not independent, the deals are.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any


@dataclass
class BotStats:
    bot: str
    hands: int
    games: float
    mean_score: float
    ci95: float | None
    win_rate: float
    exact_rate: float
    decisions: int
    ms_per_decision: float
    mean_bid: float = 0.0
    mean_tricks: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        for k in (
            "mean_score",
            "ci95",
            "win_rate",
            "exact_rate",
            "ms_per_decision",
            "mean_bid",
            "mean_tricks",
        ):
            if d[k] is not None:
                d[k] = round(d[k], 4)
        return d


def summarize(records: Iterable[dict[str, Any]]) -> list[BotStats]:
    """Per-bot statistics of game records, best mean score first."""
    # Per bot: per deal, the list of hand scores; and the counters.
    by_deal: dict[str, dict[Any, list[int]]] = defaultdict(lambda: defaultdict(list))
    games: dict[str, float] = defaultdict(float)
    wins: dict[str, float] = defaultdict(float)
    exact: dict[str, int] = defaultdict(int)
    bid_sum: dict[str, int] = defaultdict(int)
    trick_sum: dict[str, int] = defaultdict(int)
    hands: dict[str, int] = defaultdict(int)
    decisions: dict[str, int] = defaultdict(int)
    think: dict[str, float] = defaultdict(float)
    for rec in records:
        seats = rec["seats"]
        deal = rec.get("deal", rec.get("seed"))
        winners = rec.get("winners") or []
        # A bot in several seats plays the game once: its win is its seats' share.
        for bot in set(seats):
            games[bot] += 1
        for seat, bot in enumerate(seats):
            if seat in winners:
                wins[bot] += 1.0 / len(winners)
            decisions[bot] += rec["decisions"][seat]
            think[bot] += rec["think_ms"][seat]
        for hand in rec["hands"]:
            for seat, bot in enumerate(seats):
                by_deal[bot][deal].append(hand["points"][seat])
                hands[bot] += 1
                bid_sum[bot] += hand["bids"][seat]
                trick_sum[bot] += hand["tricks"][seat]
                if hand["bids"][seat] == hand["tricks"][seat]:
                    exact[bot] += 1
    out = []
    for bot, deals in by_deal.items():
        means = [sum(v) / len(v) for v in deals.values() if v]
        mean = sum(sum(v) for v in deals.values()) / max(1, hands[bot])
        ci = ci95(means)
        out.append(
            BotStats(
                bot=bot,
                hands=hands[bot],
                games=games[bot],
                mean_score=mean,
                ci95=ci,
                win_rate=wins[bot] / games[bot] if games[bot] else 0.0,
                exact_rate=exact[bot] / hands[bot] if hands[bot] else 0.0,
                decisions=decisions[bot],
                ms_per_decision=think[bot] / decisions[bot] if decisions[bot] else 0.0,
                mean_bid=bid_sum[bot] / hands[bot] if hands[bot] else 0.0,
                mean_tricks=trick_sum[bot] / hands[bot] if hands[bot] else 0.0,
            )
        )
    out.sort(key=lambda s: -s.mean_score)
    return out


def exact_by_size(records: Iterable[dict[str, Any]]) -> dict[str, dict[int, tuple[int, int]]]:
    """Per bot, per hand size (cards dealt to each seat): its exact bids and its hands."""
    out: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for rec in records:
        for hand in rec["hands"]:
            for seat, bot in enumerate(rec["seats"]):
                counts = out[bot][hand["cards"]]
                counts[0] += hand["bids"][seat] == hand["tricks"][seat]
                counts[1] += 1
    return {
        bot: {cards: (c[0], c[1]) for cards, c in sorted(sizes.items())}
        for bot, sizes in out.items()
    }


@dataclass
class Difference:
    """One bot's score per hand less another's, paired by deal."""

    bot: str
    other: str
    deals: int
    per_hand: float
    ci95: float | None

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["per_hand"] = round(self.per_hand, 4)
        if self.ci95 is not None:
            d["ci95"] = round(self.ci95, 4)
        return d


def paired_difference(records: Iterable[dict[str, Any]], bot: str, other: str) -> Difference:
    """``bot``'s mean score per hand less ``other``'s, deal by deal, with a 95% interval
    over the deals both played.  On duplicate deals each deal's luck is the same for
    both, so this interval is far narrower than the two bots' own intervals suggest."""
    points: dict[Any, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for rec in records:
        deal = rec.get("deal", rec.get("seed"))
        for hand in rec["hands"]:
            for seat, name in enumerate(rec["seats"]):
                points[deal][name].append(hand["points"][seat])
    diffs = [
        sum(by[bot]) / len(by[bot]) - sum(by[other]) / len(by[other])
        for by in points.values()
        if by[bot] and by[other]
    ]
    mean = sum(diffs) / len(diffs) if diffs else 0.0
    return Difference(bot, other, len(diffs), mean, ci95(diffs))


def ci95(values: Sequence[float]) -> float | None:
    """Half-width of a 95% normal confidence interval for the mean (None
    with fewer than two deals: no interval can be told)."""
    k = len(values)
    if k < 2:
        return None
    mean = sum(values) / k
    var = sum((v - mean) ** 2 for v in values) / (k - 1)
    return 1.96 * math.sqrt(var / k)
