"""Marshmallow schemas of the games resource: every request body and every response.
How it works: docs/internals.md, `service.api.games_schemas`.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

import engine.poch.rules
from ai.pocha.levels import LEVELS
from ai.registry import LEVELS as BOT_LEVELS
from engine.i18n import _, join
from engine.pocha.rules import MAX_PLAYERS, MIN_PLAYERS, OPTIONS, Option
from engine.registry import DEFAULT_GAME, KINDS, POCH, POCHA
from service.answers import Answer

CARD = "A card code: suit letter O, C, E or B, then rank 1-7, 10, 11 or 12 (e.g. O1, B12)."
# Seeds stay within what a JSON number holds exactly in every client.
MAX_SEED = 2**53 - 1
MAX_CARDS = 13


def _card(
    description: str = CARD, example: str = "O1", pattern: str | None = None, **kwargs: Any
) -> fields.String:
    metadata = {"description": description, "example": example}
    if pattern is not None:
        metadata["pattern"] = pattern
    return fields.String(metadata=metadata, **kwargs)


def _seat(description: str, **kwargs: Any) -> fields.Integer:
    return fields.Integer(metadata={"description": description, "example": 2}, **kwargs)


def _known_level(level: str) -> None:
    # Read at each request, from every registered game's bots: a game's own levels are
    # checked once the game is known (`GameService.create`).
    known = list(dict.fromkeys(name for levels in BOT_LEVELS.values() for name in levels))
    if level not in known:
        raise ma.ValidationError(
            _(
                "Unknown bot level {level}; the levels are {levels}.",
                level=repr(level),
                levels=", ".join(known),
            )
        )


class StrictBoolean(fields.Boolean):
    """`true` or `false` only: marshmallow's Boolean also takes 1, 0, "yes", "off"..., which
    the document (type boolean) does not allow, so a client's mistake would pass unseen."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


#: A Pocha card code as the server writes it.
CARD_PATTERN = "^[OCEB]([1-7]|1[0-2])$"

#: What a Pocha decision is on the wire: a bid's number or a card's code.
POCHA_ACTION = {
    "oneOf": [
        {"type": "integer", "minimum": 0, "description": "A bid: tricks to win."},
        {"type": "string", "pattern": CARD_PATTERN, "description": "A card's code."},
    ]
}


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


#: The rules of a game as the server shows them: every Pocha option, with its value.
RulesInForceSchema = Answer.from_dict(
    {name: _rule_field(option) for name, option in OPTIONS.items()}, name="RulesInForceSchema"
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


#: The rules schemas the document shows, by game; any other registered game's rules are
#: read by a schema made from its options (`rules_schema`).
DOCUMENTED_RULES: dict[str, type[ma.Schema]] = {POCHA: RulesSchema, POCH: PochRulesSchema}
#: The schemas made so far, by game, with the kind each was made from.
_DESCRIBED_RULES: dict[str, tuple[Any, type[ma.Schema]]] = {}


def rules_schema(game: str) -> ma.Schema:
    """The schema of `game`'s rule options: the document's for its games, else one field
    per option its kind describes (`GameKind.describe_options`: an int with its bounds, a
    bool; anything else left to the game's own `rules_from_dict`)."""
    documented = DOCUMENTED_RULES.get(game)
    if documented is not None:
        return documented()
    kind = KINDS.get(game)
    if kind is None:  # the `game` field refuses it; read the rules as the default game's
        return DOCUMENTED_RULES[DEFAULT_GAME]()
    made = _DESCRIBED_RULES.get(game)
    if made is None or made[0] is not kind:
        options: dict[str, fields.Field] = {}
        for name, option in kind.describe_options().items():
            metadata = {"description": str(option.get("doc", "")), "example": option["default"]}
            if option.get("kind") == "int":
                options[name] = fields.Integer(
                    strict=True,
                    validate=validate.Range(option.get("minimum"), option.get("maximum")),
                    metadata=metadata,
                )
            elif option.get("kind") == "bool":
                options[name] = StrictBoolean(metadata=metadata)
            else:
                options[name] = fields.Raw(metadata=metadata)
        made = (kind, ma.Schema.from_dict(options, name=f"RulesOf{game.title()}Schema"))
        _DESCRIBED_RULES[game] = made
    return made[1]()


class RegisteredSeats(validate.Length):
    """From the fewest players a registered game takes to the most, read when the request
    is (`engine.registry.KINDS`); each game's own bounds are its rules' `players` option.
    The document shows the bounds of the games it describes."""

    def __init__(self) -> None:
        super().__init__(MIN_PLAYERS, MAX_PLAYERS)

    def __call__(self, value: Any) -> Any:
        fewest = min(kind.min_players for kind in KINDS.values())
        most = max(kind.max_players for kind in KINDS.values())
        return validate.Length(fewest, most)(value)


class RegisteredGame(validate.OneOf):
    """One of the games registered when the request is read (`engine.registry.KINDS`), not
    when the schema was made: a game registered later is accepted without a change here."""

    def __init__(self) -> None:
        super().__init__(KINDS)

    def _format_error(self, value: Any) -> str:
        return self.error.format(input=value, choices=", ".join(KINDS), labels="")


class GameRulesField(fields.Field):
    """`rules` at creation: the options of the body's `game` (Pocha's, `Rules`, when it
    names none), checked by that game's schema (`rules_schema`), refusing unknown options."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        game = data.get("game", DEFAULT_GAME) if isinstance(data, dict) else DEFAULT_GAME
        schema = rules_schema(game if isinstance(game, str) else DEFAULT_GAME)
        if not isinstance(value, dict):
            raise ma.ValidationError(_("Not a valid mapping type."))
        try:
            return schema.load(value)
        except ma.ValidationError as exc:
            raise ma.ValidationError(exc.messages) from exc


# -- create ----------------------------------------------------------------------------------


#: Letters and symbols that draw nothing (Hangul fillers, the blank Braille pattern), so a
#: name of them alone would look empty at the table.
BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800")


#: A name's pattern in the document: at least one character that is not white space, a
#: control or format character, a private use one, or one of BLANK_LOOKING (a code point
#: not yet assigned is refused too, which a pattern cannot say).
VISIBLE = (
    "[^\\s\\u0000-\\u001f\\u007f-\\u009f\\u00ad\\u0600-\\u0605\\u061c\\u06dd"
    "\\u070f\\u115f\\u1160\\u180e\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u206f"
    "\\u2800\\u3164\\ue000-\\uf8ff\\ufeff\\uffa0\\ufff0-\\uffff]"
)


class PlayerName(fields.String):
    """A name as people will see it at the table: at most `longest` characters as sent,
    Unicode NFC, without control or format characters (NUL, a right-to-left override,
    zero-width spaces) or characters that draw nothing, its runs of white space made one
    space, and with at least one character left."""

    def __init__(self, *, longest: int = 40, **kwargs: Any) -> None:
        metadata = {**kwargs.pop("metadata", {}), "pattern": VISIBLE}
        super().__init__(validate=validate.Length(1, longest), metadata=metadata, **kwargs)
        self.longest = longest

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        text = super()._deserialize(value, attr, data, **kwargs)
        # As sent, not as cleaned: what was cleaned away still had to be sent and read.
        if len(text) > self.longest:
            raise ma.ValidationError(_("Longer than maximum length {max}.", max=self.longest))
        shown = "".join(
            " " if ch.isspace() or ch in BLANK_LOOKING else ch
            for ch in unicodedata.normalize("NFC", text)
            if ch.isspace() or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn")
        )
        shown = " ".join(shown.split())
        if not shown:
            raise ma.ValidationError(_("A name needs at least one visible character."))
        return shown


class PlayerSchema(ma.Schema):
    name = PlayerName(
        metadata={
            "description": "The name shown at the table (required unless `open`).",
            "example": "Ana",
        },
    )
    open = StrictBoolean(
        metadata={
            "description": "An open seat, for someone to take at the table: the game waits "
            "(phase `waiting`) until every open seat is taken or the host starts it.",
            "example": False,
        }
    )
    bot = fields.String(
        validate=_known_level,
        metadata={
            "description": "Make this seat a bot of this level (random, heuristic, and the "
            "levels listed by GET /api/v1/rules). Omit for a person.",
            "enum": list(LEVELS),
            "example": "heuristic",
        },
    )

    @ma.validates_schema
    def _a_seat_is_one_thing(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data.get("open"):
            if "name" in data or "bot" in data:
                raise ma.ValidationError(
                    _("An open seat has no name and no bot: whoever takes it gives a name."),
                    "open",
                )
        elif "name" not in data:
            raise ma.ValidationError(_("Missing data for required field."), "name")


#: What the document adds to a player's schema: the two forms `_a_seat_is_one_thing`
#: takes, a seat with its name (a person's, or a bot's with `bot`) or an open seat and
#: nothing else, so that a body the document calls valid is one the server takes.
PLAYER_FORMS = {
    "oneOf": [
        {
            "title": "NamedSeat",
            "description": "A seat taken now: a person's, or a bot's with `bot`.",
            "required": ["name"],
            "properties": {"open": {"type": "boolean", "enum": [False]}},
        },
        {
            "title": "OpenSeat",
            "description": "An open seat, for someone to take at the table.",
            "required": ["open"],
            "maxProperties": 1,
            "properties": {"open": {"type": "boolean", "enum": [True]}},
        },
    ]
}


class CreateGameSchema(ma.Schema):
    players = fields.List(
        fields.Nested(PlayerSchema),
        required=True,
        validate=RegisteredSeats(),
        metadata={
            "description": f"The seats in playing order, {MIN_PLAYERS} to {MAX_PLAYERS}.",
            "example": [
                {"name": "Ana"},
                {"open": True},
                {"name": "Carmen", "bot": "heuristic"},
                {"name": "Diego", "bot": "random"},
            ],
        },
    )
    game = fields.String(
        load_default=DEFAULT_GAME,
        validate=RegisteredGame(),
        metadata={
            "description": "The game: `pocha` (the default) or `poch` (the German Pochbrett "
            "game; its rules, views, decisions and events are the `Poch...` schemas).",
            "example": "pocha",
        },
    )
    rules = GameRulesField(
        metadata={
            "description": "Rule options; omitted ones take their defaults. Pocha's "
            "(`Rules`), or Poch's (`PochRules`) with `game: poch`.",
            "oneOf": [
                {"$ref": "#/components/schemas/Rules"},
                {"$ref": "#/components/schemas/PochRules"},
            ],
        },
    )
    seed = fields.Integer(
        strict=True,
        validate=validate.Range(0, MAX_SEED),
        metadata={
            "description": "Seed of the deals and the first dealer, for a reproducible "
            "game; random when omitted.",
            "example": 7,
        },
    )
    listed = StrictBoolean(
        load_default=False,
        metadata={
            "description": "With open seats: list the table in the lobby (`GET "
            "/api/v1/tables`) while it waits; otherwise it is found only by its code. "
            "Never with a `seed` (422): whoever chose it could rebuild every hand.",
            "example": True,
        },
    )
    rated = StrictBoolean(
        load_default=False,
        metadata={
            "description": "A rated game: its result changes its players' OpenSkill "
            "ratings. Only with an account's key in `X-Pocha-Account`, whose account takes "
            "the first named seat; the other seats are open (for accounts to take) or bots "
            "of distinct levels, and no `seed`.",
            "example": False,
        },
    )
    stand_in_level = fields.String(
        load_default="medium",
        validate=_known_level,
        metadata={
            "description": "The level of the stand-in bot that plays for a person whose "
            "clock runs out, who is away or who left.",
            "enum": list(LEVELS),
            "example": "medium",
        },
    )


class CreatedSeatSchema(Answer):
    OPTIONAL = frozenset({"bot", "token", "open", "account"})

    seat = _seat("Seat number, 0-based, in playing order.")
    name = fields.String(metadata={"description": "The player's name.", "example": "Ana"})
    bot = fields.String(
        metadata={"description": "The bot's level; absent for a person.", "example": "heuristic"}
    )
    token = fields.String(
        metadata={
            "description": "The seat's secret, for `Authorization: Bearer <token>`. Shown "
            "only in this response; absent for bots and open seats.",
            "example": "x3Jq...",
        }
    )
    open = fields.Boolean(
        metadata={"description": "An open seat, waiting for someone to take it.", "example": False}
    )
    account = fields.String(
        metadata={
            "description": "The id of the account in this seat (the maker's, sent in "
            "`X-Pocha-Account`); absent otherwise.",
            "example": "q3ZkR8vX1mNc2pLw",
        }
    )


class CreatedGameSchema(Answer):
    id = fields.String(metadata={"description": "The game's id.", "example": "Jm2bS0k4qV7wXc1Z"})
    version = fields.Integer(
        metadata={"description": "The game's version now (see the view).", "example": 1}
    )
    host_token = fields.String(
        metadata={
            "description": "The creator's secret, needed to DELETE the game. Shown only here.",
            "example": "pA9...",
        }
    )
    seats = fields.List(
        fields.Nested(CreatedSeatSchema), metadata={"description": "Every seat, in order."}
    )
    table_code = fields.String(
        allow_none=True,
        metadata={
            "description": "With open seats: the table's code, to read out or share as the "
            "link `/t/CODE`; null otherwise.",
            "example": "K7QM-3XHP",
        },
    )
    table_link = fields.String(
        allow_none=True,
        metadata={
            "description": "With open seats: the link to share, `/t/CODE` at the address "
            "this request came in on, or this machine's network address when that was "
            "localhost (a link that is still loopback opens on this machine only); null "
            "otherwise.",
            "example": "http://192.168.1.20:8000/t/K7QM-3XHP",
        },
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


# -- views -----------------------------------------------------------------------------------


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


class PlayerInfoSchema(Answer):
    OPTIONAL = frozenset({"account"})

    seat = _seat("Seat number, 0-based.")
    name = fields.String(
        metadata={"description": "The player's name (empty for an open seat).", "example": "Ana"}
    )
    bot = fields.String(
        allow_none=True,
        metadata={"description": "The bot's level, or null for a person.", "example": None},
    )
    open = fields.Boolean(
        metadata={
            "description": "Nobody has taken this seat yet (a waiting table).",
            "example": False,
        }
    )
    present = fields.Boolean(
        metadata={
            "description": "A bot, or a person seen in the last 45 s (a request with their "
            "token, or an event stream they hold).",
            "example": True,
        }
    )
    away = fields.Boolean(
        metadata={
            "description": "Two turns in a row ran out on this person: the stand-in plays "
            "their turns at once until they move again or call `.../return`.",
            "example": False,
        }
    )
    left = fields.Boolean(
        metadata={
            "description": "The person left: the stand-in plays this seat to the end.",
            "example": False,
        }
    )
    stand_in = fields.String(
        allow_none=True,
        metadata={
            "description": "The level of the stand-in bot playing for this person now "
            "(away or left); null otherwise.",
            "example": None,
        },
    )
    account = fields.String(
        metadata={
            "description": "The id of the account playing this seat (`GET "
            "/api/v1/accounts/{id}`); only for a seat an account took.",
            "example": "q3ZkR8vX1mNc2pLw",
        }
    )


class TableSchema(Answer):
    """A table people gather at (a game made with open seats, or with two people or more)."""

    OPTIONAL = frozenset({"link", "rated"})

    code = fields.String(
        allow_none=True,
        metadata={
            "description": "The table's code, to join by (`POST /api/v1/tables/{code}/seats`) "
            "or share as a link (`/t/CODE`). Shown to the seats, and to everyone for a "
            "listed table; null otherwise (and for games given every seat at creation).",
            "example": "K7QM-3XHP",
        },
    )
    link = fields.String(
        metadata={
            "description": "With the code: the link to share, as `table_link` when the game "
            "was made (the address this request came in on, or this machine's network "
            "address in place of localhost).",
            "example": "http://192.168.1.20:8000/t/K7QM-3XHP",
        }
    )
    listed = fields.Boolean(
        metadata={"description": "Whether the lobby lists it while it waits.", "example": True}
    )
    waiting = fields.Boolean(
        metadata={"description": "Whether it still waits for people.", "example": False}
    )
    stand_in_level = fields.String(
        metadata={
            "description": "The level of the bot that plays for a person whose clock runs "
            "out, who is away or who left.",
            "example": "medium",
        }
    )
    rematch = fields.String(
        allow_none=True,
        metadata={
            "description": "Once the game is over and someone asked for a rematch, the id of "
            "the new table: each person takes their seat there with `POST "
            "/api/v1/games/{id}/rematch` and the token they played with.",
            "example": None,
        },
    )
    open_seats = fields.Integer(
        metadata={"description": "Seats nobody has taken yet.", "example": 1}
    )
    rated = fields.Boolean(
        metadata={
            "description": "Sent (true) only for a rated table: its result changes its "
            "players' ratings (`GET /api/v1/ladder`).",
            "example": True,
        }
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
            "description": "Bumped by every change (every bid and card). Also the ETag; send "
            "it as If-Match with a move to refuse it if anything changed meanwhile.",
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
        metadata={"description": "The seat to act now; null when finished.", "example": 1},
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


def _phase(name: str, meaning: str) -> fields.String:
    return fields.String(
        metadata={"description": f"`{name}`: {meaning}", "enum": [name], "example": name}
    )


_YOU = "Your hand, what you may do and why not the rest; only in a seat's view."


class WaitingGameViewSchema(GameViewSchema):
    """A Pocha game waiting at its table for people: nobody sees a card yet."""

    phase = _phase("waiting", "the table waits for people to take the open seats.")


class BiddingGameViewSchema(GameViewSchema):
    """A Pocha hand's bidding: `you.legal` holds bids."""

    phase = _phase("bidding", "each seat bids the tricks it will win, from la mano on.")
    you = fields.Nested(BiddingYouSchema, metadata={"description": _YOU})


class PlayingGameViewSchema(GameViewSchema):
    """A Pocha hand's tricks: `you.legal` holds card codes."""

    phase = _phase("playing", "the tricks are played.")
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


def by_phase(
    description: str, views: Mapping[str, tuple[str, type[ma.Schema]]]
) -> dict[str, Any]:
    """A game's view as the document names it: `oneOf` its phases' views, told apart by
    `phase`."""
    return {
        "description": description,
        "type": "object",
        "oneOf": [{"$ref": f"#/components/schemas/{name}"} for name, _view in views.values()],
        "discriminator": {
            "propertyName": "phase",
            "mapping": {
                phase: f"#/components/schemas/{name}" for phase, (name, _view) in views.items()
            },
        },
    }


# -- events and history ----------------------------------------------------------------------


#: The largest event seq a client may name (18 digits, as for Last-Event-ID).
MAX_SEQ = 10**18 - 1


class EventsQuerySchema(ma.Schema):
    class Meta:
        # Browsers' EventSource and caches add parameters of their own; ignore them.
        unknown = ma.EXCLUDE

    after = fields.Integer(
        load_default=0,
        # Bounded, as Redis takes list indexes below 2^63 only.
        validate=validate.Range(0, MAX_SEQ),
        metadata={
            "description": "Only events with `seq` greater than this (default 0: all). "
            "For a stream, the Last-Event-ID header wins over this.",
            "example": 0,
        },
    )


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


# -- tables ----------------------------------------------------------------------------------


class LobbyQuerySchema(ma.Schema):
    listed = fields.Boolean(
        load_default=True,
        metadata={
            "description": "Must be true: only listed tables are shown; the others are "
            "found by their code.",
            "enum": [True],
        },
    )

    @ma.validates("listed")
    def _only_listed(self, value: bool, **kwargs: Any) -> None:
        if not value:
            raise ma.ValidationError(_("Only listed tables are shown; find others by their code."))


class LobbyTableSchema(Answer):
    """A table still waiting for people, as the lobby shows it: never a token."""

    code = fields.String(metadata={"description": "The table's code.", "example": "K7QM-3XHP"})
    game_id = fields.String(
        metadata={"description": "The game's id (to watch it).", "example": "Jm2bS0k4qV7wXc1Z"}
    )
    players = fields.List(fields.Nested(PlayerInfoSchema), metadata={"description": "The seats."})
    open_seats = fields.Integer(metadata={"description": "Seats left to take.", "example": 1})
    game = fields.String(
        metadata={
            "description": "The game: `pocha` or `poch`.",
            "enum": list(KINDS),
            "example": "pocha",
        }
    )
    rules = fields.Raw(
        metadata={
            "description": "The rules of the game (Pocha's `RulesInForce` or Poch's "
            "`PochRulesInForce`).",
            "oneOf": [
                {"$ref": "#/components/schemas/RulesInForce"},
                {"$ref": "#/components/schemas/PochRulesInForce"},
            ],
        }
    )
    created = fields.Float(metadata={"description": "When it was made (Unix time)."})
    waiting = fields.Boolean(metadata={"description": "Whether it still waits for people."})
    seeded = fields.Boolean(metadata={"description": "Whether its creator chose the seed."})


class JoinSchema(ma.Schema):
    name = PlayerName(
        required=True,
        metadata={"description": "The name shown at the table.", "example": "Bruno"},
    )


class SeatTakenSchema(Answer):
    OPTIONAL = frozenset({"host_token", "seeded", "warning"})

    game_id = fields.String(
        metadata={"description": "The game's id.", "example": "Jm2bS0k4qV7wXc1Z"}
    )
    seat = _seat("Your seat.")
    token = fields.String(
        metadata={
            "description": "Your seat's secret, for `Authorization: Bearer <token>`. Shown "
            "only in this response.",
            "example": "x3Jq...",
        }
    )
    table_code = fields.String(
        metadata={"description": "The table's code.", "example": "K7QM-3XHP"}
    )
    host_token = fields.String(
        metadata={
            "description": "Rematch only, to whoever made the new table: its host token "
            "(start it early, give an open seat to a bot).",
            "example": "pA9...",
        }
    )
    seeded = fields.Boolean(
        metadata={
            "description": "Taking a seat: whether the host chose the game's seed, so that "
            "whoever knows it can rebuild every hand. Such a table is never listed.",
            "example": False,
        }
    )
    warning = fields.String(
        metadata={
            "description": "Taking a seat at a seeded table: a sentence to show the person "
            "before they play, in the request's language.",
        }
    )


class StartSchema(ma.Schema):
    bots = fields.String(
        load_default="medium",
        validate=_known_level,
        metadata={
            "description": "The level of the bots that take the seats still open.",
            "enum": list(LEVELS),
            "example": "medium",
        },
    )


class SeatBotSchema(ma.Schema):
    level = fields.String(
        required=True,
        validate=_known_level,
        metadata={"description": "The bot's level.", "enum": list(LEVELS), "example": "hard"},
    )
