"""Pocha's wire forms that the published document names: its rule options (`Rules`, and
`RulesInForce` as a view shows them) and a Pocha position for an AI move
(`AiMoveRequest`), with its cards' codes.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from engine.i18n import _, join
from engine.pocha.kind import KIND
from engine.pocha.rules import OPTIONS, Option
from service.answers import Answer
from service.api.fields import StrictBoolean, ThinkingSchema
from service.api.wire import WireForms

CARD = "A card code: suit letter O, C, E or B, then rank 1-7, 10, 11 or 12 (e.g. O1, B12)."
#: The most cards a hand deals each seat (a bid's bound).
MAX_CARDS = 13


# -- rules -----------------------------------------------------------------------------------


class ScheduleField(fields.Field):
    """A schedule option's value: one of its named schedules or a list of card counts (how
    many cards each count may deal depends on the players: the engine checks that)."""

    def __init__(self, option: Option[str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.option = option

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        # Babel's extractor does not see a _() inside another one's arguments.
        either = _(" or ")
        kinds = _(
            "Must be {choices}, or a list of card counts.",
            choices=join(self.option.choices, either),
        )
        if isinstance(value, str):
            if value not in self.option.choices:
                raise ma.ValidationError(kinds)
            return value
        if isinstance(value, list) and all(
            isinstance(x, int) and not isinstance(x, bool) for x in value
        ):
            if not 1 <= len(value) <= self.option.max_hands:
                raise ma.ValidationError(
                    _("A schedule lists from 1 to {most} hands.", most=self.option.max_hands)
                )
            return value
        raise ma.ValidationError(kinds)


def _rule_field(option: Option[Any]) -> fields.Field:
    """The request field of one of the engine's rule options, with its bounds and its
    summary; the example is the option's default."""
    metadata = {"description": option.summary, "example": option.default}
    if option.kind == "bool":
        return StrictBoolean(metadata=metadata)
    if option.kind == "int":
        return fields.Integer(
            strict=True, validate=validate.Range(option.low, option.high), metadata=metadata
        )
    return ScheduleField(
        option,
        metadata={
            **metadata,
            "oneOf": [
                {"type": "string", "enum": list(option.choices)},
                {"type": "array", "items": {"type": "integer", "minimum": 1}},
            ],
        },
    )


#: The options of docs/rules.md, one field per option declared in `engine.pocha.rules`; every one is
#: optional and defaults as GET /api/v1/rules says.
RulesSchema = ma.Schema.from_dict(
    {name: _rule_field(option) for name, option in OPTIONS.items()}, name="RulesSchema"
)


#: The rules of a game as the server shows them: every Pocha option, with its value.
RulesInForceSchema = Answer.from_dict(
    {name: _rule_field(option) for name, option in OPTIONS.items()}, name="RulesInForceSchema"
)


# -- positions ----------------------------------------------------------------------------------


class PlayInSchema(ma.Schema):
    seat = fields.Integer(
        required=True, strict=True, metadata={"description": "Who played it.", "example": 0}
    )
    card = fields.String(
        required=True, validate=validate.Length(1, 8), metadata={"description": CARD}
    )


class TrumpInSchema(ma.Schema):
    card = fields.String(
        required=True,
        validate=validate.Length(1, 8),
        metadata={"description": "The card that sets trump. " + CARD, "example": "E7"},
    )
    holder = fields.Integer(
        strict=True,
        allow_none=True,
        load_default=None,
        metadata={
            "description": "The dealer's seat when the whole deck was dealt (the trump card "
            "is the dealer's last card); null when it was turned from the stock.",
            "example": None,
        },
    )


def _seats(description: str, **kwargs: Any) -> fields.List:
    return fields.List(
        fields.Integer(strict=True, allow_none=True),
        metadata={"description": description},
        **kwargs,
    )


class PositionSchema(ma.Schema):
    """A hand in progress as one seat sees it."""

    game = fields.String(
        validate=validate.Equal(KIND.name),
        metadata={
            "description": "`pocha`, or left out (a Poch position is `PochAiMoveRequest`).",
            "example": "pocha",
        },
    )

    rules = fields.Nested(
        RulesSchema,
        load_default=dict,
        metadata={"description": "The rules; `players` (default 4) must match the seats."},
    )
    seat = fields.Integer(
        required=True,
        strict=True,
        metadata={"description": "The seat to decide for: it must be its turn.", "example": 0},
    )
    hand = fields.List(
        fields.String(validate=validate.Length(1, 8)),
        required=True,
        validate=validate.Length(0, MAX_CARDS),
        metadata={"description": "The seat's cards now (codes).", "example": ["O1", "O4", "C3"]},
    )
    trump = fields.Nested(TrumpInSchema, required=True, metadata={"description": "The trump."})
    dealer = fields.Integer(
        required=True, strict=True, metadata={"description": "The dealer's seat.", "example": 3}
    )
    bids = _seats(
        "One entry per seat: its bid, or null until made (bids go from la mano, the seat "
        "after the dealer, round to the dealer).",
        required=True,
        validate=validate.Length(KIND.min_players, KIND.max_players),
    )
    plays = fields.List(
        fields.Nested(PlayInSchema),
        load_default=list,
        validate=validate.Length(0, 40),
        metadata={
            "description": "Every card played in this hand so far, in order, with who "
            "played it; the trick on the table and the tricks won follow from it."
        },
    )
    cards_per_player = fields.Integer(
        strict=True,
        metadata={"description": "Optional: cards dealt to each seat; checked.", "example": 3},
    )
    trick = fields.List(
        fields.Nested(PlayInSchema),
        metadata={"description": "Optional: the cards on the table now; checked."},
    )
    tricks_won = _seats("Optional: tricks won per seat this hand; checked.")
    turn = fields.Integer(
        strict=True, metadata={"description": "Optional: whose turn it is; checked."}
    )
    scores = _seats("Optional: totals per seat (they do not change the decision).")


class AiMoveRequestSchema(PositionSchema, ThinkingSchema):
    """A Pocha position and how hard to think about it."""


FORMS = WireForms(game=KIND.name, rules=RulesSchema, ai_move_request=AiMoveRequestSchema)
