"""The ladder's cap on repeated opponents, against the test's real Redis (the farming it
stops: test_ladder_farming.py): a pair of accounts counts toward each other's ratings in at
most a few rated games in a rolling window, and one account moves one of our levels' as
often at most, though its own counts against the level every time; a game past
the cap still finishes and its history says it did not count; a table of four rates each
seat against the seats it may still count against; the sweep's recount of a game whose
counter died counts it once; an account is provisional until it has been counted against
enough distinct opponents."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from core.store import ratings
from core.store.accounts import level_account
from core.store.keys import UNRATED, rated_key, rated_pair_key, ratings_key
from core.store.store import GameStore
from service import create_app
from service.context import EXTENSION
from tests.service.test_accounts import account_header, play_people, sign_up
from tests.service.test_ladder_farming import CAP, count, people, shown

HOUR = 3600.0
DAY = 24 * HOUR


def test_the_cap_rolls_with_its_window_and_its_counts_expire(store: GameStore) -> None:
    ana, bruno = people(store, "Ana", "Bruno")
    start = 2_000_000.0
    for game in range(CAP):
        assert count(store, f"g{game}", [ana, bruno], start + game * HOUR)
    key = rated_pair_key("pocha", bruno.id, ana.id)
    assert key == rated_pair_key("pocha", ana.id, bruno.id)
    assert 0 < store.redis.ttl(key) <= DAY
    settled = shown(store, ana)
    assert count(store, "late", [ana, bruno], start + 5 * HOUR)
    assert shown(store, ana) == settled
    assert ratings.history(store.redis, "pocha", ana.id)[0]["reason"] == "repeated_opponents"
    # A day after the first counted game it leaves the window, and one more counts...
    assert count(store, "next-day", [ana, bruno], start + DAY + 1)
    assert shown(store, ana) > settled
    assert ratings.history(store.redis, "pocha", ana.id)[0]["counted"] is True
    # ...the older one is gone from the pair's set, which holds the window's games alone...
    assert {m.decode() for m in store.redis.zrange(key, 0, -1)} == {"g1", "g2", "next-day"}
    # ...and the next one is past the cap again.
    again = shown(store, ana)
    assert count(store, "next-day-2", [ana, bruno], start + DAY + 2)
    assert shown(store, ana) == again


def test_an_account_counts_every_game_against_our_levels_and_moves_them_only_to_the_cap(
    store: GameStore,
) -> None:
    (ana,) = people(store, "Ana")
    easy, medium = level_account(store.redis, "easy"), level_account(store.redis, "medium")
    start = 3_000_000.0
    pumped = []
    for game in range(CAP + 3):
        # Ana last every time: losing on purpose, she would raise the levels without end,
        # for whoever beats them next to reap.
        assert count(store, f"lv{game}", [easy, medium, ana], start + game)
        pumped.append(shown(store, easy))
    assert pumped[CAP:] == [pumped[CAP - 1]] * 3
    games = {a.id: ratings.rating_of(store.redis, "pocha", a.id) for a in (ana, easy, medium)}
    assert {i: r.games for i, r in games.items() if r is not None} == {
        ana.id: CAP + 3, easy.id: CAP, medium.id: CAP,
    }  # fmt: skip
    # Held still, a level is not rated against the other level either: Ana ordered them.
    latest = ratings.history(store.redis, "pocha", easy.id)[0]
    assert latest["counted"] is False and latest["reason"] == "repeated_opponents"
    assert latest["not_counted_against"] == sorted([ana.id, medium.id])
    assert "not_counted_against" not in ratings.history(store.redis, "pocha", ana.id)[0]
    # Anyone else's games still move them.
    (bruno,) = people(store, "Bruno")
    assert count(store, "bruno", [bruno, easy, medium], start + CAP + 3)
    after = ratings.rating_of(store.redis, "pocha", easy.id)
    assert after is not None and after.games == CAP + 1
    assert store.redis.zcard(rated_pair_key("pocha", easy.id, ana.id)) == CAP
    assert not store.redis.exists(rated_pair_key("pocha", easy.id, medium.id))


def test_a_cap_of_zero_games_caps_nothing(store: GameStore) -> None:
    ana, bruno, carla = people(store, "Ana", "Bruno", "Carla")
    uncapped = ratings.Limits(pair_games=0)
    curve = []
    for game in range(CAP + 2):
        count(store, f"u{game}", [ana, bruno, carla], 3_500_000.0 + game, limits=uncapped)
        curve.append(shown(store, ana))
    assert curve == sorted(set(curve))
    assert not store.redis.keys("*:pair:*")


def test_a_table_of_four_rates_each_seat_against_those_it_may_still_count_against(
    store: GameStore,
) -> None:
    ana, bruno, carla, dario = people(store, "Ana", "Bruno", "Carla", "Dario")
    start = 4_000_000.0
    for game in range(CAP):
        count(store, f"ab{game}", [ana, bruno, level_account(store.redis, "easy")], start + game)
    before = {a.id: ratings.rating_of(store.redis, "pocha", a.id) for a in (ana, bruno)}
    fresh = ratings.Rating(ratings.model().mu, ratings.model().sigma)
    table = [ana, bruno, carla, dario]
    skill = [before[ana.id] or fresh, before[bruno.id] or fresh, fresh, fresh]
    assert count(store, "four", table, start + HOUR)
    # Ana and Bruno are rated as though the other had not sat there; Carla and Dario by
    # the whole table.
    pairs = [(r.mu, r.sigma) for r in skill]
    without_bruno = ratings.rate([pairs[0], pairs[2], pairs[3]], [1, 2, 3])
    without_ana = ratings.rate([pairs[1], pairs[2], pairs[3]], [1, 2, 3])
    whole = ratings.rate(pairs, [1, 2, 3, 4])
    expected = {
        ana.id: without_bruno[0], bruno.id: without_ana[0], carla.id: whole[2],
        dario.id: whole[3],
    }  # fmt: skip
    for account in table:
        after = ratings.rating_of(store.redis, "pocha", account.id)
        assert after is not None
        assert (after.mu, after.sigma) == pytest.approx(expected[account.id])
    entry = ratings.history(store.redis, "pocha", ana.id)[0]
    assert entry["counted"] is True and entry["not_counted_against"] == [bruno.id]
    assert "not_counted_against" not in ratings.history(store.redis, "pocha", carla.id)[0]
    # The pair past the cap gained no count; the others one each.
    assert store.redis.zcard(rated_pair_key("pocha", ana.id, bruno.id)) == CAP
    assert store.redis.zcard(rated_pair_key("pocha", ana.id, carla.id)) == 1
    assert store.redis.zcard(rated_pair_key("pocha", carla.id, dario.id)) == 1


def test_an_account_is_provisional_until_counted_against_enough_opponents(
    store: GameStore,
) -> None:
    limits = ratings.Limits(pair_games=CAP, provisional_opponents=3)
    ana, bruno, carla, dario = people(store, "Ana", "Bruno", "Carla", "Dario")
    easy = level_account(store.redis, "easy")
    count(store, "p1", [ana, bruno, easy], 5_000_000.0, limits=limits)
    rating = ratings.rating_of(store.redis, "pocha", ana.id)
    assert rating is not None and rating.provisional(ana.id, limits)
    for game in range(CAP + 1):
        count(store, f"p2{game}", [ana, bruno, easy], 5_000_001.0 + game, limits=limits)
    rating = ratings.rating_of(store.redis, "pocha", ana.id)
    assert rating is not None and rating.opponents == (bruno.id, easy.id)
    assert rating.provisional(ana.id, limits)
    count(store, "p3", [ana, carla, dario], 5_000_100.0, limits=limits)
    rating = ratings.rating_of(store.redis, "pocha", ana.id)
    assert rating is not None and not rating.provisional(ana.id, limits)
    assert len(rating.opponents or ()) == 3
    easy_rating = ratings.rating_of(store.redis, "pocha", easy.id)
    assert easy_rating is not None and not easy_rating.provisional(easy.id, limits)
    _total, entries = ratings.ladder(store.redis, "pocha", "person", 0, 10, limits)
    assert {e["id"]: e["provisional"] for e in entries} == {
        ana.id: False, bruno.id: True, carla.id: True, dario.id: True,
    }  # fmt: skip


@pytest.fixture
def capped_app(redis_url: str) -> Flask:
    return create_app(
        {
            "REDIS_URL": redis_url, "TESTING": True, "BOT_RUNNER": "inline",
            "RATED_PAIR_GAMES": 1, "RATED_PROVISIONAL_OPPONENTS": 2,
        }
    )  # fmt: skip


def three_people_table(client: FlaskClient, keys: list[str]) -> tuple[str, dict[int, str]]:
    """A rated table of three accounts, started: its id and their seats' tokens."""
    made = client.post(
        "/api/v1/games",
        json={"players": [{"name": "x"}, {"open": True}, {"open": True}],
              "rules": {"schedule": [1]}, "rated": True},
        headers=account_header(keys[0]),
    )  # fmt: skip
    assert made.status_code == 201, made.json
    tokens = {0: made.json["seats"][0]["token"]}
    for seat, key in enumerate(keys[1:], start=1):
        joined = client.post(
            f"/api/v1/tables/{made.json['table_code']}/seats", json={"name": "x"},
            headers=account_header(key),
        )  # fmt: skip
        assert joined.status_code == 201, joined.json
        tokens[seat] = joined.json["token"]
    return made.json["id"], tokens


def test_a_game_past_the_cap_finishes_and_its_history_says_it_did_not_count(
    capped_app: Flask,
) -> None:
    client = capped_app.test_client()
    store: GameStore = capped_app.extensions[EXTENSION].store
    made = [sign_up(client, name).json for name in ("Ana", "Bruno", "Carla")]
    keys, ids = [m["key"] for m in made], [m["id"] for m in made]
    # The first game's last move fails to count it (the ratings' hash is, for now, a key of
    # another type, so Redis refuses the count's read): the sweep counts it, once, however
    # many sweeps run at once.
    store.redis.set(ratings_key("pocha"), "not a hash")
    first, tokens = three_people_table(client, keys)
    play_people(client, first, tokens)
    store.redis.delete(ratings_key("pocha"))
    assert not store.redis.exists(rated_key(first))
    assert store.redis.zscore(UNRATED, first) is not None

    def load(game_id: str) -> Any:
        return store.load(game_id)

    counted = []
    sweeps = [
        threading.Thread(
            target=lambda: counted.append(
                ratings.count_unrated(store.redis, load, 60, limits=store.rating_limits)
            )
        )
        for _ in range(4)
    ]
    for sweep in sweeps:
        sweep.start()
    for sweep in sweeps:
        sweep.join()
    assert sorted(counted) == [0, 0, 0, 1]
    assert ratings.count_unrated(store.redis, load, 60, limits=store.rating_limits) == 0
    for a, b in ((0, 1), (0, 2), (1, 2)):
        assert store.redis.zcard(rated_pair_key("pocha", ids[a], ids[b])) == 1

    def standing() -> dict[str, tuple[Any, ...]]:
        entries = client.get("/api/v1/ladder?kind=person").json["entries"]
        return {e["id"]: (e["rating"], e["mu"], e["sigma"], e["games"]) for e in entries}

    settled = standing()
    assert {i: s[3] for i, s in settled.items()} == dict.fromkeys(ids, 1)
    entries = client.get("/api/v1/ladder?kind=person").json["entries"]
    assert {e["id"]: e["provisional"] for e in entries} == dict.fromkeys(ids, False)
    # The same three again the same day: the game is played to its end, counted as not
    # counting, and moves nobody.
    second, tokens = three_people_table(client, keys)
    final = play_people(client, second, tokens)
    assert final["phase"] == "finished" and store.redis.exists(rated_key(second))
    assert standing() == settled
    for account_id in ids:
        curve = client.get(f"/api/v1/accounts/{account_id}/history?game=pocha").json
        latest, earlier = curve["entries"]
        assert latest["game_id"] == second and earlier["game_id"] == first
        assert earlier["counted"] is True and "reason" not in earlier
        assert latest["counted"] is False and latest["reason"] == "repeated_opponents"
        assert latest["not_counted_against"] == sorted(set(ids) - {account_id})
        assert (latest["mu"], latest["sigma"]) == (earlier["mu"], earlier["sigma"])
        profile = client.get(f"/api/v1/accounts/{account_id}").json["ratings"][0]
        assert profile["games"] == 1 and profile["provisional"] is False
