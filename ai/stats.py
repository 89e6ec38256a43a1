"""Statistics of played games, per bot: the arena's and the matches' numbers
(mean score per hand, win rate, exact bids, standing), each with its interval.
How it works: docs/internals.md, ``ai.stats``.
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

    @property
    def significant(self) -> bool:
        """Whether the 95% interval leaves out no difference (0); never without one."""
        return self.ci95 is not None and abs(self.per_hand) > self.ci95

    @classmethod
    def by_deal(
        cls, bot: str, other: str, deals: Iterable[tuple[Sequence[float], Sequence[float]]]
    ) -> Difference:
        """``bot``'s mean less ``other``'s, from each deal's results of the two (``bot``'s,
        ``other``'s), over the deals both played, with its 95% interval over them."""
        diffs = [
            sum(mine) / len(mine) - sum(theirs) / len(theirs)
            for mine, theirs in deals
            if mine and theirs
        ]
        mean = sum(diffs) / len(diffs) if diffs else 0.0
        return cls(bot, other, len(diffs), mean, ci95(diffs))

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["per_hand"] = round(self.per_hand, 4)
        if self.ci95 is not None:
            d["ci95"] = round(self.ci95, 4)
        d["significant"] = self.significant
        return d


# The name of the rest of the table, as the other side of a bot's lead.
REST = "the rest of the table"


def paired_difference(records: Iterable[dict[str, Any]], bot: str, other: str = REST) -> Difference:
    """``bot``'s mean score per hand less ``other``'s (by default every seat not its own),
    deal by deal, with a 95% interval over the deals both played.  On duplicate deals each
    deal's luck is the same for both, so this interval is far narrower than the two bots'
    own intervals suggest."""
    points: dict[Any, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for rec in records:
        deal = rec.get("deal", rec.get("seed"))
        for hand in rec["hands"]:
            for seat, name in enumerate(rec["seats"]):
                points[deal][name].append(hand["points"][seat])
                if other == REST and name != bot:
                    points[deal][REST].append(hand["points"][seat])
    return Difference.by_deal(bot, other, ((by[bot], by[other]) for by in points.values()))


def wilson(wins: float, trials: float, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a rate of ``wins`` in ``trials``:
    unlike the normal one it stays within 0-1 and keeps a width at 0% and 100%, where
    a handful of games says least.  (0, 1) with no trials."""
    if trials <= 0:
        return 0.0, 1.0
    rate = wins / trials
    centre = (rate + z * z / (2 * trials)) / (1 + z * z / trials)
    half = (z / (1 + z * z / trials)) * math.sqrt(
        rate * (1 - rate) / trials + z * z / (4 * trials * trials)
    )
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Standing:
    """Whether one bot's results differ from no difference: its win rate with its 95%
    Wilson interval over deals (each deal a trial won in the share of its games won),
    beside the share of the wins its seats would take were
    every bot alike (its seats over the players); and its lead in score per hand over
    the rest of the table, paired by deal."""

    bot: str
    win_rate: float
    win_low: float
    win_high: float
    even_win_rate: float
    lead: Difference

    @classmethod
    def over_deals(
        cls, bot: str, win_rate: float, deals: int, even_win_rate: float, lead: Difference
    ) -> Standing:
        """The standing of a bot that won ``win_rate`` of ``deals`` deals, its interval
        over them: the deals are the trials, not the games, since the rotations of one deal
        share its cards (three wins on one deal's three rotations say little more than one)."""
        low, high = wilson(win_rate * deals, deals)
        return cls(bot, win_rate, low, high, even_win_rate, lead)

    @property
    def win_significant(self) -> bool:
        """Whether the win rate's interval leaves out the even share."""
        return not self.win_low <= self.even_win_rate <= self.win_high

    def to_dict(self) -> dict[str, Any]:
        return {
            "win_rate": round(self.win_rate, 4),
            "win_rate_ci95": [round(self.win_low, 4), round(self.win_high, 4)],
            "even_win_rate": round(self.even_win_rate, 4),
            "win_rate_significant": self.win_significant,
            "lead": self.lead.to_dict(),
        }


def standings(records: Sequence[dict[str, Any]], stats: Sequence[BotStats]) -> list[Standing]:
    """Each bot's standing (``stats``' order), from the records ``stats`` were made of."""
    even: dict[str, float] = defaultdict(float)
    deals: dict[str, set[Any]] = defaultdict(set)
    for rec in records:
        seats = rec["seats"]
        for bot in set(seats):
            even[bot] += seats.count(bot) / len(seats)
            deals[bot].add(rec.get("deal", rec.get("seed")))
    return [
        Standing.over_deals(
            s.bot,
            s.win_rate,
            len(deals[s.bot]),
            even_win_rate=even[s.bot] / s.games if s.games else 0.0,
            lead=paired_difference(records, s.bot),
        )
        for s in stats
    ]


@dataclass
class Curve:
    """One bot's running total over an arena run, step by step (a hand dealt, or a Poch
    deal), per seat it held, with the half-width of the 95% interval of that total at
    each step: the steps so far times the interval of the mean per step over the deals
    finished by then (None until two are)."""

    bot: str
    totals: list[float]
    half_widths: list[float | None]


def running_totals(steps: Iterable[tuple[Any, dict[str, float]]]) -> list[Curve]:
    """Curves from ``(deal, {bot: its mean per seat at this step})`` in the order played,
    the steps of one deal together."""
    totals: dict[str, list[float]] = defaultdict(list)
    widths: dict[str, list[float | None]] = defaultdict(list)
    finished: dict[str, list[float]] = defaultdict(list)  # per bot: each finished deal's mean
    current: dict[str, list[float]] = defaultdict(list)  # per bot: this deal's steps
    deal_now: Any = None
    for deal, values in steps:
        if deal != deal_now:
            for bot, seen in current.items():
                finished[bot].append(sum(seen) / len(seen))
            current.clear()
            deal_now = deal
        for bot, value in values.items():
            current[bot].append(value)
            totals[bot].append((totals[bot][-1] if totals[bot] else 0.0) + value)
            # Over finished deals only: a deal's first hands (one card, in the classic
            # schedule) score apart from its mean, and a deal half played would jolt it.
            half = ci95(finished[bot])
            widths[bot].append(None if half is None else half * len(totals[bot]))
    # The last deal is finished too: the last interval is the table's, times the steps.
    for bot, seen in current.items():
        half = ci95([*finished[bot], sum(seen) / len(seen)])
        widths[bot][-1] = None if half is None else half * len(totals[bot])
    return [Curve(bot, totals[bot], widths[bot]) for bot in totals]


def score_curves(records: Sequence[dict[str, Any]]) -> list[Curve]:
    """Each bot's running score over the hands dealt, in the records' order: at each hand
    the mean of its seats' points, so that the last total over the hands is its mean score
    per hand, and the last interval over the hands its ``ci95``."""

    def steps() -> Iterable[tuple[Any, dict[str, float]]]:
        for rec in records:
            seats = rec["seats"]
            for hand in rec["hands"]:
                points: dict[str, list[int]] = defaultdict(list)
                for seat, bot in enumerate(seats):
                    points[bot].append(hand["points"][seat])
                yield (
                    rec.get("deal", rec.get("seed")),
                    {bot: sum(p) / len(p) for bot, p in points.items()},
                )

    return running_totals(steps())


def ci95(values: Sequence[float]) -> float | None:
    """Half-width of a 95% normal confidence interval for the mean (None
    with fewer than two deals: no interval can be told)."""
    k = len(values)
    if k < 2:
        return None
    mean = sum(values) / k
    var = sum((v - mean) ** 2 for v in values) / (k - 1)
    return 1.96 * math.sqrt(var / k)
