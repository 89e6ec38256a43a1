"""Ratings of the accounts that play rated games: OpenSkill's Plackett-Luce model, per game
(Pocha and Poch rated apart), changed exactly once per finished rated game, with each
rating's recent history and a ladder per game and kind of account. A pair of accounts
counts toward each other's ratings in a few rated games a day at most, and an account is
provisional until it has been counted against a few distinct opponents, so that accounts
made to lose to one another farm nothing.
How it works: docs/api.md, "Accounts, rated tables and the ladder".
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import redis
from openskill.models import PlackettLuce

from core.store.accounts import LEVEL_PREFIX, Account, get, level_account
from core.store.keys import (
    UNRATED,
    account_key,
    ladder_key,
    rated_key,
    rated_pair_key,
    rating_history_key,
    ratings_key,
)
from core.store.records import StoredGame
from engine.registry import AnyGame

log = logging.getLogger(__name__)

#: The ratings a history keeps per account and game (the newest).
HISTORY = 100
#: How long the mark that a game was counted outlives the game (seconds beyond its own
#: time to live): a game is counted only while it exists.
MARK_EXTRA_SECONDS = 86_400
#: Tries of one update when another update of the same game's ratings lands first.
TRIES = 20
#: Why a seat's result in a rated game moved no rating (its history entry's `reason`):
#: every opponent at the table had counted against it as often as the cap allows.
REPEATED_OPPONENTS = "repeated_opponents"


@dataclass(frozen=True)
class Limits:
    """What keeps the ladder from being farmed by accounts that play one another."""

    #: Rated games a pair of accounts counts toward each other's ratings in any rolling
    #: `pair_seconds` (0: no cap). With one of our levels, only the level's side is
    #: capped (`caps_level`): everyone may play it as often as they like and have it
    #: count, but no one account may move the level's rating more often than that.
    pair_games: int = 3
    pair_seconds: int = 86_400
    #: Distinct opponents an account's rated games must have counted against before the
    #: ladder takes its rating as more than provisional (0: never provisional).
    provisional_opponents: int = 5

    @classmethod
    def from_settings(cls, settings: dict[str, Any]) -> Limits:
        """The deployment's limits (`core.config`)."""
        return cls(
            int(settings["RATED_PAIR_GAMES"]),
            int(settings["RATED_PAIR_SECONDS"]),
            int(settings["RATED_PROVISIONAL_OPPONENTS"]),
        )

    def applies_to(self, first: str, second: str) -> bool:
        """Whether the pair cap limits what games between these two accounts count (for
        both: neither is one of our levels)."""
        return (
            self.pair_games > 0
            and first != second
            and not first.startswith(LEVEL_PREFIX)
            and not second.startswith(LEVEL_PREFIX)
        )

    def caps_level(self, level: str, account: str) -> bool:
        """Whether the pair cap limits how often games with `account` move our level
        `level`'s rating. A level loses to whoever plays badly, so an account that loses
        to it on purpose would otherwise raise its rating without end, and anyone beating
        it after would reap what was sown (a farm through a level)."""
        return (
            self.pair_games > 0
            and level.startswith(LEVEL_PREFIX)
            and not account.startswith(LEVEL_PREFIX)
        )


#: The limits when none are given: core.config's defaults.
DEFAULT_LIMITS = Limits()


@cache
def model() -> PlackettLuce:
    """The model every rating is updated by: OpenSkill's defaults (mu 25, sigma 25/3,
    beta 25/6, tau 25/300)."""
    return PlackettLuce()


def displayed(mu: float, sigma: float) -> float:
    """The rating shown and ranked by: mu - 3 sigma (OpenSkill's ordinal), which the player's
    skill exceeds with about 99.7% confidence, so a new player starts at 0."""
    return mu - 3 * sigma


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    games: int = 0
    #: When it last changed (a Unix time; 0: never).
    updated: float = 0.0
    #: In a game of bids (Pocha): the bids made in its rated games, and those that took
    #: exactly the tricks bid. Counted with the rating, so once per game.
    bids: int = 0
    exact_bids: int = 0
    #: The distinct accounts its counted games were rated against, kept only up to as
    #: many as end the provisional time; None for a rating counted before they were kept,
    #: which is known by its games alone.
    opponents: tuple[str, ...] | None = ()

    @property
    def shown(self) -> float:
        return displayed(self.mu, self.sigma)

    def provisional(self, account_id: str, limits: Limits) -> bool:
        """Whether the ladder marks this rating provisional: counted against fewer distinct
        opponents than `limits` asks. Our levels' never are: they are everyone's yardstick."""
        if account_id.startswith(LEVEL_PREFIX):
            return False
        if self.opponents is None:
            return self.games < limits.provisional_opponents
        return len(self.opponents) < limits.provisional_opponents

    def met(self, opponents: Sequence[str], limits: Limits) -> tuple[str, ...] | None:
        """`opponents` with these too, while provisional (a known rating past its
        provisional time keeps what it has: the list never grows past the limit)."""
        if self.opponents is None:
            return None
        kept = list(self.opponents)
        for opponent in opponents:
            if len(kept) >= limits.provisional_opponents:
                break
            if opponent not in kept:
                kept.append(opponent)
        return tuple(kept)

    def to_json(self) -> str:
        return json.dumps(
            {
                "mu": self.mu, "sigma": self.sigma, "games": self.games, "updated": self.updated,
                "bids": self.bids, "exact_bids": self.exact_bids,
                **({} if self.opponents is None else {"opponents": list(self.opponents)}),
            }
        )  # fmt: skip

    @classmethod
    def from_json(cls, raw: bytes | str | None) -> Rating:
        if raw is None:
            m = model()
            return cls(m.mu, m.sigma)
        data = json.loads(raw)
        opponents = data.get("opponents")
        return cls(
            float(data["mu"]), float(data["sigma"]), int(data["games"]), float(data["updated"]),
            int(data.get("bids", 0)), int(data.get("exact_bids", 0)),
            None if opponents is None else tuple(str(o) for o in opponents),
        )  # fmt: skip


def ranks_of(scores: Sequence[float]) -> list[int]:
    """Each seat's place by its final score, higher first: 1 plus the seats that scored
    more (a tie shares its place)."""
    return [1 + sum(1 for other in scores if other > score) for score in scores]


def rate(
    ratings: Sequence[tuple[float, float]], ranks: Sequence[int], m: PlackettLuce | None = None
) -> list[tuple[float, float]]:
    """The players' (mu, sigma) after a free-for-all game they finished in `ranks`."""
    m = m or model()
    teams = [[m.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    after = m.rate(teams, ranks=list(ranks))
    return [(team[0].mu, team[0].sigma) for team in after]


def final_scores(game: AnyGame) -> list[float]:
    """Each seat's final score: Pocha's points, Poch's chips."""
    scores = getattr(game, "scores", None)
    if scores is None:
        scores = game.result()["chips"]  # type: ignore[union-attr]
    return [float(s) for s in scores]


def bid_counts(game: AnyGame, seats: int) -> list[tuple[int, int]]:
    """Each seat's bids in a finished game and how many took exactly the tricks bid
    (Pocha's score sheet); (0, 0) for every seat of a game without bids (Poch)."""
    counts = [(0, 0)] * seats
    for hand in getattr(game, "history", None) or []:
        if not isinstance(hand, dict) or "bids" not in hand or "tricks" not in hand:
            continue
        counts = [
            (made + (bid >= 0), exact + (bid >= 0 and bid == took))
            for (made, exact), bid, took in zip(counts, hand["bids"], hand["tricks"], strict=True)
        ]
    return counts


def seat_accounts(connection: redis.Redis, record: StoredGame) -> list[Account]:
    """The account each seat of a rated game plays as: its person's, or its level's."""
    found = []
    for seat in record.seats:
        if seat.account is not None:
            account = get(connection, seat.account)
        elif seat.bot is not None:
            account = level_account(connection, seat.bot)
        else:
            account = None
        if account is None:
            raise ValueError(f"seat {seat.name!r} of rated game {record.id} has no account")
        found.append(account)
    return found


def count_game(
    connection: redis.Redis,
    record: StoredGame,
    mark_ttl: int,
    *,
    now: float | None = None,
    before_write: Callable[[], None] | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> bool:
    """Change the ratings of a finished rated game's players by its result, unless that
    was done already: True if this call did it. The new ratings, their history, the
    ladders, the counts of the pairs that played and the mark that the game is counted are
    written in one transaction, watched on the mark, the game's ratings and those pairs'
    counts, so that however many processes try (the one that made the last move, a
    worker's sweep after it died), the game counts once.
    `before_write`: called between reading and writing (where a process may die)."""
    return count_result(
        connection, record.id, record.game, seat_accounts(connection, record), mark_ttl,
        now=now, before_write=before_write, limits=limits,
    )  # fmt: skip


def count_result(
    connection: redis.Redis,
    game_id: str,
    game: AnyGame,
    accounts: Sequence[Account],
    mark_ttl: int,
    *,
    now: float | None = None,
    before_write: Callable[[], None] | None = None,
    noted: dict[str, Any] | None = None,
    fixed: Collection[int] = (),
    limits: Limits = DEFAULT_LIMITS,
) -> bool:
    """`count_game` for any finished game (a table's, a rated match's), known by a
    `game_id` of its own, its seats played by `accounts` in seat order; `noted`: more for
    each history entry (a match's game: its match and number); `fixed`: seats whose ratings
    stay as they are (a rated match's levels)."""
    return count_ranks(
        connection, game_id, game.kind, ranks_of(final_scores(game)),
        bid_counts(game, len(accounts)), accounts, mark_ttl,
        now=now, before_write=before_write, noted=noted, fixed=fixed, limits=limits,
    )  # fmt: skip


def count_ranks(
    connection: redis.Redis,
    game_id: str,
    game_name: str,
    ranks: Sequence[int],
    bids: Sequence[tuple[int, int]],
    accounts: Sequence[Account],
    mark_ttl: int,
    *,
    now: float | None = None,
    before_write: Callable[[], None] | None = None,
    noted: dict[str, Any] | None = None,
    fixed: Collection[int] = (),
    limits: Limits = DEFAULT_LIMITS,
) -> bool:
    """`count_result` by each seat's place (`ranks`) and its bids and exact bids, for a game
    that counts without a result of its own (a rated match's game its bot gave up).

    Two accounts that have counted toward each other's ratings `limits.pair_games` times in
    the window count no more: each seat is rated by its places against the seats it may
    still count against, as though those alone had played; a seat with none left keeps its
    rating, and its history notes the game as not counted. One of our levels that has
    counted against an account seated that often keeps its rating (the account's own
    still counts against it): the level is not rated against the rest of the table either,
    whose order that account shaped. The pairs' counts are watched and written in the
    game's one transaction, so a game adds to them once too."""
    when = time.time() if now is None else now
    mark, ratings = rated_key(game_id), ratings_key(game_name)
    ids = [a.id for a in accounts]
    seats = range(len(accounts))
    pairs = {
        (i, j): rated_pair_key(game_name, ids[i], ids[j])
        for i in seats
        for j in seats
        if i < j and limits.applies_to(ids[i], ids[j])
    }
    # (level's seat, account's seat): a level held still (`fixed`) has nothing to cap.
    level_pairs = {
        (i, j): rated_pair_key(game_name, ids[i], ids[j])
        for i in seats
        for j in seats
        if i not in fixed and limits.caps_level(ids[i], ids[j])
    }
    since = when - limits.pair_seconds
    for _try in range(TRIES):
        with connection.pipeline(transaction=True) as pipe:
            try:
                pipe.watch(mark, ratings, *pairs.values(), *level_pairs.values())
                if pipe.exists(mark):
                    pipe.unwatch()
                    connection.zrem(UNRATED, game_id)
                    return False
                raw = pipe.hmget(ratings, ids)
                before = [Rating.from_json(r) for r in raw]
                past = {
                    pair
                    for pair, key in pairs.items()
                    if _counted_since(pipe, key, game_id, since) >= limits.pair_games
                }
                held = {
                    level
                    for (level, _account), key in level_pairs.items()
                    if _counted_since(pipe, key, game_id, since) >= limits.pair_games
                }
                against = [
                    []
                    if i in held
                    else [j for j in seats if j != i and (min(i, j), max(i, j)) not in past]
                    for i in seats
                ]
                after = _rate_against(before, ranks, against)
                if before_write is not None:
                    before_write()
                pipe.multi()
                for seat, (account, old, new_skill, rank, (made, exact)) in enumerate(
                    zip(accounts, before, after, ranks, bids, strict=True)
                ):
                    if seat in fixed:
                        continue
                    entry: dict[str, Any] = {"game_id": game_id, "rank": rank, "when": when}
                    not_against = sorted({ids[j] for j in seats if j != seat} - {
                        ids[j] for j in against[seat]
                    })  # fmt: skip
                    if new_skill is None:
                        entry |= {
                            "mu": old.mu, "sigma": old.sigma, "rating": old.shown,
                            "counted": False, "reason": REPEATED_OPPONENTS,
                        }  # fmt: skip
                    else:
                        mu, sigma = new_skill
                        new = Rating(
                            mu, sigma, old.games + 1, when, old.bids + made,
                            old.exact_bids + exact,
                            old.met([ids[j] for j in against[seat]], limits),
                        )  # fmt: skip
                        pipe.hset(ratings, account.id, new.to_json())
                        pipe.zadd(ladder_key(game_name, account.kind), {account.id: new.shown})
                        entry |= {"mu": mu, "sigma": sigma, "rating": new.shown, "counted": True}
                    if not_against:
                        entry["not_counted_against"] = not_against
                    history = rating_history_key(game_name, account.id)
                    pipe.lpush(history, json.dumps({**entry, **(noted or {})}))
                    pipe.ltrim(history, 0, HISTORY - 1)
                counted = [key for pair, key in pairs.items() if pair not in past] + [
                    key for (level, _account), key in level_pairs.items() if level not in held
                ]
                for key in counted:
                    pipe.zadd(key, {game_id: when})
                    # Only the window's games are ever read: older ones go, and the whole
                    # set with them once the pair has played none for a window.
                    pipe.zremrangebyscore(key, "-inf", since)
                    pipe.expire(key, limits.pair_seconds)
                pipe.set(mark, "1", ex=mark_ttl)
                pipe.zrem(UNRATED, game_id)
                pipe.execute()
                return True
            except redis.WatchError:
                continue
    raise RuntimeError(f"rated game {game_id}: ratings kept changing under {TRIES} tries")


def _counted_since(pipe: Any, key: str, game_id: str, since: float) -> int:
    """The games a pair counted toward each other after `since`, other than `game_id`
    (which, counted already, is there when a dead count's mark was lost)."""
    found = pipe.zrangebyscore(key, f"({since}", "+inf")
    return sum(1 for g in found if (g.decode() if isinstance(g, bytes) else str(g)) != game_id)


def _rate_against(
    before: Sequence[Rating], ranks: Sequence[int], against: Sequence[Sequence[int]]
) -> list[tuple[float, float] | None]:
    """Each seat's (mu, sigma) after a game, rated by its places against the seats of
    `against[seat]` alone, as though they alone had played: Plackett-Luce orders any part
    of a game's players as the whole game ordered them, so nothing is made up. None for a
    seat with no one left to be rated against. A game without capped pairs is rated whole,
    once."""
    groups: dict[tuple[int, ...], dict[int, tuple[float, float]]] = {}
    found: list[tuple[float, float] | None] = []
    for seat, others in enumerate(against):
        if not others:
            found.append(None)
            continue
        group = tuple(sorted({seat, *others}))
        if group not in groups:
            places = (
                list(ranks)
                if len(group) == len(ranks)
                else ranks_of([-float(ranks[i]) for i in group])
            )
            rated = rate([(before[i].mu, before[i].sigma) for i in group], places)
            groups[group] = dict(zip(group, rated, strict=True))
        found.append(groups[group][seat])
    return found


def note_rated(connection: redis.Redis, game_id: str, made: float) -> None:
    """Remember a new rated game until it is counted (`count_unrated` finds it if the
    process that made its last move died before counting it)."""
    connection.zadd(UNRATED, {game_id: made})


def count_unrated(
    connection: redis.Redis,
    load: Callable[[str], StoredGame | None],
    mark_ttl: int,
    most: int = 100,
    limits: Limits = DEFAULT_LIMITS,
) -> int:
    """Count the finished rated games not counted yet (the `most` looked at longest ago);
    forget those that are gone. `load`: a game by its id, or None when it no longer exists.
    How many it counted.

    A game found still in play goes to the back of the set: rated tables left waiting live
    for days, and a hundred of them made on purpose would otherwise be all the sweep ever
    read, so that a finished game whose counting process died was never counted."""
    counted = 0
    for raw in connection.zrange(UNRATED, 0, most - 1):
        game_id = raw.decode() if isinstance(raw, bytes) else str(raw)
        record = load(game_id)
        if record is None:
            connection.zrem(UNRATED, game_id)
        elif not record.finished:
            # XX: a game counted meanwhile (and so taken out) is not put back.
            connection.zadd(UNRATED, {game_id: time.time()}, xx=True)
        elif count_game(connection, record, mark_ttl, limits=limits):
            counted += 1
    return counted


def rating_of(connection: redis.Redis, game: str, account_id: str) -> Rating | None:
    raw = connection.hget(ratings_key(game), account_id)
    return None if raw is None else Rating.from_json(raw)


def ratings_by_game(
    connection: redis.Redis, account_id: str, games: Sequence[str]
) -> dict[str, Rating]:
    """The account's rating in each game of `games` it has played rated."""
    pipe = connection.pipeline(transaction=False)
    for game in games:
        pipe.hget(ratings_key(game), account_id)
    return {
        game: Rating.from_json(raw)
        for game, raw in zip(games, pipe.execute(), strict=True)
        if raw is not None
    }


def history(
    connection: redis.Redis, game: str, account_id: str, most: int = HISTORY
) -> list[dict[str, Any]]:
    """The account's ratings in `game` after each of its latest rated games, newest first."""
    return [
        json.loads(r) for r in connection.lrange(rating_history_key(game, account_id), 0, most - 1)
    ]


def ladder(
    connection: redis.Redis,
    game: str,
    kind: str,
    start: int,
    count: int,
    limits: Limits = DEFAULT_LIMITS,
) -> tuple[int, list[dict[str, Any]]]:
    """The ladder of `game` for accounts of `kind`, best first: how many it holds, and
    `count` entries from place `start` (0-based), each marked if still provisional."""
    key = ladder_key(game, kind)
    total = int(connection.zcard(key))
    ids = [
        raw.decode() if isinstance(raw, bytes) else str(raw)
        for raw in connection.zrevrange(key, start, start + count - 1)
    ]
    pipe = connection.pipeline(transaction=False)
    for account_id in ids:
        pipe.hmget(account_key(account_id), ["name", "seen", "disabled"])
        pipe.hget(ratings_key(game), account_id)
    found = pipe.execute()
    entries = []
    for place, account_id in enumerate(ids):
        (name, seen, disabled), raw = found[2 * place], found[2 * place + 1]
        if name is None or raw is None:
            continue
        rating = Rating.from_json(raw)
        entries.append(
            {
                "rank": start + place + 1,
                "id": account_id,
                "name": name.decode(),
                "rating": round(rating.shown, 3),
                "mu": round(rating.mu, 3),
                "sigma": round(rating.sigma, 3),
                "games": rating.games,
                "provisional": rating.provisional(account_id, limits),
                "last_seen": float(seen) if seen is not None else None,
                "disabled": disabled == b"1",
            }
        )
    return total, entries
