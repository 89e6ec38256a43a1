"""Poch's wire forms: its rules, its decisions, its view, its events, its score sheet, a
Poch position for an AI move (`PochAiMoveRequest`) and a match's records and figures.
How it works: docs/internals.md, `service.api.wire.poch`.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

import engine.poch.rules
from ai.registry import levels_of
from engine.i18n import _
from engine.poch.actions import BET_BASE
from engine.poch.kind import KIND
from engine.poch.rules import MAX_DEALS, PLATES
from service.answers import Answer
from service.api.fields import StrictBoolean, ThinkingSchema, known_level
from service.api.games_schemas import PlayerInfoSchema, TableSchema, _phase, _turn_now
from service.api.wire import (
    LEAD_DESCRIPTION,
    MatchGameRecordSchema,
    MatchLeadSchema,
    MoveBody,
    WireForms,
)

CARD = (
    "A Poch card code: suit letter C, S, H or D, then rank 7, 8, 9, 10, J, Q, K or A "
    "(e.g. HA, S10)."
)
SUIT = "A suit letter: C (clubs), S (spades), H (hearts) or D (diamonds)."
#: A Poch card code, and a suit letter, as the server writes them.
CARD_PATTERN = "^[CSHD]([789]|10|[JQKA])$"
#: The cards that may start the shedding: a 7 (upwards) or an ace (downwards).
START_CARD_PATTERN = "^[CSHD][7A]$"
SUITS = ["C", "S", "H", "D"]
#: What a Poch decision is on the wire: a bet's chips, or `pass`, `hold`, a start card's
#: code or a suit's letter.
POCH_ACTION = {
    "oneOf": [
        {"type": "integer", "minimum": 1, "description": "A bet or a raise: its chips."},
        {
            "type": "string",
            "pattern": "^(pass|hold|[CSHD]|[CSHD]([789]|10|[JQKA]))$",
            "description": "`pass`, `hold`, a start card's code or the next suit's letter.",
        },
    ]
}
#: The largest bet a body may name (more than any table's chips).
MAX_BET = 10**9 - BET_BASE


# -- rules ----------------------------------------------------------------------------------


#: Poch's options (docs/poch.md, The game), one field per option `engine.poch.rules` declares;
#: every one is optional and defaults as GET /api/v1/rules says.
PochRulesSchema = ma.Schema.from_dict(
    {
        name: fields.Integer(
            strict=True,
            validate=validate.Range(low, high),
            metadata={"description": doc, "example": default if default is not None else 8},
        )
        for name, low, high, default, doc in engine.poch.rules.OPTIONS
    },
    name="PochRulesSchema",
)


#: The rules of a Poch game as the server shows them: every option, with its value.
PochRulesInForceSchema = Answer.from_dict(
    {
        name: fields.Integer(
            metadata={"description": doc, "example": default if default is not None else 8}
        )
        for name, _low, _high, default, doc in engine.poch.rules.OPTIONS
    },
    name="PochRulesInForceSchema",
)


# -- decisions --------------------------------------------------------------------------------


class BetField(fields.Field):
    """A bet: `"pass"`, `"hold"` or a whole number of chips of at least 1."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if value in ("pass", "hold"):
            return value
        if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_BET:
            return value
        # The range is said: 0 is a whole number too, and a sentence that leaves it out
        # would tell the player that 0 chips is a bet.
        raise ma.ValidationError(
            _('Must be "pass", "hold" or a whole number of chips from 1 to {most}.', most=MAX_BET)
        )


class BetSchema(ma.Schema):
    bet = BetField(
        required=True,
        metadata={
            "description": 'On your turn while betting: `"pass"`, `"hold"` (pay the highest '
            "bet so far) or the chips you bet (a bet, or a raise above the highest). One of "
            "`you.legal`.",
            "oneOf": [
                {"type": "string", "enum": ["pass", "hold"]},
                {"type": "integer", "minimum": 1, "maximum": MAX_BET},
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


def _card(description: str = CARD) -> fields.String:
    return fields.String(metadata={"description": description, "pattern": CARD_PATTERN})


class CollectedSchema(Answer):
    """A plate taken while collecting: who, which plate, the honours shown, the chips."""

    seat = fields.Integer(metadata={"description": "Who took it.", "example": 2})
    plate = fields.String(
        metadata={"description": "The plate.", "enum": list(PLATES), "example": "marriage"}
    )
    cards = fields.List(_card(), metadata={"description": "The honours shown."})
    chips = fields.Integer(metadata={"description": "The chips on it.", "example": 4})


class PochBetSchema(Answer):
    """A call of the betting round."""

    seat = fields.Integer(metadata={"description": "Who.", "example": 1})
    call = fields.String(
        metadata={
            "description": "What they said.",
            "enum": ["pass", "hold", "bet", "raise"],
            "example": "bet",
        }
    )
    amount = fields.Integer(metadata={"description": "The chips paid (0: pass).", "example": 3})


class DealResultSchema(Answer):
    """A finished deal: the first out of cards, and what each other seat paid them."""

    deal = fields.Integer(metadata={"description": "The deal, from 1.", "example": 1})
    winner = fields.Integer(metadata={"description": "Who went out first.", "example": 2})
    paid = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        metadata={
            "description": "Chips each other seat paid the winner, by seat.",
            "example": {"0": 3, "1": 5, "3": 0},
        },
    )


class PochResultSchema(Answer):
    """The end of a Poch game: every seat's chips and the winners."""

    chips = _chips("Each seat's chips at the end.")
    winners = fields.List(
        fields.Integer(), metadata={"description": "The seats with the most chips (ties share)."}
    )


class PochYouSchema(Answer):
    seat = fields.Integer(metadata={"description": "Your seat.", "example": 1})
    hand = fields.List(
        _card(),
        metadata={"description": "Your cards. " + CARD, "example": ["C7", "HQ", "HK"]},
    )
    legal = fields.List(
        fields.Raw(metadata=POCH_ACTION),
        metadata={
            "description": 'What you may do now: `"pass"`, `"hold"` and bet amounts while '
            "betting (POST .../bets), start cards while starting (POST .../plays), suit "
            "letters while choosing (POST .../suits); empty when it is not your turn.",
            "example": ["pass", 1, 2, 3],
        },
    )


class PochGameViewSchema(Answer):
    """A seat's view of a Poch game (with `you`) or the spectator's (without). The
    envelope (`id`, `version`, `last_event`, `seeded`, `players`, `table`, `deadline`,
    `seconds_left`) is as in Pocha's views."""

    OPTIONAL = frozenset({"you"})

    game = fields.String(
        metadata={"description": "Always `poch`.", "enum": ["poch"], "example": "poch"}
    )
    id = fields.String(metadata={"description": "The game's id.", "example": "Jm2bS0k4qV7wXc1Z"})
    version = fields.Integer(
        metadata={
            "description": "Bumped by every change; also the ETag (what "
            "`GET /api/v1/games/{id}`'s ETag starts with).",
            "example": 12,
        }
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
    rules = fields.Nested(
        PochRulesInForceSchema, metadata={"description": "The rules of this game."}
    )
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
    turn = fields.Integer(
        allow_none=True,
        metadata={
            "description": "Whose decision it is; null while the table waits and once the "
            "game is over."
        },
    )
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
    trump = fields.String(
        allow_none=True,
        metadata={
            "description": "The trump suit (null once the game is over). " + SUIT,
            "enum": [*SUITS, None],
        },
    )
    hand_sizes = _chips("How many cards each seat holds.")
    collected = fields.List(
        fields.Nested(CollectedSchema),
        metadata={
            "description": "The plates taken this deal: seat, plate, the honours shown, chips."
        },
    )
    bets = fields.List(
        fields.Nested(PochBetSchema),
        metadata={"description": "This deal's betting round: seat, call, amount."},
    )
    showdown = fields.Dict(
        keys=fields.String(),
        values=fields.List(_card()),
        metadata={"description": "Each seat's best set as shown at the showdown (by seat)."},
    )
    starter = fields.Integer(allow_none=True, metadata={"description": "Who starts shedding."})
    direction = fields.String(
        allow_none=True,
        metadata={
            "description": "`up` (started with a 7) or `down` (with an ace); null before the "
            "start card.",
            "enum": ["up", "down", None],
        },
    )
    suit = fields.String(
        allow_none=True,
        metadata={
            "description": "The suit running now; null at a decision.",
            "enum": [*SUITS, None],
        },
    )
    suits_done = fields.List(
        fields.String(metadata={"enum": SUITS}), metadata={"description": "Suits shed already."}
    )
    played = fields.List(
        fields.List(
            fields.Raw(
                metadata={
                    "oneOf": [
                        {"type": "integer", "minimum": 0, "description": "The seat."},
                        {"type": "string", "pattern": CARD_PATTERN, "description": "The card."},
                    ]
                }
            ),
            metadata={
                "description": "A card shed: [seat, card code].",
                "minItems": 2,
                "maxItems": 2,
            },
        ),
        metadata={"description": "The cards shed this deal: [seat, card], in order."},
    )
    deal_results = fields.List(
        fields.Nested(DealResultSchema),
        metadata={"description": "Each finished deal: its winner and what each seat paid."},
    )
    result = fields.Nested(
        PochResultSchema,
        allow_none=True,
        metadata={"description": "Once over: the final chips and the winners; null before."},
    )
    you = fields.Nested(PochYouSchema, metadata={"description": "Only in a seat's view."})


# Each phase's view, as for Pocha's: `you.legal` of the phase's own forms.


class PochBettingYouSchema(PochYouSchema):
    legal = fields.List(
        fields.Raw(
            metadata={
                "oneOf": [
                    {"type": "string", "enum": ["pass", "hold"]},
                    {"type": "integer", "minimum": 1, "description": "A bet or a raise."},
                ]
            }
        ),
        metadata={
            "description": 'What you may call now (POST .../bets): `"pass"`, `"hold"` and the '
            "amounts you may bet; empty when it is not your turn.",
            "example": ["pass", 1, 2, 3],
        },
    )


class PochStartingYouSchema(PochYouSchema):
    legal = fields.List(
        fields.String(
            metadata={
                "description": "A 7 or an ace you may start with.",
                "pattern": START_CARD_PATTERN,
            }
        ),
        metadata={
            "description": "The cards you may start the shedding with (POST .../plays); "
            "empty when it is not your turn.",
            "example": ["C7", "HA"],
        },
    )


class PochChoosingYouSchema(PochYouSchema):
    legal = fields.List(
        fields.String(metadata={"enum": SUITS, "description": SUIT}),
        metadata={
            "description": "The suits you may shed next (POST .../suits); empty when it is "
            "not your turn.",
            "example": ["S", "D"],
        },
    )


_YOU = "Only in a seat's view."


class PochWaitingGameViewSchema(PochGameViewSchema):
    """A Poch game waiting at its table for people: nobody sees a card yet."""

    phase = _phase("waiting", "the table waits for people to take the open seats.")


class PochBettingGameViewSchema(PochGameViewSchema):
    """A Poch deal's betting round: `you.legal` holds `pass`, `hold` and amounts."""

    phase = _phase("betting", "the one betting round: pass, hold, bet or raise.")
    turn = _turn_now()
    you = fields.Nested(PochBettingYouSchema, metadata={"description": _YOU})


class PochStartingGameViewSchema(PochGameViewSchema):
    """The betting round's winner starts the shedding: `you.legal` holds 7s and aces."""

    phase = _phase("starting", "the betting round's winner plays a 7 or an ace.")
    turn = _turn_now()
    you = fields.Nested(PochStartingYouSchema, metadata={"description": _YOU})


class PochChoosingGameViewSchema(PochGameViewSchema):
    """A suit has run out: `you.legal` holds the suits that may run next."""

    phase = _phase("choosing", "whoever shed a suit's last card chooses the next suit.")
    turn = _turn_now()
    you = fields.Nested(PochChoosingYouSchema, metadata={"description": _YOU})


class PochOverGameViewSchema(PochGameViewSchema):
    """A Poch game that is over: `result` has the final chips and the winners."""

    phase = _phase("over", "the game is over.")


#: Poch's phases and each one's view (components named as the keys say).
POCH_PHASE_VIEWS: dict[str, tuple[str, type[ma.Schema]]] = {
    "waiting": ("PochWaitingGameView", PochWaitingGameViewSchema),
    "betting": ("PochBettingGameView", PochBettingGameViewSchema),
    "starting": ("PochStartingGameView", PochStartingGameViewSchema),
    "choosing": ("PochChoosingGameView", PochChoosingGameViewSchema),
    "over": ("PochOverGameView", PochOverGameViewSchema),
}


class PochEventSchema(Answer):
    """One event of a Poch game (the table's events are as Pocha's). `type` says which of
    the other fields it has; cards appear only once the rules make them public."""

    OPTIONAL = frozenset(
        {
            "by", "seat", "card", "amount", "pot", "deal", "dealer", "each", "counts", "trump",
            "plate", "cards", "chips", "sets", "paid", "pocher", "direction", "suit",
            "winner", "winners",
        }
    )  # fmt: skip

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
    by = fields.String(
        metadata={
            "description": "A decision (bet, hold, raise, pass, start, choose): `stand_in` when "
            "the table's stand-in bot made it for a person; absent when the seat's own "
            "player did.",
            "enum": ["stand_in"],
        }
    )
    seat = fields.Integer(
        metadata={
            "description": "Who: leave, collect, bet, hold, raise, pass, no_set (the bettor), "
            "bluff (the bettor), take_pot, start, choose, play."
        }
    )
    card = _card("play: the card. " + CARD)
    amount = fields.Integer(metadata={"description": "bet, hold, raise, pass: the chips paid."})
    pot = fields.Integer(
        metadata={"description": "bet, hold, raise, pass, no_bet, no_set, take_pot: the pot."}
    )
    deal = fields.Integer(metadata={"description": "ante, deal_won: the deal, from 1."})
    dealer = fields.Integer(metadata={"description": "ante: the dealer's seat."})
    each = fields.Integer(
        metadata={"description": "ante: the chips each seat still in paid onto the plates."}
    )
    counts = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        metadata={"description": "deal: how many cards each seat was dealt, by seat."},
    )
    trump = fields.String(metadata={"description": "deal: the trump suit. " + SUIT, "enum": SUITS})
    plate = fields.String(
        metadata={"description": "collect: the plate taken.", "enum": list(PLATES)}
    )
    cards = fields.List(_card(), metadata={"description": "collect: the honours shown."})
    chips = fields.Raw(
        metadata={
            "description": "leave: the chips the seat leaves with; collect: the chips on the "
            "plate; game_over: each seat's chips at the end.",
            "oneOf": [
                {"type": "integer", "minimum": 0},
                {"type": "array", "items": {"type": "integer"}},
            ],
        }
    )
    sets = fields.Dict(
        keys=fields.String(),
        values=fields.List(_card()),
        metadata={"description": "showdown: each seat's best set, by seat (none: no set)."},
    )
    paid = fields.Raw(
        metadata={
            "description": "bluff: the fine the bettor paid into the pot; deal_won: the chips "
            "each other seat paid the winner, by seat.",
            "oneOf": [
                {"type": "integer", "minimum": 0},
                {"type": "object", "additionalProperties": {"type": "integer"}},
            ],
        }
    )
    pocher = fields.Integer(
        metadata={"description": "take_pot: the chips of the pocher plate taken with the pot."}
    )
    direction = fields.String(
        metadata={"description": "start: `up` (a 7) or `down` (an ace).", "enum": ["up", "down"]}
    )
    suit = fields.String(metadata={"description": "choose: the next suit. " + SUIT, "enum": SUITS})
    winner = fields.Integer(metadata={"description": "deal_won: who went out first."})
    winners = fields.List(
        fields.Integer(), metadata={"description": "game_over: the seats with the most chips."}
    )


class PochHistorySchema(Answer):
    game = fields.String(
        metadata={"description": "Always `poch`.", "enum": ["poch"], "example": "poch"}
    )
    id = fields.String(metadata={"description": "The game's id.", "example": "Jm2bS0k4qV7wXc1Z"})
    version = fields.Integer(metadata={"description": "The game's version.", "example": 40})
    players = fields.List(fields.Nested(PlayerInfoSchema), metadata={"description": "The seats."})
    deals = fields.List(
        fields.Nested(DealResultSchema),
        metadata={"description": "Every finished deal: winner and payments."},
    )
    chips = _chips("Each seat's chips now.")
    finished = fields.Boolean(metadata={"description": "Whether the game is over."})
    result = fields.Nested(
        PochResultSchema,
        allow_none=True,
        metadata={"description": "Once over: the final chips and the winners; null before."},
    )


# -- matches ------------------------------------------------------------------------------------


class PochBotStatsSchema(Answer):
    """One bot's figures in a Poch match, as `pocha arena-poch` reports them."""

    OPTIONAL = frozenset({"lead"})

    bot = fields.String(metadata={"description": "The seat text.", "example": "hard"})
    deals = fields.Integer(metadata={"description": "Deals it played.", "example": 10})
    seats_played = fields.Integer(
        metadata={"description": "Seats it held, over the deals and their rotations."}
    )
    chips_per_deal = fields.Float(
        metadata={
            "description": "Chips its seats ended a deal with less those they began with, "
            "averaged over its seats and the rotations, then over the deals.",
            "example": -1.63,
        }
    )
    ci95 = fields.Float(
        allow_none=True,
        metadata={
            "description": "Half-width of the 95% confidence interval of chips_per_deal, "
            "over deals (null with fewer than two).",
            "example": 0.08,
        },
    )
    out_first = fields.Float(
        metadata={"description": "Its seats that went out first and were paid, 0-1.",
                  "example": 0.275}
    )  # fmt: skip
    ms_per_decision = fields.Float(metadata={"description": "Mean thinking time per decision."})
    lead = fields.Nested(
        MatchLeadSchema, allow_none=True, metadata={"description": LEAD_DESCRIPTION}
    )


class PochGameRecordSchema(MatchGameRecordSchema):
    """One game (one deal) of a Poch match, as `ai.poch.arena` records it."""

    game = fields.Integer(metadata={"description": "The game's number in the match, from 0."})
    seed = fields.Integer(metadata={"description": "The deal's seed (its cards and dealer)."})
    deal = fields.Integer(
        metadata={"description": "The deal: with duplicate deals, shared by its rotations."}
    )
    rules = fields.Nested(PochRulesInForceSchema, metadata={"description": "The rules (one deal)."})
    seats = fields.List(fields.String(), metadata={"description": "The bot of each seat."})
    chips = fields.List(
        fields.Integer(),
        metadata={
            "description": "Chips won per seat: its chips at the end less at the start. They "
            "sum to no more than 0: what stays on the plates and in the pot is nobody's.",
            "example": [5, -9, -2, -3],
        },
    )
    winner = fields.Integer(
        allow_none=True, metadata={"description": "The seat that went out first and was paid."}
    )
    decisions = fields.List(fields.Integer(), metadata={"description": "Decisions per seat."})
    think_ms = fields.List(fields.Float(), metadata={"description": "Thinking time per seat."})


# -- positions ----------------------------------------------------------------------------------


def _known_poch_level(level: str) -> None:
    known_level(level, KIND.name)


class PochThinkingSchema(ThinkingSchema):
    """How hard a Poch bot thinks: one of Poch's levels, or a custom budget."""

    level = fields.String(
        validate=_known_poch_level,
        metadata={
            "description": "A Poch bot level (see GET /api/v1/rules): random, heuristic, easy, "
            "medium, hard. The search levels come with an analysis.",
            "enum": list(levels_of(KIND.name)),
            "example": "hard",
        },
    )


def _list_of(inner: fields.Field, most: int, description: str, **kwargs: Any) -> fields.List:
    return fields.List(
        inner, validate=validate.Length(0, most), metadata={"description": description}, **kwargs
    )


class PochYouInSchema(ma.Schema):
    seat = fields.Integer(
        required=True,
        strict=True,
        metadata={"description": "The seat to decide for: it must be its turn.", "example": 1},
    )
    hand = _list_of(
        fields.String(validate=validate.Length(1, 8)),
        32,
        "The seat's cards now. " + CARD,
        required=True,
    )
    legal = _list_of(
        fields.Raw(),
        100_000,
        "Optional: the legal actions as the view gave them; checked, never used (the "
        "position's own are computed).",
    )


class PochPositionSchema(ma.Schema):
    """A Poch deal in progress as one seat sees it: the fields of that seat's view
    (`PochGameView`) without its envelope (`id`, `version`, `last_event`, `seeded`,
    `players`, `table`, `deadline`, `seconds_left`). Every field is checked against the
    others (chips conserved, cards once each, counts, the betting round, the showdown, the
    shedding); an impossible position is 422 `invalid_position`."""

    game = fields.String(
        required=True,
        validate=validate.Equal(KIND.name),
        metadata={"description": "`poch`: this is a Poch position.", "example": "poch"},
    )
    rules = fields.Nested(
        PochRulesSchema,
        required=True,
        metadata={"description": "The rules; `players` must match the seats."},
    )
    deal = fields.Integer(
        required=True, strict=True, metadata={"description": "The deal, from 1.", "example": 1}
    )
    dealer = fields.Integer(
        required=True, strict=True, metadata={"description": "The dealer's seat.", "example": 0}
    )
    phase = fields.String(
        required=True,
        validate=validate.Length(1, 16),
        metadata={
            "description": "`betting`, `starting` or `choosing`: a decision of the seat.",
            "example": "betting",
        },
    )
    turn = fields.Integer(
        required=True,
        strict=True,
        allow_none=True,
        metadata={"description": "Whose decision it is: the seat in `you`.", "example": 1},
    )
    chips = _list_of(fields.Integer(strict=True), 8, "Each seat's chips.", required=True)
    active = _list_of(StrictBoolean(), 8, "Whether each seat is still in the game.", required=True)
    plates = fields.Dict(
        keys=fields.String(validate=validate.OneOf(PLATES)),
        values=fields.Integer(strict=True),
        required=True,
        metadata={"description": "Chips on each of the eight plates."},
    )
    pot = fields.Integer(
        required=True, strict=True, metadata={"description": "Chips in the pot.", "example": 0}
    )
    trump = fields.String(
        required=True,
        allow_none=True,
        validate=validate.Length(1, 8),
        metadata={"description": "The trump suit. " + SUIT, "example": "H"},
    )
    hand_sizes = _list_of(
        fields.Integer(strict=True), 8, "How many cards each seat holds.", required=True
    )
    collected = _list_of(
        fields.Dict(),
        7,
        "The plates taken this deal, in order: {seat, plate, cards, chips}.",
        required=True,
    )
    bets = _list_of(
        fields.Dict(), 8, "This deal's betting round so far: {seat, call, amount}.", required=True
    )
    showdown = fields.Dict(
        keys=fields.String(validate=validate.Length(1, 2)),
        values=_list_of(fields.String(validate=validate.Length(1, 8)), 4, "A set."),
        required=True,
        metadata={"description": "Each seat's best set as shown at the showdown (by seat)."},
    )
    starter = fields.Integer(
        required=True,
        strict=True,
        allow_none=True,
        metadata={"description": "Who won the betting (starts the shedding)."},
    )
    direction = fields.String(
        required=True,
        allow_none=True,
        validate=validate.Length(1, 8),
        metadata={"description": "`up`, `down`, or null before the start card."},
    )
    suit = fields.String(
        required=True,
        allow_none=True,
        validate=validate.Length(1, 8),
        metadata={"description": "The suit running now (null at a decision)."},
    )
    suits_done = _list_of(
        fields.String(validate=validate.Length(1, 8)), 4, "Suits shed already.", required=True
    )
    played = _list_of(
        fields.List(fields.Raw(), validate=validate.Length(2, 2)),
        32,
        "The cards shed this deal, in order: [seat, card].",
        required=True,
    )
    deal_results = _list_of(
        fields.Dict(),
        MAX_DEALS,
        "Optional: each finished deal (its winner and what each seat paid); passed on.",
    )
    result = fields.Raw(
        allow_none=True,
        metadata={
            "description": "Optional: null (the game is not over), as the view gave it.",
            "type": "object",
        },
    )
    you = fields.Nested(
        PochYouInSchema,
        required=True,
        metadata={"description": "The seat deciding, its cards and (optional) its legal actions."},
    )


class PochAiMoveRequestSchema(PochPositionSchema, PochThinkingSchema):
    """A Poch position (`"game": "poch"`) and how hard to think about it."""


FORMS = WireForms(
    game=KIND.name,
    rules=PochRulesSchema,
    ai_move_request=PochAiMoveRequestSchema,
    move_bodies={
        "bets": MoveBody(BetSchema, is_plain_bet),
        "suits": MoveBody(SuitSchema, is_plain_suit),
    },
)
