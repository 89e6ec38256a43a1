"""Marshmallow schemas of Poch's side of the games resource: its rules, its decisions, its
view, its events and its score sheet.

A Poch game is created, read, followed and played at the same addresses as a Pocha game
(`"game": "poch"` at creation); these schemas are what differs. Requests refuse unknown
fields and out-of-range numbers as Pocha's do; the rule fields (`PochRulesSchema`, beside
Pocha's) are generated from the options `engine.poch.rules` declares. A card is its code:
suit letter `C` (clubs), `S` (spades), `H` (hearts), `D` (diamonds) then rank `7`-`10`,
`J`, `Q`, `K`, `A` (e.g. `HA`, `S10`). The plates keep their English keys in the JSON and
their German names in the clients (*Ass*, *König*, *Dame*, *Bube*, *Zehn*, *Mariage*,
*Sequenz*, *Poch*).
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from engine.i18n import _
from engine.poch.actions import BET_BASE
from engine.poch.rules import PLATES
from service.api.games_schemas import (
    EventSchema,
    GameViewSchema,
    HistorySchema,
    PlayerInfoSchema,
    PochRulesSchema,
    RulesSchema,
    TableSchema,
)

CARD = (
    "A Poch card code: suit letter C, S, H or D, then rank 7, 8, 9, 10, J, Q, K or A "
    "(e.g. HA, S10)."
)
SUIT = "A suit letter: C (clubs), S (spades), H (hearts) or D (diamonds)."
#: The largest bet a body may name (more than any table's chips).
MAX_BET = 10**9 - BET_BASE


# -- decisions --------------------------------------------------------------------------------


class BetField(fields.Field):
    """A bet: `"pass"`, `"hold"` or a whole number of chips of at least 1."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if value in ("pass", "hold"):
            return value
        if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_BET:
            return value
        raise ma.ValidationError(_('Must be "pass", "hold" or a whole number of chips.'))


class BetSchema(ma.Schema):
    bet = BetField(
        required=True,
        metadata={
            "description": 'On your turn while betting: `"pass"`, `"hold"` (pay the highest '
            "bet so far) or the chips you bet (a bet, or a raise above the highest). One of "
            "`you.legal`.",
            "oneOf": [
                {"type": "string", "enum": ["pass", "hold"]},
                {"type": "integer", "minimum": 1},
            ],
            "example": 3,
        },
    )


def is_plain_bet(body: Any) -> bool:
    """`{"bet": x}` exactly as BetSchema takes it."""
    if type(body) is not dict or len(body) != 1:
        return False
    bet = body.get("bet")
    return bet in ("pass", "hold") or (type(bet) is int and 1 <= bet <= MAX_BET)


class SuitSchema(ma.Schema):
    suit = fields.String(
        required=True,
        validate=validate.Length(1, 8),
        metadata={
            "description": "On your turn after a suit has run out: the suit to shed next. " + SUIT,
            "example": "H",
        },
    )


def is_plain_suit(body: Any) -> bool:
    """`{"suit": letter}` of a length SuitSchema takes."""
    return (
        type(body) is dict
        and len(body) == 1
        and type(body.get("suit")) is str
        and 1 <= len(body["suit"]) <= 8
    )


# -- the view ---------------------------------------------------------------------------------


def _chips(description: str) -> fields.List:
    return fields.List(fields.Integer(), metadata={"description": description})


class PochYouSchema(ma.Schema):
    seat = fields.Integer(metadata={"description": "Your seat.", "example": 1})
    hand = fields.List(
        fields.String(),
        metadata={"description": "Your cards. " + CARD, "example": ["C7", "HQ", "HK"]},
    )
    legal = fields.List(
        fields.Raw(),
        metadata={
            "description": 'What you may do now: `"pass"`, `"hold"` and bet amounts while '
            "betting (POST .../bets), start cards while starting (POST .../plays), suit "
            "letters while choosing (POST .../suits); empty when it is not your turn.",
            "example": ["pass", 1, 2, 3],
        },
    )


class PochGameViewSchema(ma.Schema):
    """A seat's view of a Poch game (with `you`) or the spectator's (without). The
    envelope (`id`, `version`, `last_event`, `seeded`, `players`, `table`, `deadline`,
    `seconds_left`) is as in Pocha's views."""

    game = fields.String(metadata={"description": "Always `poch`.", "example": "poch"})
    id = fields.String(metadata={"description": "The game's id.", "example": "Jm2bS0k4qV7wXc1Z"})
    version = fields.Integer(
        metadata={"description": "Bumped by every change; also the ETag.", "example": 12}
    )
    last_event = fields.Integer(
        metadata={"description": "`seq` of the game's latest event.", "example": 17}
    )
    seeded = fields.Boolean(metadata={"description": "Whether the creator chose the seed."})
    players = fields.List(fields.Nested(PlayerInfoSchema), metadata={"description": "The seats."})
    table = fields.Nested(TableSchema, allow_none=True, metadata={"description": "The table."})
    deadline = fields.Float(
        allow_none=True,
        metadata={"description": "When the clock of the seat to act runs out (Unix time)."},
    )
    seconds_left = fields.Float(
        allow_none=True, metadata={"description": "Seconds left on that clock."}
    )
    rules = fields.Nested(PochRulesSchema, metadata={"description": "The rules of this game."})
    deal = fields.Integer(metadata={"description": "The deal in play, from 1.", "example": 1})
    dealer = fields.Integer(metadata={"description": "The dealer's seat.", "example": 0})
    phase = fields.String(
        metadata={
            "description": "`betting` (the one round: pass, hold, bet or raise), `starting` "
            "(the winner plays a 7 or an ace), `choosing` (the next suit), `over`; "
            "`waiting` while the table waits for people.",
            "enum": ["waiting", "betting", "starting", "choosing", "over"],
        }
    )
    turn = fields.Integer(allow_none=True, metadata={"description": "Whose decision it is."})
    chips = _chips("Each seat's chips.")
    active = fields.List(
        fields.Boolean(),
        metadata={"description": "Whether each seat is still in the game (not left broke)."},
    )
    plates = fields.Dict(
        keys=fields.String(validate=validate.OneOf(PLATES)),
        values=fields.Integer(),
        metadata={
            "description": "Chips on each plate: ace (Ass), king (König), queen (Dame), jack "
            "(Bube), ten (Zehn), marriage (Mariage), sequence (Sequenz), pocher (Poch).",
            "example": dict.fromkeys(PLATES, 4),
        },
    )
    pot = fields.Integer(metadata={"description": "Chips in the betting pot.", "example": 0})
    trump = fields.String(allow_none=True, metadata={"description": "The trump suit. " + SUIT})
    hand_sizes = _chips("How many cards each seat holds.")
    collected = fields.List(
        fields.Dict(),
        metadata={
            "description": "The plates taken this deal: seat, plate, the honours shown, chips."
        },
    )
    bets = fields.List(
        fields.Dict(), metadata={"description": "This deal's betting round: seat, call, amount."}
    )
    showdown = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.String()),
        metadata={"description": "Each seat's best set as shown at the showdown (by seat)."},
    )
    starter = fields.Integer(allow_none=True, metadata={"description": "Who starts shedding."})
    direction = fields.String(
        allow_none=True,
        metadata={
            "description": "`up` (started with a 7) or `down` (with an ace).",
            "enum": ["up", "down"],
        },
    )
    suit = fields.String(allow_none=True, metadata={"description": "The suit running now."})
    suits_done = fields.List(fields.String(), metadata={"description": "Suits shed already."})
    played = fields.List(
        fields.List(fields.Raw()),
        metadata={"description": "The cards shed this deal: [seat, card], in order."},
    )
    deal_results = fields.List(
        fields.Dict(),
        metadata={"description": "Each finished deal: its winner and what each seat paid."},
    )
    result = fields.Dict(
        allow_none=True, metadata={"description": "Once over: the final chips and ranking."}
    )
    you = fields.Nested(PochYouSchema, metadata={"description": "Only in a seat's view."})


class PochEventSchema(ma.Schema):
    """One event of a Poch game (the table's events are as Pocha's). `type` says which of
    the other fields it has; cards appear only once the rules make them public."""

    seq = fields.Integer(metadata={"description": "1, 2, 3... in order.", "example": 5})
    version = fields.Integer(metadata={"description": "The game's version after it."})
    type = fields.String(
        metadata={
            "description": "ante (each pays the plates), deal (cards counts and trump), "
            "collect (a plate taken, honours shown), bet, hold, raise, pass, no_bet, "
            "showdown (every best set shown), no_set, bluff (the bettor without the best "
            "set pays), take_pot, start (the start card's direction), choose (the next "
            "suit), play (a card shed), deal_won (the first out, and what each paid), "
            "leave (broke: out of the game), game_over.",
            "enum": [
                "ante",
                "deal",
                "collect",
                "bet",
                "hold",
                "raise",
                "pass",
                "no_bet",
                "showdown",
                "no_set",
                "bluff",
                "take_pot",
                "start",
                "choose",
                "play",
                "deal_won",
                "leave",
                "game_over",
            ],
            "example": "play",
        }
    )
    seat = fields.Integer(metadata={"description": "Who (most events)."})
    card = fields.String(metadata={"description": "play: the card. " + CARD})
    amount = fields.Integer(metadata={"description": "bet, hold, raise: the chips paid."})
    pot = fields.Integer(metadata={"description": "The pot after it."})


class PochHistorySchema(ma.Schema):
    game = fields.String(metadata={"description": "Always `poch`.", "example": "poch"})
    id = fields.String(metadata={"description": "The game's id.", "example": "Jm2bS0k4qV7wXc1Z"})
    version = fields.Integer(metadata={"description": "The game's version.", "example": 40})
    players = fields.List(fields.Nested(PlayerInfoSchema), metadata={"description": "The seats."})
    deals = fields.List(
        fields.Dict(), metadata={"description": "Every finished deal: winner and payments."}
    )
    chips = _chips("Each seat's chips now.")
    finished = fields.Boolean(metadata={"description": "Whether the game is over."})
    result = fields.Dict(allow_none=True, metadata={"description": "Once over: the ranking."})


def documented_by_reference() -> dict[str, type[ma.Schema]]:
    """The schemas the OpenAPI document names only by reference (`oneOf` the two games'),
    by component name, for the app to register before its routes."""
    return {
        "Rules": RulesSchema,
        "PochRules": PochRulesSchema,
        "GameView": GameViewSchema,
        "PochGameView": PochGameViewSchema,
        "Event": EventSchema,
        "PochEvent": PochEventSchema,
        "History": HistorySchema,
        "PochHistory": PochHistorySchema,
    }
