"""Tables people gather at: codes, the lobby, joining, starting, coming and going, rematch.
How it works: docs/internals.md, `core.play.tables`.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import redis

from ai.registry import BOT_KINDS, levels_of
from core.errors import (
    AccountDisabled,
    AccountRequired,
    Conflict,
    Forbidden,
    GameNotFound,
    InvalidInput,
    NameTaken,
    OneSeatEach,
    OneSeatPerAccount,
    RemovedByHost,
    SeatedAlready,
    SeatRefused,
    TableCodeTaken,
    TableFull,
    TableNotFound,
    TokenMissing,
    TooManyChanges,
    TooManyTables,
    Unauthorized,
    UnknownAccount,
    WrongState,
)
from core.play.bots import BotRunner
from core.store import account_seats, blocks, webhooks
from core.store.account_seats import Standing
from core.store.accounts import KEY_PREFIX as ACCOUNT_KEY_PREFIX
from core.store.accounts import Account, NewKey, hash_key, set_disabled, skeleton
from core.store.accounts import find as find_account
from core.store.accounts import get as get_account
from core.store.accounts import replace_key as replace_account_key
from core.store.bot_games import note_game
from core.store.records import (
    NO_TABLE,
    AppliedAction,
    CreatedGame,
    Seat,
    StoredGame,
    Table,
    hash_token,
    with_seat,
)
from core.store.store import GameStore
from engine.i18n import _
from engine.registry import kind_of

log = logging.getLogger(__name__)

#: The letters of table codes: digits and capitals without 0, 1, I and O (32 of them).
CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
#: 8 letters of 5 bits each: 40 bits.
CODE_LENGTH = 8
#: A person is present while seen this recently (seconds). A page in the foreground asks
#: for the game at least every 20 s; a stream is seen again at each keepalive.
PRESENCE_SECONDS = 45.0
#: A listed table leaves the lobby once none of its people has been seen this long
#: (seconds; the setting LOBBY_AWAY_SECONDS): a page at a table is seen every 15 s or so.
LOBBY_AWAY_SECONDS = 180.0
#: Told to whoever takes a seat at a table whose host chose the seed (such a table is never
#: listed: `GameService.create`).
SEEDED_WARNING = _(
    "The host chose this table's seed: whoever knows it can rebuild every hand dealt here, "
    "yours too. Play on only if you trust the host."
)
#: The most of one client address's tables the lobby shows at once (a flood of junk tables
#: from one address would otherwise fill it).
MAX_LISTED_TABLES = 3
#: The most tables the lobby lists at once (newest first).
LOBBY_SIZE = 50
#: How long a process serves the lobby it read last (seconds).
LOBBY_SECONDS = 1.0
#: The stand-in's level when the creator names none.
DEFAULT_STAND_IN = "medium"
#: The events people cause at will while a table waits (taking a seat, giving it up, the
#: host removing someone): each counts against the table's bound (`max_changes`). The
#: others come once per seat or game (leaving in play, starting) or are paced by the clock
#: (away and back).
CHURN_EVENTS = frozenset({"seat_taken", "seat_opened"})
#: Seat changes a table allows per seat, in all, before it refuses more.
CHANGES_PER_SEAT = 8


def key_holder(connection: redis.Redis, token: str | None, moving: bool = False) -> str | None:
    """The account a bearer token opens, when it is an account's key (`pa_...`): what
    finds the account's seats (`StoredGame.seat_of_token`). None for any other token and for
    a key that opens no account (replaced, or never made). `moving`: the key is to move,
    which a disabled account's key may not (`AccountDisabled`)."""
    if token is None or not token.startswith(ACCOUNT_KEY_PREFIX):
        return None
    account = find_account(connection, token)
    if account is None:
        return None
    if moving and account.disabled:
        raise AccountDisabled()
    return account.id


def seat_for(
    record: StoredGame, token: str | None, *, required: bool, holder: str | None = None
) -> int | None:
    """The seat a bearer token opens (`holder`: the account it opens, if it is an
    account's key: `key_holder`); None for no token (a spectator) unless `required`. A
    token that opens nothing is refused, never silently downgraded."""
    if token is None:
        if required:
            raise TokenMissing(_("Send your seat's token: Authorization: Bearer <token>."))
        return None
    seat = record.seat_of_token(token, holder)
    if seat is None:
        if record.is_host_token(token):
            if required:
                raise Forbidden(_("The host token cannot bid or play: use the token of your seat."))
            return None
        if holder is None and token.startswith(ACCOUNT_KEY_PREFIX):
            # A key replaced (or never made) is refused as the accounts' endpoints refuse it.
            raise UnknownAccount()
        if holder is not None:
            raise Unauthorized(_("Your account holds no seat in this game."))
        raise Unauthorized(_("This token does not belong to a seat of this game."))
    return seat


def _face(name: str) -> str:
    """What a name looks like to people (the accounts' `skeleton`), or, for a name of
    signs alone that the skeleton drops (`...`), the name itself, case folded."""
    return skeleton(name) or name.casefold()


def looks_like(name: str, seats: Sequence[Seat], skip: int | None = None) -> str | None:
    """The name of a seat among `seats` (but `skip`) that `name` looks like, or None: two
    names alike once letters of other alphabets that look like Latin ones, case, accents
    and spacing are set aside (as accounts' names are told apart), so that nobody at a table
    passes for someone else there. An open seat has no name."""
    face = _face(name)
    for i, seat in enumerate(seats):
        if i != skip and seat.name and _face(seat.name) == face:
            return seat.name
    return None


def bot_name(level: str, seat: int, seats: Sequence[Seat]) -> str:
    """The name the service gives a bot of `level` it seats in `seat`: its level and seat
    number ("Medium 2"), unless that looks like the name of another seat among `seats` (a
    person may have taken it): then with a number after it, "Medium 2 (2)"."""
    base = name = f"{level.capitalize()} {seat + 1}"
    count = 1
    while looks_like(name, seats, skip=seat) is not None:
        count += 1
        name = f"{base} ({count})"
    return name


def max_changes(record: StoredGame) -> int:
    """How many seats people may take and give up at this table, in all."""
    return CHANGES_PER_SEAT * len(record.seats)


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _letter in range(CODE_LENGTH))


def parse_code(text: str) -> str | None:
    """A table code as people type it (any case, with spaces or dashes), or None when it
    cannot be one."""
    code = "".join(ch for ch in text.upper() if ch not in " -")
    if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
        return None
    return code


def shown_code(code: str) -> str:
    """The code as people read it: two groups of four (ABCD-EFGH)."""
    return f"{code[:4]}-{code[4:]}"


def is_present(record: StoredGame, seat: int, now: float) -> bool:
    """Whether the seat's player is here at `now`: a bot always; a person seen lately
    (never one who left, however lately seen: their page may ask on until it closes)."""
    info = record.seats[seat]
    seen = record.seen[seat] if seat < len(record.seen) else 0.0
    return info.bot is not None or (
        not info.open and not info.left and now - seen < PRESENCE_SECONDS
    )


def seat_info(record: StoredGame, seat: int, now: float) -> dict[str, Any]:
    """What everyone sees of a seat: who sits there, and whether they are here
    (`is_present`)."""
    info = record.seats[seat]
    shown = {
        "seat": seat,
        "name": info.name,
        "bot": info.bot,
        "open": info.open,
        "present": is_present(record, seat, now),
        "away": info.away,
        "left": info.left,
        # The level playing for the person now, if the stand-in does.
        "stand_in": record.table.stand_in if info.stood_in else None,
    }
    if info.account is not None:
        shown["account"] = info.account
    return shown


def seat_view(record: StoredGame, seat: int | None, now: float | None = None) -> dict[str, Any]:
    """What `seat` (None: a spectator) sees of the game at `now` (default: now): the
    document `GET /api/v1/games/{id}` answers that seat (before the service adds the
    table's link and translates), and the body a webhook bot in that seat is sent.

    Besides the seat, it depends on nothing but the stored game at its version and, through
    `now`, on who is present (`is_present`) and the clock's `seconds_left`: every other
    write of a game makes a new version (`view_validator` relies on this)."""
    view = kind_of(record.game).view(record.game, seat, record.waiting)
    now = time.time() if now is None else now
    view["id"] = record.id
    view["version"] = record.version
    view["last_event"] = record.events
    view["seeded"] = record.seeded
    view["players"] = [seat_info(record, i, now) for i in range(len(record.seats))]
    view["table"] = table_of(record, shows_code=seat is not None)
    deadline = record.deadline
    view["deadline"] = deadline
    view["seconds_left"] = None if deadline is None else round(max(0.0, deadline - now), 1)
    return view


def table_of(record: StoredGame, shows_code: bool) -> dict[str, Any] | None:
    """The table part of a view (None for a game of one person, made without a table);
    the code only to those who may see it (a seat, or anyone for a listed table)."""
    table = record.table
    if table is NO_TABLE:
        return None
    shown = {
        "code": code_shown(record, shows_code),
        "listed": table.listed,
        "waiting": table.waiting,
        "stand_in_level": table.stand_in,
        "rematch": table.rematch,
        "open_seats": sum(1 for s in record.seats if s.open),
    }
    if table.rated:
        shown["rated"] = True
    return shown


def code_shown(record: StoredGame, shows_code: bool) -> str | None:
    """The table's code as a view shows it (`table_of`), or None."""
    table = record.table
    if table is NO_TABLE or not table.code or not (shows_code or table.listed):
        return None
    return shown_code(table.code)


def view_validator(record: StoredGame, seat: int | None, now: float) -> tuple[str, bool]:
    """What `seat_view(record, seat, now)` depends on, as a short text that two views
    differing in anything but `seconds_left` never share: the version, the seat, and who
    is present. And whether a clock runs: then the view's `seconds_left` moves on with
    time while the text stays (a figure the view's `deadline` gives again), so an entity
    tag made from the text is a weak one. Cheap: no view is built.

    Nothing here depends on the seat's cards, and nothing that seat could not see."""
    present = "".join("1" if is_present(record, i, now) else "0" for i in range(len(record.seats)))
    who = "-" if seat is None else str(seat)
    return f"{record.version}:{who}:{present}", record.deadline is not None


def last_seen(record: StoredGame) -> float:
    """When one of the table's people was last here (a Unix time): the latest request or
    stream of a seat taken by a person, or the table's making (its host made it then)."""
    seen = [
        record.seen[i]
        for i, s in enumerate(record.seats)
        if i < len(record.seen) and s.bot is None and not s.open
    ]
    return max([record.created, *seen])


def lobby_entry(record: StoredGame, now: float) -> dict[str, Any]:
    """A waiting table as the lobby and a code's lookup show it: never a token."""
    return {
        "code": shown_code(record.table.code or ""),
        "game_id": record.id,
        "players": [seat_info(record, i, now) for i in range(len(record.seats))],
        "open_seats": sum(1 for s in record.seats if s.open and s.reserved is None),
        "game": kind_of(record.game).name,
        "rules": record.game.rules.to_dict(),
        "created": record.created,
        "waiting": record.waiting,
        "seeded": record.seeded,
    }


def accounts_at(record: StoredGame) -> frozenset[str]:
    """The accounts a block keeps a table apart from (`TableService._kept_apart`): its
    maker and every account holding a seat."""
    there = {s.holder for s in record.seats if s.holder is not None}
    if record.table.maker is not None:
        there.add(record.table.maker)
    return frozenset(there)


class TableService:
    """The tables' side of the game service: each change is a compare-and-set on the
    game's version, tried again on a lost race (a race only for seats or the table, never
    for a move)."""

    #: Tries of one change when other changes keep landing first.
    TRIES = 12

    def __init__(
        self, store: GameStore, bots: BotRunner, lobby_away_seconds: float = LOBBY_AWAY_SECONDS
    ) -> None:
        self.store = store
        self.bots = bots
        self.lobby_away_seconds = lobby_away_seconds
        self._lobby: tuple[float, list[dict[str, Any]]] = (0.0, [])
        # The accounts at each table of the lobby last read, by game id (`accounts_at`).
        self._lobby_accounts: dict[str, frozenset[str]] = {}
        # The lobby as last rendered for the wire, beside the entries it was rendered from.
        self._lobby_page: tuple[list[dict[str, Any]] | None, bytes] = (None, b"")
        self._lobby_lock = threading.Lock()

    # -- making a table --------------------------------------------------------------------

    def create_table(
        self, make: Callable[[Table], CreatedGame], table: Table, holder: str | None = None
    ) -> CreatedGame:
        """Make a game with `make` at a table with a fresh code (drawn again on the rare
        clash with a table that holds it). A listed table counts against client `holder`:
        the lobby shows at most `MAX_LISTED_TABLES` of one client's at once."""
        if table.listed and holder is not None:
            now = time.time()
            shown = [
                r
                for r in self.store.listed_by(holder)
                if now - last_seen(r) < self.lobby_away_seconds
            ]
            if len(shown) >= MAX_LISTED_TABLES:
                raise TooManyTables(MAX_LISTED_TABLES)
        for _draw in range(5):
            try:
                made = make(replace(table, code=new_code()))
            except TableCodeTaken:
                continue
            if table.listed and holder is not None:
                self.store.note_listed(holder, made.record.id)
            self._lobby = (0.0, [])
            return made
        raise RuntimeError("no free table code after 5 draws")  # 2**40 codes: never

    # -- finding tables --------------------------------------------------------------------

    def game_id_of(self, text: str) -> str:
        code = parse_code(text)
        game_id = None if code is None else self.store.game_of_table(code)
        if game_id is None:
            raise TableNotFound()
        return game_id

    def find(self, text: str, now: float) -> dict[str, Any]:
        """The table a code finds, as the lobby shows it."""
        try:
            record = self.store.load(self.game_id_of(text), history=False)
        except GameNotFound as exc:
            raise TableNotFound() from exc
        return lobby_entry(record, now)

    def lobby(self, now: float) -> list[dict[str, Any]]:
        """The lobby as it was at most `LOBBY_SECONDS` ago: each process reads it from Redis
        once per that time, however many ask (it is the one table request anyone may send
        without a limit of its own), and again after it changed a table itself. Tables
        whose people have all been away `lobby_away_seconds` are left out."""

        def someone_here(record: StoredGame) -> bool:
            return now - last_seen(record) < self.lobby_away_seconds

        with self._lobby_lock:
            made, entries = self._lobby
            if now - made >= LOBBY_SECONDS or now < made:
                found = self.store.lobby(LOBBY_SIZE, keep=someone_here)
                entries = [lobby_entry(r, now) for r in found]
                self._lobby = (now, entries)
                self._lobby_accounts = {r.id: accounts_at(r) for r in found}
            return entries

    def lobby_for(self, now: float, account_id: str) -> list[dict[str, Any]]:
        """The lobby (`lobby`) as account `account_id` sees it: without the tables where
        an account blocks it or it blocks one, whose seat would be refused (`_kept_apart`).
        Either way round the table just is not there: nothing tells who blocks whom. One
        round trip, for every table at once."""
        entries = self.lobby(now)
        with self._lobby_lock:
            there = self._lobby_accounts
        others = {a for e in entries for a in there.get(e["game_id"], ())} - {account_id}
        pairs = [(a, account_id) for a in others] + [(account_id, a) for a in others]
        found = blocks.blocking(self.store.redis, pairs)
        apart = {a for pair in found for a in pair} - {account_id}
        return [e for e in entries if apart.isdisjoint(there.get(e["game_id"], ()))]

    def lobby_page(self, now: float, render: Callable[[list[dict[str, Any]]], bytes]) -> bytes:
        """The lobby (`lobby`) as `render` makes it into a response body: rendered once per
        read of the lobby, however many ask meanwhile, since rendering costs far more than
        sending."""
        entries = self.lobby(now)
        with self._lobby_lock:
            rendered_from, body = self._lobby_page
            if rendered_from is not entries:
                body = render(entries)
                self._lobby_page = (entries, body)
            return body

    # -- joining ---------------------------------------------------------------------------

    def join(
        self, text: str, name: str, client: str | None = None, account: Account | None = None
    ) -> tuple[StoredGame, int, str]:
        """Take the first open seat of the table `text` names: the game, the seat and its
        token. `TableFull` when none is left (taken, or the game started). With the
        `client` (`store.client_hash` of the caller's address, given when the rate limits
        are on), someone the host removed may not sit again, and at a listed table a client
        takes one seat: the lobby's strangers cannot squat its seats, while the host of an
        unlisted table, whose code only the host hands out, may seat a household behind one
        address. With an `account`, the account takes the seat, under its own name, once a
        table (its key opens one seat): the seat a rematch keeps for it, else the first
        open one; a rated table seats accounts only."""
        game_id = self.game_id_of(text)
        token = secrets.token_urlsafe(32)
        shown = name if account is None else account.name
        # A bot account with a webhook is asked for its turns by the workers, not timed.
        hooked = (
            account is not None
            and account.kind == "bot"
            and webhooks.get(self.store.redis, account.id) is not None
        )

        def take(record: StoredGame) -> tuple[tuple[Seat, ...], Table, list[dict[str, Any]], int]:
            # Said first, whatever else holds: the account's key opens the seat it has.
            if account is not None and any(s.holder == account.id for s in record.seats):
                if record.table.rated:
                    raise OneSeatPerAccount.of_account(account.name)
                raise SeatedAlready()
            if not record.waiting:
                raise TableFull(_("The game at this table has started: no seat is left."))
            if client is not None:
                if client in record.table.removed:
                    raise RemovedByHost()
                if record.table.listed and any(
                    s.client == client and not s.open for s in record.seats
                ):
                    raise OneSeatEach()
            free = [i for i, s in enumerate(record.seats) if s.open and s.reserved is None]
            # A rematch keeps the account's seat for it: its key takes that one.
            kept = [i for i, s in enumerate(record.seats) if s.open and s.reserved and
                    account is not None and s.account == account.id]  # fmt: skip
            if not (kept or free):
                raise TableFull(_("Every seat at this table is taken."))
            if record.table.rated and account is None:
                raise AccountRequired()
            if account is not None:
                self._kept_apart(record, account.id)
            seat = (kept or free)[0]
            if not kept:
                # (A rematch's seat is kept for someone under the name they had there.)
                like = looks_like(shown, record.seats)
                if like is not None:
                    raise NameTaken.at_table(shown, like, account is not None)
            taken = replace(
                record.seats[seat], name=shown, open=False, token_hash=hash_token(token),
                client=client, account=None if account is None else account.id,
                webhook=hooked, key_hash=None if account is None else account.key_hash or None,
                bot_account=account is not None and account.kind == "bot",
            )  # fmt: skip
            return self._seated(
                record, seat, taken, {"type": "seat_taken", "seat": seat, "name": shown}
            )

        record, seat = self._retry(game_id, take, seated_by=None if account is None else account.id)
        self.store.touch(record, seat)
        if account is not None and not hooked:
            note_game(self.store.redis, account.id, record.id)
        return record, seat, token

    def _kept_apart(self, record: StoredGame, account_id: str) -> None:
        """Refuse the account a seat at this table when an account there blocks it, or it
        blocks one there (`SeatRefused`): there is the table's maker and every account
        holding a seat (not one whose seat a rematch only keeps: of two who block each
        other, the first back sits). Read on the very version the seat is then written
        under (compare-and-set), so two such accounts racing for seats at one table never
        both sit; a block written meanwhile is ordered before or after the seat, and
        blocking takes nobody out of a seat. Nothing is read for a table without another
        account."""
        there = set(accounts_at(record)) - {account_id}
        if not there:
            return
        pairs = [(a, account_id) for a in there] + [(account_id, a) for a in there]
        found = blocks.blocking(self.store.redis, pairs)
        if found:
            raise SeatRefused.at_table(blocker=all(b == account_id for b, _a in found))

    def _seated(
        self, record: StoredGame, seat: int, taken: Seat, event: dict[str, Any]
    ) -> tuple[tuple[Seat, ...], Table, list[dict[str, Any]], int]:
        """Seats and table with `taken` in `seat`, starting the game if it was the last
        open seat."""
        seats = with_seat(record.seats, seat, taken)
        events: list[dict[str, Any]] = [event]
        table = record.table
        if not any(s.open for s in seats):
            table = replace(table, waiting=False)
            events.append({"type": "game_started"})
        return seats, table, events, seat

    def _retry(
        self,
        game_id: str,
        change: Callable[[StoredGame], tuple[tuple[Seat, ...], Table, list[dict[str, Any]], int]],
        keep_clock: bool = False,
        seated_by: str | None = None,
        by_key: bool = True,
    ) -> tuple[StoredGame, int]:
        """Read the game, decide the change, write it if the game is still at the version
        read; again on a lost race. Hands a bot the turn if the change leaves one to act.
        A change that seats an account is settled (`settle`): `seated_by`, the account the
        request seats (`by_key`: with its key, else with a seat's token), is refused if it
        was disabled or its key replaced at the same moment."""
        for _try in range(self.TRIES):
            record = self.store.load(game_id, history=False)
            seats, table, events, seat = change(record)
            churn = sum(1 for e in events if e["type"] in CHURN_EVENTS)
            if churn:
                if table.changes + churn > max_changes(record):
                    raise TooManyChanges()
                table = replace(table, changes=table.changes + churn)
            try:
                applied = self.store.change_table(
                    record, seats, table, events, owed_task=self.bots.owed_turn,
                    keep_clock=keep_clock,
                )  # fmt: skip
            except Conflict:
                continue
            self._lobby = (0.0, [])  # this process shows its own changes at once
            if applied.standing:
                self.settle(applied.record, applied.standing, seated_by, by_key)
            return self._handed_on(applied), seat
        raise Conflict(_("Too many changes to this table at once; try again in a moment."))

    def _handed_on(self, applied: AppliedAction) -> StoredGame:
        record = applied.record
        if record.bot_to_move is not None:
            self.bots.game_changed(record.id, record.version, record.payer, record.thinks_long)
            if self.bots.plays_inline:
                record = self.store.load(record.id, history=False)
        return record

    # -- the host ---------------------------------------------------------------------------

    def _host(self, record: StoredGame, token: str | None) -> None:
        if token is None:
            raise Unauthorized(_("Send the host token: Authorization: Bearer <host_token>."))
        if not record.is_host_token(token):
            raise Forbidden(_("Only the host of this table can do this."))

    def start(self, game_id: str, token: str | None, level: str) -> StoredGame:
        """The host starts the game now, with bots of `level` in the seats left open."""
        _check_level(level)

        def begin(record: StoredGame) -> tuple[tuple[Seat, ...], Table, list[dict[str, Any]], int]:
            self._host(record, token)
            _check_level(level, record)
            if not record.waiting:
                raise WrongState(_("The game has started already."))
            if record.table.rated:
                _one_seat_per_level(record, level, sum(1 for s in record.seats if s.open))
            seats = list(record.seats)
            events: list[dict[str, Any]] = []
            for i, s in enumerate(seats):
                if s.open:
                    seats[i] = Seat(bot_name(level, i, seats), level)
                    events.append({"type": "seat_bot", "seat": i, "bot": level})
            events.append({"type": "game_started"})
            return tuple(seats), replace(record.table, waiting=False), events, -1

        return self._retry(game_id, begin)[0]

    def seat_to_bot(self, game_id: str, token: str | None, seat: int, level: str) -> StoredGame:
        """The host puts a bot of `level` in a seat still open (the game starts if it was
        the last one)."""
        _check_level(level)

        def fill(record: StoredGame) -> tuple[tuple[Seat, ...], Table, list[dict[str, Any]], int]:
            self._host(record, token)
            _check_level(level, record)
            if not record.waiting:
                raise WrongState(_("The game has started: its seats are settled."))
            if not 0 <= seat < len(record.seats) or not record.seats[seat].open:
                raise WrongState(_("Seat {seat} is not an open seat.", seat=seat))
            if record.table.rated:
                _one_seat_per_level(record, level, 1)
            bot = Seat(bot_name(level, seat, record.seats), level)
            return self._seated(record, seat, bot, {"type": "seat_bot", "seat": seat, "bot": level})

        return self._retry(game_id, fill)[0]

    def remove(self, game_id: str, token: str | None, seat: int) -> StoredGame:
        """The host removes the person in `seat` before the start: the seat opens again,
        their token no longer opens it, and the client that took it may not sit here
        again."""

        def clear(record: StoredGame) -> tuple[tuple[Seat, ...], Table, list[dict[str, Any]], int]:
            self._host(record, token)
            if not record.waiting:
                raise WrongState(_("The game has started: its seats are settled."))
            if not 0 <= seat < len(record.seats):
                raise WrongState(_("This table has no seat {seat}.", seat=seat))
            s = record.seats[seat]
            if s.open or s.bot is not None:
                raise WrongState(_("Nobody sits in seat {seat} to remove.", seat=seat))
            table = record.table
            if s.client and s.client not in table.removed:
                table = replace(table, removed=(*table.removed, s.client))
            seats = with_seat(record.seats, seat, Seat("", open=True))
            return seats, table, [{"type": "seat_opened", "seat": seat, "removed": True}], seat

        return self._retry(game_id, clear)[0]

    # -- a person's comings and goings --------------------------------------------------------

    def may_change(self, record: StoredGame, token: str | None, seat: int, *, host: bool) -> None:
        """Raise as `remove` (`host`), or `come_back` and `leave`, would for a `token` that
        may not change `seat`: the host's token removes a person, the seat's own comes
        back and leaves."""
        if host:
            self._host(record, token)
        else:
            self._own_seat(record, token, seat)

    def _own_seat(self, record: StoredGame, token: str | None, seat: int) -> None:
        found = seat_for(record, token, required=True, holder=key_holder(self.store.redis, token))
        if found != seat:
            raise Forbidden(_("This token is not the token of that seat."))

    def come_back(self, game_id: str, token: str | None, seat: int) -> StoredGame:
        """The person in `seat` is back: the stand-in stops playing for them (a seat that
        left stays with the stand-in). Nothing is written for a seat that was not away
        (and no clock is set back: the turn's deadline stays as it was)."""
        record = self.store.load(game_id, history=False)
        self._own_seat(record, token, seat)
        if not record.seats[seat].away and not record.seats[seat].misses:
            if record.seats[seat].left:
                raise WrongState(_("You left this game: the stand-in plays your seat to the end."))
            self.store.touch(record, seat)
            return record

        def back(record: StoredGame) -> tuple[tuple[Seat, ...], Table, list[dict[str, Any]], int]:
            self._own_seat(record, token, seat)
            s = record.seats[seat]
            if s.left:
                raise WrongState(_("You left this game: the stand-in plays your seat to the end."))
            seats = with_seat(record.seats, seat, s.back())
            events = [{"type": "seat_back", "seat": seat}] if s.away else []
            return seats, record.table, events, seat

        record, _seat = self._retry(game_id, back, keep_clock=True)
        self.store.touch(record, seat)
        return record

    def leave(self, game_id: str, token: str | None, seat: int) -> StoredGame:
        """The person in `seat` leaves: while the table waits, the seat opens again (their
        token no longer opens it); in play, the stand-in plays it to the end. Leaving again
        writes nothing: no event, no new version, so no one's move is made stale by it."""
        return self._leave(game_id, seat, lambda record: self._own_seat(record, token, seat))

    def _leave(self, game_id: str, seat: int, check: Callable[[StoredGame], None]) -> StoredGame:
        """`seat` leaves, once `check` (which raises) lets it, on each read of the game."""

        def go(record: StoredGame) -> tuple[tuple[Seat, ...], Table, list[dict[str, Any]], int]:
            check(record)
            s = record.seats[seat]
            if s.left and not record.finished:
                raise _Unchanged(record)
            if record.waiting:
                changed = Seat("", open=True)
                event: dict[str, Any] = {"type": "seat_opened", "seat": seat}
            elif record.finished:
                raise WrongState(_("The game is over."))
            else:
                changed = replace(s, left=True, away=False)
                event = {"type": "seat_left", "seat": seat}
            seats = with_seat(record.seats, seat, changed)
            return seats, record.table, [event], seat

        try:
            return self._retry(game_id, go, keep_clock=True)[0]
        except _Unchanged as unchanged:
            return unchanged.record

    def take_out(self, account_id: str) -> int:
        """Every seat the account holds in a game not finished leaves, as its person
        leaving it would (`leave`): the stand-in plays it to the end, or it opens again at
        a table still waiting. For a disabled account (`disable`). How many seats left now;
        games found over or gone drop out of the account's set."""
        left = 0
        for game_id in account_seats.games_of(self.store.redis, account_id):
            record = self._in_play(game_id, account_id)
            if record is not None:
                left += self._take_out_of(record, account_id)
        return left

    def _in_play(self, game_id: str, account_id: str) -> StoredGame | None:
        """Game `game_id` of the account's set of games in play; None, and the game drops
        out of the set, when it is over, gone or holds none of the account's seats."""
        record, seated = self._seat_in(game_id, account_id)
        if seated:
            return record
        account_seats.forget(self.store.redis, [account_id], game_id)
        if record is None or record.finished:
            return None
        # A seating notes its game after writing its seat, so one between our read and our
        # drop had its note dropped: read again after the drop and note it back (a seating
        # after this read notes it itself).
        record, seated = self._seat_in(game_id, account_id)
        if not seated:
            return None
        account_seats.note(self.store.redis, [account_id], game_id)
        return record

    def _seat_in(self, game_id: str, account_id: str) -> tuple[StoredGame | None, bool]:
        """Game `game_id` (None when gone), and whether it is in play with a seat of the
        account's."""
        try:
            record = self.store.load(game_id, history=False)
        except GameNotFound:
            return None, False
        return record, not record.finished and any(s.holder == account_id for s in record.seats)

    def games_in_play(self, account_id: str, most: int) -> list[tuple[StoredGame, int]]:
        """The account's games not finished, the one it sat down in last first, `most` at
        most: each game with the seat the account's key opens there (its last, should it
        hold two). Read from the account's set of games in play, newest first, until
        `most` are found: a game met over or gone drops out of the set (`_in_play`), so it
        is read once; the set holds `account_seats.MOST_SEATS` at most."""
        found: list[tuple[StoredGame, int]] = []
        for game_id in reversed(account_seats.games_of(self.store.redis, account_id)):
            if len(found) >= most:
                break
            record = self._in_play(game_id, account_id)
            if record is not None:
                held = [i for i, s in enumerate(record.seats) if s.holder == account_id]
                found.append((record, held[-1]))
        return found

    def _take_out_of(self, record: StoredGame, account_id: str) -> int:
        """The account's seats in `record`'s game that it has not left leave; how many."""
        left = 0
        held = [i for i, s in enumerate(record.seats) if s.holder == account_id and not s.left]
        for seat in held:

            def still_theirs(record: StoredGame, seat: int = seat) -> None:
                # A seat opened and taken by someone else meanwhile is theirs to keep.
                if record.seats[seat].account != account_id:
                    raise _Unchanged(record)

            try:
                self._leave(record.id, seat, still_theirs)
            except (GameNotFound, WrongState):
                continue  # gone or over meanwhile: nothing left to hand over
            left += 1
        return left

    def disable(self, account_id: str) -> int | None:
        """The operator disables the account: its key opens nothing to move with
        (`core.store.accounts.set_disabled`) and its seats in games not finished leave
        (`take_out`). How many seats left; None if there is no such account. Enabling it
        again gives no seat back. The flag is written before the walk reads the account's
        games, and a seating notes its game before it reads the flag (`settle`): a seat
        taken at the same moment is handed over by one or the other."""
        if not set_disabled(self.store.redis, account_id):
            return None
        return self.take_out(account_id)

    # -- a key replaced ---------------------------------------------------------------------

    def replace_key(self, account_id: str, replacing: str | None = None) -> NewKey | None:
        """A new key for the account (`core.store.accounts.replace_key`: `replacing`, the
        key its holder sends; None for the operator), then its seats' tokens made anew in
        its games not finished (`drop_seat_tokens`): whoever held the key before may have
        taken seats with it, and their tokens. None as `replace_key` gives it."""
        made = replace_account_key(self.store.redis, account_id, replacing)
        if made is not None:
            self.drop_seat_tokens(account_id, hash_key(made.key))
        return made

    def drop_seat_tokens(self, account_id: str, key_hash: str) -> int:
        """Each seat the account holds in a game not finished that was taken under another
        key than the one whose hash is `key_hash` (its new one) gets a token nobody is
        given, so that a seat token handed out under the key before opens nothing; the new
        key opens those seats as it opened them already (`StoredGame.seat_of_token`). Each
        game is written in a script of its own, on its own slot (its version moves on; no
        event: nobody at the table sees a change). Bounded by the account's set of games in
        play. Finished games are left as they are. How many games changed."""
        changed = 0
        for game_id in account_seats.games_of(self.store.redis, account_id):
            try:
                done = self._drop_tokens_in(game_id, account_id, key_hash)
            except GameNotFound:
                done = None
            except Conflict:
                # Other changes landed first at every try: the seats keep the tokens of the
                # key before, and the operator is told (docs/operating.md).
                log.warning("game %s: the seat tokens of account %s are left", game_id, account_id)
                continue
            if done is None:
                account_seats.forget(self.store.redis, [account_id], game_id)
            changed += bool(done)
        return changed

    def _drop_tokens_in(self, game_id: str, account_id: str, key_hash: str) -> bool | None:
        """`drop_seat_tokens` in one game: whether it wrote; None when the game is over or
        holds no seat of the account's (it is out of the account's games in play)."""

        def renew(record: StoredGame) -> tuple[tuple[Seat, ...], Table, list[dict[str, Any]], int]:
            if record.finished or all(s.holder != account_id for s in record.seats):
                raise _Gone(record)
            seats = record.seats
            for i, s in enumerate(record.seats):
                if s.holder == account_id and s.key_hash and s.key_hash != key_hash:
                    unseen = hash_token(secrets.token_urlsafe(32))
                    seats = with_seat(seats, i, replace(s, token_hash=unseen, key_hash=key_hash))
            if seats == record.seats:
                raise _Unchanged(record)
            return seats, record.table, [], -1

        try:
            self._retry(game_id, renew, keep_clock=True)
        except _Gone:
            return None
        except _Unchanged:
            return False
        return True

    def settle(
        self,
        record: StoredGame,
        standing: Mapping[str, Standing],
        seated_by: str | None = None,
        by_key: bool = True,
    ) -> None:
        """Settle the accounts a change just seated in `record`'s game, as read back just
        after their seats were noted (`core.store.account_seats.note`): one disabled
        meanwhile leaves the game at once (`disable`'s walk may have read its set before
        the note); one whose key was replaced meanwhile gets its seats' tokens made anew,
        as `drop_seat_tokens` would have. `seated_by`, the account the request seated, is
        then refused: `AccountDisabled`, or as a key (`by_key`) or a token that opens
        nothing."""
        for account_id, now in standing.items():
            if now.disabled:
                self._take_out_of(record, account_id)
                if account_id == seated_by:
                    raise AccountDisabled()
                continue
            mine = [s for s in record.seats if s.holder == account_id]
            taken_under = {s.key_hash for s in mine} - {None, now.key_hash}
            if not now.key_hash or not taken_under:
                continue
            self._drop_tokens_in(record.id, account_id, now.key_hash)
            if account_id == seated_by:
                if by_key:
                    raise UnknownAccount()
                raise Unauthorized(_("This token does not belong to a seat of this game."))

    # -- rematch ------------------------------------------------------------------------------

    def rematch(self, game_id: str, token: str | None) -> tuple[StoredGame, int, str, str | None]:
        """The person with `token` in finished game `game_id` takes their seat at the next
        table: the game, their seat, their new token and, for whoever made the table, the
        host token (None for the others)."""
        record = self.store.load(game_id, history=False)
        holder = key_holder(self.store.redis, token)
        seat = seat_for(record, token, required=True, holder=holder)
        assert seat is not None and token is not None
        mine = record.seats[seat]
        # An account's seat is kept at the rematch under its key now: a token handed out
        # under a key replaced since (the game was over, so its token was left as it was)
        # takes no seat at the next table.
        key_now = mine.key_hash
        if mine.holder is not None and mine.key_hash:
            found = get_account(self.store.redis, mine.holder)
            key_now = found.key_hash if found is not None and found.key_hash else mine.key_hash
            if holder is None and key_now != mine.key_hash:
                raise Unauthorized(
                    _(
                        "This seat's token was handed out under a key its account has "
                        "replaced since: ask with the account's key."
                    )
                )
        if not record.finished:
            raise WrongState(_("The game is not over: a rematch follows a finished game."))
        host_token: str | None = None
        if record.table.rematch is None:
            host_token = secrets.token_urlsafe(32)
            made = self._make_rematch(record, host_token, mine.holder)
            try:
                self.store.change_table(
                    record, record.seats, replace(record.table, rematch=made.record.id),
                    [{"type": "rematch", "game_id": made.record.id}],
                )  # fmt: skip
            except Conflict:
                # Someone else made it first: theirs is the rematch; ours goes.
                self.store.delete(made.record.id)
                host_token = None
            record = self.store.load(game_id, history=False)
        next_id = record.table.rematch
        assert next_id is not None
        new_token = secrets.token_urlsafe(32)

        def claim(nxt: StoredGame) -> tuple[tuple[Seat, ...], Table, list[dict[str, Any]], int]:
            # Kept for whoever opens the old seat: its token, or its account's key.
            old = record.seats[seat].token_hash
            kept = nxt.reserved_seat_of(token)
            if kept is None and old is not None:
                kept = next((i for i, s in enumerate(nxt.seats) if s.reserved == old), None)
            if kept is None:
                raise TableFull(
                    _(
                        "Your seat at the rematch is no longer kept for you: the host gave it "
                        "to a bot."
                    )
                )
            held = nxt.seats[kept]
            if held.open and mine.holder is not None:
                self._kept_apart(nxt, mine.holder)
            name = record.seats[seat].name
            # An account's key opens its seat at the rematch too.
            taken = replace(
                held, name=name, open=False, token_hash=hash_token(new_token),
                key_hash=key_now, bot_account=record.seats[seat].bot_account,
            )  # fmt: skip
            if not held.open:
                # Taken already (an answer lost on the way): a new token for the same seat.
                seats = with_seat(nxt.seats, kept, taken)
                return seats, nxt.table, [], kept
            return self._seated(
                nxt, kept, taken, {"type": "seat_taken", "seat": kept, "name": name}
            )

        nxt, new_seat = self._retry(
            next_id, claim, seated_by=mine.holder, by_key=holder is not None
        )
        if mine.account is not None and mine.key_hash and not mine.webhook:
            note_game(self.store.redis, mine.account, nxt.id)
        return nxt, new_seat, new_token, host_token

    def _make_rematch(self, record: StoredGame, host_token: str, maker: str | None) -> CreatedGame:
        # A rated table's rematch is rated too, each person's seat kept for their account.
        seats = [
            Seat(s.name, s.bot)
            if s.bot is not None
            else Seat("", open=True, reserved=s.token_hash, account=s.account)
            for s in record.seats
        ]
        rules = record.game.rules
        table = Table(
            None, listed=False, waiting=True, stand_in=record.table.stand_in,
            rated=record.table.rated, maker=maker,
        )  # fmt: skip
        owed = self.bots.owed_turn

        def make(t: Table) -> CreatedGame:
            return self.store.create(
                kind_of(record.game).new(rules, None),
                seats,
                table=t,
                host_token=host_token,
                owed_task=owed,
                payer=record.payer,
            )

        return self.create_table(make, table)


class _Unchanged(Exception):
    """A table change that would change nothing: the game as read, to answer with."""

    def __init__(self, record: StoredGame) -> None:
        super().__init__(record.id)
        self.record = record


class _Gone(_Unchanged):
    """A change for an account's game in play, in a game no longer in play for it."""


def _one_seat_per_level(record: StoredGame, level: str, seats: int) -> None:
    """At a rated table a level plays as one account: refuse giving it `seats` more seats
    when that makes more than one."""
    if seats + sum(1 for s in record.seats if s.bot == level) > 1:
        raise OneSeatPerAccount.of_level(level)


def _check_level(level: str, record: StoredGame | None = None) -> None:
    """Refuse a level no bot has (or, given the game, none of that game's bots has)."""
    if record is None:
        known = list(dict.fromkeys(name for bots in BOT_KINDS.values() for name in bots.levels))
    else:
        known = list(levels_of(kind_of(record.game)))
    if level not in known:
        levels = ", ".join(known)
        raise InvalidInput(
            _("Unknown bot level: {levels} are available.", levels=levels),
            errors={"json": {"level": [_("Must be one of: {levels}.", levels=levels)]}},
        )
