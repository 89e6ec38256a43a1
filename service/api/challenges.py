"""Challenges and an account's event stream over HTTP, under the account's key
(`X-Pocha-Account`): making a challenge to accounts and our levels, reading it, accepting,
declining and cancelling it, and `GET /api/v1/bot/events`, the Server-Sent-Events stream of
an account's games and challenges. How it works: docs/bots-api.md, "Stream bots".
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask import Response, current_app, request
from flask.views import MethodView
from marshmallow import fields, validate

from core.play import challenges
from core.play.challenges import CHALLENGE_SECONDS
from engine.i18n import _
from engine.registry import DEFAULT_GAME, KINDS
from service.accounts import SCHEME, key_holder
from service.answers import Answer
from service.api.fields import StrictBoolean
from service.api.games_schemas import MAX_PLAYERS, GameRulesField, RegisteredGame
from service.api.jobs import document_each_error
from service.api_keys import limit_key
from service.bot_events import open_stream
from service.context import game_service, services
from service.errors import RETRY_AFTER, ErrorSchema
from service.events import EXTENSION as EVENTS
from service.events import EventStreams
from service.json_bodies import Blueprint
from service.ratelimits import limits_on

blp = Blueprint(
    "challenges",
    __name__,
    url_prefix="/api/v1/challenges",
    description="Challenges: an account challenges accounts and our bot levels to a table; "
    "once every challenged account accepts, the game starts with everyone seated. Each "
    "account plays its seat with its own key as the bearer token.",
)

bot = Blueprint(
    "bot",
    __name__,
    url_prefix="/api/v1/bot",
    description="An account's event stream: its turns, games and challenges, as they come.",
)

_SECURITY: dict[str, Any] = {"security": [{SCHEME: []}]}
_KEY_ERRORS = (
    (401, "account_required: no X-Pocha-Account; unknown_account: a key that opens no account."),
    (403, "account_disabled: the account is disabled."),
    (503, "unavailable: retry shortly."),
)
_CHALLENGE_ID = [{"in": "path", "name": "challenge_id", "description": "The challenge's id."}]


def _documented(*extra: tuple[int, str]) -> Any:
    return document_each_error(blp, *_KEY_ERRORS, *extra)


class OpponentSchema(ma.Schema):
    account = fields.String(
        validate=validate.Length(1, 64),
        metadata={"description": "An account's id or name.", "example": "StreamBot"},
    )
    bot = fields.String(
        validate=validate.Length(1, 32),
        metadata={"description": "One of our bot levels (`GET /api/v1/rules`).",
                  "example": "hard"},
    )  # fmt: skip

    @ma.validates_schema
    def _one_of_the_two(self, data: dict[str, Any], **kwargs: Any) -> None:
        if ("account" in data) == ("bot" in data):
            raise ma.ValidationError(_("An opponent is an account or a bot level: give one."))


class NewChallengeSchema(ma.Schema):
    game = fields.String(
        load_default=DEFAULT_GAME,
        validate=RegisteredGame(),
        metadata={"description": "The game: `pocha` or `poch`.", "enum": list(KINDS),
                  "example": "pocha"},
    )  # fmt: skip
    rules = GameRulesField(
        metadata={
            "description": "Rule options, as a table takes them; omitted ones take their "
            "defaults. The seats decide the players.",
            "oneOf": [
                {"$ref": "#/components/schemas/Rules"},
                {"$ref": "#/components/schemas/PochRules"},
            ],
        },
    )
    rated = StrictBoolean(
        load_default=False,
        metadata={"description": "Its result changes the players' ratings.", "example": True},
    )
    opponents = fields.List(
        fields.Nested(OpponentSchema),
        required=True,
        validate=validate.Length(1, MAX_PLAYERS - 1),
        metadata={
            "description": "The other seats in playing order, after the challenger's: "
            "accounts (by id or name), who must accept, and our bot levels.",
            "example": [{"account": "StreamBot"}, {"bot": "hard"}],
        },
    )


class ChallengeSeatSchema(Answer):
    account = fields.String(
        allow_none=True, metadata={"description": "The account's id; null for a level."}
    )
    bot = fields.String(
        allow_none=True, metadata={"description": "The bot level; null for an account."}
    )


class ChallengeSchema(Answer):
    id = fields.String(
        metadata={"description": "The challenge's id.", "example": "q3ZkR8vX1mNc2pLw"}
    )
    challenger = fields.String(metadata={"description": "The id of the account that made it."})
    game = fields.String(
        metadata={"description": "The game.", "enum": list(KINDS), "example": "pocha"}
    )
    rules = fields.Dict(metadata={"description": "The rule options asked for."})
    rated = fields.Boolean(metadata={"description": "Whether the game will be rated."})
    seats = fields.List(
        fields.Nested(ChallengeSeatSchema),
        metadata={"description": "The seats in playing order, the challenger's first."},
    )
    status = fields.String(
        metadata={
            "description": "`open` (waiting for answers), `starting`, `accepted` (the game "
            "is made: `game_id`), `declined`, `cancelled` or `expired`.",
            "enum": ["open", "starting", "accepted", "declined", "cancelled", "expired"],
            "example": "open",
        }
    )
    accepted = fields.List(
        fields.String(), metadata={"description": "The challenged accounts that accepted."}
    )
    created = fields.Float(metadata={"description": "When it was made (Unix time)."})
    expires = fields.Float(metadata={"description": "When it expires unless all accept."})
    game_id = fields.String(
        allow_none=True, metadata={"description": "The game, once every account accepted."}
    )


class ChallengeListSchema(Answer):
    challenges = fields.List(
        fields.Nested(ChallengeSchema),
        metadata={
            "description": "The challenges you made or that name you, oldest first: the open "
            "ones, and the others for an hour after they ended."
        },
    )


# -- the account's event stream: what each `data:` line holds ------------------------------


def _kind(kind: str, what: str) -> fields.String:
    return fields.String(metadata={"description": f"`{kind}`: {what}", "enum": [kind]})


class _AboutGame(Answer):
    game_id = fields.String(metadata={"description": "The game's id."})
    game = fields.String(
        metadata={"description": "The game: `pocha` or `poch`.", "enum": list(KINDS)}
    )
    seat = fields.Integer(metadata={"description": "The account's seat in it."})


_VERSION = "The game's version then: send it in `If-Match` with the move."


class BotGameStartedSchema(_AboutGame):
    type = _kind("game_started", "a game the account sits in started.")
    rated = fields.Boolean(metadata={"description": "Whether it changes the ratings."})


class BotYourTurnSchema(_AboutGame):
    type = _kind(
        "your_turn",
        "the account's turn: read the game with its key as the bearer token, and move.",
    )
    version = fields.Integer(metadata={"description": _VERSION})


class BotGameFinishedSchema(_AboutGame):
    type = _kind("game_finished", "a game the account sat in ended; it is followed no more.")
    version = fields.Integer(metadata={"description": "The game's last version."})


class BotChallengeEventSchema(Answer):
    type = _kind("challenge", "a challenge made or received, when it is made and at each change.")
    challenge = fields.Nested(ChallengeSchema)


class BotStreamReplacedSchema(Answer):
    type = _kind(
        "replaced",
        "another stream of the account took over (`event: replaced`); stop, do not connect again.",
    )


class BotStreamClosedSchema(Answer):
    type = _kind(
        "closed", "the stream ended (`event: closed`): its key was replaced, or the account "
        "disabled.",
    )  # fmt: skip
    reason = fields.String(
        metadata={
            "description": "`key_replaced` (connect again with the new key) or `account_disabled`.",
            "enum": ["key_replaced", "account_disabled"],
        }
    )


#: Each kind of the stream's events, by `type`, with its component's name.
BOT_EVENTS: dict[str, tuple[str, type[ma.Schema]]] = {
    "game_started": ("BotGameStarted", BotGameStartedSchema),
    "your_turn": ("BotYourTurn", BotYourTurnSchema),
    "game_finished": ("BotGameFinished", BotGameFinishedSchema),
    "challenge": ("BotChallengeEvent", BotChallengeEventSchema),
    "replaced": ("BotStreamReplaced", BotStreamReplacedSchema),
    "closed": ("BotStreamClosed", BotStreamClosedSchema),
}


def bot_event_union() -> dict[str, Any]:
    """`BotEvent` as the document names it: `oneOf` the stream's kinds of event, told apart
    by `type`."""
    return {
        "description": "One event of `GET /api/v1/bot/events`, the JSON of a `data:` line: "
        "told apart by `type`.",
        "type": "object",
        "oneOf": [{"$ref": f"#/components/schemas/{name}"} for name, _ in BOT_EVENTS.values()],
        "discriminator": {
            "propertyName": "type",
            "mapping": {
                kind: f"#/components/schemas/{name}" for kind, (name, _) in BOT_EVENTS.items()
            },
        },
    }


def _seconds() -> float:
    return float(current_app.config.get("CHALLENGE_SECONDS", CHALLENGE_SECONDS))


@blp.route("")
class Challenges(MethodView):
    @blp.doc(operationId="createChallenge", **_SECURITY)
    @blp.arguments(NewChallengeSchema(), location="json")
    @blp.response(201, ChallengeSchema)
    @_documented(
        (403, "challenge_refused: an account challenged blocks yours (nothing is kept, "
              "and it counts against no cap)."),
        (409, "bot_paused: a challenged webhook bot is paused; one_seat_per_account: a "
              "level twice in a rated challenge."),
        (422, "validation_error: no such account or level, a disabled account, an account "
              "twice, no account challenged, fewer seats than the game is played by, or "
              "rules a table would refuse."),
        (429, "too_many_challenges: you have 10 open challenges, or the account challenged "
              "has 20 waiting, or 5 waiting from you or your address; or, of the "
              "challenges remembered (until an hour after each ends), you made 200, or the "
              "account challenged received 200, or 20 from you or your address; "
              "rate_limited: too many challenges from your address "
              "(`POCHA_RATE_LIMIT_CHALLENGES`)."),
        (400, "bad_json: the body is not JSON."),
        (408, "body_too_slow."),
        (413, "body_too_large."),
        (415, "unsupported_media_type."),
    )  # fmt: skip
    def post(self, body: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
        """Challenge accounts

        With your account's key: a table of the game with you first, then the opponents
        in order. Each challenged account hears of it on its event stream and accepts or
        declines; when all have accepted, the game starts. Open challenges expire.
        """
        made = challenges.make(
            services().redises.store, key_holder(), body, _seconds(),
            holder=limit_key() if limits_on() else None,
        )  # fmt: skip
        return made.public(), {"Location": f"{blp.url_prefix}/{made.id}"}

    @blp.doc(operationId="listChallenges", **_SECURITY)
    @blp.response(200, ChallengeListSchema)
    @_documented(
        (429, "rate_limited: too many reads of challenges from your address or key "
              "(`POCHA_RATE_LIMIT_CHALLENGE_READS`), wrong keys counted too."),
    )  # fmt: skip
    def get(self) -> dict[str, Any]:
        """Your challenges

        With your account's key: those you made and those that name you, open or ended
        within the hour, oldest first. What your event stream says of them on connecting,
        for a client that does not hold one.
        """
        account = key_holder()
        found = challenges.of_account(services().redises.store, account.id)
        return {"challenges": [c.public() for c in found]}


@blp.route("/<challenge_id>", parameters=_CHALLENGE_ID)
class ChallengeById(MethodView):
    @blp.doc(operationId="getChallenge", security=[])
    @blp.response(200, ChallengeSchema)
    @blp.alt_response(404, schema=ErrorSchema, description="challenge_not_found.")
    @blp.alt_response(503, schema=ErrorSchema, description="unavailable: retry shortly.")
    def get(self, challenge_id: str) -> dict[str, Any]:
        """A challenge

        Public, to whoever has its id: the seats, the game, its status and, once
        accepted, the game's id.
        """
        return challenges.find(services().redises.store, challenge_id).public()

    @blp.doc(operationId="cancelChallenge", **_SECURITY)
    @blp.response(200, ChallengeSchema)
    @_documented(
        (403, "not_in_challenge: only its challenger may cancel it."),
        (404, "challenge_not_found."),
        (409, "challenge_closed: it is no longer open."),
    )
    def delete(self, challenge_id: str) -> dict[str, Any]:
        """Cancel a challenge you made"""
        connection = services().redises.store
        return challenges.cancel(connection, challenge_id, key_holder()).public()


def _answer_route(path: str, operation: str, summary: str, accept: bool) -> None:
    class Answered(MethodView):
        @blp.doc(operationId=operation, **_SECURITY)
        @blp.response(200, ChallengeSchema)
        @_documented(
            (403, "not_in_challenge: the challenge does not name your account."),
            (404, "challenge_not_found."),
            (409, "challenge_closed: it is no longer open (accepted, declined, cancelled "
                  "or expired)."),
            (422, "validation_error: an account of the challenge is disabled or gone."),
        )  # fmt: skip
        def post(self, challenge_id: str) -> dict[str, Any]:
            connection = services().redises.store
            holder = key_holder()
            if accept:
                found = challenges.accept(connection, game_service(), challenge_id, holder)
            else:
                found = challenges.decline(connection, challenge_id, holder)
            return found.public()

    Answered.post.__doc__ = summary
    Answered.__name__ = Answered.__qualname__ = operation[0].upper() + operation[1:]
    blp.route(path, parameters=_CHALLENGE_ID)(Answered)


_answer_route(
    "/<challenge_id>/accept", "acceptChallenge",
    "Accept a challenge\n\nWith the key of an account it names. The last acceptance makes "
    "the game and starts it: every account hears `game_started` on its stream.",
    accept=True,
)  # fmt: skip
_answer_route(
    "/<challenge_id>/decline", "declineChallenge",
    "Decline a challenge\n\nWith the key of an account it names: the challenge ends.",
    accept=False,
)  # fmt: skip


_STREAM_DOC = (
    "Server-Sent Events: `retry: 1000`, then each event as `data: <JSON>`, a `BotEvent` "
    "(the schema below, each event's, not the whole text's) told apart by its `type`: "
    "`game_started` (`game_id`, `game`, `seat`, `rated`), `your_turn` (`game_id`, `game`, "
    "`seat`, `version`: read the game and move with your key as the bearer token), "
    "`game_finished` (`game_id`, `game`, `seat`, `version`) and `challenge` (`challenge`: "
    "the challenge as `GET /api/v1/challenges/{id}` shows it, at each change of its "
    "status). First what is pending: each game in play, the turn waiting for you, the open "
    "challenges. A `: keepalive` comment every 15 s or so; after about a minute the stream "
    "ends (reconnect: nothing is lost). `event: replaced` when another stream of the "
    "account took over; `event: closed` (`reason`: `key_replaced` or `account_disabled`) at "
    "once when the key it was opened with was replaced or the account disabled."
)


@bot.route("/events")
class BotEvents(MethodView):
    @bot.doc(
        operationId="getBotEvents",
        # The stream's schema is its events' (as SSE APIs commonly document it), so that
        # the typed clients have them: the body itself is text, `data:` lines of them.
        responses={200: {"description": "The account's events, as " + _STREAM_DOC,
                         "content": {"text/event-stream": {"schema": {
                             "$ref": "#/components/schemas/BotEvent"}}}}},
        **_SECURITY,
    )  # fmt: skip
    @bot.alt_response(401, schema=ErrorSchema, description=_KEY_ERRORS[0][1])
    @bot.alt_response(403, schema=ErrorSchema, description=_KEY_ERRORS[1][1])
    @bot.alt_response(
        429,
        schema=ErrorSchema,
        description="too_many_streams: your address holds as many open streams as it may "
        "(`POCHA_MAX_STREAMS_PER_ADDRESS`); rate_limited: too many streams opened from "
        "your address or key (`POCHA_RATE_LIMIT_BOT_STREAMS`), wrong keys counted too.",
        headers={"Retry-After": RETRY_AFTER},
    )
    @bot.alt_response(503, schema=ErrorSchema, description=_KEY_ERRORS[2][1],
                      headers={"Retry-After": RETRY_AFTER})  # fmt: skip
    def get(self) -> Response:
        """Follow your account's events

        One stream per account for all the games it sits in with its key (made, joined,
        or by a challenge) and its challenges. A second stream of the same account
        replaces the first. Any account may hold one, a person's too.
        """
        account = key_holder()
        streams: EventStreams = current_app.extensions[EVENTS]
        stream = open_stream(
            streams, services().redises.store, account, request.remote_addr,
            request.environ.get("gunicorn.socket"),
        )  # fmt: skip
        return Response(
            stream,
            mimetype="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )
