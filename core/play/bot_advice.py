"""What our bots thought at their decisions in a live game: made as each bot decides
(`advice_of`), kept with the move it chose (`GameStore.apply_action`) and, once the game is
over, put in its record numbered as the record's decisions are (`numbered`, docs/records.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ai.bot import ActionStat
from engine.protocols import Action, Event, GameKind

#: How many of the actions the search weighed most an entry names.
OPTIONS = 3


def advice_of(
    kind: GameKind, seat: int, level: str, action: Action, analysis: Sequence[ActionStat]
) -> dict[str, Any] | None:
    """The entry of one decision: who decided at which level, the action chosen and the
    search's mean score after it (points, chips), and the actions it visited most with
    their share of the search and mean score. None without an analysis (a level that does
    not search, or a move with no choice)."""
    if not analysis:
        return None
    wire = kind.action_to_wire
    chosen = next((stat for stat in analysis if stat.action == action), None)
    weighed = sorted(analysis, key=lambda stat: (-stat.visits, -stat.mean_score))[:OPTIONS]
    return {
        "seat": seat,
        "level": level,
        "action": wire(action),
        "score": None if chosen is None else round(chosen.mean_score, 3),
        "options": [
            {"action": wire(stat.action), "share": round(stat.share, 3),
             "score": round(stat.mean_score, 3)}
            for stat in weighed
        ],
    }  # fmt: skip


def numbered(
    kind: GameKind, events: Sequence[Event], advice: Sequence[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The game's advice as its record gives it: each entry with the `number` (from 1) of
    its decision among the record's, found by the `seq` of its move's first event. An
    entry that names no decision of the events, or one already given, is left out."""
    if not advice or not kind.decision_events:
        return []
    decisions: dict[int, tuple[int, int]] = {}
    for event in events:
        if event.get("type") in kind.decision_events:
            decisions[int(event["seq"])] = (len(decisions) + 1, int(event["seat"]))
    given: set[int] = set()
    entries = []
    for entry in advice:
        number, seat = decisions.get(int(entry.get("seq", 0)), (0, -1))
        if seat != entry.get("seat") or number in given:
            continue
        given.add(number)
        entries.append({"number": number, **{k: v for k, v in entry.items() if k != "seq"}})
    return entries
