"""Challenges in the game's words: an account challenges accounts (by id or name) and our
bot levels to a table of Pocha or Poch, rated or not (never an account that blocks it:
`core.play.blocks`); once every challenged account has accepted, the game is made with
everyone seated (the levels as bots) and it starts. The challenged are told on their event
streams (`core.store.challenges`), and each account plays its seat with its own key. How
it works: docs/bots-api.md, "Stream bots".
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import redis

from ai.registry import levels_of
from core.errors import (
    AccountDisabled,
    BotPaused,
    ChallengeClosed,
    ChallengeNotFound,
    ChallengeRefused,
    InvalidInput,
    NotInChallenge,
    OneSeatPerAccount,
    TooManyChallenges,
)
from core.play.games import (
    GameService,
    PlayerSpec,
    _check_affordable,
    check_rated_clock,
    payer_of_holder,
)
from core.play.tables import DEFAULT_STAND_IN, bot_name
from core.store import challenges, webhooks
from core.store.accounts import Account, by_name, get
from core.store.api_keys import is_key_payer
from core.store.bot_games import note_game
from core.store.challenges import Challenge, Refused, TooMany
from core.store.keys import is_game_id
from core.store.records import Seat, Table
from engine.errors import InvalidRulesError
from engine.i18n import Message, _, ngettext
from engine.protocols import DEFAULT_TURN_SECONDS
from engine.registry import KINDS

#: How long a challenge waits for its answers unless the setting says (seconds).
CHALLENGE_SECONDS = 300
#: The longest a challenge may wait, whatever the setting says (seconds).
LONGEST_CHALLENGE = 3600


def _refused(index: int, message: str) -> InvalidInput:
    return InvalidInput(message, errors={"json": {"opponents": {str(index): [message]}}})


def named(connection: redis.Redis, text: str) -> Account | None:
    """The account `text` names: an id, else a name (as the accounts match names)."""
    found = get(connection, text) if is_game_id(text) else None
    return found if found is not None else by_name(connection, text)


def _opponent(connection: redis.Redis, index: int, text: str) -> Account:
    """The account an opponent's `account` names: an id, else a name."""
    found = named(connection, text)
    if found is None or found.level is not None:
        raise _refused(index, _("No account has the id or name {name}.", name=repr(text)))
    if found.disabled:
        raise _refused(index, _("{name} is disabled: it cannot be challenged.", name=found.name))
    hook = webhooks.get(connection, found.id) if found.kind == "bot" else None
    if hook is not None and hook.paused:
        raise BotPaused(found.name)
    return found


def _seat_specs(
    connection: redis.Redis, challenger: Account, game: str, opponents: list[dict[str, str]],
    rated: bool,
) -> list[dict[str, str]]:  # fmt: skip
    kind = KINDS[game]
    known = levels_of(kind)
    seats: list[dict[str, str]] = [{"account": challenger.id}]
    for i, opponent in enumerate(opponents):
        if "bot" in opponent:
            level = opponent["bot"]
            if level not in known:
                raise _refused(
                    i, _("Unknown bot level: {levels} are available.", levels=", ".join(known))
                )
            seats.append({"bot": level})
        else:
            account = _opponent(connection, i, opponent["account"])
            if any(s.get("account") == account.id for s in seats):
                raise _refused(i, _("{name} has a seat in this challenge already.",
                                    name=account.name))  # fmt: skip
            seats.append({"account": account.id})
    if not any("account" in s for s in seats[1:]):
        message = _(
            "A challenge names at least one account; to play our levels alone, make a game."
        )
        raise InvalidInput(message, errors={"json": {"opponents": [message]}})
    levels = [s["bot"] for s in seats if "bot" in s]
    twice = [level for i, level in enumerate(levels) if level in levels[:i]]
    if rated and twice:
        raise OneSeatPerAccount.of_level(twice[0])
    _check_affordable(kind, [PlayerSpec("", s.get("bot")) for s in seats], DEFAULT_STAND_IN)
    return seats


def parsed_rules(
    game: str, rules: dict[str, Any] | None, seats: list[dict[str, str]], rated: bool = False
) -> Any:
    """The rules of the challenge's game, as tables take them (`InvalidInput` otherwise):
    the seats decide the players; people's turns are timed unless `turn_seconds` says, and
    always in a `rated` one (`check_rated_clock`)."""
    kind = KINDS[game]
    if not kind.min_players <= len(seats) <= kind.max_players:
        # Said of the opponents, which decide the players: `rules.players` is never asked for.
        message = _(
            "{game} is played by {least} to {most} players: you and your opponents make "
            "{seats}.",
            game=kind.title, least=kind.min_players, most=kind.max_players, seats=len(seats),
        )  # fmt: skip
        raise InvalidInput(message, errors={"json": {"opponents": [message]}})
    options = dict(rules or {})
    if options.get("players", len(seats)) != len(seats):
        message = _("Must match the players listed.")
        raise InvalidInput(message, errors={"json": {"rules": {"players": [message]}}})
    options["players"] = len(seats)
    people = sum(1 for s in seats if "account" in s)
    options.setdefault("turn_seconds", DEFAULT_TURN_SECONDS if people >= 2 or rated else 0)
    if rated:
        check_rated_clock(options)
    try:
        return kind.rules_from_dict(options)
    except InvalidRulesError as exc:
        raise InvalidInput(
            exc.message, errors={"json": {"rules": {exc.option: [exc.message]}}}
        ) from exc


def make(
    connection: redis.Redis, challenger: Account, body: dict[str, Any], seconds: float,
    holder: str | None = None,
) -> Challenge:  # fmt: skip
    """The challenge `challenger` makes (`body`: game, rules, rated, opponents), or why not.
    `holder`: the client address (or integrator's key) it comes from, with the rate limits
    on: its game's bots and stand-in spend that think budget, as a table's spend its
    maker's (`GameService.create`)."""
    game = body["game"]
    seats = _seat_specs(connection, challenger, game, body["opponents"], body["rated"])
    rules = dict(body.get("rules") or {})
    parsed_rules(game, rules, seats, body["rated"])
    payer = payer_of_holder(holder)
    try:
        return challenges.make(
            connection, challenger.id, game, rules, body["rated"], seats,
            min(max(1.0, seconds), LONGEST_CHALLENGE), payer=payer,
            source=None if payer is None or is_key_payer(payer) else payer,
        )  # fmt: skip
    except Refused as refused:
        blocker = next(s for s in seats if s.get("account") == refused.account)
        raise ChallengeRefused(_name_of(connection, blocker["account"])) from None
    except TooMany as refused:
        raise TooManyChallenges(_too_many(connection, refused), refused.retry_after) from None


def _name_of(connection: redis.Redis, account_id: str) -> str:
    found = get(connection, account_id)
    return found.name if found else account_id


def _too_many(connection: redis.Redis, refused: TooMany) -> Message:
    """Why a challenge was refused for `TooMany`, in the caller's language."""
    if refused.account is None:
        if refused.lately:
            return ngettext(
                "You made {n} challenge within the last hour or so (it counts until an hour "
                "after it ends), the most you may: try again later.",
                "You made {n} challenges within the last hour or so (each counts until an "
                "hour after it ends), the most you may: try again later.",
                challenges.MOST_MADE_LATELY,
            )
        return ngettext(
            "You have {n} open challenge, the most you may: wait for its answer or cancel it.",
            "You have {n} open challenges, the most you may: wait for their answers or cancel one.",
            challenges.MOST_MADE,
        )
    name = _name_of(connection, refused.account)
    if refused.lately and refused.from_one:
        return ngettext(
            "{name} had {n} challenge from you (or your address) within the last hour or so "
            "(it counts until an hour after it ends), the most one challenger may send one "
            "account: try again later.",
            "{name} had {n} challenges from you (or your address) within the last hour or "
            "so (each counts until an hour after it ends), the most one challenger may send "
            "one account: try again later.",
            challenges.MOST_FROM_ONE_LATELY,
            name=name,
        )
    if refused.lately:
        return ngettext(
            "{name} had {n} challenge within the last hour or so (it counts until an hour "
            "after it ends), the most one account may receive: try again later.",
            "{name} had {n} challenges within the last hour or so (each counts until an "
            "hour after it ends), the most one account may receive: try again later.",
            challenges.MOST_RECEIVED_LATELY,
            name=name,
        )
    if refused.from_one:
        return ngettext(
            "{name} has {n} open challenge from you (or your address) waiting, the most one "
            "challenger may send one account: wait for its answer.",
            "{name} has {n} open challenges from you (or your address) waiting, the "
            "most one challenger may send one account: wait for its answers.",
            challenges.MOST_FROM_ONE,
            name=name,
        )
    return ngettext(
        "{name} has {n} open challenge waiting, the most one account may: try again later.",
        "{name} has {n} open challenges waiting, the most one account may: try again later.",
        challenges.MOST_RECEIVED,
        name=name,
    )


def find(connection: redis.Redis, challenge_id: str) -> Challenge:
    found = challenges.get(connection, challenge_id) if is_game_id(challenge_id) else None
    if found is None:
        raise ChallengeNotFound()
    return found


def of_account(connection: redis.Redis, account_id: str) -> list[Challenge]:
    """The challenges the account made or that name it, while remembered, oldest first."""
    return challenges.of_account(connection, account_id)


def cancel(connection: redis.Redis, challenge_id: str, account: Account) -> Challenge:
    """The maker takes its challenge back."""
    challenge = find(connection, challenge_id)
    if account.id != challenge.challenger:
        raise NotInChallenge(_("Only the account that made a challenge may cancel it."))
    return _answered(connection, challenge, account, "cancelled")


def decline(connection: redis.Redis, challenge_id: str, account: Account) -> Challenge:
    challenge = find(connection, challenge_id)
    if account.id not in challenge.challenged:
        raise NotInChallenge(_("This challenge does not name your account."))
    return _answered(connection, challenge, account, "declined")


def accept(
    connection: redis.Redis, service: GameService, challenge_id: str, account: Account
) -> Challenge:
    """The account accepts; the last acceptance makes the game and starts it."""
    challenge = find(connection, challenge_id)
    if account.id not in challenge.challenged:
        raise NotInChallenge(_("This challenge does not name your account."))
    if account.disabled:
        raise AccountDisabled()
    status, taken = challenges.answer(connection, challenge, account.id, "accepted")
    if taken and status == "starting":
        try:
            game_id = _start(connection, service, challenge)
        except BaseException:
            challenges.failed(connection, challenge)
            raise
        challenges.started(connection, challenge, game_id)
    elif not taken:
        raise ChallengeClosed(status or "forgotten")
    return find(connection, challenge_id)


def _answered(
    connection: redis.Redis, challenge: Challenge, account: Account, what: str
) -> Challenge:
    status, taken = challenges.answer(connection, challenge, account.id, what)
    if not taken:
        raise ChallengeClosed(status or "forgotten")
    return find(connection, challenge.id)


def _start(connection: redis.Redis, service: GameService, challenge: Challenge) -> str:
    """Make the challenge's game with everyone seated, and hand a bot its first turn."""
    kind = KINDS[challenge.game]
    parsed = parsed_rules(challenge.game, challenge.rules, challenge.seats)
    seats: list[Seat] = []
    streamed: list[str] = []
    for spec in challenge.seats:
        if "bot" in spec:
            # Named once the accounts are seated: a name like no account's there.
            seats.append(Seat("", spec["bot"]))
            continue
        account = get(connection, spec["account"])
        if account is None or account.disabled:
            raise InvalidInput(_("An account of this challenge is disabled or gone."))
        hooked = account.kind == "bot" and webhooks.get(connection, account.id) is not None
        seats.append(
            Seat(account.name, account=account.id, key_hash=account.key_hash or None,
                 webhook=hooked, bot_account=account.kind == "bot")
        )  # fmt: skip
        if not hooked:
            streamed.append(account.id)
    for i, seat in enumerate(seats):
        if seat.bot is not None:
            seats[i] = replace(seat, name=bot_name(seat.bot, i, seats))
    table = Table(None, stand_in=DEFAULT_STAND_IN, rated=challenge.rated)
    created = service.store.create(
        kind.new(parsed, None),
        seats,
        owed_task=service.bots.owed_turn,
        table=table,
        payer=challenge.payer,
    )
    record = created.record
    # An account disabled (or its key replaced) since it was read above is settled now.
    service.tables.settle(record, created.standing)
    for account_id in streamed:
        note_game(connection, account_id, record.id)
    if record.bot_to_move is not None:
        service.bots.game_changed(record.id, record.version, record.payer, record.thinks_long)
    return record.id
