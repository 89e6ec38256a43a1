"""Every Redis key and channel name the service writes, in one place.
How it works: docs/internals.md, `core.store.keys`.
"""

from __future__ import annotations

import binascii
import functools
import hashlib
import itertools
import secrets
import string

PREFIX = "pocha"


# -- games ------------------------------------------------------------------------------

_ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def is_game_id(game_id: str) -> bool:
    """Whether `game_id` has the shape of our ids (URL-safe base64 letters, at most 64):
    only such a string is ever looked up, logged or echoed back to a client."""
    return 0 < len(game_id) <= 64 and all(ch in _ID_CHARS for ch in game_id)


def game_key(game_id: str) -> str:
    """Hash of a stored game: its state, history, seats, version and event count."""
    return f"{PREFIX}:game:{{{game_id}}}"


def events_key(game_id: str) -> str:
    """List of a game's public events, in order (`seq` is the position, 1-based)."""
    return f"{PREFIX}:game:{{{game_id}}}:events"


def advice_key(game_id: str) -> str:
    """List of what our bots thought at each of their decisions in a game (JSON, one per
    decision, in order): read only once the game is over, as it shows the bot's hand."""
    return f"{PREFIX}:game:{{{game_id}}}:advice"


def changes_channel(game_id: str) -> str:
    """Pub/sub channel announcing each new version (or `deleted`) of a game."""
    return f"{PREFIX}:game:{{{game_id}}}:changed"


#: The pattern every game's change channel matches (for a listener to all games).
CHANGES_PATTERN = f"{PREFIX}:game:*:changed"


def game_of_channel(channel: str) -> str:
    """The id of the game whose `changes_channel` this is."""
    return channel.split(":")[2].strip("{}")


def move_once_key(game_id: str, seat: int, idempotency_key: str) -> str:
    """String recording that the seat's move sent with an Idempotency-Key was taken: `pending`
    while it is being applied, then the version it made, each followed by a space and the
    fingerprint of the move (`core.play.games.move_fingerprint`). The client's key is
    hashed, so any key of any length costs the same and cannot reach into our name space."""
    digest = hashlib.sha256(idempotency_key.encode()).hexdigest()[:32]
    return f"{PREFIX}:game:{{{game_id}}}:once:{seat}:{digest}"


# -- tables people gather at (core.play.tables) ----------------------------------------------

#: Sorted set of the ids of the listed games still waiting for people, scored by when each
#: was made: the lobby. One key (one slot on a cluster): it holds only tables still
#: waiting, and is written once when a listed table opens and once when it starts.
LOBBY = f"{PREFIX}:lobby"


def listed_by_key(holder: str) -> str:
    """Sorted set of the ids of the listed tables one client address made, scored by when:
    how many of them the lobby may show at once is capped (`core.play.tables`). The address is
    hashed, so any address costs the same key."""
    digest = hashlib.sha256(holder.encode()).hexdigest()[:32]
    return f"{PREFIX}:listed-by:{digest}"


def table_key(code: str) -> str:
    """String: the id of the game a table code finds."""
    return f"{PREFIX}:table:{code}"


# -- tasks: work that must get done (core.jobs.tasks) ----------------------------------------

#: Sorted set of task keys, scored by when the watchdog next looks at each (one Redis).
TASKS_DUE = f"{PREFIX}:tasks"
#: Held (with an expiry) by the one worker sweeping the overdue tasks.
SWEEP_LOCK = f"{PREFIX}:tasks:sweeping"

#: Redis Cluster's hash slots.
SLOTS = 16384
#: Game and match ids are drawn so that their hash slot is a multiple of this: their keys
#: spread over SLOTS / SLOT_STEP = 256 slots, so a watchdog's round reads 256 due sets,
#: not 16384. A cluster's primaries share those 256 slots' games evenly up to a few dozen
#: primaries (each slot holds 1/256 of the games).
SLOT_STEP = 64


def task_key(key: str) -> str:
    """Hash of one task: its current job, its recipe and its recovery count. A task's key
    carries the hash tag of what it works on (`turn:{game}:3`), so the task lives in the
    slot of its game or match."""
    return f"{PREFIX}:task:{key}"


def hash_slot(key: str) -> int:
    """Redis Cluster's hash slot of `key`: CRC16 of its hash tag (the first non-empty
    `{...}`), or of the whole key."""
    raw = key.encode()
    start = raw.find(b"{")
    if start >= 0:
        end = raw.find(b"}", start + 1)
        if end > start + 1:
            raw = raw[start + 1 : end]
    return binascii.crc_hqx(raw, 0) % SLOTS


@functools.cache
def _slot_tags() -> tuple[str, ...]:
    """For each hash slot, a short tag of letters and digits in it (three characters
    cover all 16384): about a third of a second, once per process, on a cluster only."""
    found: list[str | None] = [None] * SLOTS
    missing = SLOTS
    letters = (string.ascii_letters + string.digits).encode()
    for length in (1, 2, 3):
        for chars in itertools.product(letters, repeat=length):
            tag = bytes(chars)
            slot = binascii.crc_hqx(tag, 0) % SLOTS
            if found[slot] is None:
                found[slot] = tag.decode()
                missing -= 1
                if not missing:
                    return tuple(t for t in found if t is not None)
    raise AssertionError("some hash slot has no tag of three letters or digits")


def queue_group(task: str, groups: int) -> int:
    """Which of `groups` queue Redises (and groups of workers) does `task`: by the hash
    slot of its game or match, so a game's turns all go to one group."""
    return (hash_slot(task_key(task)) // SLOT_STEP) % groups


def due_key(task: str, clustered: bool, groups: int = 1) -> str:
    """The sorted set listing `task` among the due tasks: on a cluster, the set of the
    task's own hash slot, so that the move owing the task can write both in one script;
    on one Redis `TASKS_DUE`, or with several queue groups one set per group."""
    if clustered:
        return f"{TASKS_DUE}:{{{_slot_tags()[hash_slot(task_key(task))]}}}"
    if groups > 1:
        return f"{TASKS_DUE}:{queue_group(task, groups)}"
    return TASKS_DUE


def due_keys(clustered: bool, groups: int = 1, group: int = 0) -> list[str]:
    """The sorted sets of due tasks of queue group `group`: its watchdog's round (on a
    cluster, the spread slots that fall in the group)."""
    if clustered:
        tags = _slot_tags()
        return [
            f"{TASKS_DUE}:{{{tags[slot]}}}"
            for slot in range(0, SLOTS, SLOT_STEP)
            if (slot // SLOT_STEP) % groups == group
        ]
    if groups > 1:
        return [f"{TASKS_DUE}:{group}"]
    return [TASKS_DUE]


def sweep_lock(groups: int, group: int) -> str:
    """Held by the one worker of queue group `group` sweeping its overdue tasks."""
    return SWEEP_LOCK if groups == 1 else f"{SWEEP_LOCK}:{group}"


def new_id() -> str:
    """A new game or match id: 16 URL-safe characters, random but for their hash slot,
    which is one of the spread slots (`SLOT_STEP`), and a first character that is no `-`
    (a command line would read it as an option): about 90 random bits."""
    while True:
        candidate = secrets.token_urlsafe(12)
        if candidate[0] != "-" and binascii.crc_hqx(candidate.encode(), 0) % SLOT_STEP == 0:
            return candidate


def plain_id(nbytes: int = 12) -> str:
    """A random URL-safe id of `nbytes` random bytes whose first character is no `-` (a
    command line would read it as an option)."""
    while True:
        candidate = secrets.token_urlsafe(nbytes)
        if candidate[0] != "-":
            return candidate


# -- bot-vs-bot matches (core.jobs.matches) --------------------------------------------------


def table_making_key(game_id: str) -> str:
    """Held by the one try making a match game's table `game_id` (`core.jobs.matches`)."""
    return f"{PREFIX}:game:{{{game_id}}}:making"


def match_key(match_id: str) -> str:
    """Hash of a match: its spec, counts of games done and failed, cached statistics."""
    return f"{PREFIX}:match:{{{match_id}}}"


def records_key(match_id: str) -> str:
    """List of the records of a match's finished games."""
    return f"{PREFIX}:match:{{{match_id}}}:records"


def ended_key(match_id: str) -> str:
    """Set of the indexes of a match's games that were counted as ended."""
    return f"{PREFIX}:match:{{{match_id}}}:ended"


def checkpoint_key(match_id: str, index: int) -> str:
    """Hash of a match game between two slices: its step and saved state."""
    return f"{PREFIX}:match:{{{match_id}}}:game:{index}"


# -- figures -----------------------------------------------------------------------------

#: Set of the bot think-time histograms that exist (core.play.bot_metrics).
THINK_STATS = f"{PREFIX}:stats:think"


def think_key(kind: str, level: str) -> str:
    """Hash of one think-time histogram: `count`, `sum` (seconds), `moves` (bot moves
    applied) and `b<i>`, the decisions that fell in bucket i (one increment each)."""
    return f"{THINK_STATS}:{kind}:{level}"


def move_limit_key(window: int, index: int, address: str) -> str:
    """Counter of one client address's moves in one window of one move rate limit (the
    address is the hash tag: one address's counters are taken in one script)."""
    return f"{PREFIX}:limit:moves:{window}:{index}:{{{address}}}"


# -- the AI on demand (core.jobs.admission) --------------------------------------------------


def think_limit_key(address: str) -> str:
    """When one client address's spending of its think budget will have drained (a Unix
    time, as text)."""
    return f"{PREFIX}:limit:think:{address}"


#: Sorted set of the hint and AI-move jobs waiting in their queue, scored by when RQ drops
#: each one unstarted.
ADVICE_QUEUED = f"{PREFIX}:advice:queued"
#: Hash of the same jobs' estimated thinking (seconds).
ADVICE_QUEUED_SECONDS = f"{PREFIX}:advice:queued:seconds"
#: Hash of the same jobs' lanes of `pocha-high` (their payers').
ADVICE_QUEUED_LANES = f"{PREFIX}:advice:queued:lanes"


# -- the keys of server-side integrators (core.store.api_keys) -------------------------------

#: Hash of the keys' records (JSON) by the SHA-256 of each key. It and the next share one
#: hash tag, so that making or revoking a key writes both in one script on a cluster.
API_KEYS = f"{PREFIX}:api-keys:{{api-keys}}"
#: Hash of the same keys' hashes by name.
API_KEY_NAMES = f"{PREFIX}:api-keys:{{api-keys}}:names"


# -- event streams (service.events) ---------------------------------------------------


def stream_slots_key(address: str) -> str:
    """Sorted set of the event streams one client address holds open (a random member
    each), scored by when each lapses should its process die without giving it back."""
    return f"{PREFIX}:streams:{address}"


# -- accounts and their ratings (core.store.accounts, core.store.ratings) ---------------------
# Every key shares the hash tag {accounts}: a rating's update touches several accounts and
# the ladders in one transaction, which a cluster allows only within one slot.

_ACCOUNTS = f"{PREFIX}:{{accounts}}"
#: Hash: the SHA-256 of an account's key -> the account's id.
ACCOUNT_KEYS = f"{_ACCOUNTS}:keys"
#: Hash: a name's skeleton (`core.store.accounts.skeleton`) -> the id of the account holding it.
ACCOUNT_NAMES = f"{_ACCOUNTS}:names"
#: Sorted set of every account's id, scored by when it was made.
ACCOUNTS_MADE = f"{_ACCOUNTS}:made"
#: Integer: where in `ACCOUNTS_MADE` (a rank) the next step of the idle accounts' sweep
#: starts (`core.store.accounts.forget_idle`), so that a restarted worker goes on from there.
ACCOUNTS_SWEPT_TO = f"{_ACCOUNTS}:swept-to"
#: Held, with an expiry, by the worker that took the latest step of that sweep: the workers
#: take one step a minute between them, however many they are.
ACCOUNTS_SWEEP_DUE = f"{_ACCOUNTS}:sweep-due"
#: Sorted set of the rated games not yet counted, scored by when each was made, or last
#: found still in play by the workers' sweep (`core.store.ratings.count_unrated`).
UNRATED = f"{_ACCOUNTS}:unrated"


def account_key(account_id: str) -> str:
    """Hash of one account: name, kind, when made and last seen, disabled, kept (from the
    idle sweep), its key's hash. Every other key named by an account's id is listed in
    `core.store.accounts.account_keys`, which the idle sweep deletes with it."""
    return f"{_ACCOUNTS}:account:{account_id}"


def account_turns_key(account_id: str) -> str:
    """Hash of the timed turns a bot account played with its key: three counters, no TTL
    (`core.store.account_turns`)."""
    return f"{_ACCOUNTS}:turns:{account_id}"


def webhook_key(account_id: str) -> str:
    """Hash of a bot account's webhook: its URL, signing secret, paused flag and the count
    of its calls (`core.store.webhooks`)."""
    return f"{_ACCOUNTS}:webhook:{account_id}"


def ratings_key(game: str) -> str:
    """Hash: account id -> its rating in `game` (JSON: mu, sigma, games, when, bids, exact
    bids, the distinct opponents it met while provisional)."""
    return f"{_ACCOUNTS}:ratings:{game}"


def ladder_key(game: str, kind: str) -> str:
    """Sorted set of the ids of the accounts of `kind` rated in `game`, scored by their
    displayed rating."""
    return f"{_ACCOUNTS}:ladder:{game}:{kind}"


def rating_history_key(game: str, account_id: str) -> str:
    """List of an account's ratings in `game` after each rated game, newest first (bounded)."""
    return f"{_ACCOUNTS}:history:{game}:{account_id}"


def rated_key(game_id: str) -> str:
    """String set once a rated game's result has changed its players' ratings."""
    return f"{_ACCOUNTS}:rated:{game_id}"


def rated_pair_key(game: str, first: str, second: str) -> str:
    """Sorted set of the rated games in `game` that counted between two accounts (either
    order names one pair), scored by when each was counted: pruned to the cap's window
    on each write and expiring with it (`core.store.ratings.Limits`)."""
    low, high = sorted((first, second))
    return f"{_ACCOUNTS}:pair:{game}:{low}:{high}"


# -- an account's games and challenges (core.store.bot_games, core.store.challenges) ----------
# Under the accounts' hash tag too: a challenge's accept touches the challenge and the
# sets of every account it names in one script.


def account_games_key(account_id: str) -> str:
    """Sorted set of the ids of the games an account sits in (with its key, not by
    webhook), scored by when it sat down: what its event stream follows."""
    return f"{_ACCOUNTS}:games:{account_id}"


def account_seats_key(account_id: str) -> str:
    """Sorted set of the ids of the games not finished in which an account holds a seat
    (with its key or by webhook), scored by when it sat down: what disabling it walks
    (`core.store.account_seats`). Without a TTL, as the account itself: a game leaves it
    when it ends or is deleted, and it keeps the newest `MOST_SEATS` at most."""
    return f"{_ACCOUNTS}:seats:{account_id}"


def account_records_key(account_id: str) -> str:
    """Sorted set of the records naming an account, beside its games in play: the games
    that seat it or whose table it made, in play or finished (`game:ID`), and its matches
    (`match:ID`), scored by when each expires at the latest as last noted, dropped once past
    it (`core.store.account_records`)."""
    return f"{_ACCOUNTS}:records:{account_id}"


#: Hash: the id of an account forgotten whose records still name it -> its name then, until
#: the sweep has taken it out of them (`core.store.account_records.scrub_step`).
FORGOTTEN = f"{_ACCOUNTS}:forgotten"


def forgotten_records_key(account_id: str) -> str:
    """Sorted set of the records (as in `account_records_key`) and games in play that still
    name a forgotten account, for the sweep to take it out of (`FORGOTTEN`); it expires by
    itself should the sweep never come to it."""
    return f"{_ACCOUNTS}:forgotten:{account_id}"


def account_challenges_key(account_id: str) -> str:
    """Sorted set of the ids of the challenges an account made or received, scored by
    when each is forgotten; it expires with the last of them."""
    return f"{_ACCOUNTS}:challenges:{account_id}"


def challenges_made_key(account_id: str) -> str:
    """Sorted set of the ids of the open challenges an account made, scored by when each
    expires (and expiring with the last): how many it may have open is capped."""
    return f"{_ACCOUNTS}:challenges-made:{account_id}"


def challenges_received_key(account_id: str) -> str:
    """Sorted set of the ids of the open challenges to an account, scored by when each
    expires (and expiring with the last): how many may wait for it is capped (no one
    floods an account)."""
    return f"{_ACCOUNTS}:challenges-received:{account_id}"


def challenges_lately_key(account_id: str, what: str) -> str:
    """Sorted set of the ids of the challenges remembered (until an hour after each ends)
    that count against one of an account's caps on them (`core.store.challenges`), scored
    by when each is forgotten and expiring with the last: those it `made`, those it
    `received` from others, and, one set per challenger and per client address, those it
    received from that one (`what` is then `from:` and a hash of it, so any challenger or
    address costs the same key)."""
    return f"{_ACCOUNTS}:challenges-lately:{account_id}:{what}"


def account_blocks_key(account_id: str) -> str:
    """Sorted set of the ids of the accounts an account blocks (their challenges to it are
    refused), scored by when each was blocked (`core.store.blocks`). Without a TTL, as the
    account itself: it holds `MOST_BLOCKS` at most and goes with the account when it is
    forgotten."""
    return f"{_ACCOUNTS}:blocks:{account_id}"


def challenge_key(challenge_id: str) -> str:
    """Hash of one challenge: who made it, whom it names, the game and rules, its status."""
    return f"{_ACCOUNTS}:challenge:{challenge_id}"


def account_channel(account_id: str) -> str:
    """Pub/sub channel telling an account's event stream that its games or challenges
    changed (or that another stream of the account replaced it)."""
    return f"{PREFIX}:account:{{{account_id}}}:changed"


def account_stream_key(account_id: str) -> str:
    """String: the random id of the one event stream an account holds (with a lease)."""
    return f"{_ACCOUNTS}:stream:{account_id}"
