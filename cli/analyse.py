"""`pocha analyse FILE`: a game record's decisions weighed by a level (`ai.analysis`), told
in the terminal: one line per decision where the level would have done otherwise, then each
seat's agreement and the mean score it gave up by the level's search.
"""

from __future__ import annotations

from typing import Any

from ai.analysis import Weighed

SCORES = {"pocha": "points", "poch": "chips"}


def _score(value: float | None) -> str:
    return "?" if value is None else f"{value:+.2f}"


def lines(
    record: dict[str, Any], level: str, weighed: list[Weighed], summary: list[dict[str, Any]]
) -> list[str]:
    """The analysis as lines of text."""
    names = [str(p["name"]) or f"seat {p['seat']}" for p in record["players"]]
    unit = SCORES.get(str(record["game"]), "score")
    told = [
        f"{record['game']} game {record.get('id', '')}: {len(weighed)} decisions weighed by "
        f"{level} ({unit} its search expects after each action)"
    ]
    for w in weighed:
        if w.agrees:
            continue
        told.append(
            f"#{w.number:<4} {names[w.seat]}: played {w.played} ({_score(w.played_score)}), "
            f"{level} would play {w.advised} ({_score(w.advised_score)})"
        )
    told.append("")
    for seat in summary:
        share = seat["agreed"] / seat["decisions"] if seat["decisions"] else 0.0
        told.append(
            f"{names[seat['seat']]}: {seat['agreed']} of {seat['decisions']} decisions as "
            f"{level} ({share:.0%}); {seat['score_given_up']:+.1f} {unit} given up over the "
            f"{seat['scored']} both actions were scored"
        )
    return told
