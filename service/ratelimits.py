"""Rate limits per client address, so that one client cannot flood the games, the store or
the bots: on creating games, on moves, on the AI on demand, on matches and on the reads
that cost many times a plain one; per integrator's key instead where one is sent.
How it works: docs/internals.md, `service.ratelimits`.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import redis
from flask import Flask, Response, current_app, g, request
from flask_limiter import Limiter, RateLimitExceeded
from limits import RateLimitItem, parse, parse_many

from core.config import is_on
from core.errors import REDIS_DOWN, RateLimited
from core.store.keys import move_limit_key
from core.store.redises import cluster_nodes, is_cluster
from engine.i18n import N_, Message, _
from service.api_keys import current_key, limit_key, payer_of
from service.context import game_service
from service.errors import error_response

#: Endpoint -> (setting of its limit, scope). Endpoints of one scope share a count.
LIMITED: dict[str, tuple[str, str]] = {
    "games.Games": ("RATE_LIMIT_CREATE", "create"),
    "tables.Lobby": ("RATE_LIMIT_LOBBY", "lobby"),
    "games.Record": ("RATE_LIMIT_RECORDS", "records"),
    "matches.MatchRecords": ("RATE_LIMIT_MATCH_RECORDS", "match_records"),
    "accounts.AccountGames": ("RATE_LIMIT_ACCOUNT_GAMES", "account_games"),
    "account.OwnAccount": ("RATE_LIMIT_OWN_ACCOUNT", "own_account"),
    "tables.TableByCode": ("RATE_LIMIT_TABLES", "tables"),
    "tables.TableSeats": ("RATE_LIMIT_TABLES", "tables"),
    "seats.Rematch": ("RATE_LIMIT_TABLES", "tables"),
    "hints.Hint": ("RATE_LIMIT_AI", "ai"),
    "ai.Move": ("RATE_LIMIT_AI", "ai"),
    "matches.Matches": ("RATE_LIMIT_MATCHES", "matches"),
    "analyses.Analyses": ("RATE_LIMIT_ANALYSES", "analyses"),
    "accounts.Accounts": ("RATE_LIMIT_ACCOUNTS", "accounts"),
    "accounts.AccountKey": ("RATE_LIMIT_ACCOUNT_KEYS", "account_keys"),
    "challenges.Challenges": ("RATE_LIMIT_CHALLENGES", "challenges"),
    "account.Blocks": ("RATE_LIMIT_BLOCKS", "blocks"),
    "account.Block": ("RATE_LIMIT_BLOCKS", "blocks"),
}
#: Endpoints that change one seat, limited per seat (game and seat, from any address), so
#: no token can turn its seat's comings and goings into a flood of events, and whose count
#: each spends: the seat's own (coming back, leaving) or the host's of that seat
#: (removing). Two counts, so that neither keeps the other from its changes: a host's
#: removals, refused once the game has started, would otherwise keep the seat's person
#: from coming back or leaving, and a person coming back over and over would keep the
#: host from removing them. Only the requests that may change the seat count
#: (`service.api.tables.check_changer_first`).
SEAT_LIMITED: dict[str, tuple[str, str]] = {
    "seats.Return": ("RATE_LIMIT_SEATS", "own"),
    "seats.Leave": ("RATE_LIMIT_SEATS", "own"),
    "seats.Remove": ("RATE_LIMIT_SEATS", "host"),
}

#: Endpoints limited on their reads alone (beside any limit of LIMITED on their POST):
#: reads opened by an account's key that cost many times a plain read, so that a key (or
#: wrong keys) read in a loop cannot take an API process's time from everyone else.
READ_LIMITED: dict[str, tuple[str, str]] = {
    "challenges.Challenges": ("RATE_LIMIT_CHALLENGE_READS", "challenge_reads"),
    "bot.BotEvents": ("RATE_LIMIT_BOT_STREAMS", "bot_streams"),
}

#: The scopes whose limits count every method (their reads, or a code's look-ups; an
#: account's blocks: listing, blocking and unblocking, one budget).
READS = ("tables", "lobby", "records", "match_records", "account_games", "own_account", "blocks")

#: What each scope is, for the message of a refusal.
_WHAT = {
    "create": _("creating games"),
    "lobby": _("reading the lobby"),
    "records": _("reading game records"),
    "match_records": _("reading matches' game records"),
    "account_games": _("reading accounts' games in play"),
    "own_account": _("reading the account of a key"),
    "tables": _("finding and joining tables"),
    "moves": _("bids and cards"),
    "ai": _("hints and AI moves"),
    "matches": _("matches"),
    "analyses": _("analyses of game records"),
    "accounts": _("making accounts"),
    "account_keys": _("replacing account keys"),
    "challenges": _("challenges"),
    "challenge_reads": _("reading your challenges"),
    "bot_streams": _("opening an account's event stream"),
    "blocks": _("reading and changing the accounts you block"),
}

_TOO_MANY = N_(
    "Too many requests for {what} from your address (at most {limit}); try again in "
    "{retry_after} s."
)
_TOO_MANY_WITH_KEY = N_(
    "Too many requests for {what} with your key (at most {limit}); try again in {retry_after} s."
)

#: A limit in words, by its window's unit: once a unit, and every so many units. The
#: limits library's own words ("60 per 1 minute") are English only.
_SPOKEN_LIMITS = {
    "second": (N_("{amount} a second"), N_("{amount} every {multiples} seconds")),
    "minute": (N_("{amount} a minute"), N_("{amount} every {multiples} minutes")),
    "hour": (N_("{amount} an hour"), N_("{amount} every {multiples} hours")),
    "day": (N_("{amount} a day"), N_("{amount} every {multiples} days")),
    "month": (N_("{amount} a month"), N_("{amount} every {multiples} months")),
    "year": (N_("{amount} a year"), N_("{amount} every {multiples} years")),
}


def spoken_limit(limit: str | RateLimitItem) -> Message:
    """A limit (`"60/minute"`, `"60 per 1 minute"` or the item) as a phrase to translate."""
    item = parse(limit) if isinstance(limit, str) else limit
    once, every = _SPOKEN_LIMITS[item.GRANULARITY.name]
    if item.multiples == 1:
        return _(once, amount=item.amount)
    return _(every, amount=item.amount, multiples=item.multiples)


#: The move endpoints, counted with the game's read (see the module's text): Pocha's bids
#: and cards, Poch's bets (and start cards) and suits.
MOVES = ("games.Bids", "games.Plays", "games.Bets", "games.Suits")
#: The endpoints limited per client, where a request may carry an integrator's key
#: (`service.api_keys`) to be limited per key instead.
KEYED = (*LIMITED, *MOVES, *(e for e in READ_LIMITED if e not in LIMITED))

EXTENSION = "pocha_limiter"


class MoveCounter(NamedTuple):
    """One request's count against one limit on moves, in its fixed window. A named tuple:
    every move makes one for each limit, and a frozen dataclass costs several times as
    much to make."""

    key: str
    ttl: int
    limit: int
    reset_at: float
    description: str
    #: Counted against an integrator's key rather than an address.
    keyed: bool = False

    def refused(self) -> RateLimited:
        retry_after = max(1, math.ceil(self.reset_at - time.time()))
        return RateLimited(
            _(
                _TOO_MANY_WITH_KEY if self.keyed else _TOO_MANY,
                what=_WHAT["moves"],
                limit=spoken_limit(self.description),
                retry_after=retry_after,
            ),
            retry_after,
        )


def move_counters(
    items: list[RateLimitItem], address: str, now: float, keyed: bool = False
) -> tuple[MoveCounter, ...]:
    """This request's counters: one per limit, keyed by address (or key) and window."""
    counters = []
    for item in items:
        window = item.get_expiry()
        index = int(now // window)
        counters.append(
            MoveCounter(
                key=move_limit_key(window, index, address),
                ttl=window,
                limit=item.amount,
                reset_at=(index + 1) * window,
                description=str(item),
                keyed=keyed,
            )
        )
    return tuple(counters)


def take_move_counters() -> tuple[MoveCounter, ...]:
    """The counters the current move is to take with its read (none if limits are off)."""
    counters: tuple[MoveCounter, ...] = g.pop("pocha_move_counters", ())
    return counters


def _count_moves(view: Callable[..., Any], items: list[RateLimitItem]) -> Callable[..., Any]:
    @functools.wraps(view)
    def counted(*args: Any, **kwargs: Any) -> Any:
        key = current_key()
        own = items if key is None or key.moves is None else _parsed(key.moves)
        counters = move_counters(own, payer_of(key), time.time(), keyed=key is not None)
        g.pocha_move_counters = counters
        try:
            return view(*args, **kwargs)
        finally:
            if g.pop("pocha_move_counters", None) is not None:
                # The view failed before reading the game: count the try all the same.
                with contextlib.suppress(*REDIS_DOWN):
                    game_service().store.count(counters)

    return counted


def spend_webhook_change(account_id: str) -> None:
    """Count a registering or resuming of bot `account_id`'s webhook, by its owner (after
    its key was checked, so no one else can spend its count): a webhook that fails is
    paused, and its owner cannot turn it back on fast enough to keep the workers' long lane
    busy with failing calls (`POCHA_RATE_LIMIT_WEBHOOKS`). Raises `RateLimited` past it."""
    limiter: Limiter | None = current_app.extensions.get(EXTENSION)
    if limiter is None:
        return
    key = f"account:{account_id}"
    for item in _parsed(str(current_app.config["RATE_LIMIT_WEBHOOKS"])):
        if limiter.limiter.hit(item, "webhook", key):
            continue
        reset_at = limiter.limiter.get_window_stats(item, "webhook", key).reset_time
        retry_after = max(1, math.ceil(reset_at - time.time()))
        raise RateLimited(
            _(
                "This bot's webhook was registered or resumed too often (at most {limit}); "
                "try again in {retry_after} s.",
                limit=spoken_limit(item),
                retry_after=retry_after,
            ),
            retry_after,
        )


class _RedisDownIsOneLine(logging.Filter):
    """flask-limiter logs a traceback for every request it cannot count; while Redis is
    away that would be one per request, so it becomes one warning line each."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, REDIS_DOWN):
            record.msg, record.args = (
                "rate limits skipped: Redis does not answer (%s)",
                (type(error).__name__,),
            )
            record.exc_info, record.exc_text = None, None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


_LIMITER_LOG = logging.getLogger("flask-limiter")
if not any(isinstance(f, _RedisDownIsOneLine) for f in _LIMITER_LOG.filters):
    _LIMITER_LOG.addFilter(_RedisDownIsOneLine())


def storage_uri(redis_url: str, clustered: bool = False) -> str:
    """The limits library's name for our REDIS_URL (it spells unix sockets and clusters
    its own way)."""
    if clustered:
        nodes = ",".join(f"{node.host}:{node.port}" for node in cluster_nodes(redis_url))
        return f"redis+cluster://{nodes}"
    if redis_url.startswith("unix://"):
        return "redis+unix://" + redis_url.removeprefix("unix://")
    return redis_url


def limits_on() -> bool:
    """Whether this app limits its clients (POCHA_RATE_LIMITS), so that caps per client
    address beyond the rates (the lobby's tables of one address) apply too."""
    return limits_on_in(current_app)


def limits_on_in(app: Flask) -> bool:
    """Whether `app` limits its clients (`install` has run with the limits on)."""
    return EXTENSION in app.extensions


def install(app: Flask, client: redis.Redis, settings: dict[str, Any]) -> Limiter | None:
    """Limit the endpoints of LIMITED on `app` (after its blueprints are registered)."""
    if not is_on(settings["RATE_LIMITS"]):
        return None
    settings_used = {
        "RATE_LIMIT_MOVES",
        *(setting for setting, _scope in LIMITED.values()),
        *(setting for setting, _whose in SEAT_LIMITED.values()),
        *(setting for setting, _scope in READ_LIMITED.values()),
        "RATE_LIMIT_WEBHOOKS",
    }
    for setting in sorted(settings_used):
        try:
            parse_many(str(settings[setting]))
        except ValueError as exc:
            raise ValueError(
                f"POCHA_{setting} is not a rate limit such as '20/minute;200/hour': "
                f"{settings[setting]!r}"
            ) from exc
    clustered = is_cluster(client)
    limiter = Limiter(
        limit_key,
        app=app,
        storage_uri=storage_uri(str(settings["REDIS_URL"]), clustered),
        # The app's pool: its timeouts, and no second set of connections per process (a
        # cluster's client keeps a pool per node: the limits library makes its own).
        storage_options={} if clustered else {"connection_pool": client.connection_pool},  # type: ignore[dict-item]
        strategy="fixed-window",
        key_prefix="pocha",
        swallow_errors=True,
        headers_enabled=False,
    )
    _only_decorated_limits(app, limiter)
    # Before flask-limiter's own check, so that a refusal remembered costs no round trip.
    app.extensions[REFUSALS] = Refusals(pause=float(settings["REFUSAL_PAUSE"]))
    app.before_request_funcs.setdefault(None, []).insert(0, _refuse_again)
    moves = parse_many(str(settings["RATE_LIMIT_MOVES"]))
    for endpoint in MOVES:
        app.view_functions[endpoint] = _count_moves(app.view_functions[endpoint], moves)
    for endpoint, (setting, scope) in LIMITED.items():
        view: Any = app.view_functions[endpoint]
        # A code is guessed by looking it up as much as by joining: both count; the lobby,
        # records, an account's games and the account of a key are reads.
        methods = None if scope in READS else ["POST"]
        limited: Any = limiter.shared_limit(
            _limit_of(scope, str(settings[setting])), scope=scope, methods=methods
        )
        app.view_functions[endpoint] = limited(view)
    for endpoint, (setting, scope) in READ_LIMITED.items():
        reads: Any = limiter.shared_limit(str(settings[setting]), scope=scope, methods=["GET"])
        app.view_functions[endpoint] = reads(app.view_functions[endpoint])
    for endpoint, (setting, _whose) in SEAT_LIMITED.items():
        # Shared: the seat's comings and goings count together, whichever endpoint (the
        # key tells the host's count from the seat's own).
        per_seat: Any = limiter.shared_limit(
            str(settings[setting]), scope="seat", key_func=_seat_key, methods=["POST"]
        )
        app.view_functions[endpoint] = per_seat(app.view_functions[endpoint])
    app.extensions[EXTENSION] = limiter
    app.register_error_handler(RateLimitExceeded, _rate_limited)
    return limiter


def _limit_of(scope: str, default: str) -> str | Callable[[], str]:
    """The limit of `scope`: the AI on demand's is the request's key's own when it has one."""
    if scope != "ai":
        return default

    def of_the_key() -> str:
        key = current_key()
        return default if key is None or key.ai is None else key.ai

    return of_the_key


@functools.lru_cache(maxsize=256)
def _parsed(limit: str) -> list[RateLimitItem]:
    """A key's limit, parsed once per process (it was checked when the key was made)."""
    return parse_many(limit)


def _seat_key() -> str:
    """The count of a seat-changing request: its game and seat, from the path, and whose
    changes (`SEAT_LIMITED`): the seat's own, or its host's."""
    args = request.view_args or {}
    whose = SEAT_LIMITED.get(request.endpoint or "", ("", "own"))[1]
    return f"{args.get('game_id', '')}:{args.get('seat', '')}:{whose}"


def _only_decorated_limits(app: Flask, limiter: Limiter) -> None:
    """Take flask-limiter's app-wide hooks off the app: the limits here are all decorated
    views' (`LIMITED`, `SEAT_LIMITED`), which check their own as they are called.

    Its before-request hook evaluates only application, default and meta limits, and its
    after-request and teardown hooks only add headers (off here), settle `deduct_when`
    limits (none) and clear a context that lives on the request's own. With none of those,
    they would only work out, at every request, that there is nothing to do: about a tenth
    of a view read's CPU. The hooks are found by identity, and the app fails to build if
    one is missing (a flask-limiter release that renames them) or if a limit they would
    evaluate is ever configured, instead of quietly checking nothing or twice."""
    manager = limiter.limit_manager
    if manager.application_limits or manager.default_limits or limiter._meta_limits:
        raise ValueError("flask-limiter's app-wide limits are not used here: decorate views")
    check = limiter._check_request_limit
    before = app.before_request_funcs.setdefault(None, [])
    before.remove(check)
    after = app.after_request_funcs.setdefault(None, [])
    # `partial(Limiter.__inject_headers, limiter)`
    headers = [h for h in after if isinstance(h, functools.partial) and h.args == (limiter,)]
    if len(headers) != 1:
        raise ValueError("flask-limiter's after-request hook was not found")
    after.remove(headers[0])
    teardown = app.teardown_request_funcs.setdefault(None, [])
    released = [hook for hook in teardown if getattr(hook, "__self__", None) is limiter]
    if len(released) != 1:
        raise ValueError("flask-limiter's teardown hook was not found")
    teardown.remove(released[0])


def _refused(scope: str | None, description: str, retry_after: int) -> Response:
    """The 429 of a request over the limit `description` (limits' words) of `scope`."""
    limit = spoken_limit(description)
    if scope == "seat":
        message = _(
            "Too many changes of this seat (at most {limit}); try again in {retry_after} s.",
            limit=limit,
            retry_after=retry_after,
        )

    else:
        what = _WHAT.get(scope or "", _("this"))
        template = _TOO_MANY if current_key() is None else _TOO_MANY_WITH_KEY
        message = _(template, what=what, limit=limit, retry_after=retry_after)
    return error_response(
        429,
        "rate_limited",
        message,
        headers={"Retry-After": str(retry_after)},
    )


def _rate_limited(exc: RateLimitExceeded) -> Response:
    limiter: Limiter = current_app.extensions[EXTENSION]
    retry_after = 1
    current = limiter.current_limit
    scope = getattr(exc.limit, "scope", None)
    scope = scope if isinstance(scope, str) else None
    if current is not None:
        # reset_at is a whole second, rounded up: never say more than the window itself.
        window = current.limit.get_expiry()
        retry_after = min(window, max(1, math.ceil(current.reset_at - time.time())))
        if scope is not None:
            refusals: Refusals = current_app.extensions[REFUSALS]
            until = min(current.reset_at, time.time() + window)
            refusals.note(scope, _key_of(scope), until, exc.description)
    return _refused(scope, exc.description, retry_after)


def _key_of(scope: str) -> str:
    """Whose count of `scope` a request counts against: its seat's, or its key's or
    address's."""
    return _seat_key() if scope == "seat" else limit_key()


class Refusals:
    """The limits this process has refused a client over, until their windows end.

    A client over a limit is refused again from memory, before flask-limiter's round trips
    to Redis (three for a refusal), so that a flood of requests over their limit costs the
    API little more than reading them. The count in Redis is already over its limit and
    would refuse until the same moment. Past `free` refusals from memory in a window, each
    further one is answered `pause` seconds late (a sleeping greenlet costs the API nothing):
    a client that sends again as soon as it is answered, ignoring Retry-After, then sends
    at most one request a `pause` per connection, however cheap each answer is. At most
    `most` are kept (the oldest go first)."""

    def __init__(self, most: int = 10_000, pause: float = 0.0, free: int = 10) -> None:
        self.most = most
        self.pause = pause
        self.free = free
        #: (scope, key) -> the end of its window, its limit, its refusals from memory.
        self._until: OrderedDict[tuple[str, str], tuple[float, str, int]] = OrderedDict()
        self._lock = threading.Lock()

    def note(self, scope: str, key: str, until: float, limit: str) -> None:
        with self._lock:
            self._until[scope, key] = (until, limit, 0)
            self._until.move_to_end((scope, key))
            while len(self._until) > self.most:
                self._until.popitem(last=False)

    def refused(self, scope: str, key: str, now: float) -> Refused | None:
        """How to refuse `key` again, while it is refused `scope`."""
        with self._lock:
            found = self._until.get((scope, key))
            if found is None:
                return None
            until, limit, times = found
            if until <= now:
                del self._until[scope, key]
                return None
            self._until[scope, key] = (until, limit, times + 1)
        pause = self.pause if times >= self.free else 0.0
        return Refused(max(1, math.ceil(until - now)), limit, pause)


@dataclass(frozen=True)
class Refused:
    """A refusal from memory: seconds until the window ends, the limit, and how long to
    wait before answering (`Refusals`)."""

    retry_after: int
    limit: str
    pause: float


#: Where an app keeps its `Refusals`, in `app.extensions`.
REFUSALS = "pocha_refusals"
#: Endpoint -> the scopes of the limits that apply to it, and the methods they count
#: (None: every method).
_SCOPES: dict[str, list[tuple[str, tuple[str, ...] | None]]] = {}
for _endpoint, (_setting, _scope) in LIMITED.items():
    _SCOPES.setdefault(_endpoint, []).append((_scope, None if _scope in READS else ("POST",)))
for _endpoint, (_setting, _scope) in READ_LIMITED.items():
    _SCOPES.setdefault(_endpoint, []).append((_scope, ("GET",)))
for _endpoint in SEAT_LIMITED:
    _SCOPES.setdefault(_endpoint, []).append(("seat", ("POST",)))


def _refuse_again() -> Response | None:
    """Answer at once a request over a limit this process refused it over already."""
    scopes = _SCOPES.get(request.endpoint or "")
    if not scopes:
        return None
    now = time.time()
    for scope, methods in scopes:
        if methods is not None and request.method not in methods:
            continue
        found = current_app.extensions[REFUSALS].refused(scope, _key_of(scope), now)
        if found is not None:
            if found.pause:
                time.sleep(found.pause)  # gevent's, in the API's workers: the greenlet waits
            return _refused(scope, found.limit, found.retry_after)
    return None
