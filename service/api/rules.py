"""The rules resource: every option a game can be created with, and the bot levels, for
Pocha (the top-level fields, as before Poch existed) and for every game (`games`); each
option's words (`allowed`, `doc`) and each level's `description` in the caller's language."""

from __future__ import annotations

from typing import Any, get_args

import marshmallow as ma
from flask.views import MethodView

from ai.registry import levels_of
from engine.protocols import GameKind, OptionKind
from engine.registry import DEFAULT_GAME, KINDS
from service.answers import Answer
from service.errors import UNREAD
from service.i18n import translate_known
from service.json_bodies import Blueprint
from service.request_language import request_language

blp = Blueprint(
    "rules",
    __name__,
    url_prefix="/api/v1/rules",
    description="Every rule option a game is made with (each game's rules for a player: the "
    "page /how-to-play/GAME) and the bot levels, for a game setup screen.",
)


class OptionSchema(Answer):
    OPTIONAL = frozenset({"minimum", "maximum", "choices"})

    name = ma.fields.String(metadata={"description": "The option's key.", "example": "montar"})
    default = ma.fields.Raw(metadata={"description": "Its value when omitted.", "example": True})
    allowed = ma.fields.String(
        metadata={"description": "The values it takes, in words.", "example": "true or false"}
    )
    doc = ma.fields.String(metadata={"description": "What it means."})
    kind = ma.fields.String(
        metadata={
            "description": "What it takes, for a form to build its field: `bool`, true or "
            "false; `int`, an integer from `minimum` to `maximum`; `schedule`, one of "
            "`choices` or a list of card counts.",
            "enum": list(get_args(OptionKind)),
            "example": "bool",
        }
    )
    minimum = ma.fields.Integer(
        metadata={"description": "An `int` option's least value.", "example": 0}
    )
    maximum = ma.fields.Integer(
        metadata={"description": "An `int` option's greatest value.", "example": 1000}
    )
    choices = ma.fields.List(
        ma.fields.String(),
        metadata={
            "description": "A `schedule` option's named schedules.",
            "example": ["classic", "pyramid"],
        },
    )


class LevelSchema(Answer):
    name = ma.fields.String(
        metadata={"description": "The level, for a player's `bot`.", "example": "heuristic"}
    )
    description = ma.fields.String(metadata={"description": "How it plays."})


class GameRuleBookSchema(Answer):
    game = ma.fields.String(
        metadata={"description": "The game, for `game` at creation.", "example": "poch"}
    )
    title = ma.fields.String(metadata={"description": "Its name.", "example": "Poch"})
    min_players = ma.fields.Integer(metadata={"description": "The fewest players.", "example": 3})
    max_players = ma.fields.Integer(metadata={"description": "The most players.", "example": 8})
    options = ma.fields.List(
        ma.fields.Nested(OptionSchema), metadata={"description": "Its rule options."}
    )
    bot_levels = ma.fields.List(
        ma.fields.Nested(LevelSchema), metadata={"description": "Its bots' levels."}
    )


class RuleBookSchema(Answer):
    options = ma.fields.List(
        ma.fields.Nested(OptionSchema), metadata={"description": "Every rule option of Pocha."}
    )
    bot_levels = ma.fields.List(
        ma.fields.Nested(LevelSchema), metadata={"description": "Every bot level of Pocha."}
    )
    games = ma.fields.List(
        ma.fields.Nested(GameRuleBookSchema),
        metadata={"description": "Every game (`pocha`, `poch`): its options and levels."},
    )


#: The words of an option a person reads; the rest (`name`, `kind`, bounds) are for programs.
_WORDS = ("allowed", "doc")


def _options(kind: GameKind, lang: str) -> list[dict[str, Any]]:
    """`kind`'s options as the answer lists them, their words in `lang` (each declared
    marked for the catalogues in the engine: a `Message`, or a plain `N_` sentence)."""
    options = [{"name": name, **spec} for name, spec in kind.describe_options().items()]
    for option in options:
        for key in _WORDS:
            if key in option:
                option[key] = translate_known(option[key], lang)
    return options


def _levels(kind: GameKind, lang: str) -> list[dict[str, Any]]:
    """`kind`'s bot levels as the answer lists them, each `description` in `lang`."""
    return [
        {"name": lv.name, "description": translate_known(lv.description, lang)}
        for lv in levels_of(kind).values()
    ]


@blp.route("")
class Rules(MethodView):
    @blp.doc(operationId="getRules", security=[], responses=UNREAD)
    @blp.response(200, RuleBookSchema)
    def get(self) -> dict[str, Any]:
        """List the rule options and bot levels

        Each option with its default, allowed values, meaning, kind and bounds; each bot
        level. The top-level `options` and `bot_levels` are Pocha's; `games` lists every
        game's.
        """
        lang = request_language()
        default = KINDS[DEFAULT_GAME]
        options = _options(default, lang)
        levels = _levels(default, lang)
        games = [
            {
                "game": kind.name,
                "title": kind.title,
                "min_players": kind.min_players,
                "max_players": kind.max_players,
                "options": _options(kind, lang),
                "bot_levels": _levels(kind, lang),
            }
            for kind in KINDS.values()
        ]
        return {"options": options, "bot_levels": levels, "games": games}
