"""Blocking, in the game's words: an account blocks another (by id or by name, as a
challenge names its opponents), and from then on the blocked account's challenges to it
are refused (`challenge_refused`); the challenges it made to the blocker before are set
aside at once: the open ones declined, and none of those remembered counted any more
against the blocker's cap on challenges received, so blocking the accounts that flood it
frees it at once. Beyond challenges, a blocked account takes no seat at a table the blocker
made or sits at (`core.play.tables`), and no match seats the two together or seats the
blocker's bot at the blocked account's asking (`check_match_seats`); a game already made is
left as it is. Our bot levels challenge nobody (they are seated by level, never challenged
as accounts), so blocking one is refused rather than stored for nothing.
How it works: docs/bots-api.md, "Blocking".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import redis

from core.errors import AccountNotFound, InvalidInput, SeatRefused, TooManyBlocks
from core.play.challenges import named
from core.store import blocks, challenges
from core.store.accounts import Account, names
from core.store.blocks import MOST_BLOCKS, BlocksFull
from engine.i18n import _


@dataclass(frozen=True)
class Blocked:
    """An account blocked: its id and name, and since when (Unix time)."""

    id: str
    name: str
    since: float


def _refused(message: str) -> InvalidInput:
    return InvalidInput(message, errors={"json": {"account": [message]}})


def block(connection: redis.Redis, blocker: Account, text: str) -> tuple[Blocked, list[str]]:
    """`blocker` blocks the account `text` names (again: nothing changes), and the ids of
    that account's open challenges to it, declined now."""
    found = named(connection, text)
    if found is None:
        raise _refused(_("No account has the id or name {name}.", name=repr(text)))
    if found.id == blocker.id:
        raise _refused(_("An account cannot block itself."))
    if found.level is not None:
        raise _refused(
            _(
                "{name} is one of our bot levels: it challenges nobody, so there is nothing "
                "to block.",
                name=found.name,
            )
        )
    try:
        stored = blocks.block(connection, blocker.id, found.id)
    except BlocksFull:
        raise TooManyBlocks(MOST_BLOCKS) from None
    declined = challenges.set_aside(connection, blocker.id, found.id)
    return Blocked(found.id, found.name, stored.since), declined


def unblock(connection: redis.Redis, blocker: Account, text: str) -> None:
    """`blocker` blocks the account `text` names no more (if it did). An id blocked is let
    go even if its account was forgotten since; `AccountNotFound` when `text` is neither."""
    if blocks.unblock(connection, blocker.id, text):
        return
    found = named(connection, text)
    if found is None:
        raise AccountNotFound(_("No account has this id or name."))
    blocks.unblock(connection, blocker.id, found.id)


def of_account(connection: redis.Redis, blocker: Account) -> list[Blocked]:
    """The accounts `blocker` blocks, the latest blocked first; those forgotten since are
    left out (they can challenge nobody)."""
    found = blocks.of_account(connection, blocker.id)
    named_now = names(connection, [b.account for b in found])
    return [Blocked(b.account, named_now[b.account], b.since) for b in found
            if b.account in named_now]  # fmt: skip


def check_match_seats(connection: redis.Redis, seated: Sequence[str], asker: str | None) -> None:
    """Refuse a match (`SeatRefused`) that seats an account beside one it blocks, or that
    seats an account that blocks `asker`, the account whose key asks for it (a bot open to
    matches is not seated at its blocker's asking). Asked without a key, a match is
    nobody's: only the accounts it seats are weighed. One round trip, none without an
    account seated."""
    accounts = list(dict.fromkeys(seated))
    pairs = [(a, b) for a in accounts for b in accounts]
    if asker is not None:
        pairs += [(a, asker) for a in accounts]
    found = blocks.blocking(connection, pairs)
    if not found:
        return
    if any(blocked == asker for _blocker, blocked in found):
        raise SeatRefused.in_match(blocker=False, asker=True)
    raise SeatRefused.in_match(blocker=any(b == asker for b, _blocked in found), asker=False)
