"""A finished game weighed by a bot: each decision of a game record (docs/records.md) played
again from its hands, with what a level in that seat would have done from that seat's view
alone, the search's mean score for the action taken and for its own, and per seat how often
they agreed and what the differences add up to. docs/records.md, "Analysing a record".
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from ai.registry import bot_kind
from engine.errors import InvalidStateError
from engine.registry import KINDS


@dataclass(frozen=True)
class Weighed:
    """One decision of the record, and the level's opinion of it."""

    number: int
    seat: int
    played: Any
    advised: Any
    #: The search's mean score (points, chips) after the action played and after its own;
    #: None where the level does not search, or never tried the action played.
    played_score: float | None
    advised_score: float | None

    @property
    def agrees(self) -> bool:
        return bool(self.played == self.advised)

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number, "seat": self.seat, "played": self.played,
            "advised": self.advised, "agrees": self.agrees,
            "played_score": self.played_score, "advised_score": self.advised_score,
        }  # fmt: skip


def decision_seed(seed: int, number: int) -> int:
    """The seed a level decides the record's decision `number` (from 1) with, in the
    analysis drawn from `seed`."""
    digest = hashlib.blake2b(f"analysis:{seed}:{number}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def analyse(record: dict[str, Any], level: str, seed: int = 0) -> list[Weighed]:
    """Every decision of `record` weighed by `level` (deciding from a seed drawn from `seed`
    and the decision's number, so the same call gives the same analysis).
    `InvalidStateError`, saying why, for a record of no known game, one whose game cannot be
    read back, or one that breaks the rules; `KeyError` for a level the game has not."""
    kind = KINDS.get(str(record.get("game")))
    if kind is None or kind.replay_record is None:
        raise InvalidStateError(f"no game {record.get('game')!r} whose records can be read back")
    bots = bot_kind(kind)
    if level not in bots.levels:
        raise KeyError(level)
    wire = kind.action_to_wire
    weighed: list[Weighed] = []
    for number, (game, seat, action) in enumerate(kind.replay_record(record), start=1):
        decision = bots.decide(
            kind.observation(game, seat), level, seed=decision_seed(seed, number), analyse=True
        )
        scores = {stat.action: stat.mean_score for stat in decision.analysis}
        played, advised = _rounded(scores.get(action)), _rounded(scores.get(decision.action))
        weighed.append(Weighed(number, seat, wire(action), wire(decision.action), played, advised))
    return weighed


def _rounded(score: float | None) -> float | None:
    return None if score is None else round(score, 3)


def by_seat(weighed: list[Weighed], seats: int) -> list[dict[str, Any]]:
    """Per seat: its decisions, how many the level would have made too, and the search's
    mean score it gave up over those where both actions have one (the level's own score
    minus the one of the action played)."""
    summary = []
    for seat in range(seats):
        mine = [w for w in weighed if w.seat == seat]
        scored = [
            w.advised_score - w.played_score
            for w in mine
            if w.advised_score is not None and w.played_score is not None
        ]
        summary.append({
            "seat": seat, "decisions": len(mine), "agreed": sum(w.agrees for w in mine),
            "score_given_up": round(sum(scored), 3), "scored": len(scored),
        })  # fmt: skip
    return summary
