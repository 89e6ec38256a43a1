"""The service's settings: defaults, overridden by the environment, overridden by the caller.

`load_config()` is what `create_app` and the CLI use, so a deployment is configured with
environment variables only (`REDIS_URL`, `POCHA_FINISHED_TTL`, ...) while tests pass a dict.
Every setting has a sane default for one machine, so `pocha serve` needs none of them.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

#: Setting name -> (environment variable, default). Integers are parsed from the environment.
SETTINGS: dict[str, tuple[str, Any]] = {
    # The store: one Redis, or a Redis Cluster as `redis+cluster://host:port,host:port`
    # (see core.store.redises).
    "REDIS_URL": ("REDIS_URL", "redis://127.0.0.1:6379/0"),
    # "on": REDIS_URL is one node of a Redis Cluster (same as the redis+cluster:// form).
    "REDIS_CLUSTER": ("POCHA_REDIS_CLUSTER", "off"),
    # RQ's queues and jobs, on a plain Redis; empty: REDIS_URL (which must then be one).
    # Several, separated by spaces: one per group of workers (see core.store.redises).
    "QUEUE_REDIS_URL": ("POCHA_QUEUE_REDIS_URL", ""),
    # Which of those queue Redises a worker serves, from 0.
    "QUEUE_GROUP": ("POCHA_QUEUE_GROUP", 0),
    # A move is answered only once this many replicas of its game's Redis have it (Redis
    # WAIT), so a failover cannot lose a move a player saw accepted; 0: answered at once.
    "WAIT_REPLICAS": ("POCHA_WAIT_REPLICAS", 0),
    # How long a move waits for those replicas (milliseconds) before it is answered 503
    # `not_replicated` (written, but not known to survive a failover).
    "WAIT_TIMEOUT_MS": ("POCHA_WAIT_TIMEOUT_MS", 500),
    # A finished game stays readable (view, events, history) this long after its last move.
    "FINISHED_TTL": ("POCHA_FINISHED_TTL", 24 * 3600),
    # An unfinished game nobody touches is forgotten after this long; every move refreshes it.
    "IDLE_TTL": ("POCHA_IDLE_TTL", 7 * 24 * 3600),
    # Request bodies are tiny JSON objects; anything bigger is refused with 413 unread.
    "MAX_CONTENT_LENGTH": ("POCHA_MAX_BODY", 16 * 1024),
    # A request's body must have arrived whole this many seconds after its head (0: no
    # deadline), or it is answered 408 body_too_slow and its connection closed: a client
    # trickling a body would otherwise hold its connection for ever (see
    # service.gunicorn_worker; under gunicorn only).
    "BODY_SECONDS": ("POCHA_BODY_SECONDS", 10),
    # How bots get their turns: "rq" (jobs for `pocha worker` processes) or "inline" (in the
    # request that hands them the turn: for tests and benchmarks of the API alone).
    "BOT_RUNNER": ("POCHA_BOT_RUNNER", "rq"),
    # An event stream ends after this long; EventSource reconnects with Last-Event-ID.
    "SSE_MAX_SECONDS": ("POCHA_SSE_MAX_SECONDS", 55),
    # A comment line is sent this often on an idle stream so proxies keep it open.
    "SSE_KEEPALIVE_SECONDS": ("POCHA_SSE_KEEPALIVE_SECONDS", 15),
    # Event streams one client address may hold open at once, across every API process
    # (0: no cap); one more is refused with 429 too_many_streams.
    "MAX_STREAMS_PER_ADDRESS": ("POCHA_MAX_STREAMS_PER_ADDRESS", 32),
    # Connections one client address may hold open to one API process (0: no cap), counted
    # by gunicorn's worker before any request is read; one more is answered 429
    # too_many_connections and closed. Applies only with TRUSTED_PROXIES 0: behind a proxy
    # every connection comes from the proxy, which should cap them itself.
    "MAX_CONNECTIONS_PER_ADDRESS": ("POCHA_MAX_CONNECTIONS_PER_ADDRESS", 128),
    # GET /api/v1/jobs/{id}?wait=S long-polls at most this long (seconds).
    "JOB_WAIT_MAX": ("POCHA_JOB_WAIT_MAX", 30),
    # A match plays at most this many games, and thinks for at most this many CPU hours
    # (estimated from its bots' budgets before anything is queued).
    "MATCH_MAX_GAMES": ("POCHA_MATCH_MAX_GAMES", 1000),
    "MATCH_MAX_CPU_HOURS": ("POCHA_MATCH_MAX_CPU_HOURS", 24),
    # Redis socket timeouts (seconds): a dead Redis becomes a 503 quickly, not a hang.
    "REDIS_CONNECT_TIMEOUT": ("POCHA_REDIS_CONNECT_TIMEOUT", 2),
    "REDIS_SOCKET_TIMEOUT": ("POCHA_REDIS_SOCKET_TIMEOUT", 5),
    # Log records at this level and above are written (API and workers)...
    "LOG_LEVEL": ("POCHA_LOG_LEVEL", "info"),
    # ...as JSON lines ("json"), or one human line each ("text", pocha serve at a terminal).
    "LOG_FORMAT": ("POCHA_LOG_FORMAT", "json"),
    # One JSON line per request (method, route, status, time, request id): "on" or "off".
    "REQUEST_LOG": ("POCHA_REQUEST_LOG", "on"),
    # A listed table leaves the lobby once none of its people has been seen for this many
    # seconds (its host closed the page); it comes back when one of them returns.
    "LOBBY_AWAY_SECONDS": ("POCHA_LOBBY_AWAY_SECONDS", 180),
    # Rate limits per client address ("on" or "off"), kept in the same Redis, each a
    # flask-limiter string such as "20/minute;200/hour" (see service.ratelimits).
    "RATE_LIMITS": ("POCHA_RATE_LIMITS", "on"),
    "RATE_LIMIT_CREATE": ("POCHA_RATE_LIMIT_CREATE", "20/minute;200/hour"),
    # Looking a table up by its code and taking a seat: what a code guesser would spend.
    "RATE_LIMIT_TABLES": ("POCHA_RATE_LIMIT_TABLES", "30/minute;300/hour"),
    # The lobby: a page reads it every 5 s; a flood of it would be served from the cache,
    # but each read still costs the API a request.
    "RATE_LIMIT_LOBBY": ("POCHA_RATE_LIMIT_LOBBY", "60/minute"),
    "RATE_LIMIT_MOVES": ("POCHA_RATE_LIMIT_MOVES", "300/minute"),
    # A finished game's record is played again from its seed on each read (milliseconds of
    # an API process's CPU), so its reads are counted like the lobby's.
    "RATE_LIMIT_RECORDS": ("POCHA_RATE_LIMIT_RECORDS", "30/minute"),
    # A match's records are read whole from Redis and sent in one answer: a thousand games
    # make some 2 MB and a fifth of a second of an API process's CPU each time, so a
    # client reading them in a loop would slow every other request.
    "RATE_LIMIT_MATCH_RECORDS": ("POCHA_RATE_LIMIT_MATCH_RECORDS", "10/minute"),
    # An account's list of its games in play reads up to 50 games (milliseconds each time).
    "RATE_LIMIT_ACCOUNT_GAMES": ("POCHA_RATE_LIMIT_ACCOUNT_GAMES", "60/minute"),
    # The account a key opens: a key looked up each time, wrong ones too, so no address
    # tries keys faster than this (a bot asks once as it starts).
    "RATE_LIMIT_OWN_ACCOUNT": ("POCHA_RATE_LIMIT_OWN_ACCOUNT", "60/minute"),
    "RATE_LIMIT_ANALYSES": ("POCHA_RATE_LIMIT_ANALYSES", "10/minute"),
    # Coming back, leaving and the host's removals, per seat of a game, from any address;
    # only requests with the seat's (or, to remove, the host's) token count.
    "RATE_LIMIT_SEATS": ("POCHA_RATE_LIMIT_SEATS", "10/minute"),
    # Registering or resuming a bot's webhook, per bot account.
    "RATE_LIMIT_WEBHOOKS": ("POCHA_RATE_LIMIT_WEBHOOKS", "6/hour"),
    "RATE_LIMIT_AI": ("POCHA_RATE_LIMIT_AI", "30/minute"),
    "RATE_LIMIT_MATCHES": ("POCHA_RATE_LIMIT_MATCHES", "3/hour;10/day"),
    # Making accounts, per client address: a flood of sign-ups from one address is refused.
    "RATE_LIMIT_ACCOUNTS": ("POCHA_RATE_LIMIT_ACCOUNTS", "5/hour;20/day"),
    # Accounts not in use are forgotten, name and all (core.store.accounts.forget_idle):
    # those with no rating in any game, not disabled, not kept by the operator and not one of
    # our levels, whose key has not been used nor a seat given them for this many days (0:
    # never).
    "ACCOUNT_IDLE_DAYS": ("POCHA_ACCOUNT_IDLE_DAYS", 180),
    # The most accounts the store holds (0: no cap): past it, sign-up is refused with 503
    # accounts_full until the idle ones are forgotten or the operator raises it.
    "MAX_ACCOUNTS": ("POCHA_MAX_ACCOUNTS", 100_000),
    # Replacing an account's key, per client address: each is a write to the accounts'
    # Redis, so none can be flooded with them.
    "RATE_LIMIT_ACCOUNT_KEYS": ("POCHA_RATE_LIMIT_ACCOUNT_KEYS", "5/hour;20/day"),
    # Rated games that one pair of accounts counts toward each other's ratings in any
    # rolling window of RATED_PAIR_SECONDS (0: no cap): past it, their results against each
    # other move neither rating, so accounts made to lose to one another farm nothing. With
    # one of our levels only the level's side is capped: everyone's games against a level
    # count for them, but no account moves the level's more often (core.store.ratings.Limits).
    "RATED_PAIR_GAMES": ("POCHA_RATED_PAIR_GAMES", 3),
    "RATED_PAIR_SECONDS": ("POCHA_RATED_PAIR_SECONDS", 24 * 3600),
    # An account is provisional on the ladder until its rated games counted against this
    # many distinct opponents (our levels among them; 0: never provisional).
    "RATED_PROVISIONAL_OPPONENTS": ("POCHA_RATED_PROVISIONAL_OPPONENTS", 5),
    # Making challenges, per client address (beside the caps on open ones per account).
    "RATE_LIMIT_CHALLENGES": ("POCHA_RATE_LIMIT_CHALLENGES", "20/minute;200/hour"),
    # Reads of one's challenges (GET /api/v1/challenges: every challenge the account made
    # or received within the hour, some hundreds) and connections of an account's event
    # stream (each first reads its games and challenges), per client address or key.
    "RATE_LIMIT_CHALLENGE_READS": ("POCHA_RATE_LIMIT_CHALLENGE_READS", "30/minute"),
    "RATE_LIMIT_BOT_STREAMS": ("POCHA_RATE_LIMIT_BOT_STREAMS", "30/minute"),
    # Listing, blocking and unblocking the accounts an account blocks (one budget), per
    # client address or key: a block walks the blocked account's challenges to the blocker,
    # and a list reads the name of every account blocked (up to 1000).
    "RATE_LIMIT_BLOCKS": ("POCHA_RATE_LIMIT_BLOCKS", "30/minute;300/hour"),
    # An open challenge expires this many seconds after it was made (at most 3600).
    "CHALLENGE_SECONDS": ("POCHA_CHALLENGE_SECONDS", 300),
    # A client refused over a limit more than a few times in its window gets each further
    # 429 this many seconds late: a flood that ignores Retry-After waits on the API's
    # answers instead of spending its cores (0: answer at once).
    "REFUSAL_PAUSE": ("POCHA_REFUSAL_PAUSE", 0.5),
    # Hints and AI moves are let in by the thinking they order (core.jobs.admission): with the
    # rate limits on, each client address may order this many seconds of thinking a minute,
    # hints and AI moves together...
    "THINK_BUDGET": ("POCHA_THINK_BUDGET", 30),
    # ...and, always, none is queued when the thinking already queued for them would keep it
    # waiting longer than this many seconds for a worker (503 busy).
    "THINK_WAIT_MAX": ("POCHA_THINK_WAIT_MAX", 30),
    # How many proxies in front of the API add X-Forwarded-For (0: none, trust no header).
    "TRUSTED_PROXIES": ("POCHA_TRUSTED_PROXIES", 0),
    # The limits per client address count an IPv6 client by its network of this many bits
    # (its subscriber's whole /64, whose addresses it may pick at will; 128: each address
    # apart), see core.network.client_of.
    "IPV6_PREFIX": ("POCHA_IPV6_PREFIX", 64),
    # Browser origins allowed to call the API from other sites, comma-separated, or "*";
    # empty: none (the page at / is same-origin and needs no CORS).
    "CORS_ORIGINS": ("POCHA_CORS_ORIGINS", ""),
    # Outside bots' webhooks (core.play.webhooks). "on": a webhook may resolve to a private,
    # loopback, link-local or reserved address (tests, a bot on the same network).
    "BOT_ALLOW_PRIVATE": ("POCHA_BOT_ALLOW_PRIVATE", "off"),
    # The whole of one webhook call, connecting to the last byte of its answer (ms; at most
    # 5000, so that a bot turn's job holding the call ends within its timeout).
    "BOT_WEBHOOK_MS": ("POCHA_BOT_WEBHOOK_MS", 2000),
    # The most of an answer read; a longer one is a failure, never read whole.
    "BOT_WEBHOOK_MAX_BYTES": ("POCHA_BOT_WEBHOOK_MAX_BYTES", 64 * 1024),
    # A webhook bot that fails this many decisions in a row is paused until its owner
    # resumes it: the stand-in plays its seats meanwhile.
    "BOT_PAUSE_AFTER": ("POCHA_BOT_PAUSE_AFTER", 5),
    # A worker runs bot turns in its own process; once it holds more resident memory than
    # this many megabytes after a job, it starts afresh as a new process (0: no limit).
    "WORKER_MAX_MEMORY_MB": ("POCHA_WORKER_MAX_MEMORY_MB", 1024),
}


def is_on(value: object) -> bool:
    """An on/off setting as given in the environment ("on", "1", "true", "yes") or a bool."""
    if isinstance(value, bool):
        return value
    return str(value).strip().lower() in ("on", "1", "true", "yes")


def load_config(
    overrides: Mapping[str, Any] | None = None, environ: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """Defaults, then the environment, then `overrides` (which may add Flask settings too)."""
    env = os.environ if environ is None else environ
    config: dict[str, Any] = {}
    for name, (variable, default) in SETTINGS.items():
        raw = env.get(variable)
        if raw is None or raw == "":
            config[name] = default
        elif isinstance(default, int):
            try:
                config[name] = int(raw)
            except ValueError as exc:
                raise ValueError(f"{variable} must be an integer, not {raw!r}") from exc
        else:
            config[name] = raw
    config.update(overrides or {})
    return config
