"""Each game's forms on the wire, where the published document names them: its rules'
schema, its AI move's request and the bodies of its move endpoints, found by the game's
name (`forms_of`), so that the generic service names no game. `service.api.wire.games`
registers the service's own games' (the app imports it); a game without forms here is
read from its `GameKind` alone. The fields a match adds to any game's record are here too
(`MatchGameRecordSchema`), each game's record schema built on them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import marshmallow as ma
from marshmallow import fields

from service.answers import Answer


@dataclass(frozen=True)
class MoveBody:
    """The one-field body of a move endpoint (`/bids`...): its schema, and whether a body is
    exactly what the schema takes (so it may skip the schema, the move path's short cut)."""

    schema: type[ma.Schema]
    accepts: Callable[[Any], bool]


@dataclass(frozen=True)
class WireForms:
    """One game's request schemas the document names."""

    #: The game's name (`GameKind.name`).
    game: str
    #: Its rule options at creation (`rules`), each optional.
    rules: type[ma.Schema]
    #: `POST /api/v1/ai/move`'s body for one of its positions: the position's fields, `game`
    #: and how hard to think.
    ai_move_request: type[ma.Schema]
    #: The body of each move endpoint the game's decisions are sent to, by its path's last
    #: part (`bids`).
    move_bodies: Mapping[str, MoveBody]


#: Each game's forms, by the game's name.
FORMS: dict[str, WireForms] = {}


def register(forms: WireForms) -> None:
    FORMS[forms.game] = forms


def forms_of(game: str) -> WireForms | None:
    """The forms of the game called `game`, if the document names any."""
    return FORMS.get(game)


class MatchGameRecordSchema(Answer):
    """One game of a match, the fields the match adds whichever the game is: each game's
    record schema subclasses it, its own fields after these."""

    OPTIONAL = frozenset({"stand_in_decisions", "stand_in_decisions_by_seat", "table"})

    table = fields.String(
        metadata={
            "description": "Only in a match that plays its games at tables (`at_tables`): "
            "the id of the game this one was, at `/api/v1/games/{id}`.",
            "example": "Jx3kPq9sT0aB",
        }
    )

    stand_in_decisions = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        metadata={
            "description": "Only in a game with an outside bot seated (`account:ID`): for "
            "each such account (by its seat's text), the decisions the stand-in made because "
            "its webhook failed or the bot was paused; summed over its seats when the account "
            "holds several (`stand_in_decisions_by_seat` has each seat's)."
        },
    )
    stand_in_decisions_by_seat = fields.List(
        fields.Integer(),
        metadata={
            "description": "Only with `stand_in_decisions`: the same decisions seat by seat, "
            "in the order of `seats` and `decisions` (0 for a level's seat).",
            "example": [3, 0, 5],
        },
    )


class MatchLeadSchema(Answer):
    """One bot's lead over another side of a match, paired by deal, as the arenas report
    it (`ai.stats.Difference`): on duplicate deals each deal's luck is the same for both
    sides, so it may be significant while the two sides' own intervals still overlap."""

    bot = fields.String(metadata={"description": "The bot whose lead it is (its seat text).",
                                  "example": "hard"})  # fmt: skip
    other = fields.String(
        metadata={
            "description": "The other side: a bot's seat text, or `the rest of the table` "
            "(every seat not the bot's).",
            "example": "the rest of the table",
        }
    )
    deals = fields.Integer(
        metadata={"description": "The deals it is paired over: those both sides played, "
                  "every game of the deal played.", "example": 10}
    )  # fmt: skip
    per_hand = fields.Float(
        metadata={
            "description": "The bot's mean less the other side's, deal by deal, then over the "
            "deals: in Pocha points per hand, in Poch chips per deal (negative: behind).",
            "example": 2.15,
        }
    )
    ci95 = fields.Float(
        allow_none=True,
        metadata={
            "description": "Half-width of its 95% confidence interval, over the deals (null "
            "with fewer than two).",
            "example": 0.9,
        },
    )
    significant = fields.Boolean(
        metadata={
            "description": "Whether the interval leaves out 0, no difference (|per_hand| "
            "> ci95); false without an interval.",
            "example": True,
        }
    )


#: A bot's figures in a match: its lead over the rest of the table.
LEAD_DESCRIPTION = (
    "Its lead over the rest of the table (`MatchLead`), paired by deal over the deals whose "
    "every game was played so far; null until one deal is (a running match's first deal, or "
    "a game that sums up no lead)."
)
