"""Accounts and the ladder over HTTP: making an account (its key shown once), replacing its
key, an account's public profile with its ratings, the account a key opens (so that a
program holding only its key learns its id), its owner's list of its games in play, and
the ladder of each game for people or bots.
How it works: docs/api.md, "Accounts, rated tables and the ladder".
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask import current_app
from flask.views import MethodView
from marshmallow import fields, validate

from core.errors import (
    AccountDisabled,
    AccountNotFound,
    NotABot,
    NotYourAccount,
    UnknownAccount,
)
from core.store import account_turns, webhooks
from core.store.accounts import (
    KINDS,
    LONGEST_NAME,
    Account,
    create,
    find,
    get,
    set_open_to_matches,
)
from core.store.keys import is_game_id
from core.store.ratings import HISTORY, displayed, history, ladder, ratings_by_game
from core.store.records import StoredGame
from engine.i18n import _
from engine.registry import DEFAULT_GAME, kind_of
from engine.registry import KINDS as GAMES
from service.accounts import SCHEME, key_holder, sent_key
from service.answers import Answer
from service.api.fields import AsciiInteger, StrictBoolean
from service.api.games_schemas import PlayerName, RegisteredGame
from service.context import services
from service.errors import ErrorSchema
from service.json_bodies import Blueprint

blp = Blueprint(
    "accounts",
    __name__,
    url_prefix="/api/v1/accounts",
    description="Accounts: a lasting name for a person or a bot, opened by a secret key sent "
    "in `X-Pocha-Account`. With it, making a game or taking a seat seats the account, and "
    "a rated table's result changes its rating.",
)

own = Blueprint(
    "account",
    __name__,
    url_prefix="/api/v1/account",
    description="The account a key opens: what a program holding only its key learns of "
    "itself, its id first; and the accounts it blocks, whose challenges it refuses.",
)

ladders = Blueprint(
    "ladder",
    __name__,
    url_prefix="/api/v1/ladder",
    description="The ladder of each game: rated accounts, people or bots, by rating.",
)

#: The most entries one page of the ladder holds.
PAGE_MOST = 100
#: The deepest place a page of the ladder may start at.
DEEPEST = 100_000

_KIND = fields.String(
    required=True,
    validate=validate.OneOf(KINDS),
    metadata={"description": "`person` or `bot`.", "enum": list(KINDS), "example": "bot"},
)


class NewAccountSchema(ma.Schema):
    name = PlayerName(
        longest=LONGEST_NAME,
        required=True,
        metadata={
            "description": "The account's name, shown at tables and on the ladder: unique "
            "once case, accents, spacing and letters that look alike are set aside.",
            "example": "Ana",
        },
    )
    kind = _KIND


class NewAccountAnswerSchema(Answer):
    id = fields.String(metadata={"description": "The account's id.", "example": "q3ZkR8vX1mNc2pLw"})
    name = fields.String(metadata={"description": "Its name, as shown.", "example": "Ana"})
    kind = fields.String(
        metadata={"description": "`person` or `bot`.", "enum": list(KINDS), "example": "person"}
    )
    key = fields.String(
        metadata={
            "description": "The account's secret key, shown only here: send it in "
            "`X-Pocha-Account`. It is stored hashed and cannot be shown again.",
            "example": "pa_3q9V...",
        }
    )
    created = fields.Float(metadata={"description": "When it was made (Unix time)."})


class NewKeyAnswerSchema(Answer):
    id = fields.String(metadata={"description": "The account's id.", "example": "q3ZkR8vX1mNc2pLw"})
    key = fields.String(
        metadata={
            "description": "The account's new secret key, shown only here: the key before "
            "opens nothing any more. It is stored hashed and cannot be shown again.",
            "example": "pa_8mVq...",
        }
    )
    webhook_removed = fields.Boolean(
        metadata={
            "description": "Whether the bot's webhook was removed with the key before (a "
            "key is replaced because it leaked, and its thief may have pointed the webhook "
            "at their own server): its games call it no more, and its owner registers it "
            "again with the new key, which makes a new signing secret. False when there was "
            "none.",
            "example": True,
        }
    )


class RatingSchema(Answer):
    game = fields.String(metadata={"description": "The game rated.", "example": "pocha"})
    rating = fields.Float(
        metadata={"description": "The rating shown: mu - 3 sigma.", "example": 4.21}
    )
    mu = fields.Float(metadata={"description": "OpenSkill's mean skill.", "example": 27.3})
    sigma = fields.Float(metadata={"description": "Its uncertainty.", "example": 7.7})
    games = fields.Integer(
        metadata={"description": "Rated games that counted toward it.", "example": 3}
    )
    provisional = fields.Boolean(
        metadata={
            "description": "Counted against too few distinct opponents yet for the ladder "
            "to take it as settled (its counted games have not met the service's "
            "`POCHA_RATED_PROVISIONAL_OPPONENTS`, 5 by default, our levels among them); "
            "never for our levels.",
            "example": False,
        }
    )
    bids = fields.Integer(
        metadata={
            "description": "Bids made in its rated games (a game of bids: Pocha; 0 for Poch).",
            "example": 24,
        }
    )
    exact_bids = fields.Integer(
        metadata={
            "description": "Of those bids, the ones that took exactly the tricks bid.",
            "example": 11,
        }
    )


class BotWebhookSchema(Answer):
    paused = fields.Boolean(
        metadata={
            "description": "Paused after too many failures in a row: the stand-in plays its "
            "seats until its owner resumes it."
        }
    )
    decisions = fields.Integer(metadata={"description": "Decisions its webhook answered."})
    mean_decision_ms = fields.Float(
        allow_none=True,
        metadata={"description": "Their mean time, call to answer (ms); null before the first."},
    )
    failures = fields.Integer(metadata={"description": "Calls that failed, in all."})
    failures_in_a_row = fields.Integer(metadata={"description": "The latest failures in a row."})
    last_failure = fields.String(
        allow_none=True,
        metadata={
            "description": "Why the last failed call failed: `timeout` (no whole answer "
            "within the deadline), `connection` (failed or refused), `status_NNN` (not "
            "2xx), `redirect` (a 3xx: never followed), `too_large` (over the answer's "
            "byte limit), `bad_json` (not JSON), `no_action` (JSON without `action`), "
            "`illegal` (not one of `you.legal`) or `refused_address` (the URL resolves to "
            "an address the service does not call).",
            "example": "timeout",
        },
    )


class TimedTurnsSchema(Answer):
    decisions = fields.Integer(metadata={"description": "Timed turns it moved in itself."})
    mean_decision_ms = fields.Float(
        allow_none=True,
        metadata={"description": "Their mean time from the turn's start (ms); null before one."},
    )
    clocks_ran_out = fields.Integer(
        metadata={"description": "Its turns whose clock ran out: the stand-in played them."}
    )


class AccountSchema(Answer):
    OPTIONAL = frozenset({"webhook", "turns"})

    id = fields.String(metadata={"description": "The account's id.", "example": "q3ZkR8vX1mNc2pLw"})
    name = fields.String(metadata={"description": "Its name.", "example": "Ana"})
    kind = fields.String(
        metadata={"description": "`person` or `bot`.", "enum": list(KINDS), "example": "person"}
    )
    level = fields.String(
        allow_none=True,
        metadata={
            "description": "For one of our bot levels' accounts, the level; null otherwise.",
            "example": None,
        },
    )
    created = fields.Float(metadata={"description": "When it was made (Unix time)."})
    last_seen = fields.Float(metadata={"description": "When its key was last used (Unix time)."})
    disabled = fields.Boolean(
        metadata={"description": "Disabled by the operator: it takes no seat.", "example": False}
    )
    open_to_matches = fields.Boolean(
        metadata={
            "description": "A bot its owner lets anyone seat in an unrated match "
            "(`account:ID`); false for a person, who is seated by their own key only.",
            "example": False,
        }
    )
    ratings = fields.List(
        fields.Nested(RatingSchema),
        metadata={"description": "Its rating in each game it has played rated."},
    )
    turns = fields.Nested(
        TimedTurnsSchema,
        metadata={
            "description": "Only for a bot that moved with its key in timed turns (a stream "
            "bot): how many, their mean time from the turn's start, and the turns whose clock "
            "ran out (the stand-in played them)."
        },
    )
    webhook = fields.Nested(
        BotWebhookSchema,
        metadata={
            "description": "Only for a bot with a webhook: whether it is paused, its "
            "decisions and their mean time, and its failures (never its URL)."
        },
    )


class AccountChangeSchema(ma.Schema):
    open_to_matches = StrictBoolean(
        required=True,
        metadata={
            "description": "Let anyone seat this bot in an unrated match, as a public "
            "opponent; false: only a match asked for with its own key seats it.",
            "example": True,
        },
    )


def account_by_id(account_id: str) -> Account:
    """The account `account_id`, whoever asks (404 `account_not_found` when there is none:
    an id that could be no account's is not looked up)."""
    account = get(services().redises.store, account_id) if is_game_id(account_id) else None
    if account is None:
        raise AccountNotFound()
    return account


def owner_of(account_id: str) -> Account:
    """The account `account_id`, reached with its own key."""
    account = account_by_id(account_id)
    holder = find(services().redises.store, sent_key())
    if holder is None:
        raise UnknownAccount()
    if holder.id != account.id:
        raise NotYourAccount()
    if account.disabled:
        raise AccountDisabled()
    return account


class LadderQuerySchema(ma.Schema):
    class Meta:
        unknown = ma.EXCLUDE

    game = fields.String(
        load_default=DEFAULT_GAME,
        validate=RegisteredGame(),
        metadata={"description": "The game: `pocha` or `poch`.", "example": "pocha"},
    )
    kind = fields.String(
        load_default="person",
        validate=validate.OneOf(KINDS),
        metadata={"description": "`person` or `bot`.", "enum": list(KINDS), "example": "bot"},
    )
    offset = AsciiInteger(
        load_default=0,
        validate=validate.Range(0, DEEPEST),
        metadata={"description": "The place to start at, 0-based.", "example": 0},
    )
    limit = AsciiInteger(
        load_default=50,
        validate=validate.Range(1, PAGE_MOST),
        metadata={"description": f"Entries in the page, 1 to {PAGE_MOST}.", "example": 50},
    )


class LadderEntrySchema(Answer):
    rank = fields.Integer(metadata={"description": "Place, 1 for the best.", "example": 1})
    id = fields.String(metadata={"description": "The account's id.", "example": "level-hard"})
    name = fields.String(metadata={"description": "The account's name.", "example": "hard"})
    rating = fields.Float(metadata={"description": "mu - 3 sigma.", "example": 4.21})
    mu = fields.Float(metadata={"description": "OpenSkill's mean skill.", "example": 27.3})
    sigma = fields.Float(metadata={"description": "Its uncertainty.", "example": 7.7})
    games = fields.Integer(
        metadata={"description": "Rated games that counted toward it.", "example": 3}
    )
    provisional = fields.Boolean(
        metadata={
            "description": "Counted against too few distinct opponents yet (the service's "
            "`POCHA_RATED_PROVISIONAL_OPPONENTS`, 5 by default, our levels among them): "
            "its place is provisional; never for our levels.",
            "example": False,
        }
    )
    last_seen = fields.Float(
        allow_none=True,
        metadata={"description": "When the account was last seen (Unix time)."},
    )
    disabled = fields.Boolean(metadata={"description": "Disabled by the operator."})


class LadderSchema(Answer):
    game = fields.String(metadata={"description": "The game.", "example": "pocha"})
    kind = fields.String(metadata={"description": "`person` or `bot`.", "example": "bot"})
    total = fields.Integer(metadata={"description": "Accounts on this ladder.", "example": 4})
    offset = fields.Integer(metadata={"description": "The first entry's place, 0-based."})
    entries = fields.List(fields.Nested(LadderEntrySchema))


_ACCOUNT_ID = [{"in": "path", "name": "account_id", "description": "The account's id."}]


def _own_key_refusals(view: Any) -> Any:
    """The refusals documented for an operation that only the account's own key opens."""
    for status, description in (
        (404, "account_not_found."),
        (403, "not_your_account: another account's key; account_disabled."),
        (401, "account_required: no key; unknown_account: a key that opens no account."),
    ):
        view = blp.alt_response(status, schema=ErrorSchema, description=description)(view)
    return view


@blp.route("")
class Accounts(MethodView):
    @blp.doc(operationId="createAccount", security=[])
    @blp.arguments(NewAccountSchema(), location="json")
    @blp.response(201, NewAccountAnswerSchema)
    @blp.alt_response(
        409,
        schema=ErrorSchema,
        description="name_taken: the name, or one that looks like it, is another account's.",
    )
    @blp.alt_response(
        429,
        schema=ErrorSchema,
        description="rate_limited: too many accounts made from your address "
        "(`POCHA_RATE_LIMIT_ACCOUNTS`); wait `Retry-After` seconds.",
    )
    @blp.alt_response(400, schema=ErrorSchema, description="bad_json: the body is not JSON.")
    @blp.alt_response(408, schema=ErrorSchema, description="body_too_slow.")
    @blp.alt_response(413, schema=ErrorSchema, description="body_too_large.")
    @blp.alt_response(415, schema=ErrorSchema, description="unsupported_media_type.")
    @blp.alt_response(
        503,
        schema=ErrorSchema,
        description="unavailable: retry shortly. accounts_full: the service holds as many "
        "accounts as it may (`POCHA_MAX_ACCOUNTS`); accounts not in use are forgotten "
        "after `POCHA_ACCOUNT_IDLE_DAYS`, so wait `Retry-After` seconds.",
    )
    def post(self, body: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
        """Make an account

        A person or a bot: its id and its secret key, shown only here (keep it: it is the
        account's only way in). Names are unique regardless of case, accents, spacing and
        letters of other alphabets that look alike; our bot levels' names are theirs. An
        account with no rating that goes unused for `POCHA_ACCOUNT_IDLE_DAYS` (180 by
        default) is forgotten, its name free again.
        """
        key, account = create(
            services().redises.store,
            body["name"],
            body["kind"],
            most=int(current_app.config["MAX_ACCOUNTS"]),
        )
        answer = {
            "id": account.id,
            "name": account.name,
            "kind": account.kind,
            "key": key,
            "created": account.created,
        }
        return answer, {"Location": f"{blp.url_prefix}/{account.id}"}


@blp.route("/<account_id>", parameters=_ACCOUNT_ID)
class AccountById(MethodView):
    @blp.doc(operationId="getAccount", security=[])
    @blp.response(200, AccountSchema)
    @blp.alt_response(404, schema=ErrorSchema, description="account_not_found.")
    @blp.alt_response(503, schema=ErrorSchema, description="unavailable: retry shortly.")
    def get(self, account_id: str) -> dict[str, Any]:
        """An account's profile

        Public: its name, kind, when it was made and last seen, and its rating in each game
        it has played rated. Never its key.
        """
        return _profile(account_by_id(account_id))

    @blp.doc(operationId="changeAccount", security=[{SCHEME: []}])
    @blp.arguments(AccountChangeSchema(), location="json")
    @blp.response(200, AccountSchema)
    @_own_key_refusals
    @blp.alt_response(
        409,
        schema=ErrorSchema,
        description="not_a_bot: a person is seated in matches by their own key only.",
    )
    @blp.alt_response(
        422,
        schema=ErrorSchema,
        description="validation_error: no `open_to_matches`, or not true or false.",
    )
    @blp.alt_response(400, schema=ErrorSchema, description="bad_json: the body is not JSON.")
    @blp.alt_response(408, schema=ErrorSchema, description="body_too_slow.")
    @blp.alt_response(413, schema=ErrorSchema, description="body_too_large.")
    @blp.alt_response(415, schema=ErrorSchema, description="unsupported_media_type.")
    @blp.alt_response(503, schema=ErrorSchema, description="unavailable: retry shortly.")
    def patch(self, body: dict[str, Any], account_id: str) -> dict[str, Any]:
        """Change your bot's settings

        With the bot account's own key: `open_to_matches` lets anyone seat the bot in an
        unrated match (`POST /api/v1/matches`, `account:ID`), as a public opponent.
        """  # fmt: skip
        account = owner_of(account_id)
        if account.kind != "bot":
            raise NotABot(_("Only a bot's account may be opened to matches."))
        set_open_to_matches(services().redises.store, account.id, body["open_to_matches"])
        found = get(services().redises.store, account.id)
        if found is None:
            raise AccountNotFound()
        return _profile(found)


@own.route("")
class OwnAccount(MethodView):
    @own.doc(operationId="getOwnAccount", security=[{SCHEME: []}])
    @own.response(200, AccountSchema)
    @own.alt_response(
        401,
        schema=ErrorSchema,
        description="account_required: no key; unknown_account: a key that opens no account "
        "(a key replaced already opens nothing).",
    )
    @own.alt_response(403, schema=ErrorSchema, description="account_disabled.")
    @own.alt_response(
        429,
        schema=ErrorSchema,
        description="rate_limited: too many reads of the account a key opens from your "
        "address (`POCHA_RATE_LIMIT_OWN_ACCOUNT`); wait `Retry-After` seconds.",
    )
    @own.alt_response(503, schema=ErrorSchema, description="unavailable: retry shortly.")
    def get(self) -> dict[str, Any]:
        """The account your key opens

        With an account's key: that account's profile, as `GET /api/v1/accounts/{id}`
        shows it, so that a program given only its key (a stream bot) learns its account's
        id and name. Its `last_seen` is the key's use before this one (a use the bot did not
        make tells it that its key is in other hands); this one is noted for the next.
        """
        return _profile(key_holder())


@blp.route("/<account_id>/key", parameters=_ACCOUNT_ID)
class AccountKey(MethodView):
    @blp.doc(operationId="replaceAccountKey", security=[{SCHEME: []}])
    @blp.response(200, NewKeyAnswerSchema)
    @blp.alt_response(
        401,
        schema=ErrorSchema,
        description="account_required: no key; unknown_account: a key that opens no account "
        "(a key replaced already opens nothing).",
    )
    @blp.alt_response(
        403,
        schema=ErrorSchema,
        description="not_your_account: another account's key; account_disabled.",
    )
    @blp.alt_response(404, schema=ErrorSchema, description="account_not_found.")
    @blp.alt_response(
        429,
        schema=ErrorSchema,
        description="rate_limited: too many keys replaced from your address "
        "(`POCHA_RATE_LIMIT_ACCOUNT_KEYS`); wait `Retry-After` seconds.",
    )
    @blp.alt_response(503, schema=ErrorSchema, description="unavailable: retry shortly.")
    def post(self, account_id: str) -> dict[str, Any]:
        """Replace your account's key

        With the account's current key: a new key, shown only here. From that moment the
        key before opens nothing (401 `unknown_account`) and the account's event stream
        opened with it ends. A bot's webhook is removed in the same step
        (`webhook_removed`), since whoever held the leaked key may have pointed it at their
        own server: register it again with the new key. Its seats and ratings stay the
        account's, and the new key opens its seats. The seat tokens handed out under the
        key before, in the account's games not finished, open nothing from then on (401
        `unauthorized`, as any token that is no seat's): whoever held the leaked key keeps
        none of the seats taken with it, and a client that kept a seat's token goes on with
        the new key. Finished games are left as they are. Two replacements of one key at
        once: one gets the new key, the other 401.
        """
        account = owner_of(account_id)
        made = services().games.tables.replace_key(account.id, sent_key())
        if made is None:
            # Replaced by another request between the look-up and now.
            raise UnknownAccount()
        return {"id": account.id, "key": made.key, "webhook_removed": made.webhook_removed}


def _profile(account: Account) -> dict[str, Any]:
    """What anyone sees of an account."""
    connection = services().redises.store
    limits = services().store.rating_limits
    rated = ratings_by_game(connection, account.id, list(GAMES))
    hook = webhooks.get(connection, account.id) if account.kind == "bot" else None
    shown = {} if hook is None else {"webhook": {
        k: v for k, v in hook.public().items() if k != "url"
    }}  # fmt: skip
    turns = account_turns.get(connection, account.id) if account.kind == "bot" else None
    if turns is not None:
        shown["turns"] = turns.public()
    return {
        **shown,
        "id": account.id,
        "name": account.name,
        "kind": account.kind,
        "level": account.level,
        "created": account.created,
        "last_seen": account.seen,
        "disabled": account.disabled,
        "open_to_matches": account.open_to_matches,
        "ratings": [
            {
                "game": game,
                "rating": round(displayed(r.mu, r.sigma), 3),
                "mu": round(r.mu, 3),
                "sigma": round(r.sigma, 3),
                "games": r.games,
                "provisional": r.provisional(account.id, limits),
                "bids": r.bids,
                "exact_bids": r.exact_bids,
            }
            for game, r in rated.items()
        ],
    }


class RatingHistoryQuerySchema(ma.Schema):
    class Meta:
        unknown = ma.EXCLUDE

    game = fields.String(
        load_default=DEFAULT_GAME,
        validate=RegisteredGame(),
        metadata={"description": "The game whose ratings to show.", "example": "pocha"},
    )


class RatingHistoryEntrySchema(Answer):
    OPTIONAL = frozenset({"match_id", "match_game", "given_up", "reason", "not_counted_against"})

    game_id = fields.String(
        metadata={
            "description": "The rated game that made this rating (a rated match's game: "
            "its match's id, a dash and its number).",
            "example": "q3ZkR8vX1mNc2pLw",
        }
    )
    match_id = fields.String(
        metadata={
            "description": "Only for a rated match's game: the match (its records are at "
            "`/api/v1/matches/{match_id}/records`).",
            "example": "b8VnQ2xKp0aZ",
        }
    )
    match_game = fields.Integer(
        metadata={"description": "Only for a rated match's game: its number in the match."}
    )
    given_up = fields.Boolean(
        metadata={
            "description": "Only for a rated match's game in play when its bot cancelled the "
            "match: true, counted as lost by the bot (last, below every level)."
        }
    )
    when = fields.Float(metadata={"description": "When it was counted (Unix time)."})
    counted = fields.Boolean(
        metadata={
            "description": "Whether the game moved this rating: false when every opponent "
            "at the table had already counted against the account as many times as the "
            "cap allows in the window (3 rated games in any 24 hours by default: "
            "`POCHA_RATED_PAIR_GAMES`, `POCHA_RATED_PAIR_SECONDS`); the rating after it is "
            "then the one before.",
            "example": True,
        }
    )
    reason = fields.String(
        metadata={
            "description": "Only when not counted: why (`repeated_opponents`).",
            "example": "repeated_opponents",
        }
    )
    not_counted_against = fields.List(
        fields.String(),
        metadata={
            "description": "Only when some opponents were past the cap: their accounts, whose "
            "results against this one moved neither rating.",
            "example": ["b8VnQ2xKp0aZq1Wm"],
        },
    )
    rank = fields.Integer(
        metadata={"description": "The account's place in that game, 1 the best.", "example": 1}
    )
    rating = fields.Float(
        metadata={"description": "The rating shown after it: mu - 3 sigma.", "example": 4.21}
    )
    mu = fields.Float(metadata={"description": "OpenSkill's mean skill after it.", "example": 27.3})
    sigma = fields.Float(metadata={"description": "Its uncertainty after it.", "example": 7.7})


class RatingHistorySchema(Answer):
    game = fields.String(metadata={"description": "The game.", "example": "pocha"})
    entries = fields.List(
        fields.Nested(RatingHistoryEntrySchema),
        metadata={
            "description": f"The account's rating after each of its latest rated games (at "
            f"most {HISTORY}), newest first: what a rating curve is drawn from."
        },
    )


@blp.route("/<account_id>/history", parameters=_ACCOUNT_ID)
class AccountHistory(MethodView):
    @blp.doc(operationId="getAccountHistory", security=[])
    @blp.arguments(RatingHistoryQuerySchema(), location="query")
    @blp.response(200, RatingHistorySchema)
    @blp.alt_response(404, schema=ErrorSchema, description="account_not_found.")
    @blp.alt_response(503, schema=ErrorSchema, description="unavailable: retry shortly.")
    def get(self, query: dict[str, Any], account_id: str) -> dict[str, Any]:
        """An account's rating history

        Public: its rating in one game after each of its latest rated games, newest first.
        """
        account = account_by_id(account_id)
        connection = services().redises.store
        entries = [
            {
                "game_id": e["game_id"], "when": e["when"], "rank": e["rank"],
                "rating": round(e["rating"], 3), "mu": round(e["mu"], 3),
                "sigma": round(e["sigma"], 3), "counted": e.get("counted", True),
                **{
                    k: e[k]
                    for k in ("match_id", "match_game", "given_up", "reason", "not_counted_against")
                    if k in e
                },
            }
            for e in history(connection, query["game"], account.id)
        ]  # fmt: skip
        return {"game": query["game"], "entries": entries}


#: The most games in play one answer of `GET /api/v1/accounts/{id}/games` lists.
GAMES_LISTED = 50


class GameInPlaySchema(Answer):
    game_id = fields.String(
        metadata={"description": "The game's id.", "example": "Jm2bS0k4qV7wXc1Z"}
    )
    game = fields.String(
        metadata={"description": "The game: `pocha` or `poch`.", "enum": list(GAMES),
                  "example": "pocha"}
    )  # fmt: skip
    seat = fields.Integer(
        metadata={
            "description": "The account's seat there, 0-based: the one its key opens (its "
            "last, should it hold two).",
            "example": 0,
        }
    )
    your_turn = fields.Boolean(
        metadata={
            "description": "Whether it is that seat's turn now (never for a seat left: the "
            "stand-in's turn).",
            "example": True,
        }
    )
    waiting = fields.Boolean(
        metadata={
            "description": "A table still waiting for people: its game has not started.",
            "example": False,
        }
    )
    left = fields.Boolean(
        metadata={
            "description": "The account left that seat: the stand-in plays it to the end "
            "(its key still shows the game, and takes no turn there).",
            "example": False,
        }
    )
    players = fields.List(
        fields.String(allow_none=True),
        metadata={
            "description": "Each seat's name in playing order; null for a seat still open.",
            "example": ["Ana", "Bot 1", "Bot 2", "Bot 3"],
        },
    )
    created = fields.Float(metadata={"description": "When the game was made (Unix time)."})
    last_seen = fields.Float(
        metadata={
            "description": "When the account was last at that seat (a request with its "
            "token or key; Unix time); when the game was made, if never since."
        }
    )
    view = fields.String(
        metadata={
            "description": "The seat's view: `GET` it with the account's key as the bearer "
            "token (`Authorization: Bearer pa_...`), which opens the seat as its token does, "
            "then move there the same way.",
            "example": "/api/v1/games/Jm2bS0k4qV7wXc1Z",
        }
    )
    page = fields.String(
        metadata={
            "description": "The web page that opens the seat with the account's key signed "
            "in there.",
            "example": "/play/Jm2bS0k4qV7wXc1Z",
        }
    )


class GamesInPlaySchema(Answer):
    games = fields.List(
        fields.Nested(GameInPlaySchema),
        metadata={
            "description": f"The account's games not finished, at most {GAMES_LISTED}, the "
            "one it sat down in last first."
        },
    )


@blp.route("/<account_id>/games", parameters=_ACCOUNT_ID)
class AccountGames(MethodView):
    @blp.doc(operationId="getAccountGames", security=[{SCHEME: []}])
    @blp.response(200, GamesInPlaySchema)
    @_own_key_refusals
    @blp.alt_response(
        429,
        schema=ErrorSchema,
        description="rate_limited: too many reads of accounts' games in play from your "
        "address (`POCHA_RATE_LIMIT_ACCOUNT_GAMES`); wait `Retry-After` seconds.",
    )
    @blp.alt_response(503, schema=ErrorSchema, description="unavailable: retry shortly.")
    def get(self, account_id: str) -> dict[str, Any]:
        """Your account's games in play

        With the account's own key: the games not finished in which it holds a seat,
        whichever way it sat down, so that a person gets back to a game they left (in
        another browser, or in the terminal): its seat, whether it is that seat's turn,
        the players, and where to open it. The key opens the seat (`view`). At most
        50, the one it sat down in last first; a game over or gone is not listed.
        """
        account = owner_of(account_id)
        found = services().games.tables.games_in_play(account.id, GAMES_LISTED)
        return {"games": [_in_play(record, seat) for record, seat in found]}


def _in_play(record: StoredGame, seat: int) -> dict[str, Any]:
    """One of an account's games in play, as its owner sees it in the list."""
    seen = record.seen[seat] if seat < len(record.seen) else 0.0
    held = record.seats[seat]
    return {
        "game_id": record.id,
        "game": kind_of(record.game).name,
        "seat": seat,
        "your_turn": not record.waiting and not held.left and record.game.turn == seat,
        "waiting": record.waiting,
        "left": held.left,
        "players": [None if s.open else s.name for s in record.seats],
        "created": record.created,
        "last_seen": max(record.created, seen),
        "view": f"/api/v1/games/{record.id}",
        "page": f"/play/{record.id}",
    }


@ladders.route("")
class Ladder(MethodView):
    @ladders.doc(operationId="getLadder", security=[])
    @ladders.arguments(LadderQuerySchema(), location="query")
    @ladders.response(200, LadderSchema)
    @ladders.alt_response(503, schema=ErrorSchema, description="unavailable: retry shortly.")
    def get(self, query: dict[str, Any]) -> dict[str, Any]:
        """The ladder

        The rated accounts of one kind in one game, best first by rating (mu - 3 sigma),
        a page at a time (`offset`, `limit`).
        """
        total, entries = ladder(
            services().redises.store, query["game"], query["kind"], query["offset"],
            query["limit"], services().store.rating_limits,
        )  # fmt: skip
        return {
            "game": query["game"],
            "kind": query["kind"],
            "total": total,
            "offset": query["offset"],
            "entries": entries,
        }
