"""Marshmallow schemas of the AI resources: hints, stateless AI moves, jobs and matches.
How it works: docs/internals.md, `service.api.ai_schemas`.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from ai.registry import LEVELS
from core.jobs.matches import MAX_GAMES
from engine.i18n import _
from engine.registry import DEFAULT_GAME, KINDS
from service.answers import Answer
from service.api.fields import AsciiNumber, StrictBoolean, ThinkingSchema, level_field
from service.api.games_schemas import (
    MAX_SEED,
    PLAYER_FORMS,
    GameRulesField,
    RegisteredGame,
    RegisteredSeats,
)
from service.api.wire import MatchLeadSchema

_JOB_ID = {"description": "The job's id.", "example": "q0v4Wm1nXb2yQ5pLk8TcRz3a"}


# -- thinking -----------------------------------------------------------------------------------


def _any_game_level(level: str) -> None:
    # A hint's game is known only once the game is read: here any registered game's level
    # passes, and the hint's own game's levels are checked then (`service.api.hints`).
    known = list(dict.fromkeys(name for levels in LEVELS.values() for name in levels))
    if level not in known:
        raise ma.ValidationError(
            _(
                "Unknown level {level}; the levels are {levels}.",
                level=repr(level),
                levels=", ".join(known),
            )
        )


class HintRequestSchema(ThinkingSchema):
    level = level_field(_any_game_level)


# -- what the document adds ----------------------------------------------------------------------


#: What the document adds to the schemas of bodies that say how hard to think: a level or
#: a custom budget, never both (JSON Schema's `not`, which marshmallow cannot say). The
#: branches give the fields no schema of their own (the body's are theirs): a `not` of
#: typed branches costs schemathesis' coverage phase some 35 s to draw cases around.
LEVEL_OR_BUDGET = {
    "not": {
        "anyOf": [
            {"properties": {"level": {}, "iterations": {}}, "required": ["level", "iterations"]},
            {
                "properties": {"level": {}, "milliseconds": {}},
                "required": ["level", "milliseconds"],
            },
        ]
    }
}

#: Component name -> what the document adds to its schema (a player's two forms, and
#: the bodies that say how hard to think).
SCHEMA_ADDITIONS = {
    "Player": PLAYER_FORMS,
    "HintRequest": LEVEL_OR_BUDGET,
    "AiMoveRequest": LEVEL_OR_BUDGET,
    "PochAiMoveRequest": LEVEL_OR_BUDGET,
}


# -- answers ------------------------------------------------------------------------------------


#: An action in either game's wire form: Pocha's bid (an integer from 0) or card code;
#: Poch's bet (an integer from 1), `pass`, `hold`, card code or suit letter.
ANY_ACTION = {
    "oneOf": [
        {"type": "integer", "minimum": 0, "description": "Pocha: a bid. Poch: a bet's chips."},
        {
            "type": "string",
            "pattern": "^(pass|hold|[CSHD]|[OCEB]([1-7]|1[0-2])|[CSHD]([789]|10|[JQKA]))$",
            "description": "Pocha: a card's code. Poch: `pass`, `hold`, a start card's code "
            "or the next suit's letter.",
        },
    ]
}


class ActionStatSchema(Answer):
    OPTIONAL = frozenset({"mean_score", "mean_chips"})

    action = fields.Raw(
        metadata={
            "description": "Pocha: a bid (integer) or a card (code). Poch: `pass`, `hold`, "
            "a bet (integer), a card (code) or a suit (letter).",
            "example": "O1",
            **ANY_ACTION,
        }
    )
    visits = fields.Integer(metadata={"description": "Searches through it.", "example": 812})
    share = fields.Float(metadata={"description": "Its share of the search, 0-1.", "example": 0.41})
    mean_score = fields.Float(
        metadata={
            "description": "Pocha: the mean hand score (points) it led to in the search.",
            "example": 14.2,
        }
    )
    mean_chips = fields.Float(
        metadata={
            "description": "Poch: the mean chips it won in the search (to the deal's end).",
            "example": 3.5,
        }
    )


class BudgetSchema(Answer):
    iterations = fields.Integer(allow_none=True, metadata={"example": 2000})
    milliseconds = fields.Float(allow_none=True, metadata={"example": None})


class AdviceSchema(Answer):
    """What the bot would do, and why."""

    OPTIONAL = frozenset({"game", "version"})

    action = fields.Raw(
        metadata={
            "description": "The suggested action in the game's wire form. Pocha: a bid "
            "(integer) or a card (code). Poch: `pass`, `hold`, a bet (integer), a start card "
            "(code) or the next suit (letter).",
            "example": "O1",
            **ANY_ACTION,
        }
    )
    analysis = fields.List(
        fields.Nested(ActionStatSchema),
        metadata={"description": "Every legal action as the search saw it (search levels)."},
    )
    iterations = fields.Integer(metadata={"description": "Search iterations run.", "example": 2000})
    elapsed_ms = fields.Float(metadata={"description": "Thinking time.", "example": 97.3})
    level = fields.String(
        metadata={"description": "The level, or `ismcts` for a custom budget.", "example": "hard"}
    )
    budget = fields.Nested(BudgetSchema, metadata={"description": "The budget it had."})
    seat = fields.Integer(metadata={"description": "The seat advised.", "example": 0})
    game = fields.String(
        metadata={"description": "Hints: the game.", "example": "Jm2bS0k4qV7wXc1Z"}
    )
    version = fields.Integer(
        metadata={"description": "Hints: the game version it is for.", "example": 12}
    )


class JobTimingsSchema(Answer):
    enqueued_at = fields.String(
        allow_none=True,
        metadata={"description": "ISO 8601, UTC.", "example": "2026-01-02T10:00:00.120Z"},
    )
    started_at = fields.String(allow_none=True, metadata={"description": "ISO 8601, UTC."})
    ended_at = fields.String(allow_none=True, metadata={"description": "ISO 8601, UTC."})
    queued_ms = fields.Float(
        allow_none=True, metadata={"description": "Time spent waiting for a worker."}
    )
    run_ms = fields.Float(allow_none=True, metadata={"description": "Time spent working."})


class JobSchema(Answer):
    """A job of the AI on demand (a hint or an AI move)."""

    id = fields.String(metadata=_JOB_ID)
    url = fields.String(
        metadata={"description": "Where to poll it.", "example": "/api/v1/jobs/q0v4Wm1nXb2y"}
    )
    kind = fields.String(
        metadata={"description": "`hint` or `ai_move`.", "enum": ["hint", "ai_move"]}
    )
    status = fields.String(
        metadata={
            "description": "queued, started, finished or failed.",
            "enum": ["queued", "started", "finished", "failed"],
            "example": "finished",
        }
    )
    result = fields.Nested(
        AdviceSchema,
        allow_none=True,
        metadata={"description": "Once finished: the advice; null before."},
    )
    error = fields.String(
        allow_none=True,
        metadata={"description": "Once failed: why, in a sentence; null otherwise."},
    )
    timings = fields.Nested(JobTimingsSchema, metadata={"description": "When it moved on."})


class JobQuerySchema(ma.Schema):
    # Every address takes ?lang= (service.i18n reads it); named here because this schema
    # refuses unknown parameters.
    lang = fields.String(
        metadata={
            "description": "The language of the answer's sentences, en or es (es-ES, es_ES "
            "and ES count as es; beats Accept-Language; any other value is ignored).",
            "example": "es",
        },
    )
    wait = AsciiNumber(
        load_default=0.0,
        validate=validate.Range(0, 60),
        metadata={
            "description": "Long poll: answer as soon as the job is finished or failed, or "
            "after this many seconds (capped by the server, 30 by default).",
            "example": 10,
        },
    )


# -- matches ------------------------------------------------------------------------------------


#: Either game's rules, as a match shows them.
_EITHER_RULES = [
    {"$ref": "#/components/schemas/Rules"},
    {"$ref": "#/components/schemas/PochRules"},
]


class MatchRequestSchema(ma.Schema):
    game = fields.String(
        load_default=DEFAULT_GAME,
        validate=RegisteredGame(),
        metadata={
            "description": "The game: `pocha` (the default) or `poch` (Pochbrett: its "
            "levels and bots, its rules, each game one deal as in `pocha arena-poch`, and "
            "chips per deal in the statistics).",
            "example": "pocha",
        },
    )
    seats = fields.List(
        fields.String(validate=validate.Length(1, 40)),
        required=True,
        validate=RegisteredSeats(),
        metadata={
            "description": "The bot of each seat: a level of the game (Pocha's `hard`, "
            "`expert`...; Poch's `easy`, `medium`, `hard`), a bot (`heuristic`, `random`, "
            "`ismcts`), or a bot with a custom budget: `ismcts:2000` (iterations) or "
            "`ismcts:250ms`, or an account as `account:ID`: a bot account with a webhook, or "
            "the account whose key is sent, which then moves over its event stream (the "
            "match is played `at_tables`, each game at a table of the service). Seats with "
            "the same text are one bot in the statistics.",
            "example": ["hard", "heuristic", "hard", "heuristic"],
        },
    )
    games = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(1, MAX_GAMES),
        metadata={"description": f"Games to play (at most {MAX_GAMES}).", "example": 20},
    )
    rules = GameRulesField(
        load_default=dict,
        metadata={
            "description": "Rule options: Pocha's (`Rules`), or Poch's (`PochRules`) with "
            "`game: poch`; `players` is the number of seats, and a Poch game is one deal "
            "(`deals` left out).",
            "oneOf": _EITHER_RULES,
        },
    )
    seed = fields.Integer(
        strict=True,
        validate=validate.Range(0, MAX_SEED),
        metadata={"description": "Seed of the deals; random when omitted.", "example": 7},
    )
    duplicate = StrictBoolean(
        load_default=False,
        metadata={
            "description": "Play each deal once per distinct rotation of the seats, so every "
            "bot gets the same cards from every seat (games must then be a multiple of the "
            "distinct rotations, as the arenas play them: `a,b,a,b` has two, `a,b,c,d` four).",
            "example": False,
        },
    )
    rated = StrictBoolean(
        load_default=False,
        metadata={
            "description": "Rate each finished game (OpenSkill, as rated tables are): sent "
            "with the key (`X-Pocha-Account`) of the one bot account seated, beside levels "
            "of the game by name. Only the bot's rating changes: our levels' accounts "
            "keep theirs here, moved by rated tables alone. With duplicate deals, "
            "the first play of each deal only: the bot plays its later rotations knowing "
            "the deal.",
            "example": False,
        },
    )

    @ma.validates_schema
    def _seats_of_the_game(self, data: dict[str, Any], **kwargs: Any) -> None:
        # The field takes any registered game's bounds; the game named is known only here.
        kind = KINDS.get(data.get("game", DEFAULT_GAME))
        seats = data.get("seats")
        if kind is None or seats is None:
            return
        if not kind.min_players <= len(seats) <= kind.max_players:
            raise ma.ValidationError(
                _(
                    "{game} seats {fewest} to {most} players; {seats} seats were given.",
                    game=kind.title,
                    fewest=kind.min_players,
                    most=kind.max_players,
                    seats=len(seats),
                ),
                "seats",
            )


class MatchSchema(Answer):
    OPTIONAL = frozenset({"seed", "difference"})

    id = fields.String(metadata={"description": "The match's id.", "example": "b8VnQ2xKp0aZ"})
    game = fields.String(
        metadata={
            "description": "The game: `pocha` or `poch`.",
            "enum": list(KINDS),
            "example": "pocha",
        }
    )
    url = fields.String(metadata={"description": "This match's address."})
    records_url = fields.String(
        metadata={"description": "The game records as JSON lines (application/x-ndjson)."}
    )
    status = fields.String(
        metadata={
            "description": "`running` until every game is played (or failed), then `finished`.",
            "enum": ["running", "finished"],
        }
    )
    seats = fields.List(
        fields.String(),
        metadata={
            "description": "The bot of each seat: a level, or an account's `account:ID` "
            "(`account:forgotten-1`, `-2`, ... once that account is forgotten, here and in "
            "the records: one number for each account forgotten from the match)."
        },
    )
    rules = fields.Raw(
        metadata={
            "description": "The rules played: Pocha's (`RulesInForce`) or Poch's "
            "(`PochRulesInForce`).",
            "oneOf": [
                {"$ref": "#/components/schemas/RulesInForce"},
                {"$ref": "#/components/schemas/PochRulesInForce"},
            ],
        }
    )
    seed = fields.Integer(
        metadata={
            "description": "The seed of the deals; a rated match's shows once it is finished "
            "(it makes every deal: its bot would know every hand)."
        }
    )
    duplicate = fields.Boolean(metadata={"description": "Duplicate deals."})
    rated = fields.Boolean(
        metadata={"description": "Each finished game changes the bot account's rating."}
    )
    at_tables = fields.Boolean(
        metadata={
            "description": "Its games are played at tables, as any game, a few at a time: an "
            "account that moves over its event stream (`GET /api/v1/bot/events`) sits in it "
            "and plays each of its turns with its key, on a clock."
        }
    )
    paused = fields.List(
        fields.String(),
        metadata={
            "description": "At tables: the accounts (`account:ID`) whose clock ran out twice "
            "in a row in a game. The stand-in plays their seats in the games after, at once."
        },
    )
    games = fields.Integer(metadata={"description": "Games in the match.", "example": 20})
    done = fields.Integer(metadata={"description": "Games played to the end.", "example": 12})
    failed = fields.Integer(
        metadata={"description": "Games that could not be played (a bot kept failing)."}
    )
    created_at = fields.String(metadata={"description": "ISO 8601, UTC."})
    finished_at = fields.String(allow_none=True, metadata={"description": "ISO 8601, UTC."})
    stand_in_decisions = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        metadata={
            "description": "For each outside bot seated (`account:ID`), the decisions the "
            "stand-in (the game's fallback level) made for it so far: its webhook failed, or "
            "it was paused. Summed over its seats when it holds several (each game's record "
            "has them seat by seat). Empty when no account is seated."
        },
    )
    bots = fields.List(
        fields.Raw(
            metadata={
                "oneOf": [
                    {"$ref": "#/components/schemas/BotStats"},
                    {"$ref": "#/components/schemas/PochBotStats"},
                ]
            }
        ),
        metadata={
            "description": "Per bot, over the games done so far, best first: Pocha's figures "
            "(`BotStats`, by mean score per hand) or Poch's (`PochBotStats`, by chips per "
            "deal)."
        },
    )
    difference = fields.Nested(
        MatchLeadSchema,
        allow_none=True,
        metadata={
            "description": "With two bots, the lead of the one with the better mean over "
            "the other (`MatchLead`), paired by deal over the deals whose every game was "
            "played so far: with duplicate deals each deal's luck cancels out, and "
            "`significant` says whether its 95% interval leaves out no difference. Null "
            "with other than two bots or until one deal is whole (its `ci95` null until two "
            "are)."
        },
    )
