"""What the engine's and the service's record tests both read from a Poch record: its
decisions in order, as its events said them and as the record lists them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

#: The events of a Poch decision.
POCH_DECISIONS = ("pass", "hold", "bet", "raise", "start", "choose", "play")


def poch_said(events: Iterable[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """Each decision's (type, seat, what, by the stand-in) from the game's events."""
    return [
        (e["type"], e["seat"], e.get("amount", e.get("card", e.get("suit", e.get("direction")))),
         e.get("by") == "stand_in")
        for e in events if e["type"] in POCH_DECISIONS
    ]  # fmt: skip


def poch_recorded(deals: Iterable[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """The same, from a record's deals: each deal's betting, then its shedding."""
    recorded: list[tuple[Any, ...]] = []
    for deal in deals:
        recorded += [
            (b["call"], b["seat"], b["amount"], b.get("stand_in", False)) for b in deal["betting"]
        ]
        recorded += [
            (s["type"], s["seat"], s.get("card", s.get("suit", s.get("direction"))),
             s.get("stand_in", False))
            for s in deal["shedding"]
        ]  # fmt: skip
    return recorded
