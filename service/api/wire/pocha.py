"""Pocha's wire forms: its rule options (`Rules`, and `RulesInForce` as a view shows them),
its move bodies (a bid, a card), its view by phase, its events, its score sheet, a Pocha
position for an AI move (`AiMoveRequest`) and a match's records and figures.
How it works: docs/internals.md, `service.api.wire.pocha`.
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
from service.api.games_schemas import PlayerInfoSchema, TableSchema, _phase, _seat, _turn_now
from service.api.wire import (
    LEAD_DESCRIPTION,
    MatchGameRecordSchema,
    MatchLeadSchema,
    MoveBody,
    WireForms,
)

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


# -- moves -----------------------------------------------------------------------------------


class BidSchema(ma.Schema):
    bid = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(0, MAX_CARDS),
        metadata={
            "description": "Tricks you will win this hand: one of `you.legal` in your view.",
            "example": 2,
        },
    )


#: The longest card code a move may send (longer ones are refused unread).
MAX_CARD_CODE = 8


class PlaySchema(ma.Schema):
    card = fields.String(
        required=True,
        validate=validate.Length(1, MAX_CARD_CODE),
        metadata={"description": "The card to play: one of `you.legal`. " + CARD, "example": "O1"},
    )


def is_plain_bid(body: Any) -> bool:
    """`{"bid": n}` with n a whole number BidSchema takes (a bool is left to the schema)."""
    return (
        type(body) is dict
        and len(body) == 1
        and type(body.get("bid")) is int
        and 0 <= body["bid"] <= MAX_CARDS
    )


def is_plain_card(body: Any) -> bool:
    """`{"card": code}` with a code of a length PlaySchema takes."""
    return (
        type(body) is dict
        and len(body) == 1
        and type(body.get("card")) is str
        and 1 <= len(body["card"]) <= MAX_CARD_CODE
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


# -- views, events and the score sheet ------------------------------------------------------


def _card(
    description: str = CARD, example: str = "O1", pattern: str | None = None, **kwargs: Any
) -> fields.String:
    metadata = {"description": description, "example": example}
    if pattern is not None:
        metadata["pattern"] = pattern
    return fields.String(metadata=metadata, **kwargs)


#: A Pocha card code as the server writes it.
CARD_PATTERN = "^[OCEB]([1-7]|1[0-2])$"

#: What a Pocha decision is on the wire: a bid's number or a card's code.
POCHA_ACTION = {
    "oneOf": [
        {"type": "integer", "minimum": 0, "description": "A bid: tricks to win."},
        {"type": "string", "pattern": CARD_PATTERN, "description": "A card's code."},
    ]
}


class PlayedCardSchema(Answer):
    seat = _seat("Who played the card.")
    card = _card(pattern=CARD_PATTERN)


class TrumpSchema(Answer):
    card = _card("The card that sets trump, face up all hand. " + CARD, "E7", pattern=CARD_PATTERN)
    holder = fields.Integer(
        allow_none=True,
        metadata={
            "description": "The dealer's seat when the whole deck was dealt (the trump card "
            "is the dealer's last card, held until played); null when it was turned from "
            "the rest of the deck and belongs to nobody.",
            "example": None,
        },
    )


class RefusalSchema(Answer):
    """A move the rules bar now, with the engine's reason: a card or a bid, never both."""

    OPTIONAL = frozenset({"card", "bid"})

    card = _card("A card in your hand you may not play now. " + CARD, "C7", pattern=CARD_PATTERN)
    bid = fields.Integer(
        metadata={
            "description": "The bid you may not make now (the dealer's restriction).",
            "example": 2,
        }
    )
    rule = fields.String(
        metadata={
            "description": "The rule that bars it, as a refused move's `rule`: asistir, "
            "montar, fallar, pisar (cards) or dealer_restriction (the bid).",
            "example": "asistir",
        }
    )
    message = fields.String(
        metadata={
            "description": "Why, in the words the move would be refused with.",
            "example": "you must follow oros: you hold O1, O4",
        }
    )


class YouSchema(Answer):
    seat = _seat("Your seat.")
    hand = fields.List(
        _card(),
        metadata={"description": "Your cards, by suit and strength.", "example": ["O1", "C4"]},
    )
    legal = fields.List(
        fields.Raw(metadata=POCHA_ACTION),
        metadata={
            "description": "What you may do now: bids as integers while bidding, card codes "
            "while playing; empty when it is not your turn.",
            "example": [0, 1, 3],
        },
    )
    refused = fields.List(
        fields.Nested(RefusalSchema),
        metadata={
            "description": "On your turn, each card in your hand (in `hand` order) or bid "
            "from 0 to `cards_per_player` that `legal` leaves out, with the rule and the "
            "sentence the move would be refused with; empty when it is not your turn.",
        },
    )


class GameViewSchema(Answer):
    """A seat's view (with `you`) or the spectator's view (without)."""

    OPTIONAL = frozenset({"you"})

    game = fields.String(
        metadata={
            "description": "The game: `pocha` here (`poch`: PochGameView).",
            "enum": ["pocha"],
            "example": "pocha",
        }
    )
    id = fields.String(metadata={"description": "The game's id.", "example": "Jm2bS0k4qV7wXc1Z"})
    version = fields.Integer(
        metadata={
            "description": "Bumped by every change (every bid and card). Also the ETag (what "
            "`GET /api/v1/games/{id}`'s ETag starts with); send it as If-Match with a move to "
            "refuse it if anything changed meanwhile.",
            "example": 12,
        }
    )
    last_event = fields.Integer(
        metadata={
            "description": "`seq` of the game's latest event: follow the events from here.",
            "example": 17,
        }
    )
    seeded = fields.Boolean(
        metadata={
            "description": "Whether whoever made the game chose its seed: then they can know "
            "every hand before it is dealt. A practice table, not a fair game among people; "
            "games made without a seed are dealt from 128 random bits that nobody sees.",
            "example": False,
        }
    )
    players = fields.List(fields.Nested(PlayerInfoSchema), metadata={"description": "The seats."})
    rules = fields.Nested(RulesInForceSchema, metadata={"description": "The rules of this game."})
    seat = fields.Integer(
        allow_none=True,
        metadata={"description": "Whose view this is; null for a spectator.", "example": 0},
    )
    phase = fields.String(
        metadata={
            "description": "`waiting` (for people to take the open seats: nobody sees a "
            "card yet), `bidding`, `playing` or `finished`.",
            "enum": ["waiting", "bidding", "playing", "finished"],
            "example": "playing",
        }
    )
    table = fields.Nested(
        TableSchema,
        allow_none=True,
        metadata={"description": "The table, for a game people gather at; else null."},
    )
    deadline = fields.Float(
        allow_none=True,
        metadata={
            "description": "When the clock of the person to act runs out (Unix time, "
            "seconds); null when no clock runs (a bot's turn, no `turn_seconds`, one person).",
            "example": 1764578405.2,
        },
    )
    seconds_left = fields.Float(
        allow_none=True,
        metadata={
            "description": "The same deadline as seconds left when the view was made (for "
            "clients whose clock differs from the server's).",
            "example": 41.5,
        },
    )
    turn = fields.Integer(
        allow_none=True,
        metadata={
            "description": "The seat to act now; null while the table waits and once the "
            "game is over.",
            "example": 1,
        },
    )
    hand_number = fields.Integer(
        metadata={"description": "The hand being played, from 1.", "example": 3}
    )
    hands_total = fields.Integer(
        metadata={
            "description": "Hands in the game (grows by one per tiebreak hand).",
            "example": 28,
        }
    )
    cards_per_player = fields.Integer(
        metadata={"description": "Cards dealt to each seat this hand.", "example": 3}
    )
    dealer = _seat("The dealer of this hand: bids last.")
    mano = _seat("La mano, the seat after the dealer: bids first and leads the first trick.")
    tiebreak_hand = fields.Integer(
        allow_none=True,
        metadata={
            "description": "Which tiebreak hand this is, from 1, when the game is tied "
            "after its last scheduled hand; null for a scheduled hand.",
            "example": None,
        },
    )
    trump = fields.Nested(TrumpSchema, metadata={"description": "This hand's trump."})
    bids = fields.List(
        fields.Integer(allow_none=True),
        metadata={
            "description": "Each seat's bid, null until made.",
            "example": [1, 0, None, None],
        },
    )
    tricks_won = fields.List(
        fields.Integer(),
        metadata={"description": "Tricks each seat has won this hand.", "example": [1, 0, 0, 0]},
    )
    trick = fields.List(
        fields.Nested(PlayedCardSchema),
        metadata={"description": "The cards on the table now, in the order played."},
    )
    winning = fields.Integer(
        allow_none=True,
        metadata={
            "description": "The seat whose card is winning the trick on the table so far: "
            "the highest trump, or with none the highest card of the lead suit; null when "
            "no card is on the table.",
            "example": 2,
        },
    )
    plays = fields.List(
        fields.Nested(PlayedCardSchema),
        metadata={"description": "Every card played this hand, in order (perfect recall)."},
    )
    last_trick = fields.List(
        fields.Nested(PlayedCardSchema),
        metadata={"description": "The last completed trick, in the order played."},
    )
    hand_sizes = fields.List(
        fields.Integer(),
        metadata={"description": "How many cards each seat holds now.", "example": [2, 2, 3, 3]},
    )
    scores = fields.List(
        fields.Integer(),
        metadata={"description": "Each seat's total so far.", "example": [25, -5, 10, 15]},
    )
    winners = fields.List(
        fields.Integer(),
        metadata={"description": "The winning seats once finished (ties share).", "example": []},
    )
    you = fields.Nested(
        YouSchema,
        metadata={
            "description": "Your hand, what you may do and why not the rest; only in a seat's view."
        },
    )


# Each phase's view, so that a typed client that has told the view's `phase` apart finds
# `you.legal` already of the phase's type: bids while bidding, card codes while playing.


class BiddingYouSchema(YouSchema):
    legal = fields.List(
        fields.Integer(validate=validate.Range(min=0), metadata={"description": "A bid."}),
        metadata={
            "description": "The bids you may make now (tricks to win); empty when it is not "
            "your turn.",
            "example": [0, 1, 3],
        },
    )


class PlayingYouSchema(YouSchema):
    legal = fields.List(
        _card("A card you may play. " + CARD, pattern=CARD_PATTERN),
        metadata={
            "description": "The cards you may play now; empty when it is not your turn.",
            "example": ["O1", "O4"],
        },
    )


_YOU = "Your hand, what you may do and why not the rest; only in a seat's view."


class WaitingGameViewSchema(GameViewSchema):
    """A Pocha game waiting at its table for people: nobody sees a card yet."""

    phase = _phase("waiting", "the table waits for people to take the open seats.")


class BiddingGameViewSchema(GameViewSchema):
    """A Pocha hand's bidding: `you.legal` holds bids."""

    phase = _phase("bidding", "each seat bids the tricks it will win, from la mano on.")
    turn = _turn_now()
    you = fields.Nested(BiddingYouSchema, metadata={"description": _YOU})


class PlayingGameViewSchema(GameViewSchema):
    """A Pocha hand's tricks: `you.legal` holds card codes."""

    phase = _phase("playing", "the tricks are played.")
    turn = _turn_now()
    you = fields.Nested(PlayingYouSchema, metadata={"description": _YOU})


class FinishedGameViewSchema(GameViewSchema):
    """A finished Pocha game: `winners` says who won."""

    phase = _phase("finished", "the game is over.")


#: Pocha's phases, in order, and each one's view (components named as the keys say).
POCHA_PHASE_VIEWS: dict[str, tuple[str, type[GameViewSchema]]] = {
    "waiting": ("WaitingGameView", WaitingGameViewSchema),
    "bidding": ("BiddingGameView", BiddingGameViewSchema),
    "playing": ("PlayingGameView", PlayingGameViewSchema),
    "finished": ("FinishedGameView", FinishedGameViewSchema),
}


class EventSchema(Answer):
    """One event. `type` says which of the other fields it has."""

    OPTIONAL = frozenset(
        {
            "by", "name", "bot", "removed", "game_id", "seat", "bid", "card", "trick_number",
            "trick", "tricks_won", "hand_number", "hands_total", "cards_per_player",
            "dealer", "mano", "tiebreak", "trump", "bids", "tricks", "points", "scores",
            "winners",
        }
    )  # fmt: skip

    seq = fields.Integer(metadata={"description": "1, 2, 3... in order.", "example": 5})
    version = fields.Integer(
        metadata={"description": "The game's version after this event.", "example": 4}
    )
    type = fields.String(
        metadata={
            "description": "The game's: hand_dealt, bid, card_played, trick_won, "
            "hand_scored, game_over. The table's: seat_taken (someone took an open seat), "
            "seat_bot (the host gave one to a bot), seat_opened (someone left a waiting "
            "table, or the host removed them), game_started, seat_away (two turns in a row "
            "ran out: the stand-in plays the seat at once), seat_back, seat_left (the "
            "stand-in plays the seat to the end), rematch (the next table's `game_id`).",
            "enum": [
                "hand_dealt",
                "bid",
                "card_played",
                "trick_won",
                "hand_scored",
                "game_over",
                "seat_taken",
                "seat_bot",
                "seat_opened",
                "game_started",
                "seat_away",
                "seat_back",
                "seat_left",
                "rematch",
            ],
            "example": "card_played",
        }
    )
    by = fields.String(
        metadata={
            "description": "bid, card_played: `stand_in` when the table's stand-in bot made "
            "it for a person (their clock ran out, or they are away or left); absent when "
            "the seat's own player did.",
            "enum": ["stand_in"],
        }
    )
    name = fields.String(metadata={"description": "seat_taken: the name.", "example": "Eva"})
    bot = fields.String(metadata={"description": "seat_bot: the bot's level.", "example": "medium"})
    removed = fields.Boolean(
        metadata={
            "description": "seat_opened: true when the host removed the seat's person "
            "(absent when they left)."
        }
    )
    game_id = fields.String(metadata={"description": "rematch: the next table's game id."})
    seat = fields.Integer(
        metadata={
            "description": "bid, card_played: who; trick_won: the winner; the seat_* "
            "events: which seat.",
            "example": 1,
        }
    )
    bid = fields.Integer(metadata={"description": "bid: the bid.", "example": 2})
    card = _card("card_played: the card. " + CARD, pattern=CARD_PATTERN)
    trick_number = fields.Integer(
        metadata={"description": "trick_won: which trick of the hand, from 1.", "example": 1}
    )
    trick = fields.List(
        fields.Nested(PlayedCardSchema),
        metadata={"description": "trick_won: the trick's cards in the order played."},
    )
    tricks_won = fields.List(
        fields.Integer(), metadata={"description": "trick_won: tricks per seat this hand."}
    )
    hand_number = fields.Integer(
        metadata={"description": "hand_dealt, hand_scored: the hand.", "example": 1}
    )
    hands_total = fields.Integer(metadata={"description": "hand_dealt: hands in the game."})
    cards_per_player = fields.Integer(
        metadata={"description": "hand_dealt: cards dealt to each seat."}
    )
    dealer = fields.Integer(metadata={"description": "hand_dealt: the dealer."})
    mano = fields.Integer(metadata={"description": "hand_dealt: la mano, who bids first."})
    tiebreak = fields.Boolean(metadata={"description": "hand_dealt: a tiebreak hand."})
    trump = fields.Nested(TrumpSchema, metadata={"description": "hand_dealt: the trump."})
    bids = fields.List(fields.Integer(), metadata={"description": "hand_scored: bids per seat."})
    tricks = fields.List(
        fields.Integer(), metadata={"description": "hand_scored: tricks per seat."}
    )
    points = fields.List(
        fields.Integer(), metadata={"description": "hand_scored: points per seat this hand."}
    )
    scores = fields.List(
        fields.Integer(),
        metadata={"description": "hand_scored, game_over: totals per seat."},
    )
    winners = fields.List(
        fields.Integer(), metadata={"description": "game_over: the winning seats."}
    )


class HandRecordSchema(Answer):
    """One finished hand on the score sheet."""

    hand_number = fields.Integer(metadata={"description": "The hand, from 1.", "example": 1})
    cards = fields.Integer(metadata={"description": "Cards dealt to each seat.", "example": 1})
    dealer = _seat("The dealer.")
    tiebreak = fields.Boolean(metadata={"description": "A tiebreak hand.", "example": False})
    trump = fields.Nested(TrumpSchema, metadata={"description": "The trump."})
    hands = fields.List(
        fields.List(_card()),
        metadata={
            "description": "The cards dealt to each seat (all played by now).",
            "example": [["O1"], ["C4"], ["E12"], ["B3"]],
        },
    )
    bids = fields.List(fields.Integer(), metadata={"description": "Bids per seat."})
    tricks = fields.List(fields.Integer(), metadata={"description": "Tricks won per seat."})
    points = fields.List(fields.Integer(), metadata={"description": "Points per seat."})
    totals = fields.List(
        fields.Integer(), metadata={"description": "Running totals after this hand."}
    )


class HistorySchema(Answer):
    game = fields.String(
        metadata={
            "description": "The game: `pocha` here (`poch`: PochHistory).",
            "enum": ["pocha"],
            "example": "pocha",
        }
    )
    id = fields.String(metadata={"description": "The game's id.", "example": "Jm2bS0k4qV7wXc1Z"})
    version = fields.Integer(metadata={"description": "The game's version.", "example": 40})
    players = fields.List(fields.Nested(PlayerInfoSchema), metadata={"description": "The seats."})
    hands = fields.List(
        fields.Nested(HandRecordSchema),
        metadata={"description": "Every finished hand, in order."},
    )
    scores = fields.List(fields.Integer(), metadata={"description": "Totals now."})
    finished = fields.Boolean(metadata={"description": "Whether the game is over."})
    winners = fields.List(
        fields.Integer(), metadata={"description": "The winning seats once finished."}
    )


# -- matches ------------------------------------------------------------------------------------


class BotStatsSchema(Answer):
    OPTIONAL = frozenset({"lead"})

    bot = fields.String(metadata={"description": "The seat text.", "example": "hard"})
    hands = fields.Integer(metadata={"description": "Hands played (over its seats)."})
    games = fields.Float(metadata={"description": "Games it sat in."})
    mean_score = fields.Float(metadata={"description": "Mean score per hand.", "example": 8.4})
    ci95 = fields.Float(
        allow_none=True,
        metadata={
            "description": "Half-width of the 95% confidence interval of the mean, over "
            "deals (null with fewer than two).",
            "example": 1.3,
        },
    )
    win_rate = fields.Float(
        metadata={"description": "Games won (shared wins split), 0-1.", "example": 0.4}
    )
    exact_rate = fields.Float(
        metadata={"description": "Hands where the bid was exact, 0-1.", "example": 0.55}
    )
    decisions = fields.Integer(metadata={"description": "Bids and cards decided."})
    ms_per_decision = fields.Float(metadata={"description": "Mean thinking time per decision."})
    mean_bid = fields.Float(
        metadata={"description": "Mean bid per hand (beside mean_tricks: calibration).",
                  "example": 1.3}
    )  # fmt: skip
    mean_tricks = fields.Float(
        metadata={"description": "Mean tricks taken per hand.", "example": 1.35}
    )
    lead = fields.Nested(
        MatchLeadSchema, allow_none=True, metadata={"description": LEAD_DESCRIPTION}
    )


class HandResultSchema(Answer):
    cards = fields.Integer(metadata={"description": "Cards dealt to each seat.", "example": 3})
    bids = fields.List(fields.Integer(), metadata={"description": "Bids per seat."})
    tricks = fields.List(fields.Integer(), metadata={"description": "Tricks won per seat."})
    points = fields.List(fields.Integer(), metadata={"description": "Points per seat."})


class GameRecordSchema(MatchGameRecordSchema):
    """One game of a Pocha match, as `ai.pocha.arena` records it."""

    game = fields.Integer(metadata={"description": "The game's number in the match, from 0."})
    seed = fields.Integer(metadata={"description": "The game's seed (its deals and dealer)."})
    deal = fields.Integer(
        metadata={"description": "The deal: with duplicate deals, shared by its rotations."}
    )
    rules = fields.Nested(RulesInForceSchema, metadata={"description": "The rules."})
    seats = fields.List(fields.String(), metadata={"description": "The bot of each seat."})
    hands = fields.List(fields.Nested(HandResultSchema), metadata={"description": "Each hand."})
    scores = fields.List(fields.Integer(), metadata={"description": "Final totals per seat."})
    winners = fields.List(fields.Integer(), metadata={"description": "The winning seats."})
    decisions = fields.List(fields.Integer(), metadata={"description": "Decisions per seat."})
    think_ms = fields.List(fields.Float(), metadata={"description": "Thinking time per seat."})


FORMS = WireForms(
    game=KIND.name,
    rules=RulesSchema,
    ai_move_request=AiMoveRequestSchema,
    move_bodies={
        "bids": MoveBody(BidSchema, is_plain_bid),
        "plays": MoveBody(PlaySchema, is_plain_card),
    },
)
