"""The errors of the service's own rules (not the game's): a missing game, a lost race, a stale
version, a refused token, a rate limit, work the bots cannot take now; and which Redis
errors mean "the store is down".

Each `ServiceError` carries the HTTP status and the stable machine code it is reported
with, and a sentence for the client. They know nothing of Flask, so the store, the bot
turns and the RQ jobs raise them as they are; `service.errors` turns them into responses.
"""

from __future__ import annotations

from typing import Any

import redis

from core.store.keys import is_game_id
from engine.i18n import _, ngettext

# Redis errors that mean "the store cannot answer now" rather than a bug of ours (on a
# cluster: a failover under way, after the cluster client's own retries).
REDIS_DOWN = (
    redis.ConnectionError,
    redis.TimeoutError,
    redis.exceptions.ReadOnlyError,
    redis.exceptions.ClusterDownError,
    redis.exceptions.MasterDownError,
    redis.exceptions.TryAgainError,
)


def is_store_full(exc: BaseException) -> bool:
    """Whether Redis refused a write for want of memory (`maxmemory` with `noeviction`): a
    plain command says so with an `OOM` error, a script with an error that quotes it."""
    if isinstance(exc, redis.exceptions.OutOfMemoryError):
        return True
    return isinstance(exc, redis.ResponseError) and "OOM command not allowed" in str(exc)


class ServiceError(Exception):
    """An error to report to the client as it is: status, machine code and a sentence."""

    status = 400
    error = "bad_request"
    #: Seconds after which asking again may succeed (sent as Retry-After), if known.
    retry_after: int | None = None

    def __init__(self, message: str, *, errors: dict[str, Any] | None = None, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        self.errors = errors
        self.extra = extra


class InvalidInput(ServiceError):
    status = 422
    error = "validation_error"


class Unauthorized(ServiceError):
    status = 401
    error = "unauthorized"


class TokenMissing(Unauthorized):
    """No token where a seat's is needed: the service says where an account's key goes
    when the caller sent one in the wrong header."""


class Forbidden(ServiceError):
    status = 403
    error = "forbidden"


class GameNotFound(ServiceError):
    status = 404
    error = "game_not_found"

    def __init__(self, game_id: str) -> None:
        # The id is echoed only when it has the shape of ours (letters, digits, - and _),
        # so a request cannot make us reflect markup or a token pasted in the wrong place.
        if len(game_id) <= 32 and is_game_id(game_id):
            super().__init__(
                _("There is no game {game}: it never existed, ended or expired.", game=game_id)
            )
        else:
            super().__init__(_("There is no game: it never existed, ended or expired."))


class Conflict(ServiceError):
    """The game changed between reading it and writing the move: another request won."""

    status = 409
    error = "conflict"


class NotStarted(Conflict):
    """A move at a table still waiting for people to take its open seats."""

    error = "not_started"

    def __init__(self) -> None:
        super().__init__(
            _(
                "The game has not started: it waits for people to take its open seats, or "
                "for the host to start it."
            )
        )


class WrongState(Conflict):
    """A change of the table that does not fit where the game is (starting a game that
    has started, leaving one that is over): the machine code of the engine's own."""

    error = "wrong_phase"


class WrongGame(Conflict):
    """A decision of another game (a bid in Poch, a bet or a suit in Pocha): the message is
    the game's own sentence (`engine.protocols.GameKind.wrong_decision`)."""

    error = "wrong_game"


class GameNotOver(Conflict):
    """A game's record asked for before the game is over: it shows every hand."""

    error = "game_not_over"

    def __init__(self) -> None:
        super().__init__(
            _(
                "The game is not over: its record shows every hand, so it is given once "
                "the game has ended."
            )
        )


class TableFull(Conflict):
    """No open seat is left at the table (it filled up, or started)."""

    error = "table_full"


class TooManyTables(Conflict):
    """One client address already has as many tables in the lobby as it may."""

    error = "too_many_tables"

    def __init__(self, most: int) -> None:
        super().__init__(
            ngettext(
                "You have {n} table in the lobby already: start it, or make this one "
                "unlisted and share its code.",
                "You have {n} tables in the lobby already: start one, or make this one "
                "unlisted and share its code.",
                most,
            )
        )


class TooManyChanges(Conflict):
    """A table has seen as many seats taken and given up as it may: the comings and goings
    of people are bounded per table, so nobody can grow its events without end."""

    error = "too_many_changes"

    def __init__(self) -> None:
        super().__init__(
            _(
                "Seats at this table have been taken and given up too often. The host may "
                "still start the game, or open a new table."
            )
        )


class OneSeatEach(Conflict):
    """A client that already has a seat at a table from the lobby asked for another."""

    error = "one_seat_each"

    def __init__(self) -> None:
        super().__init__(
            _(
                "You have a seat at this table already: one seat each at a table from the "
                "lobby. To play more seats from one address, ask the host for an unlisted "
                "table and its code."
            )
        )


class RemovedByHost(Forbidden):
    """The host removed this client from the table: it may not sit there again."""

    error = "removed_by_host"

    def __init__(self) -> None:
        super().__init__(_("The host removed you from this table: you cannot sit here again."))


class TableNotFound(ServiceError):
    status = 404
    error = "table_not_found"

    def __init__(self) -> None:
        super().__init__(
            _("No table has this code: check it, or the table may have ended or expired.")
        )


class IdempotencyKeyReused(ServiceError):
    """An Idempotency-Key sent again with another move than the one it was first sent with:
    neither a retry to answer with the game as it is, nor a move to apply."""

    status = 422
    error = "idempotency_key_reused"

    def __init__(self) -> None:
        super().__init__(
            _(
                "This Idempotency-Key was sent before with another move: nothing was "
                "applied. Send each new move with a new key."
            )
        )


class UnknownAccount(ServiceError):
    """An account key that opens no account (never made, or mistyped)."""

    status = 401
    error = "unknown_account"

    def __init__(self) -> None:
        super().__init__(
            # Said the same of a key sent in X-Pocha-Account and of one sent as a seat's
            # bearer token, which is where a bot moves with it.
            _(
                "This account key opens no account (a replaced key opens nothing): check it, "
                "or make an account with POST /api/v1/accounts."
            )
        )


class AccountDisabled(Forbidden):
    """The account was disabled by the operator."""

    error = "account_disabled"

    def __init__(self) -> None:
        super().__init__(_("This account is disabled: it cannot take a seat."))


class AccountNotFound(ServiceError):
    status = 404
    error = "account_not_found"

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message or _("No account has this id."))


class NameTaken(Conflict):
    """A new or changed account name that another account's name looks like; or a seat's
    name that looks like another seat's at the table (`at_table`)."""

    error = "name_taken"

    def __init__(self, message: str | None = None) -> None:
        super().__init__(
            message
            or _(
                "This name is taken, or looks too much like one that is (letters of other "
                "alphabets that look alike, case and spacing count as the same): choose "
                "another."
            )
        )

    @classmethod
    def at_table(cls, name: str, like: str, account: bool = False) -> NameTaken:
        """`name` would take a seat at a table where `like` sits, a name it looks like;
        `account`: `name` is the account's own, which it cannot change for one table."""
        if account:
            return cls(
                _(
                    "Your account's name, {name}, looks too much like the name of someone "
                    "at this table already, {like}: at one table no two names look alike, "
                    "so your account cannot sit at this one.",
                    name=name,
                    like=like,
                )
            )
        return cls(
            _(
                "The name {name} looks too much like the name of someone at this table "
                "already, {like} (letters of other alphabets that look alike, case and "
                "spacing count as the same): choose another.",
                name=name,
                like=like,
            )
        )


class AccountsFull(ServiceError):
    """The store holds as many accounts as the operator allows (`POCHA_MAX_ACCOUNTS`): no
    one's fault but the service's, and over once idle accounts are forgotten or the cap is
    raised."""

    status = 503
    error = "accounts_full"
    retry_after = 3600

    def __init__(self) -> None:
        super().__init__(
            _(
                "This service holds as many accounts as it can for now, so no new one can "
                "be made: try again later. Tables without an account are open to everyone."
            )
        )


class AccountRequired(Unauthorized):
    """A rated table's seat, or a rated game's making, without an account's key."""

    error = "account_required"

    def __init__(self, message: str | None = None) -> None:
        super().__init__(
            message
            or _("A rated table seats accounts only: send your account's key in X-Pocha-Account.")
        )


class OneSeatPerAccount(Conflict):
    """An account a second time at one table, or a bot level a second time at one rated
    table: `of_account` and `of_level` name which."""

    error = "one_seat_per_account"

    @classmethod
    def of_account(cls, name: str) -> OneSeatPerAccount:
        """The caller's account, `name`, sits at this rated table already."""
        return cls(
            _(
                "Your account, {name}, has a seat at this table already: at a rated table "
                "each account has one seat.",
                name=name,
            )
        )

    @classmethod
    def of_level(cls, level: str) -> OneSeatPerAccount:
        """The bot level `level` would take a second seat in a rated game."""
        return cls(
            _(
                "The bot level {level} would have more than one seat in this game: at a "
                "rated table each bot level has one seat.",
                level=level,
            )
        )


class SeatedAlready(OneSeatPerAccount):
    """An account a second time at an unrated table: its one key could open only one of
    its seats, and a new key would leave the other to the stand-in."""

    def __init__(self) -> None:
        super().__init__(
            _(
                "Your account has a seat at this table already: an account plays one seat "
                "at a table."
            )
        )


class TableCodeTaken(Exception):
    """A new table drew a code another table holds (about one in a million million per
    try): the caller draws again."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


class StaleVersion(ServiceError):
    """The client's If-Match names a version that is no longer the game's."""

    status = 412
    error = "stale_version"


class RateLimited(ServiceError):
    """Over a rate limit: `Retry-After` says in how many seconds the count starts again."""

    status = 429
    error = "rate_limited"

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class OverThinkBudget(ServiceError):
    """One request orders more thinking than its payer's think budget gives in a whole
    window: it could never fit, so it is refused for good, not told to wait."""

    status = 422
    error = "over_think_budget"


class NotReplicated(ServiceError):
    """A move was written, but its Redis's replicas did not confirm it within the wait
    (`POCHA_WAIT_REPLICAS`): it stands unless a failover comes first."""

    status = 503
    error = "not_replicated"
    retry_after = 1


class Busy(ServiceError):
    """More work is queued for the bots than they can start soon: refused at once rather
    than queued; `Retry-After` says in how many seconds the queue should have drained."""

    status = 503
    error = "busy"

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class WebhookRefused(ServiceError):
    """A webhook URL that may not be called: not http(s), unparsable, or resolving to an
    address of a private, loopback, link-local, multicast or reserved range."""

    status = 422
    error = "webhook_refused"


class NotABot(ServiceError):
    """A webhook, or a bot's setting, asked for by an account that is not a bot's."""

    status = 409
    error = "not_a_bot"

    def __init__(self, message: Any = None) -> None:
        super().__init__(message or _("Only a bot's account may register a webhook."))


class NoWebhook(ServiceError):
    """A webhook read, resumed or removed for an account that has none."""

    status = 404
    error = "no_webhook"

    def __init__(self) -> None:
        super().__init__(_("This account has no webhook: register one with PUT first."))


class NotYourAccount(Forbidden):
    """What only an account's own key may do (its webhook, its games, its key, opening it to
    matches), asked with another account's key."""

    error = "not_your_account"

    def __init__(self) -> None:
        super().__init__(
            _("This is another account's: send its own key in X-Pocha-Account to do this.")
        )


class ChallengeNotFound(ServiceError):
    status = 404
    error = "challenge_not_found"

    def __init__(self) -> None:
        super().__init__(
            _("No challenge has this id (or it was forgotten, an hour after it ended).")
        )


class NotInChallenge(Forbidden):
    """A challenge answered or cancelled with the key of an account it does not name so."""

    error = "not_in_challenge"

    def __init__(self, message: str) -> None:
        super().__init__(message)


class ChallengeClosed(Conflict):
    """A challenge accepted, declined or cancelled once it is no longer open."""

    error = "challenge_closed"

    def __init__(self, status: str) -> None:
        super().__init__(_("This challenge is no longer open: it was {status}.", status=status))


class TooManyChallenges(ServiceError):
    """More open challenges than an account may make, or than may wait for one account."""

    status = 429
    error = "too_many_challenges"

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class ChallengeRefused(Forbidden):
    """A challenge to an account that blocks its maker: it says no more than that the
    account takes none of the maker's challenges."""

    error = "challenge_refused"

    def __init__(self, name: str) -> None:
        super().__init__(_("{name} does not take challenges from your account.", name=name))


class SeatRefused(Forbidden):
    """A seat that would put two accounts in one game when one blocks the other: at a
    table (`core.play.tables`) or in a match (`core.play.blocks`). Said without naming the
    account that blocks: the one refused learns only that someone there does not play
    with it; the one that blocks is told that it does."""

    error = "seat_refused"

    def __init__(self, message: str) -> None:
        super().__init__(message)

    @classmethod
    def at_table(cls, blocker: bool) -> SeatRefused:
        """At a table: the account taking the seat is blocked there, or (`blocker`) it
        blocks an account there."""
        if blocker:
            return cls(_("You block an account at this table: unblock it to sit here."))
        return cls(_("Someone at this table does not play with your account."))

    @classmethod
    def in_match(cls, blocker: bool, asker: bool) -> SeatRefused:
        """In a match: an account it seats blocks the asker's (`asker`), or the asker blocks
        one it seats beside itself (`blocker`), or two accounts it seats (neither)."""
        if asker:
            return cls(_("An account in this match does not play with yours."))
        if blocker:
            return cls(_("You block an account in this match: unblock it to play beside it."))
        return cls(_("Two accounts in this match do not play together: one blocks the other."))


class TooManyBlocks(Conflict):
    """An account blocking one more account than it may."""

    error = "too_many_blocks"

    def __init__(self, most: int) -> None:
        super().__init__(
            ngettext(
                "You block {n} account, the most you may: unblock it first.",
                "You block {n} accounts, the most you may: unblock one first.",
                most,
            )
        )


class BotPaused(Conflict):
    """A bot challenged while its webhook is paused: nobody would play its seat."""

    error = "bot_paused"

    def __init__(self, name: str) -> None:
        super().__init__(
            _(
                "{name} is a webhook bot paused after failing its calls: it cannot be "
                "challenged until its owner resumes it.",
                name=name,
            )
        )
