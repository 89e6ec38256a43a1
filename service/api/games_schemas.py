"""Marshmallow schemas of the games resource that every game shares: creating a game, its
seats and table, the events' query and the lobby (each game's own are its wire forms,
`service.api.wire`).
How it works: docs/internals.md, `service.api.games_schemas`.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from ai.registry import LEVELS as BOT_LEVELS
from ai.registry import levels_of
from engine.i18n import _
from engine.registry import DEFAULT_GAME, KINDS
from service.answers import Answer
from service.api.fields import AsciiInteger, StrictBoolean
from service.api.wire import forms_of

# Seeds stay within what a JSON number holds exactly in every client.
MAX_SEED = 2**53 - 1
#: The levels of the default game's bots, as the document lists them for a seat's `bot`.
LEVELS = levels_of(DEFAULT_GAME)
#: The document's named schema of those levels, so that a generated client has a type of
#: its own for a level (a seat's `bot`, a stand-in's, a start's and a bot seat's refer to it).
BOT_LEVEL = {
    "type": "string",
    "enum": list(LEVELS),
    "description": f"A bot's level: the levels of {DEFAULT_GAME}, the default game; another "
    "game's bots have their own among them, which `GET /api/v1/rules` lists.",
}
_A_LEVEL = [{"$ref": "#/components/schemas/BotLevel"}]
#: The fewest and the most players of the games registered when the document is made.
MIN_PLAYERS = min(kind.min_players for kind in KINDS.values())
MAX_PLAYERS = max(kind.max_players for kind in KINDS.values())


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


# -- rules -----------------------------------------------------------------------------------


#: The schemas made so far, by game, with the kind each was made from.
_DESCRIBED_RULES: dict[str, tuple[Any, type[ma.Schema]]] = {}


def rules_schema(game: str) -> ma.Schema:
    """The schema of `game`'s rule options: the document's for its games (its wire forms,
    `service.api.wire`), else one field per option its kind describes
    (`GameKind.describe_options`: an int with its bounds, a bool; anything else left to the
    game's own `rules_from_dict`)."""
    documented = forms_of(game)
    if documented is not None:
        return documented.rules()
    kind = KINDS.get(game)
    if kind is None:  # the `game` field refuses it; read the rules as the default game's
        return rules_schema(DEFAULT_GAME)
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
    is (`engine.registry.KINDS`); each game's own bounds are checked once the game is known
    (its rules' `players` option, a match's `seats`). The document shows the bounds of the
    games registered when it is made."""

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
            "allOf": _A_LEVEL,
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
            "allOf": _A_LEVEL,
            "example": "medium",
        },
    )


class CreatedSeatSchema(Answer):
    OPTIONAL = frozenset({"bot", "token", "open", "account"})

    seat = _seat("Seat number, 0-based, in playing order.")
    name = fields.String(
        metadata={"description": "The player's name (empty for an open seat).", "example": "Ana"}
    )
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


# -- views -----------------------------------------------------------------------------------


class PlayerInfoSchema(Answer):
    OPTIONAL = frozenset({"account"})

    seat = _seat("Seat number, 0-based.")
    name = fields.String(
        metadata={"description": "The player's name (empty for an open seat).", "example": "Ana"}
    )
    bot = fields.String(
        allow_none=True,
        metadata={
            "description": "Our bot's level; null for a person, and for an account's own bot "
            "(its `account` names it).",
            "example": None,
        },
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
            "token, or an event stream they hold) who has not left.",
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
            "/api/v1/accounts/{id}`); only for a seat an account took, and absent again "
            "once that account is forgotten (the seat is then named `(forgotten)`).",
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


def _phase(name: str, meaning: str) -> fields.String:
    return fields.String(
        metadata={"description": f"`{name}`: {meaning}", "enum": [name], "example": name}
    )


def _turn_now() -> fields.Integer:
    """`turn` in the view of a phase where someone always has a decision to make: a seat,
    never null, so that a typed client reads it without a null check."""
    return fields.Integer(
        metadata={"description": "The seat whose decision it is now.", "example": 1}
    )


def by_phase(description: str, views: Mapping[str, tuple[str, type[ma.Schema]]]) -> dict[str, Any]:
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

    after = AsciiInteger(
        load_default=0,
        # Bounded, as Redis takes list indexes below 2^63 only.
        validate=validate.Range(0, MAX_SEQ),
        metadata={
            "description": "Only events with `seq` greater than this (default 0: all). "
            "For a stream, the Last-Event-ID header wins over this.",
            "example": 0,
        },
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
        metadata={
            "description": "The name shown at the table: one that looks like the name of a "
            "seat taken there is refused (409 name_taken).",
            "example": "Bruno",
        },
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
            "allOf": _A_LEVEL,
            "example": "medium",
        },
    )


class SeatBotSchema(ma.Schema):
    level = fields.String(
        required=True,
        validate=_known_level,
        metadata={"description": "The bot's level.", "allOf": _A_LEVEL, "example": "hard"},
    )
