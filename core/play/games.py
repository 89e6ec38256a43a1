"""The service layer of games: what the HTTP views ask for, in the game's words.

`GameService` creates games, says who a token belongs to, applies a seat's move, hands turns
to the bot runner, and builds every view a response carries: the game's own view of what a
seat may know (`GameKind.view`, so a response never holds another seat's cards), with the
game's `id`, `version`, players, table, clock and the `seq` of its latest event. Whatever
differs between games is reached through the game's kind (`engine.registry`).
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from ai.registry import levels_of
from core.errors import (
    REDIS_DOWN,
    AccountRequired,
    Conflict,
    Forbidden,
    GameNotOver,
    IdempotencyKeyReused,
    InvalidInput,
    OneSeatPerAccount,
    Unauthorized,
    WrongGame,
    WrongState,
)
from core.jobs.queues import thinking_seconds
from core.play.bot_advice import numbered
from core.play.bots import BotRunner
from core.play.tables import (
    DEFAULT_STAND_IN,
    LOBBY_AWAY_SECONDS,
    TableService,
    key_holder,
    seat_for,
    seat_info,
    seat_view,
)
from core.store import account_turns, webhooks
from core.store.accounts import Account
from core.store.api_keys import is_key_payer
from core.store.bot_games import note_game
from core.store.records import (
    NO_TABLE,
    AppliedAction,
    CreatedGame,
    Seat,
    StoredGame,
    Table,
    client_hash,
)
from core.store.store import Counter, GameStore
from engine.errors import GameError, InvalidRulesError
from engine.i18n import _
from engine.protocols import DEFAULT_TURN_SECONDS, Action, WireAction
from engine.registry import DEFAULT_GAME, KINDS, AnyGame, GameKind, kind_of

log = logging.getLogger(__name__)

#: The version of the record format (docs/records.md, openapi/game-record.schema.json): a
#: change that would break a reader of these records makes a new one.
RECORD_FORMAT = 1


@dataclass(frozen=True)
class PlayerSpec:
    """A seat as asked for at creation: a person's name, a bot's name and level, or an
    open seat for someone to take at the table (`open`, no name)."""

    name: str
    bot: str | None = None
    open: bool = False


def view_of(game: AnyGame, seat: int | None, waiting: bool = False) -> dict[str, Any]:
    """What `seat` (None: a spectator) sees of `game`, as its kind's views have it
    (`GameKind.view`); `waiting`: the game waits at its table."""
    return kind_of(game).view(game, seat, waiting)


def read_move(game: AnyGame, move: WireAction, decision: str) -> Action:
    """The action `move` names, sent to `decision`'s endpoint of `game`: `WrongGame` when
    that game makes no such decision, the engine's typed error when `move` names none."""
    kind = kind_of(game)
    if decision not in kind.decisions:
        raise WrongGame(kind.wrong_decision(decision))
    return kind.read_move(move, decision)


def move_fingerprint(decision: str | None, move: WireAction) -> str:
    """What a move sent with an Idempotency-Key asks for (which decision, and its value as
    the body gives it), hashed short: a retry has the same, another move under a reused
    key has not. `repr` tells the bid 1 from the card "1"."""
    return hashlib.sha256(f"{decision}\n{move!r}".encode()).hexdigest()[:16]


def payer_of_holder(holder: str | None) -> str | None:
    """Whose think budget the bots of a game made by `holder` spend (`StoredGame.payer`):
    the hash of a client address, an integrator's key's payer as it is, or nobody's when
    there is no holder (the rate limits are off)."""
    return None if holder is None else holder if is_key_payer(holder) else client_hash(holder)


class GameService:
    def __init__(
        self, store: GameStore, bots: BotRunner, lobby_away_seconds: float = LOBBY_AWAY_SECONDS
    ) -> None:
        self.store = store
        self.bots = bots
        # The tables' side (joining, starting, coming and going, rematch).
        self.tables = TableService(store, bots, lobby_away_seconds)

    # -- create ---------------------------------------------------------------------------

    def create(
        self,
        players: Sequence[PlayerSpec],
        rules: dict[str, Any] | None = None,
        seed: int | None = None,
        *,
        listed: bool = False,
        stand_in_level: str = DEFAULT_STAND_IN,
        game_name: str = DEFAULT_GAME,
        holder: str | None = None,
        account: Account | None = None,
        rated: bool = False,
    ) -> CreatedGame:
        """A new game with these seats, in order; bots act at once if the first turn is
        theirs, so the game returned is the one people find. With open seats it waits at
        a table (with a code; in the lobby if `listed`) until people take them. With two
        people or more, their turns are timed (`turn_seconds`, `DEFAULT_TURN_SECONDS`
        unless the rules say) and a stand-in bot of `stand_in_level` plays a turn whose
        clock runs out. `game_name`: the game (`engine.registry.KINDS`), Pocha unless named.
        `holder`: the client address making it (given with the rate limits on), or the
        payer of the integrator's key it came with (`core.store.api_keys.payer_of`), whose
        listed tables the lobby caps and whose think budget its bots and stand-in spend
        (`core.play.bots`); such a game's bots think at most `PUBLIC_DECISION_SECONDS` a
        decision. `account`: the account of whoever makes it, which takes the first
        person's seat (the seat shows the account's name). `rated`: its result changes
        its players' ratings (`core.store.ratings`), so it is made by an account, and its
        other seats are open (for accounts to take) or bots of distinct levels."""
        kind = KINDS.get(game_name)
        if kind is None:
            names = ", ".join(KINDS)
            raise InvalidInput(
                _("Unknown game {game}; the games are {games}.", game=repr(game_name), games=names),
                errors={"json": {"game": [_("Must be one of: {games}.", games=names)]}},
            )
        known = levels_of(kind)
        levels = list(known)
        bad_levels = {
            str(i): {
                "bot": [
                    _(
                        "Unknown bot level {level}; the levels are {levels}.",
                        level=repr(p.bot),
                        levels=", ".join(levels),
                    )
                ]
            }
            for i, p in enumerate(players)
            if p.bot is not None and p.bot not in known
        }
        if bad_levels:
            raise InvalidInput(
                _("Unknown bot level: {levels} are available.", levels=", ".join(levels)),
                errors={"json": {"players": bad_levels}},
            )
        options = dict(rules or {})
        if options.get("players", len(players)) != len(players):
            raise InvalidInput(
                _(
                    "rules.players is {value} but {players} players are listed; leave it "
                    "out, the players list decides.",
                    value=options["players"],
                    players=len(players),
                ),
                errors={"json": {"rules": {"players": [_("Must match the players listed.")]}}},
            )
        options["players"] = len(players)
        if stand_in_level not in known:
            raise InvalidInput(
                _("Unknown bot level: {levels} are available.", levels=", ".join(levels)),
                errors={
                    "json": {
                        "stand_in_level": [_("Must be one of: {levels}.", levels=", ".join(levels))]
                    }
                },
            )
        if holder is not None:
            _check_affordable(kind, players, stand_in_level)
        if listed and seed is not None:
            # Whoever chose the seed can rebuild every hand dealt at the table: strangers
            # from the lobby must never sit down to that.
            raise InvalidInput(
                _("A table with a chosen seed is never listed: leave out the seed or listed."),
                errors={"json": {"listed": [_("A table with a chosen seed is never listed.")]}},
            )
        people = sum(1 for p in players if p.bot is None)
        if "turn_seconds" not in options:
            options["turn_seconds"] = DEFAULT_TURN_SECONDS if people >= 2 or rated else 0
        if rated:
            check_rated_clock(options)
        try:
            parsed = kind.rules_from_dict(options)
        except InvalidRulesError as exc:
            raise InvalidInput(
                exc.message, errors={"json": {"rules": {exc.option: [exc.message]}}}
            ) from exc
        if rated:
            _check_rated(players, seed, account)
        seats = [Seat("", open=True) if p.open else Seat(p.name, p.bot) for p in players]
        if account is not None:
            mine = next((i for i, p in enumerate(players) if not p.open and p.bot is None), None)
            if mine is not None:
                # A bot account with a webhook plays the game it makes as it plays a seat it
                # takes at a table: the workers ask its webhook for each turn. Else its seat
                # would wait for moves by key that such a bot never sends, with no clock.
                hooked = account.kind == "bot" and webhooks.get(self.store.redis, account.id)
                seats[mine] = Seat(
                    account.name, account=account.id, key_hash=account.key_hash or None,
                    bot_account=account.kind == "bot", webhook=bool(hooked),
                )  # fmt: skip
        game = kind.new(parsed, seed)

        payer = payer_of_holder(holder)

        def make(table: Table) -> CreatedGame:
            return self.store.create(
                game, seats, seeded=seed is not None, owed_task=self.bots.owed_turn, table=table,
                payer=payer,
            )  # fmt: skip

        if any(p.open for p in players):
            table = Table(
                None, listed=listed, waiting=True, stand_in=stand_in_level, rated=rated,
                maker=None if account is None else account.id,
            )  # fmt: skip
            created = self.tables.create_table(make, table, holder)
        elif people >= 2 or rated:
            # Seats handed out by whoever made the game: no code to find it by, but a
            # stand-in for whoever walks away.
            created = make(Table(None, stand_in=stand_in_level, rated=rated))
        else:
            created = make(NO_TABLE)
        if created.standing:
            # Disabled, or its key replaced, while the game was being made: as if before.
            self.tables.settle(
                created.record, created.standing, seated_by=None if account is None else account.id
            )
        if account is not None and any(s.account == account.id and not s.webhook for s in seats):
            note_game(self.store.redis, account.id, created.record.id)
        if created.record.bot_to_move is not None:
            self.bots.game_changed(
                created.record.id, created.record.version, created.record.payer,
                created.record.thinks_long,
            )  # fmt: skip
            if self.bots.plays_inline:
                created = replace(created, record=self.store.load(created.record.id))
        return created

    # -- who is asking ----------------------------------------------------------------------

    def seat_for(
        self, record: StoredGame, token: str | None, *, required: bool, holder: str | None = None
    ) -> int | None:
        """The seat a bearer token opens (`core.play.tables.seat_for`); an account's key
        is looked up here unless its `holder` was already."""
        if holder is None:
            holder = key_holder(self.store.redis, token)
        return seat_for(record, token, required=required, holder=holder)

    # -- views ------------------------------------------------------------------------------

    def view(
        self, record: StoredGame, seat: int | None, now: float | None = None
    ) -> dict[str, Any]:
        """What `seat` (None: a spectator) sees of the game at `now`, default now
        (`seat_view`)."""
        return seat_view(record, seat, now)

    def seen_by(self, game_id: str, token: str | None) -> tuple[StoredGame, int | None]:
        """The game as a view shows it, and the seat `token` opens (None: a spectator's
        view), whose person is noted as here."""
        # A view leaves the score sheet out: it is not read at all.
        record = self.store.load(game_id, history=False)
        seat = self.seat_for(record, token, required=False)
        if seat is not None:
            self.store.touch(record, seat)
        return record, seat

    def history(self, game_id: str) -> dict[str, Any]:
        """The score sheet: every finished hand as dealt, bid, won and scored."""
        record = self.store.load(game_id)
        now = time.time()
        envelope = {
            "game": record.game.kind,
            "id": record.id,
            "version": record.version,
            "players": [seat_info(record, i, now) for i in range(len(record.seats))],
        }
        return kind_of(record.game).history(record.game, envelope)

    def record(self, game_id: str) -> dict[str, Any]:
        """The finished game's record (docs/records.md): the seats as the table had them,
        and its kind's record of the rules, every deal and decision, and the scores, with
        what our bots thought at their decisions (`advice`, when they searched).
        `GameNotOver` before the end: the record shows every hand, and the advice too."""
        stored = self.store.load(game_id)
        if not stored.game.finished:
            raise GameNotOver()
        kind = kind_of(stored.game)
        events = self.store.events(game_id)
        played = kind.record(stored.game, events)
        record: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "game": kind.name,
            "id": stored.id,
            "created": datetime.fromtimestamp(stored.created, UTC).isoformat(timespec="seconds"),
            "players": [
                {"seat": i, "name": seat.name, "level": seat.bot}
                for i, seat in enumerate(stored.seats)
            ],
            "stand_in_level": stored.table.stand_in if stored.table is not NO_TABLE else None,
        }
        # The envelope is the service's: a game's part adds to it, never replaces it.
        for key, value in played.items():
            record.setdefault(key, value)
        advice = numbered(kind, events, self.store.advice(game_id))
        if advice:
            record["advice"] = advice
        return record

    # -- moves ------------------------------------------------------------------------------

    def act(
        self,
        game_id: str,
        token: str | None,
        move: WireAction,
        expected_version: int | None = None,
        counters: Sequence[Counter] = (),
        decision: str | None = None,
    ) -> dict[str, Any]:
        """The token's seat makes `move`, in the API's form, at `decision`'s endpoint (see
        `read_move`; None: a bid, if `move` is a number, else a card). Its view afterwards,
        when any bots whose turn follows have played (inline runner) or been handed the
        turn. `counters`: the request's rate-limit counts, taken with the game's read."""
        decision = decision or ("play" if isinstance(move, str) else "bid")
        # An account's key moves in the games it sits in only while the account is enabled
        # (`pocha accounts disable`): one look-up, for moves sent with a key only.
        holder = key_holder(self.store.redis, token, moving=True)
        applied: AppliedAction | None = None
        record: StoredGame | None = None
        seat: int | None = None
        # First the game as this process kept it, in one round trip when that is still the
        # stored game (a client that sends its moves down one connection). A kept game
        # that refuses the token, the version or the move settles nothing (it may be out
        # of date): the move is decided on a fresh read, as every move is without one.
        kept = self.store.take_kept(game_id)
        if kept is not None and token is not None:
            seat = kept.seat_of_token(token, holder)
        if (
            kept is not None
            and seat is not None
            and expected_version in (None, kept.version)
            and not kept.seats[seat].left
        ):
            try:
                action = read_move(kept.game, move, decision)
                outcome = self.store.apply_kept(
                    kept, seat, action, owed_task=self.bots.owed_turn, counters=counters
                )
            except (GameError, WrongGame):
                outcome = None
            if isinstance(outcome, AppliedAction):
                applied = outcome
            elif outcome is not None:
                # Out of date: the stored game came back, with the counts taken.
                record, counters = outcome, ()
        if applied is None:
            if record is None:
                # Without the score sheet of past hands: a move and the view it answers
                # with need only the hand in play (views leave the sheet to `history`).
                record = self.store.load(game_id, history=False, counters=counters, consume=True)
            seat = self.seat_for(record, token, required=True, holder=holder)
            assert seat is not None
            # A seat given up is the stand-in's to the end: the version the move would be
            # written at is the one read, so a leave that lands first makes it read again.
            if record.seats[seat].left:
                raise WrongState(_("You left this game: the stand-in plays your seat to the end."))
            mover = seat

            def read(game: AnyGame) -> Action:
                try:
                    return read_move(game, move, decision)
                except GameError:
                    # A code that is no card is refused where the engine refuses one,
                    # after the game, the token, the version, the turn and the phase.
                    game.check_turn(mover, playing=decision == "play")
                    raise

            # The store checks the version (the one check), then reads the move.
            applied = self.store.apply_action(
                game_id, seat, read, expected_version, record=record,
                owed_task=self.bots.owed_turn,
            )  # fmt: skip
        assert seat is not None
        before = record if record is not None else kept
        if before is not None and before.deadline is not None:
            self._count_timed_turn(before, seat)
        after = applied.record
        if after.bot_to_move is not None:
            self.bots.game_changed(game_id, after.version, after.payer, after.thinks_long)
            if self.bots.plays_inline:
                # The bots have played: the view shows their moves. Handed to the workers,
                # they have not (reading the game again would only cost a round trip).
                after = self.store.load(game_id, history=False)
        return self.view(after, seat)

    def _count_timed_turn(self, before: StoredGame, seat: int) -> None:
        """A bot account moved in its timed turn: counted on its page, with the time since
        the turn began (its clock's start). A count lost to Redis costs the move nothing."""
        account = before.seats[seat].account
        if account is None or not before.seats[seat].bot_account or before.deadline is None:
            return
        began = before.deadline - before.game.rules.turn_seconds
        try:
            account_turns.count_move(self.store.redis, account, (time.time() - began) * 1000)
        except REDIS_DOWN:
            log.warning("game %s: the timed turn of account %s went uncounted", before.id, account)

    def act_once(
        self,
        game_id: str,
        token: str | None,
        move: WireAction,
        idempotency_key: str,
        expected_version: int | None = None,
        counters: Sequence[Counter] = (),
        decision: str | None = None,
    ) -> tuple[dict[str, Any], bool]:
        """`act`, at most once per Idempotency-Key and seat: the view, and whether the move
        had been taken already (then the view is the game now, and nothing is applied).
        A key whose first request is still being applied is a `Conflict`; one whose first
        request was refused may be sent again; one sent before with another move (or another
        decision) is refused, `IdempotencyKeyReused`, and nothing is applied."""
        holder = key_holder(self.store.redis, token, moving=True)
        record = self.store.load(game_id, history=False, counters=counters, consume=True)
        seat = self.seat_for(record, token, required=True, holder=holder)
        assert seat is not None
        fingerprint = move_fingerprint(decision, move)
        earlier = self.store.claim_move(game_id, seat, idempotency_key, fingerprint)
        if earlier is not None:
            state, claimed_by = earlier
            # A value with no fingerprint (an older server's, for an hour) counts as a retry.
            if claimed_by and claimed_by != fingerprint:
                raise IdempotencyKeyReused()
            if state == "pending":
                raise Conflict(
                    _(
                        "A move with this Idempotency-Key is being applied right now: ask "
                        "for the game in a moment to see it."
                    )
                )
            return self.view(self.store.load(game_id, history=False), seat), True
        try:
            view = self.act(game_id, token, move, expected_version, decision=decision)
        except BaseException:
            self.store.release_move(game_id, seat, idempotency_key)
            raise
        self.store.settle_move(game_id, seat, idempotency_key, fingerprint, int(view["version"]))
        return view, False

    def delete(self, game_id: str, token: str | None) -> None:
        record = self.store.load(game_id, history=False)
        if token is None:
            raise Unauthorized(_("Send the host token: Authorization: Bearer <host_token>."))
        if not record.is_host_token(token):
            if record.seat_of_token(token, key_holder(self.store.redis, token)) is not None:
                raise Forbidden(_("Only the host token can delete a game."))
            raise Unauthorized(_("This token is not the host token of this game."))
        if record.table.rated and not record.waiting and not self.store.is_counted(game_id):
            # Else a maker losing a rated game would delete it and keep the loss (and the
            # others' wins) off the ladder.
            raise WrongState(
                _(
                    "A rated game is deleted only once its result is counted: leave your "
                    "seat instead, and the stand-in plays it to the end."
                )
            )
        self.store.delete(game_id)


#: The longest a bot of a game made by a client (with the rate limits on) may think per
#: decision, on the slow machine the queue's estimates assume (`core.jobs.queues`): its seats
#: and its stand-in spend that client's think budget, and no one game's bots may hold a
#: worker long enough to delay another game's turn by much (the top levels think up to
#: 1 s a decision; they are for matches).
PUBLIC_DECISION_SECONDS = 0.2


def check_rated_clock(options: dict[str, Any]) -> None:
    """Refuse a rated game without a clock: an account that stopped moving would hold it
    unfinished, and so unrated, until it expired, which keeps a loss off the ladder."""
    if options.get("turn_seconds") == 0:
        message = _("A rated game's turns are timed: leave out turn_seconds or give 1 or more.")
        raise InvalidInput(message, errors={"json": {"rules": {"turn_seconds": [message]}}})


def _check_rated(players: Sequence[PlayerSpec], seed: int | None, account: Account | None) -> None:
    """Refuse a rated game that an account does not make, whose seed was chosen, or whose
    seats are not the maker's (who sits), open ones and bots of distinct levels."""
    if account is None:
        raise AccountRequired()
    if seed is not None:
        raise InvalidInput(
            _("A rated game's deals are never chosen: leave out the seed."),
            errors={"json": {"seed": [_("A rated game's deals are never chosen.")]}},
        )
    named = [i for i, p in enumerate(players) if not p.open and p.bot is None]
    if not named:
        # Else games that nobody plays could move the levels' ratings, everyone's yardstick,
        # as often as the maker likes.
        message = _("A rated game seats its maker: give yourself a seat with your name.")
        raise InvalidInput(message, errors={"json": {"players": [message]}})
    if len(named) > 1:
        message = _(
            "At a rated table people take their seats with their own accounts: give the "
            "other people open seats."
        )
        raise InvalidInput(
            message, errors={"json": {"players": {str(i): [message] for i in named[1:]}}}
        )
    levels = [p.bot for p in players if p.bot is not None]
    twice = [level for i, level in enumerate(levels) if level in levels[:i]]
    if twice:
        raise OneSeatPerAccount.of_level(twice[0])


def _check_affordable(kind: GameKind, players: Sequence[PlayerSpec], stand_in: str) -> None:
    """Refuse bot levels that think longer a decision than a game of people may have."""
    levels = levels_of(kind)
    allowed = [n for n in levels if thinking_seconds(levels[n].budget) <= PUBLIC_DECISION_SECONDS]
    chosen = {p.bot for p in players if p.bot is not None} | {stand_in}
    heavy = [name for name in levels if name in chosen and name not in allowed]
    if not heavy:
        return
    message = _(
        "Level {level} thinks too long a decision for a game of people here (at most "
        "{most} s a decision); choose one of {levels}, or play it in a match.",
        level=heavy[0],
        most=format(PUBLIC_DECISION_SECONDS, "g"),
        levels=", ".join(allowed),
    )
    errors: dict[str, Any] = {}
    seats = {str(i): {"bot": [message]} for i, p in enumerate(players) if p.bot in heavy}
    if seats:
        errors["players"] = seats
    if stand_in in heavy:
        errors["stand_in_level"] = [message]
    raise InvalidInput(message, errors={"json": errors})
