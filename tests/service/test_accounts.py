"""Accounts, rated tables and the ladder against the test's real Redis: an account is made
with a key shown once and stored hashed; names that imitate another's are refused; a
guessed key is 401; sign-ups are limited per address; an account's key seats the account;
a rated game counts once in OpenSkill ratings (checked against OpenSkill's published
values), even when the process counting it dies before writing; the ladder lists it."""

from __future__ import annotations

import hashlib
import random
import threading
from typing import Any

import pytest
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient
from openskill.models import PlackettLuce

from cli.main import pocha
from core.errors import NameTaken
from core.play.bots import play_bot_turn
from core.store import accounts, ratings
from core.store.keys import ACCOUNT_KEYS, UNRATED, account_key, account_turns_key, rated_key
from core.store.store import GameStore
from service import create_app
from tests.service.helpers import bearer, move
from tests.service.test_records import play_seat_to_the_end

ANA = {"REMOTE_ADDR": "203.0.113.7"}


def sign_up(client: FlaskClient, name: str, kind: str = "person", **kwargs: Any) -> Any:
    return client.post("/api/v1/accounts", json={"name": name, "kind": kind}, **kwargs)


def account_header(key: str) -> dict[str, str]:
    return {"X-Pocha-Account": key}


def play_people(client: FlaskClient, game_id: str, tokens: dict[int, str]) -> dict[str, Any]:
    """Play every person's turn (the first legal move) until the game is over; bots play
    inline. The spectator's last view."""
    for _turn in range(500):
        view = client.get(f"/api/v1/games/{game_id}").json
        if view["phase"] == "finished":
            return dict(view)
        seat = view["turn"]
        mine = client.get(f"/api/v1/games/{game_id}", headers=bearer(tokens[seat])).json
        choice = mine["you"]["legal"][0]
        path, body = ("bids", {"bid": choice}) if isinstance(choice, int) else (
            "plays", {"card": choice}
        )  # fmt: skip
        answer = client.post(
            f"/api/v1/games/{game_id}/{path}", json=body, headers=bearer(tokens[seat])
        )
        assert answer.status_code == 200, answer.json
    raise AssertionError("the game did not end")


def rated_table(
    client: FlaskClient, host_key: str, guest_key: str, bots: tuple[str, str] = ("easy", "medium")
) -> tuple[str, dict[int, str]]:
    """A rated table of two accounts and two levels, started: its id and people's tokens."""
    made = client.post(
        "/api/v1/games",
        json={
            "players": [{"name": "x"}, {"open": True}, {"name": "b1", "bot": bots[0]},
                        {"name": "b2", "bot": bots[1]}],
            "rules": {"schedule": [1]},
            "rated": True,
        },
        headers=account_header(host_key),
    )  # fmt: skip
    assert made.status_code == 201, made.json
    code = made.json["table_code"]
    joined = client.post(
        f"/api/v1/tables/{code}/seats", json={"name": "ignored"}, headers=account_header(guest_key)
    )
    assert joined.status_code == 201, joined.json
    return made.json["id"], {0: made.json["seats"][0]["token"], 1: joined.json["token"]}


def test_an_account_is_made_with_a_key_shown_once_and_stored_hashed(
    client: FlaskClient, store: GameStore
) -> None:
    made = sign_up(client, "  Ana   María ")
    assert made.status_code == 201, made.json
    body = made.json
    assert body["name"] == "Ana María" and body["kind"] == "person"
    assert body["key"].startswith("pa_") and len(body["key"]) > 40
    assert made.headers["Location"] == f"/api/v1/accounts/{body['id']}"
    stored = store.redis.hgetall(account_key(body["id"]))
    assert body["key"].encode() not in b"".join([*stored.keys(), *stored.values()])
    digest = hashlib.sha256(body["key"].encode()).hexdigest()
    assert store.redis.hget(ACCOUNT_KEYS, digest) == body["id"].encode()
    profile = client.get(f"/api/v1/accounts/{body['id']}").json
    assert profile["name"] == "Ana María" and profile["ratings"] == []
    assert profile["disabled"] is False and profile["level"] is None
    assert "key" not in profile
    assert client.get("/api/v1/accounts/nobody").json["error"] == "account_not_found"


@pytest.mark.parametrize(
    "imitation",
    [
        "ana maría",  # case
        "Ana Maria",  # an accent
        "AnaMaría",  # spacing
        "Аna María",  # a Cyrillic А
        "Ａｎａ Ｍａｒíａ",  # fullwidth letters (NFKC)
        "Ana-Maria",
    ],
)
def test_a_name_that_imitates_another_is_refused(client: FlaskClient, imitation: str) -> None:
    assert sign_up(client, "Ana María").status_code == 201
    refused = sign_up(client, imitation)
    assert refused.status_code == 409
    assert refused.json["error"] == "name_taken"
    spanish = sign_up(client, imitation, headers={"Accept-Language": "es"})
    assert spanish.json["error"] == "name_taken"
    assert spanish.json["message"] != refused.json["message"]


def test_lookalikes_within_ascii_and_level_names_are_refused(client: FlaskClient) -> None:
    assert sign_up(client, "Bill").status_code == 201
    assert sign_up(client, "BiII", "bot").json["error"] == "name_taken"  # capital I as l
    assert sign_up(client, "Bi11").json["error"] == "name_taken"
    assert sign_up(client, "Master").json["error"] == "name_taken"  # a bot level's
    assert sign_up(client, "Bilbo").status_code == 201


@pytest.mark.parametrize("name", ["", "   ", "\u3164\u3164", "\u200b", "x" * 33])
def test_blank_looking_and_long_names_are_refused(client: FlaskClient, name: str) -> None:
    refused = sign_up(client, name)
    assert refused.status_code == 422
    assert "name" in refused.json["errors"]["json"]


def test_a_bad_kind_is_refused(client: FlaskClient) -> None:
    refused = sign_up(client, "Eva", "robot")
    assert refused.status_code == 422
    assert "kind" in refused.json["errors"]["json"]


def test_a_guessed_key_is_refused_and_a_disabled_account_takes_no_seat(
    client: FlaskClient, store: GameStore
) -> None:
    body = {"players": [{"name": "Ana"}, {"name": "B", "bot": "easy"}]}
    guessed = client.post("/api/v1/games", json=body, headers=account_header("pa_" + "A" * 43))
    assert guessed.status_code == 401
    assert guessed.json["error"] == "unknown_account"
    made = sign_up(client, "Carla").json
    assert accounts.set_disabled(store.redis, made["id"])
    refused = client.post("/api/v1/games", json=body, headers=account_header(made["key"]))
    assert refused.status_code == 403 and refused.json["error"] == "account_disabled"
    assert client.get(f"/api/v1/accounts/{made['id']}").json["disabled"] is True


def test_an_accounts_key_seats_the_account_under_its_name(client: FlaskClient) -> None:
    ana = sign_up(client, "Ana").json
    made = client.post(
        "/api/v1/games",
        json={"players": [{"name": "whoever"}, {"open": True}, {"name": "B", "bot": "easy"}]},
        headers=account_header(ana["key"]),
    ).json
    assert made["seats"][0]["name"] == "Ana" and made["seats"][0]["account"] == ana["id"]
    assert "account" not in made["seats"][2]
    bruno = sign_up(client, "Bruno").json
    joined = client.post(
        f"/api/v1/tables/{made['table_code']}/seats",
        json={"name": "someone"},
        headers=account_header(bruno["key"]),
    )
    assert joined.status_code == 201
    players = client.get(f"/api/v1/games/{made['id']}").json["players"]
    assert [(p["name"], p.get("account")) for p in players] == [
        ("Ana", ana["id"]), ("Bruno", bruno["id"]), ("B", None)
    ]  # fmt: skip


#: The refusal of a bot level seated twice in a rated game.
LEVEL_TWICE = (
    "The bot level {level} would have more than one seat in this game: at a rated table each "
    "bot level has one seat."
)


def test_a_rated_table_seats_accounts_only_and_each_once(client: FlaskClient) -> None:
    ana = sign_up(client, "Ana").json
    rated: dict[str, Any] = {
        "players": [{"name": "x"}, {"open": True}, {"open": True}, {"name": "b", "bot": "easy"}],
        "rated": True,
    }
    anonymous = client.post("/api/v1/games", json=rated)
    assert anonymous.status_code == 401 and anonymous.json["error"] == "account_required"
    seeded = client.post(
        "/api/v1/games", json={**rated, "seed": 4}, headers=account_header(ana["key"])
    )
    assert seeded.status_code == 422
    two_easy = {**rated, "players": [*rated["players"][:3], {"name": "c", "bot": "easy"}]}
    twice = client.post(
        "/api/v1/games",
        json={**two_easy, "players": [{"name": "x"}, {"name": "b", "bot": "easy"},
                                       {"name": "c", "bot": "easy"}]},
        headers=account_header(ana["key"]),
    )  # fmt: skip
    assert twice.status_code == 409 and twice.json["error"] == "one_seat_per_account"
    assert twice.json["message"] == LEVEL_TWICE.format(level="easy")
    # Bots alone, their maker unseated, would move the levels' ratings at will.
    unseated = client.post(
        "/api/v1/games",
        json={**rated, "players": [{"name": "b", "bot": "easy"}, {"name": "c", "bot": "hard"},
                                    {"name": "d", "bot": "medium"}]},
        headers=account_header(ana["key"]),
    )  # fmt: skip
    assert unseated.status_code == 422 and "seats its maker" in unseated.json["message"]
    made = client.post("/api/v1/games", json=rated, headers=account_header(ana["key"])).json
    view = client.get(f"/api/v1/games/{made['id']}").json
    assert view["table"]["rated"] is True
    code = made["table_code"]
    stranger = client.post(f"/api/v1/tables/{code}/seats", json={"name": "Zed"})
    assert stranger.status_code == 401 and stranger.json["error"] == "account_required"
    again = client.post(
        f"/api/v1/tables/{code}/seats", json={"name": "Ana"}, headers=account_header(ana["key"])
    )
    assert again.status_code == 409 and again.json["error"] == "one_seat_per_account"
    assert again.json["message"] == (
        "Your account, Ana, has a seat at this table already: at a rated table each account "
        "has one seat."
    )
    spanish = client.post(
        f"/api/v1/tables/{code}/seats", json={"name": "Ana"},
        headers={**account_header(ana["key"]), "Accept-Language": "es"},
    )  # fmt: skip
    assert spanish.json["message"] == (
        "Tu cuenta, Ana, ya tiene un asiento en esta mesa: en una mesa puntuada cada cuenta "
        "tiene un solo asiento."
    )
    # Two open seats filled by one level would seat it twice.
    started = client.post(
        f"/api/v1/games/{made['id']}/start", json={"bots": "hard"},
        headers=bearer(made["host_token"]),
    )  # fmt: skip
    assert started.status_code == 409 and started.json["error"] == "one_seat_per_account"
    assert started.json["message"] == LEVEL_TWICE.format(level="hard")
    bot = client.post(
        f"/api/v1/games/{made['id']}/seats/1/bot", json={"level": "easy"},
        headers={**bearer(made["host_token"]), "Accept-Language": "es"},
    )  # fmt: skip
    assert (bot.status_code, bot.json["error"]) == (409, "one_seat_per_account")
    assert bot.json["message"] == (
        "El nivel de bot easy tendría más de un asiento en esta partida: en una mesa puntuada "
        "cada nivel de bot tiene un solo asiento."
    )


def test_an_account_sits_once_at_a_table_and_others_still_sit_by_name(
    client: FlaskClient,
) -> None:
    """An account's one key opens one seat: a second seat for it would be left to the
    stand-in once its key is replaced (that drops the tokens handed out under the old
    key). So an account that sits at a table is refused another seat there, in the
    caller's language, with the table unchanged; the household of an unlisted table still
    sits by name, and once the account's seat is given up it may sit again."""
    ana = sign_up(client, "Ana").json
    made = client.post(
        "/api/v1/games",
        json={"players": [{"name": "x"}, {"open": True}, {"open": True},
                          {"name": "b", "bot": "easy"}]},
        headers=account_header(ana["key"]),
    ).json  # fmt: skip
    code, game = made["table_code"], f"/api/v1/games/{made['id']}"
    before = client.get(game).json
    seats = f"/api/v1/tables/{code}/seats"
    for lang, sentence in [
        ("en", "Your account has a seat at this table already: an account plays one seat at "
               "a table."),
        ("es", "Tu cuenta ya tiene un asiento en esta mesa: una cuenta juega un solo asiento "
               "por mesa."),
    ]:  # fmt: skip
        again = client.post(
            seats, json={"name": "Ana"},
            headers={**account_header(ana["key"]), "Accept-Language": lang},
        )  # fmt: skip
        assert again.status_code == 409, again.json
        assert (again.json["error"], again.json["message"]) == ("one_seat_per_account", sentence)
    assert client.get(game).json == before

    sister = client.post(seats, json={"name": "Eva"})
    assert sister.status_code == 201, sister.json
    left = client.post(f"{game}/seats/0/leave", headers=bearer(ana["key"]))
    assert left.status_code == 200, left.json
    back = client.post(seats, json={"name": "Ana"}, headers=account_header(ana["key"]))
    assert back.status_code == 201, back.json
    assert back.json["seat"] == 0


def test_a_rated_game_changes_the_ratings_once_and_the_ladder_lists_everyone(
    client: FlaskClient, store: GameStore
) -> None:
    ana, bruno = sign_up(client, "Ana").json, sign_up(client, "Bruno").json
    game_id, tokens = rated_table(client, ana["key"], bruno["key"])
    assert store.redis.zscore(UNRATED, game_id) is not None
    final = play_people(client, game_id, tokens)
    assert store.redis.exists(rated_key(game_id))
    assert store.redis.zscore(UNRATED, game_id) is None
    people = client.get("/api/v1/ladder?game=pocha&kind=person").json
    bots = client.get("/api/v1/ladder", query_string={"game": "pocha", "kind": "bot"}).json
    assert people["total"] == 2 and bots["total"] == 2
    listed = {e["id"]: e for e in people["entries"] + bots["entries"]}
    assert set(listed) == {ana["id"], bruno["id"], "level-easy", "level-medium"}
    ids = [ana["id"], bruno["id"], "level-easy", "level-medium"]
    # What OpenSkill's Plackett-Luce makes of these final scores from fresh ratings.
    ranks = ratings.ranks_of([float(s) for s in final["scores"]])
    expected = PlackettLuce().rate([[PlackettLuce().rating()] for _ in ids], ranks=ranks)
    for account_id, team in zip(ids, expected, strict=True):
        entry = listed[account_id]
        assert entry["games"] == 1
        assert entry["mu"] == pytest.approx(team[0].mu, abs=1e-3)
        assert entry["sigma"] == pytest.approx(team[0].sigma, abs=1e-3)
        assert entry["rating"] == pytest.approx(team[0].mu - 3 * team[0].sigma, abs=1e-3)
        assert entry["sigma"] < 25 / 3
    assert [e["rank"] for e in people["entries"]] == [1, 2]
    assert people["entries"][0]["rating"] >= people["entries"][1]["rating"]
    profile = client.get(f"/api/v1/accounts/{ana['id']}").json
    assert profile["ratings"][0]["game"] == "pocha" and profile["ratings"][0]["games"] == 1
    level = client.get("/api/v1/accounts/level-easy").json
    assert level["kind"] == "bot" and level["level"] == "easy" and level["name"] == "easy"
    # Counting it again, from any number of processes at once, changes nothing.
    record = store.load(game_id)
    threads = [
        threading.Thread(target=ratings.count_game, args=(store.redis, record, 60))
        for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not ratings.count_game(store.redis, record, 60)
    again = client.get("/api/v1/ladder?kind=person").json
    assert {e["id"]: e["mu"] for e in again["entries"]} == {
        e["id"]: e["mu"] for e in people["entries"]
    }
    assert len(ratings.history(store.redis, "pocha", ana["id"])) == 1
    # Each seat's bids and exact bids, counted with the rating: once, however many counted.
    hands = record.game.history  # type: ignore[union-attr]
    for seat, account_id in enumerate(ids):
        rated = client.get(f"/api/v1/accounts/{account_id}").json["ratings"][0]
        assert rated["bids"] == len(hands) > 0
        assert rated["exact_bids"] == sum(h["bids"][seat] == h["tricks"][seat] for h in hands)
    # The curve of each rating, over HTTP: one point, the game's, with the rating it left.
    curve = client.get(f"/api/v1/accounts/{ana['id']}/history?game=pocha").json
    assert curve["game"] == "pocha" and [e["game_id"] for e in curve["entries"]] == [game_id]
    assert curve["entries"][0]["mu"] == listed[ana["id"]]["mu"]
    assert client.get(f"/api/v1/accounts/{ana['id']}/history?game=poch").json["entries"] == []
    missing = client.get("/api/v1/accounts/nosuchaccount000/history")
    assert missing.status_code == 404 and missing.json["error"] == "account_not_found"
    assert client.get(f"/api/v1/accounts/{ana['id']}/history?game=chess").status_code == 422


class Died(Exception):
    """The counting process dies between reading the ratings and writing them."""


def test_a_rated_game_counts_once_when_its_counter_dies_mid_update(
    client: FlaskClient, store: GameStore
) -> None:
    ana, bruno = sign_up(client, "Ana").json, sign_up(client, "Bruno").json
    game_id, tokens = rated_table(client, ana["key"], bruno["key"])
    play_people(client, game_id, tokens)
    record = store.load(game_id)
    before = client.get("/api/v1/ladder?kind=person").json["entries"]
    # A second count dying before its write leaves everything as the first left it.

    def die() -> None:
        raise Died()

    store.redis.delete(rated_key(game_id))
    store.redis.zadd(UNRATED, {game_id: 1.0})
    snapshot = {e["id"]: (e["mu"], e["sigma"], e["games"]) for e in before}
    with pytest.raises(Died):
        ratings.count_game(store.redis, record, 60, before_write=die)
    after = client.get("/api/v1/ladder?kind=person").json["entries"]
    assert {e["id"]: (e["mu"], e["sigma"], e["games"]) for e in after} == snapshot
    assert store.redis.zscore(UNRATED, game_id) is not None

    # The sweep then counts it exactly once (here: a second time, its mark being gone).
    def load(game: str) -> Any:
        return store.load(game)

    assert ratings.count_unrated(store.redis, load, 60) == 1
    assert ratings.count_unrated(store.redis, load, 60) == 0
    assert store.redis.zscore(UNRATED, game_id) is None
    games = {e["id"]: e["games"] for e in client.get("/api/v1/ladder?kind=person").json["entries"]}
    assert games == {ana["id"]: 2, bruno["id"]: 2}


def test_rated_tables_left_in_play_do_not_hide_a_lost_count_from_the_sweep(
    client: FlaskClient, store: GameStore
) -> None:
    """A griefer's rated tables, never finished, are the oldest the sweep reads; it moves
    each it finds in play to the back, so a finished game behind them is still counted."""
    ana, bruno = sign_up(client, "Ana").json, sign_up(client, "Bruno").json
    in_play = [rated_table(client, ana["key"], bruno["key"])[0] for _ in range(3)]
    finished, tokens = rated_table(client, ana["key"], bruno["key"])
    play_people(client, finished, tokens)
    # Its counting process died: the mark is gone and it waits behind the three in play.
    store.redis.delete(rated_key(finished))
    for age, game_id in enumerate([*in_play, finished]):
        store.redis.zadd(UNRATED, {game_id: 1.0 + age})

    def load(game: str) -> Any:
        return store.load(game)

    counts = [ratings.count_unrated(store.redis, load, 60, most=2) for _ in range(3)]
    assert sum(counts) == 1
    assert store.redis.zscore(UNRATED, finished) is None
    assert all(store.redis.zscore(UNRATED, g) is not None for g in in_play)


def test_the_update_matches_openskills_published_values() -> None:
    # OpenSkill's README: a1 and a2 win against b1 and b2 (with tau 0, as published).
    model = PlackettLuce(tau=0)
    teams = [[(25.0, 25 / 3), (32.444, 5.123)], [(43.381, 2.421), (25.188, 6.211)]]
    after = model.rate([[model.rating(mu=m, sigma=s) for m, s in team] for team in teams])
    published = [
        (28.669648436582808, 8.071520788025197),
        (33.83086971107981, 5.062772998705765),
        (43.071274808241974, 2.4166900452721256),
        (23.149503312339064, 6.1378606973362135),
    ]
    got = [(r.mu, r.sigma) for team in after for r in team]
    flat = [x for pair in published for x in pair]
    assert [x for pair in got for x in pair] == pytest.approx(flat, rel=1e-12)
    # Its displayed rating, OpenSkill's published ordinal of b1 afterwards.
    assert ratings.displayed(*got[2]) == pytest.approx(35.821204672425594, rel=1e-12)
    # Our free-for-all update is the same model: one player per team, ranks by score.
    solo = ratings.rate([(25.0, 25 / 3), (32.444, 5.123)], [1, 2], model)
    direct = model.rate(
        [[model.rating(mu=25.0, sigma=25 / 3)], [model.rating(mu=32.444, sigma=5.123)]]
    )
    assert solo == [(t[0].mu, t[0].sigma) for t in direct]
    assert ratings.ranks_of([10.0, 30.0, 10.0, -5.0]) == [2, 1, 2, 4]


def test_sign_ups_are_limited_per_address(redis_url: str) -> None:
    app: Flask = create_app(
        {"REDIS_URL": redis_url, "TESTING": True, "BOT_RUNNER": "inline", "RATE_LIMITS": "on",
         "RATE_LIMIT_ACCOUNTS": "3/hour"}
    )  # fmt: skip
    client = app.test_client()
    made = [sign_up(client, f"Flood {i}", environ_base=ANA).status_code for i in range(3)]
    assert made == [201, 201, 201]
    for i in range(3, 6):
        refused = sign_up(client, f"Flood {i}", environ_base=ANA)
        assert refused.status_code == 429 and refused.json["error"] == "rate_limited"
        assert "making accounts" in refused.json["message"]
    other = sign_up(client, "Elsewhere", environ_base={"REMOTE_ADDR": "198.51.100.9"})
    assert other.status_code == 201


def test_pocha_accounts_lists_disables_and_renames(redis_url: str, store: GameStore) -> None:
    key, ana = accounts.create(store.redis, "Ana", "person")
    accounts.create(store.redis, "Bot Uno", "bot")
    runner = CliRunner()
    url = ["--redis-url", redis_url]
    listed = runner.invoke(pocha, ["accounts", "list", *url])
    assert listed.exit_code == 0, listed.output
    assert "Ana" in listed.output and "Bot Uno" in listed.output and key not in listed.output
    disabled = runner.invoke(pocha, ["accounts", "disable", ana.id, *url])
    assert disabled.exit_code == 0, disabled.output
    assert accounts.get(store.redis, ana.id).disabled  # type: ignore[union-attr]
    taken = runner.invoke(pocha, ["accounts", "rename", ana.id, "bot uno", *url])
    assert taken.exit_code != 0 and "taken" in taken.output
    renamed = runner.invoke(pocha, ["accounts", "rename", ana.id, "Anita", *url])
    assert renamed.exit_code == 0, renamed.output
    assert accounts.get(store.redis, ana.id).name == "Anita"  # type: ignore[union-attr]
    # The old name is free again; the new one is not.
    accounts.create(store.redis, "ana", "person")
    with pytest.raises(NameTaken):
        accounts.create(store.redis, "ANITA", "person")
    missing = runner.invoke(pocha, ["accounts", "disable", "nobody", *url])
    assert missing.exit_code != 0


def test_skeletons() -> None:
    assert accounts.skeleton("Ana María") == accounts.skeleton("ana maria")
    assert accounts.skeleton("pаypal") == accounts.skeleton("paypal")  # Cyrillic а
    assert accounts.skeleton("modern") == accounts.skeleton("modem")
    assert accounts.skeleton("Ana") != accounts.skeleton("Ara")


def test_poch_and_pocha_are_rated_apart(client: FlaskClient) -> None:
    ana = sign_up(client, "Ana").json
    bots = [{"name": n, "bot": n} for n in ("easy", "random")]
    made = client.post(
        "/api/v1/games",
        json={"game": "poch", "players": [{"name": "x"}, *bots],
              "rules": {"deals": 1}, "rated": True},
        headers=account_header(ana["key"]),
    )  # fmt: skip
    assert made.status_code == 201, made.json

    def endpoint_of(action: Any) -> tuple[str, str]:
        if action in ("pass", "hold") or isinstance(action, int):
            return "bets", "bet"
        return ("suits", "suit") if action in ("C", "S", "H", "D") else ("plays", "card")

    play_seat_to_the_end(
        client, made.json["id"], made.json["seats"][0]["token"], endpoint_of, random.Random(7)
    )
    assert client.get(f"/api/v1/games/{made.json['id']}").json["phase"] == "over"
    poch = client.get("/api/v1/ladder?game=poch&kind=bot").json
    assert {e["id"] for e in poch["entries"]} == {"level-easy", "level-random"}
    assert all(e["games"] == 1 for e in poch["entries"])
    people = client.get("/api/v1/ladder?game=poch&kind=person").json
    assert [e["id"] for e in people["entries"]] == [ana["id"]]
    assert client.get("/api/v1/ladder?game=pocha&kind=bot").json["total"] == 0
    profile = client.get("/api/v1/accounts/level-easy").json
    assert [r["game"] for r in profile["ratings"]] == ["poch"]


def test_the_ladder_is_paged_and_its_query_checked(client: FlaskClient) -> None:
    ana = sign_up(client, "Ana").json
    bots = [{"name": n, "bot": n} for n in ("easy", "medium", "random")]
    made = client.post(
        "/api/v1/games",
        json={"players": [{"name": "x"}, *bots], "rules": {"schedule": [1]}, "rated": True},
        headers=account_header(ana["key"]),
    )  # fmt: skip
    assert made.status_code == 201, made.json
    play_seat_to_the_end(
        client, made.json["id"], made.json["seats"][0]["token"],
        lambda a: ("bids", "bid") if isinstance(a, int) else ("plays", "card"), random.Random(2),
    )  # fmt: skip
    whole = client.get("/api/v1/ladder?kind=bot").json["entries"]
    assert len(whole) == 3
    page = client.get("/api/v1/ladder?kind=bot&offset=1&limit=2").json
    assert page["total"] == 3 and page["offset"] == 1
    assert [e["rank"] for e in page["entries"]] == [2, 3]
    assert [e["id"] for e in page["entries"]] == [e["id"] for e in whole[1:3]]
    for bad in ("kind=robot", "game=chess", "limit=101", "offset=-1", "limit=0"):
        refused = client.get(f"/api/v1/ladder?{bad}")
        assert refused.status_code == 422, bad


def test_only_a_bot_accounts_timed_turns_are_counted(client: FlaskClient, store: GameStore) -> None:
    # A bot account and a person's, each seated by its key at a table on a clock.
    robo, ana = sign_up(client, "Robo", "bot").json, sign_up(client, "Ana").json
    made = client.post(
        "/api/v1/games",
        json={"players": [{"name": "me"}, {"open": True}, {"name": "C", "bot": "easy"}],
              "rules": {"schedule": [1], "turn_seconds": 60}},
        headers=account_header(robo["key"]),
    ).json  # fmt: skip
    joined = client.post(
        f"/api/v1/tables/{made['table_code']}/seats", json={"name": "x"},
        headers=account_header(ana["key"]),
    )  # fmt: skip
    assert joined.status_code == 201, joined.json
    keys = {0: robo["key"], 1: ana["key"]}
    robo_moves = 0
    ran_out: set[int] = set()
    while (view := client.get(f"/api/v1/games/{made['id']}").json)["phase"] != "finished":
        if view["turn"] not in keys:
            # The bot's, owed after a move the stand-in made (the service plays it after
            # a move sent to it).
            assert play_bot_turn(store, made["id"], view["version"]) is not None
            continue
        key = keys[view["turn"]]
        if view["turn"] not in ran_out:
            # Each seat's first turn: its clock runs out and the stand-in plays it.
            ran_out.add(view["turn"])
            played = play_bot_turn(store, made["id"], view["version"], clock_ran_out=True)
            assert played is not None and played.version == view["version"] + 1
            continue
        legal = client.get(f"/api/v1/games/{made['id']}", headers=bearer(key)).json["you"]
        assert move(client, made["id"], key, legal["legal"][0]).status_code == 200
        robo_moves += key == robo["key"]
    # The bot's page shows its timed turns; nothing is written for a person's.
    assert ran_out == {0, 1}
    assert not store.redis.exists(account_turns_key(ana["id"]))
    turns = client.get(f"/api/v1/accounts/{robo['id']}").json["turns"]
    assert robo_moves and (turns["decisions"], turns["clocks_ran_out"]) == (robo_moves, 1), turns


def rated_against_levels(client: FlaskClient, key: str, rules: dict[str, Any]) -> Any:
    """A rated game of one account (seat 0) against three levels, started at once."""
    bots = [{"name": n, "bot": n} for n in ("easy", "medium", "random")]
    return client.post(
        "/api/v1/games",
        json={"players": [{"name": "x"}, *bots], "rules": rules, "rated": True},
        headers=account_header(key),
    )


def test_a_rated_game_in_play_is_not_deleted_by_its_maker(
    client: FlaskClient, store: GameStore
) -> None:
    # Deleting a rated game one is losing would keep the loss off the ladder.
    ana = sign_up(client, "Ana").json
    made = rated_against_levels(client, ana["key"], {"schedule": [1, 2]}).json
    game_id, host = made["id"], bearer(made["host_token"])
    refused = client.delete(f"/api/v1/games/{game_id}", headers=host)
    assert refused.status_code == 409, refused.data
    assert refused.json["error"] == "wrong_phase"
    assert client.get(f"/api/v1/games/{game_id}").status_code == 200
    assert store.redis.zscore(UNRATED, game_id) is not None
    play_seat_to_the_end(
        client, game_id, made["seats"][0]["token"],
        lambda a: ("bids", "bid") if isinstance(a, int) else ("plays", "card"), random.Random(3),
    )  # fmt: skip
    assert ratings.rating_of(store.redis, "pocha", ana["id"]).games == 1  # type: ignore[union-attr]
    # Counted, it is a finished game like any other: its maker may delete it.
    assert client.delete(f"/api/v1/games/{game_id}", headers=host).status_code == 204


def test_a_rated_game_its_account_walks_away_from_is_played_out_and_counted(
    client: FlaskClient, store: GameStore
) -> None:
    # Leaving a rated game one is losing, or never moving again, must not keep it from
    # ending: a game that never ends is never rated.
    ana = sign_up(client, "Ana").json
    made = rated_against_levels(client, ana["key"], {"schedule": [1, 2, 3]}).json
    game_id = made["id"]
    left = client.post(
        f"/api/v1/games/{game_id}/seats/0/leave", headers=bearer(made["seats"][0]["token"])
    )
    assert left.status_code == 200, left.json
    view = client.get(f"/api/v1/games/{game_id}").json
    assert view["phase"] == "finished", view["phase"]
    assert ratings.rating_of(store.redis, "pocha", ana["id"]).games == 1  # type: ignore[union-attr]
    assert store.redis.zscore(UNRATED, game_id) is None


def test_a_rated_games_turns_are_always_timed(client: FlaskClient) -> None:
    # Without a clock, an account that stops moving holds its rated game unfinished, and
    # so unrated, until it expires.
    ana = sign_up(client, "Ana").json
    made = rated_against_levels(client, ana["key"], {"schedule": [1]})
    assert made.status_code == 201, made.json
    view = client.get(f"/api/v1/games/{made.json['id']}").json
    assert view["rules"]["turn_seconds"] == 60
    untimed = rated_against_levels(client, ana["key"], {"schedule": [1], "turn_seconds": 0})
    assert untimed.status_code == 422, untimed.json
    assert "turn_seconds" in untimed.json["errors"]["json"]["rules"]
    bruno = sign_up(client, "Bruno").json
    challenge = client.post(
        "/api/v1/challenges",
        json={"game": "pocha", "rules": {"schedule": [1], "turn_seconds": 0}, "rated": True,
              "opponents": [{"account": bruno["id"]}, {"bot": "easy"}]},
        headers=account_header(ana["key"]),
    )  # fmt: skip
    assert challenge.status_code == 422, challenge.json
    assert "turn_seconds" in challenge.json["errors"]["json"]["rules"]
