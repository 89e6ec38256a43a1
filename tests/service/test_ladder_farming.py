"""The ladder cannot be farmed by accounts of one person playing one another, against the
test's real Redis: three accounts, the same one always first, play a dozen rated games in a
day; the first few count, and the winner's rating rises no further past the pair cap."""

from __future__ import annotations

from typing import Any

from core.store import ratings
from core.store.accounts import Account, create
from core.store.store import GameStore

#: The pair cap of the defaults (core.config): rated games a pair counts in a day.
CAP = 3


def people(store: GameStore, *names: str) -> list[Account]:
    return [create(store.redis, name, "person")[1] for name in names]


def shown(store: GameStore, account: Account) -> float:
    found = ratings.rating_of(store.redis, "pocha", account.id)
    assert found is not None
    return found.shown


def count(
    store: GameStore, game_id: str, accounts: list[Account], when: float, **kwargs: Any
) -> bool:
    """A rated Pocha game among `accounts` that they finished in seat order, counted at
    `when` with the defaults' limits."""
    seats = len(accounts)
    return ratings.count_ranks(
        store.redis, game_id, "pocha", list(range(1, seats + 1)), [(0, 0)] * seats, accounts,
        60, now=when, **kwargs,
    )  # fmt: skip


def test_three_accounts_farming_one_winner_stop_moving_past_the_cap(store: GameStore) -> None:
    winner, loser, other = people(store, "Farmer", "Shill One", "Shill Two")
    start = 1_000_000.0
    curve = []
    for game in range(12):
        assert count(store, f"farm{game}", [winner, loser, other], start + game * 60)
        curve.append(shown(store, winner))
    # The first games among them count, and climb...
    assert curve[0] < curve[1] < curve[CAP - 1]
    # ...then the nine more of the same day move nobody.
    assert curve[CAP:] == [curve[CAP - 1]] * (12 - CAP)
    for account in (winner, loser, other):
        rating = ratings.rating_of(store.redis, "pocha", account.id)
        assert rating is not None and rating.games == CAP
    latest = ratings.history(store.redis, "pocha", winner.id)
    assert len(latest) == 12
    assert [e.get("counted", True) for e in latest] == [False] * (12 - CAP) + [True] * CAP
