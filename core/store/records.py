"""The records the store reads and writes, as plain frozen values: a game as stored
(`StoredGame`) with its seats and table, a new game with its secrets, a move's result and the
task a move owes; and how tokens and client addresses are hashed before they are kept.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from ai.bot import thinking_seconds
from ai.registry import levels_of
from core.store.account_seats import Standing
from engine.registry import KINDS, AnyGame, kind_of

#: The most seats a game of any kind has: one presence field each.
MAX_SEATS = max(kind.max_players for kind in KINDS.values())


def seen_field(seat: int) -> str:
    """The game hash's field holding when `seat` was last seen (a Unix time)."""
    return f"seen:{seat}"


#: The game hash's fields a read takes (the score sheet, `history`, is asked for apart):
#: the cards, the seats and table, the version, the event count, the turn's deadline and
#: when each seat was last seen.
GAME_FIELDS = (
    "state",
    "meta",
    "version",
    "events",
    "clock",
    *(seen_field(seat) for seat in range(MAX_SEATS)),
)


def hash_token(token: str) -> str:
    """What is stored instead of a token: its SHA-256, hex. Tokens carry 256 random bits,
    so a fast hash is enough; a stolen database holds no usable token."""
    return hashlib.sha256(token.encode()).hexdigest()


def client_hash(address: str) -> str:
    """How a seat remembers the client address that took it: a hash, so no address is
    kept in the clear."""
    return hashlib.sha256(f"pocha-client:{address}".encode()).hexdigest()[:24]


def token_matches(token: str, stored_hash: str | None) -> bool:
    return stored_hash is not None and hmac.compare_digest(hash_token(token), stored_hash)


#: How many stand-in turns in a row make a person `away` (the stand-in then plays at once).
AWAY_AFTER_MISSES = 2


@dataclass(frozen=True)
class Seat:
    """Who sits in a seat: a person (with a token hash) or a bot (with its level).

    At a table people gather at, a seat may be `open` (nobody has taken it yet: no name, no
    token) and, once taken, `reserved` for nobody; a rematch's seats are `reserved` for the
    people of the game before, who take them back with their old token. In play, a
    person's seat counts the turns in a row the clock ran out on (`misses`), is `away` after
    `AWAY_AFTER_MISSES` of them and `left` when the person gave it up: in both, the table's
    stand-in bot plays its turns at once."""

    name: str
    bot: str | None = None
    token_hash: str | None = None
    open: bool = False
    away: bool = False
    left: bool = False
    misses: int = 0
    #: For a rematch's open seat: the hash of the token of whoever sat here before.
    reserved: str | None = None
    #: Who took the seat, as `client_hash` of their address (with the rate limits on), so
    #: that a stranger from the lobby takes one seat per table. Never shown.
    client: str | None = None
    #: The account playing this seat (`core.store.accounts`), if one took it.
    account: str | None = None
    #: Taken by a bot account with a webhook: the workers ask it for each turn (no clock),
    #: and the stand-in plays when it fails or is paused (`core.play.webhooks`).
    webhook: bool = False
    #: The hash of the key the account was seated with (`core.store.accounts.hash_key`), or
    #: of the key it got since, once the seat's token was made anew for it: set, the
    #: account's key opens the seat as its bearer token does, so an account plays every
    #: game it sits in with its one key (its key now, looked up: `seat_of_token`). A seat
    #: whose hash is not the account's key's now holds a token handed out under a key
    #: replaced since (`core.play.tables.TableService.drop_seat_tokens`).
    key_hash: str | None = None
    #: Taken by a bot account: its timed turns are counted on its page
    #: (`core.store.account_turns`); a person's are not.
    bot_account: bool = False

    @property
    def person(self) -> bool:
        """A person's seat (taken or still open), not a bot's."""
        return self.bot is None

    @property
    def holder(self) -> str | None:
        """The account holding this seat as a person's seat (taken, not a bot level's): the
        account whose games in play `core.store.account_seats` keeps."""
        return self.account if self.bot is None and not self.open else None

    @property
    def stood_in(self) -> bool:
        """Whether the stand-in plays this seat's turns at once."""
        return self.bot is None and (self.away or self.left)

    def after_turn(self, by_stand_in: bool) -> Seat:
        """A person's seat after one of its turns. The stand-in playing it because the
        clock ran out is a miss, and `AWAY_AFTER_MISSES` in a row make the person away;
        their own move ends both (`back`). A seat the stand-in already plays is left as it is."""
        if by_stand_in and not self.stood_in:
            misses = self.misses + 1
            return replace(self, misses=misses, away=misses >= AWAY_AFTER_MISSES)
        if not by_stand_in and (self.misses or self.away):
            return self.back()
        return self

    def back(self) -> Seat:
        """The seat of a person who is back: no misses, not away."""
        return replace(self, misses=0, away=False)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"name": self.name, "bot": self.bot, "token_hash": self.token_hash}
        # Only what differs from a plain seat: most games never have any of these.
        for key in ("open", "away", "left"):
            if getattr(self, key):
                d[key] = True
        if self.misses:
            d["misses"] = self.misses
        if self.reserved:
            d["reserved"] = self.reserved
        if self.client:
            d["client"] = self.client
        if self.account:
            d["account"] = self.account
        if self.webhook:
            d["webhook"] = True
        if self.key_hash:
            d["key_hash"] = self.key_hash
        if self.bot_account:
            d["bot_account"] = True
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        return cls(
            data["name"],
            data.get("bot"),
            data.get("token_hash"),
            bool(data.get("open", False)),
            bool(data.get("away", False)),
            bool(data.get("left", False)),
            int(data.get("misses", 0)),
            data.get("reserved"),
            data.get("client"),
            data.get("account"),
            bool(data.get("webhook", False)),
            data.get("key_hash"),
            bool(data.get("bot_account", False)),
        )


@dataclass(frozen=True)
class Table:
    """What a game people gather at has beside its seats: the code that finds it, whether
    the lobby lists it, whether it still waits for people, the level of the stand-in bot
    that plays for a person whose clock runs out, and the table that follows it (a
    rematch), once someone asks for one. It also counts the seats people have taken and
    given up so far (`changes`, bounded per table: `core.play.tables.max_changes`) and keeps
    the clients its host removed."""

    code: str | None
    listed: bool = False
    waiting: bool = False
    stand_in: str = "medium"
    rematch: str | None = None
    changes: int = 0
    #: The `Seat.client` of each person the host removed: they may not sit here again.
    removed: tuple[str, ...] = ()
    #: Its result changes its players' ratings (`core.store.ratings`): every seat is an
    #: account's or a bot level's.
    rated: bool = False
    #: The match game it is (`match_id:index`, `core.jobs.matches`): the match reads its
    #: result, and every account's turn is timed, even where one account sits alone.
    match: str | None = None
    #: The account that made the table (with its key), seated or not: an account it
    #: blocks takes no seat here (`core.play.tables`). Never shown.
    maker: str | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "code": self.code,
            "listed": self.listed,
            "waiting": self.waiting,
            "stand_in": self.stand_in,
            "rematch": self.rematch,
        }
        if self.changes:
            d["changes"] = self.changes
        if self.removed:
            d["removed"] = list(self.removed)
        if self.rated:
            d["rated"] = True
        if self.match:
            d["match"] = self.match
        if self.maker:
            d["maker"] = self.maker
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Table:
        return cls(
            data.get("code"),
            bool(data.get("listed", False)),
            bool(data.get("waiting", False)),
            str(data.get("stand_in", "medium")),
            data.get("rematch"),
            int(data.get("changes", 0)),
            tuple(data.get("removed", ())),
            bool(data.get("rated", False)),
            data.get("match"),
            data.get("maker"),
        )


def with_seat(seats: tuple[Seat, ...], index: int, seat: Seat) -> tuple[Seat, ...]:
    """`seats` with `seat` in place of the one at `index`."""
    return (*seats[:index], seat, *seats[index + 1 :])


#: A level thinks long when a decision of its may take more than this (seconds, by
#: `ai.bot.thinking_seconds`): `expert` and up, not `hard` (0.03 s on a slow machine).
LONG_THINKING = 0.05

#: A table for games made without one (every person's seat given at creation).
NO_TABLE = Table(None)


@dataclass
class StoredGame:
    """A game as read from Redis: the engine's game plus what the service keeps beside it."""

    id: str
    version: int
    # How many events the game has had: the `seq` of the latest one.
    events: int
    game: AnyGame
    seats: tuple[Seat, ...]
    host_token_hash: str
    created: float
    #: The creator chose the seed: anyone who knows it can deal every hand, so every view
    #: says so (a practice table, not a fair game among people).
    seeded: bool = False
    table: Table = NO_TABLE
    #: Whose think budget the game's bots and stand-in spend (`client_hash` of the address
    #: that made it, with the rate limits on; None: nobody's, as for matches and tools).
    payer: str | None = None
    #: When the clock of the seat to act runs out (a Unix time), if a clock runs.
    deadline: float | None = None
    #: When each seat was last seen (a Unix time; 0 for never), as last read.
    seen: tuple[float, ...] = ()

    @property
    def finished(self) -> bool:
        return self.game.finished

    @property
    def waiting(self) -> bool:
        """Whether the game still waits for people to take its open seats."""
        return self.table.waiting

    @property
    def bot_to_move(self) -> int | None:
        """The seat whose turn a bot must play now, if any: a bot's, or a person's the
        stand-in plays for (away or left). None while the table waits, and while every
        person of a game of people is away or has left: nobody is there to play for, so
        the game waits for one of them to come back (or expires) rather than have its
        bots and stand-ins play it out at the workers' cost. A match's game is played out:
        the match waits for it; so is a rated game, whose result counts only once it ends
        (else walking away from a game one is losing would keep the loss off the ladder)."""
        turn = self.game.turn
        if turn is None or self.table.waiting:
            return None
        seat = self.seats[turn]
        if seat.bot is None and not seat.stood_in and not seat.webhook:
            return None
        people = [s for s in self.seats if s.bot is None and not s.webhook]
        if (
            people
            and all(s.stood_in for s in people)
            and self.table.match is None
            and not self.table.rated
        ):
            return None
        return turn

    @property
    def thinks_long(self) -> bool:
        """Whether a bot of the game, or its stand-in where people sit, may think longer
        than `LONG_THINKING` a decision: its turns then take the long lane of the turns
        queue (`core.jobs.queues.LONG_LANE`). So does a game with a webhook bot seated: its
        call may wait its whole deadline, which no quick game's turn should wait behind."""
        # One pass over the seats: every timed move asks (its clock's lane).
        names: set[str] = set()
        person = False
        for seat in self.seats:
            if seat.webhook:
                return True
            if seat.bot is None:
                person = True
            else:
                names.add(seat.bot)
        if person:
            names.add(self.table.stand_in)
        levels = levels_of(kind_of(self.game))
        return any(
            name in levels and thinking_seconds(levels[name].budget) > LONG_THINKING
            for name in names
        )

    @property
    def people(self) -> int:
        """How many seats are people's (taken or open)."""
        return sum(1 for seat in self.seats if seat.person)

    @property
    def clock_runs(self) -> bool:
        """Whether people's turns are timed: a `turn_seconds` and two people or more, or
        a match's game (its outside bots must not hold the match up)."""
        return self.game.rules.turn_seconds > 0 and (
            self.people >= 2 or self.table.match is not None
        )

    def clock_due(self, now: float) -> float | None:
        """When the turn of the seat to act runs out, if it is a person's timed turn."""
        turn = self.game.turn
        if turn is None or self.table.waiting or not self.clock_runs:
            return None
        if self.seats[turn].bot is not None or self.seats[turn].stood_in:
            return None
        if self.seats[turn].webhook:
            return None
        return now + self.game.rules.turn_seconds

    def seat_of_token(self, token: str, holder: str | None = None) -> int | None:
        """The seat this token opens, if any (every seat is compared, in constant time).
        An account's key opens the seat its account took with a key: `holder` is the
        account the token opens now, as the caller looked it up (None: it opens none), so
        that a replaced key opens no seat and the account's new key opens them all."""
        digest = hash_token(token)
        found = None
        for seat, info in enumerate(self.seats):
            if info.token_hash is not None and hmac.compare_digest(digest, info.token_hash):
                found = seat
            if holder is not None and info.key_hash and info.account == holder:
                found = seat
        return found

    def reserved_seat_of(self, token: str) -> int | None:
        """The open seat of a rematch kept for the holder of this (old) token, if any."""
        digest = hash_token(token)
        found = None
        for seat, info in enumerate(self.seats):
            if info.reserved is not None and hmac.compare_digest(digest, info.reserved):
                found = seat
        return found

    def is_host_token(self, token: str) -> bool:
        return token_matches(token, self.host_token_hash)


@dataclass(frozen=True)
class CreatedGame:
    """A new game and its secrets, which exist in clear only in this object."""

    record: StoredGame
    host_token: str
    # The token of each seat, None for bots.
    seat_tokens: tuple[str | None, ...]
    #: The standing of each account seated, read just after its seat was noted
    #: (`core.store.account_seats.note`).
    standing: dict[str, Standing] = field(default_factory=dict)


@dataclass(frozen=True)
class OwedTask:
    """Work to register in the same write as a move: a hash made unless it exists (a bot
    turn's task and its recipe) and a member of a sorted set at a score (when a watchdog
    should look at it). So a move that hands a bot its turn cannot be written without the
    record that the turn is owed, whatever happens right after the write."""

    hash_key: str
    fields: dict[str, str]
    ttl: int
    #: The task's key: its member in the due set (`core.store.keys.due_key`, chosen by the store).
    member: str
    score: float


class OwedTaskMaker(Protocol):
    """Makes the task a change owes (the bot runner's `owed_turn`), given the game's id, its
    new version and, when a person's clock runs, its deadline: with None, a bot (or a
    stand-in) must act at once; with a time, the stand-in acts then unless the person does
    first. `payer`: the game's maker; `long`: its bots think long (`StoredGame.thinks_long`)."""

    def __call__(
        self, game_id: str, version: int, deadline: float | None, payer: str | None,
        long: bool = False,
    ) -> OwedTask | None: ...  # fmt: skip


@dataclass(frozen=True)
class AppliedAction:
    """The game after a move, and the events the move caused (with their `seq`)."""

    record: StoredGame
    events: list[dict[str, Any]]
    #: For a change of seats, the standing of each account it seated (`CreatedGame`).
    standing: dict[str, Standing] = field(default_factory=dict)
