"""Accounts do not grow without bound, against the test's real Redis: an account not in use
(no rating, key unused and no seat given for the idle days) is forgotten by the sweep, its
name free again and every key named by its id gone; rated accounts, our levels', disabled,
kept and recently seen ones stay; an account forgotten between its seat's write and the note
of that seat leaves no key behind; the records that name a forgotten account (its games,
in play or not, seated or as a table's maker, its matches) are taken out of it, whatever
raced with the scrub, and none is dropped for being busy; an analysis keeps no account's
name nor id; the store's cap refuses sign-up with 503 accounts_full in the caller's
language, changing nothing. Time is passed to the sweep as `now`, never waited for."""

from __future__ import annotations

import time
from dataclasses import replace
from functools import partial
from typing import Any

import orjson
import redis
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient
from rq.job import Job

from cli.main import pocha
from core.jobs.forgotten import scrub_forgotten
from core.jobs.matches import check_match, create_match, scrub_match
from core.jobs.queues import SERIALIZER
from core.store import (
    account_records,
    account_seats,
    account_turns,
    accounts,
    bot_games,
    challenges,
    webhooks,
)
from core.store.account_records import FORGOTTEN_NAME, SCRUB_STEP
from core.store.accounts import Lifetime
from core.store.keys import (
    ACCOUNT_KEYS,
    ACCOUNT_NAMES,
    ACCOUNTS_MADE,
    ACCOUNTS_SWEPT_TO,
    FORGOTTEN,
    account_records_key,
    events_key,
    forgotten_records_key,
    game_key,
    match_key,
)
from core.store.redises import connect_store
from core.store.store import GameStore
from service import create_app
from service.context import EXTENSION
from tests.service.test_accounts import account_header, play_people, rated_table, sign_up
from tests.service.test_disable_seats import table_of

DAY = 86_400.0
IDLE = Lifetime().idle_seconds
#: Made long enough ago to be idle now, unless used since.
LONG_AGO = time.time() - IDLE - 30 * DAY


def keys_naming(connection: redis.Redis, account_id: str) -> list[str]:
    """Every key in the store whose name holds the account's id."""
    return sorted({k.decode() for k in connection.scan_iter(match=f"*{account_id}*", count=1000)})


def sweep_all(connection: redis.Redis, now: float | None = None) -> set[str]:
    """The sweep gone once round every account, as the workers go (the shared cursor): the
    ids forgotten."""
    connection.delete(ACCOUNTS_SWEPT_TO)
    forgotten: set[str] = set()
    while True:
        step = accounts.forget_idle(connection, IDLE, now=now, most=3)
        forgotten.update(step.forgotten)
        if step.next_start == 0:
            return forgotten


def test_an_idle_account_is_forgotten_with_every_key_and_its_name_is_free(
    client: FlaskClient, store: Any
) -> None:
    r = store.redis
    key, idle = accounts.create(r, "Olvidado", "bot", now=LONG_AGO)
    # Everything an account gathers that is named by its id: a seat and a game in play
    # (long ago), timed turns, a webhook, challenges made, an event stream's lease.
    r.zadd(f"pocha:{{accounts}}:seats:{idle.id}", {"GONEGAME": LONG_AGO})
    bot_games.note_game(r, idle.id, "GONEGAME")
    r.zadd(f"pocha:{{accounts}}:games:{idle.id}", {"GONEGAME": LONG_AGO})
    account_turns.count_move(r, idle.id, 12.0)
    assert webhooks.register(r, idle.id, "https://bot.example/turn") is not None
    challenges.make(r, idle.id, "pocha", {}, False, [{"account": idle.id}, {"bot": "easy"}], 300)
    r.set(f"pocha:{{accounts}}:stream:{idle.id}", "lease", ex=600)
    assert len(keys_naming(r, idle.id)) >= 7

    assert idle.id in sweep_all(r)
    # Its games in play wait for the sweep to take it out of them (this one is gone).
    assert keys_naming(r, idle.id) == [f"pocha:{{accounts}}:forgotten:{idle.id}"]
    assert scrub_forgotten(r) == 1

    assert keys_naming(r, idle.id) == []
    assert not r.exists(FORGOTTEN)
    assert accounts.get(r, idle.id) is None
    assert r.zscore(ACCOUNTS_MADE, idle.id) is None
    assert idle.id.encode() not in r.hvals(ACCOUNT_NAMES)
    assert idle.id.encode() not in r.hvals(ACCOUNT_KEYS)
    # Its key opens nothing, and its name is anyone's again.
    assert client.get("/api/v1/account", headers=account_header(key)).status_code == 401
    again = sign_up(client, "olvidado")
    assert again.status_code == 201, again.json


def test_a_forgotten_account_is_taken_out_of_the_games_that_name_it(
    client: FlaskClient, store: Any
) -> None:
    """An unrated game kept after it ended (and one still in play) named the account by its
    id and its name, which anyone may take once it is forgotten: the sweep takes both out."""
    r = store.redis
    key, idle = accounts.create(r, "Olvidada", "person", now=LONG_AGO)
    bruno = sign_up(client, "Bruno").json
    made = client.post(
        "/api/v1/games",
        json={"players": [{"name": "x"}, {"open": True}, {"name": "b", "bot": "easy"}],
              "rules": {"schedule": [1]}},
        headers=account_header(bruno["key"]),
    )  # fmt: skip
    assert made.status_code == 201, made.json
    joined = client.post(
        f"/api/v1/tables/{made.json['table_code']}/seats", json={"name": "n"},
        headers=account_header(key),
    )  # fmt: skip
    assert joined.status_code == 201, joined.json
    finished = made.json["id"]
    tokens = {0: made.json["seats"][0]["token"], 1: joined.json["token"]}
    assert play_people(client, finished, tokens)["phase"] == "finished"
    in_play = client.post(
        "/api/v1/games",
        json={"players": [{"name": "x"}, {"name": "b", "bot": "easy"}, {"open": True}]},
        headers=account_header(key),
    )  # fmt: skip
    assert in_play.status_code == 201, in_play.json
    games = (finished, in_play.json["id"])
    for game_id in games:
        seats = client.get(f"/api/v1/games/{game_id}").json["players"]
        assert [(p["name"], p.get("account")) for p in seats if p.get("account") == idle.id]
    # Its key and its seats were used long ago (the seat in play too: set back).
    accounts.note_seen(r, idle.id, now=LONG_AGO)
    r.zadd(f"pocha:{{accounts}}:seats:{idle.id}", {in_play.json["id"]: LONG_AGO})

    assert idle.id in sweep_all(r)
    for game_id in games:  # forgotten, and still named until the sweep takes it out
        meta = r.hget(game_key(game_id), "meta")
        assert idle.id.encode() in meta and b"Olvidada" in meta
    assert b"Olvidada" in b"".join(r.lrange(events_key(finished), 0, -1))
    assert scrub_forgotten(r) >= 2

    assert keys_naming(r, idle.id) == []
    for game_id in games:
        stored = r.hgetall(game_key(game_id))
        assert not any(idle.id.encode() in value for value in stored.values())
        assert not any(b"Olvidada" in e for e in r.lrange(events_key(game_id), 0, -1))
        players = client.get(f"/api/v1/games/{game_id}").json["players"]
        assert [p["name"] for p in players if "account" not in p and not p["bot"]][:1] == [
            FORGOTTEN_NAME
        ]
        assert all(p.get("account") != idle.id for p in players)
    record = client.get(f"/api/v1/games/{finished}/record").json
    assert FORGOTTEN_NAME in [p["name"] for p in record["players"]]
    assert "Olvidada" not in str(record)
    # Bruno's account is untouched.
    assert bruno["id"] in str(client.get(f"/api/v1/games/{finished}").json["players"])


def test_the_sweep_takes_a_forgotten_account_out_of_a_bounded_number_of_records_a_step(
    store: Any,
) -> None:
    r = store.redis
    _key, idle = accounts.create(r, "Olvidada", "person", now=LONG_AGO)
    _key, other = accounts.create(r, "Otra", "person", now=LONG_AGO)
    # Records kept a day (games gone meanwhile: each costs a look), one past its time.
    for game_id in ("GAMEONE", "GAMETWO", "GAMETHREE"):
        account_records.note(r, [idle.id, other.id], f"game:{game_id}", DAY)
    account_records.note(r, [idle.id], "match:OLDMATCH", -1)
    account_records.note(r, [idle.id], "game:GAMEFOUR", DAY)  # the note drops the old one
    assert len(account_records.records_of(r, idle.id)) == 4

    assert sweep_all(r) == {idle.id, other.id}
    assert account_records.pending(r) == {idle.id: "Olvidada", other.id: "Otra"}
    steps = []
    while r.exists(FORGOTTEN):
        steps.append(scrub_forgotten(r, most=3))
    assert steps == [3, 3, 1]
    assert keys_naming(r, idle.id) == keys_naming(r, other.id) == []


def test_accounts_in_use_stay(client: FlaskClient, store: Any) -> None:
    r = store.redis
    ana, bruno = (sign_up(client, name).json for name in ("Ana", "Bruno"))
    game_id, tokens = rated_table(client, ana["key"], bruno["key"])
    assert play_people(client, game_id, tokens)["phase"] == "finished"
    rated = {ana["id"], bruno["id"]}
    levels = {a.id for a in accounts.listed(r) if a.level}
    assert levels  # the rated table made the levels' accounts
    seen_key, seen = accounts.create(r, "Visto", "person", now=LONG_AGO)
    seated_key, seated = accounts.create(r, "Sentado", "person", now=LONG_AGO)
    _key, kept = accounts.create(r, "Guardado", "person", now=LONG_AGO)
    _key, disabled = accounts.create(r, "Apartado", "person", now=LONG_AGO)
    _key, idle = accounts.create(r, "Ocioso", "person", now=LONG_AGO)
    # Used since: its key (noted seen), a seat given it (a table made with its key).
    assert client.get("/api/v1/account", headers=account_header(seen_key)).status_code == 200
    made = client.post(
        "/api/v1/games",
        json={"players": [{"name": "x"}, {"open": True}, {"name": "b", "bot": "easy"}]},
        headers=account_header(seated_key),
    )
    assert made.status_code == 201, made.json
    # Set back as long ago: only its seat, noted now, says it is in use.
    accounts.note_seen(r, seated.id, now=LONG_AGO)
    assert accounts.set_kept(r, kept.id)
    assert accounts.set_disabled(r, disabled.id)
    # The rated ones and the levels unseen for far longer than the idle days.
    far = time.time() + 10 * IDLE

    assert sweep_all(r) == {idle.id}
    assert sweep_all(r, now=far) == {seen.id, seated.id}

    left = {a.id for a in accounts.listed(r, 0, 1000)}
    assert rated | levels | {kept.id, disabled.id} <= left
    assert accounts.set_kept(r, kept.id, False)
    assert sweep_all(r, now=far) == {kept.id}


def test_an_account_forgotten_as_it_takes_a_seat_leaves_no_key_behind(
    app: Flask, client: FlaskClient, store: Any
) -> None:
    """The sweep runs between a seat's write and the seat's notes (the account's games in
    play, its stream's games), the order that left a set of games naming a forgotten id:
    each note writes only while the account is stored."""
    r = store.redis
    tables = app.extensions[EXTENSION].games.tables
    bruno = sign_up(client, "Bruno").json
    _key, idle = accounts.create(r, "Olvidado", "bot", now=LONG_AGO)
    # The seating's look at the account, then the sweep, then the seating's write and notes.
    looked = accounts.get(r, idle.id)
    assert looked is not None
    assert accounts.forget(r, [idle.id], time.time() - IDLE) == [idle.id]
    game = table_of(client, bruno["key"], rated=False)
    _record, seat, _token = tables.join(game["table_code"], "n", account=looked)
    # The seat is given, and the write that gave it finds the account gone: taken out.
    given = store.load(game["id"], history=False).seats[seat]
    assert (given.open, given.account, given.name) == (False, None, FORGOTTEN_NAME)

    assert keys_naming(r, idle.id) == []
    # The notes one by one, as every other way of seating calls them: nothing written, and
    # the account reads back as gone.
    standing = account_seats.note(r, [idle.id, bruno["id"]], game["id"])
    bot_games.note_game(r, idle.id, game["id"])
    assert keys_naming(r, idle.id) == []
    assert standing[idle.id] == account_seats.Standing(disabled=False, key_hash="")
    # An account still stored has its seat noted by the same script.
    assert game["id"] in account_seats.games_of(r, bruno["id"])
    assert standing[bruno["id"]].key_hash == accounts.hash_key(bruno["key"])


def test_the_sweep_goes_on_where_it_stopped_and_each_step_is_bounded(store: Any) -> None:
    r = store.redis
    made = [accounts.create(r, f"Cuenta {i}", "person", now=LONG_AGO + i)[1] for i in range(7)]
    r.delete(ACCOUNTS_SWEPT_TO)
    first = accounts.forget_idle(r, IDLE, most=3)
    assert first.looked_at == 3 and set(first.forgotten) == {a.id for a in made[:3]}
    # Kept in Redis: a worker started anew goes on from the fourth account.
    assert int(r.get(ACCOUNTS_SWEPT_TO)) == 0
    second = accounts.forget_idle(r, IDLE, most=3)
    assert set(second.forgotten) == {a.id for a in made[3:6]}
    third = accounts.forget_idle(r, IDLE, most=3)
    assert third.forgotten == (made[6].id,) and third.next_start == 0
    assert accounts.count(r) == 0


def test_a_dry_run_forgets_nothing(store: Any) -> None:
    r = store.redis
    made = [accounts.create(r, f"Seco {i}", "person", now=LONG_AGO)[1] for i in range(4)]
    step = accounts.forget_idle(r, IDLE, start=0, dry_run=True)
    assert set(step.forgotten) == {a.id for a in made}
    assert accounts.count(r) == 4


def test_the_cap_refuses_sign_up_in_the_callers_language_and_changes_nothing(
    redis_url: str,
) -> None:
    app = create_app(
        {"REDIS_URL": redis_url, "TESTING": True, "BOT_RUNNER": "inline", "MAX_ACCOUNTS": 2}
    )
    client = app.test_client()
    assert sign_up(client, "Uno").status_code == 201
    assert sign_up(client, "Dos").status_code == 201
    r = app.extensions["pocha"].redises.store
    before = {k: r.dump(k) for k in r.scan_iter(match="pocha:{accounts}:*")}

    english = sign_up(client, "Tres")
    spanish = sign_up(client, "Tres", headers={"Accept-Language": "es"})

    assert (english.status_code, english.json["error"]) == (503, "accounts_full")
    assert english.headers["Retry-After"] == "3600"
    assert english.json["message"].startswith("This service holds as many accounts")
    assert (spanish.status_code, spanish.json["error"]) == (503, "accounts_full")
    assert spanish.json["message"].startswith("Este servicio tiene todas las cuentas")
    assert {k: r.dump(k) for k in r.scan_iter(match="pocha:{accounts}:*")} == before
    # A name taken is still told as taken only once there is room: the cap is said first.
    assert sign_up(client, "Uno").json["error"] == "accounts_full"


def test_a_burst_of_sign_ups_stops_at_the_cap(store: Any) -> None:
    connection = store.redis
    made, refused = 0, 0
    for i in range(30):
        try:
            accounts.create(connection, f"Ráfaga {i}", "person", most=12)
            made += 1
        except Exception as exc:
            assert type(exc).__name__ == "AccountsFull"
            refused += 1
    assert (made, refused, accounts.count(connection)) == (12, 18, 12)


def test_the_operator_counts_keeps_and_sweeps(redis_url: str, store: Any) -> None:
    connection = store.redis
    _key, idle = accounts.create(connection, "Viejo", "person", now=LONG_AGO)
    _key, kept = accounts.create(connection, "Conservado", "person", now=LONG_AGO)
    runner = CliRunner()
    env = {"REDIS_URL": redis_url, "LANG": "C"}

    counted = runner.invoke(pocha, ["accounts", "count"], env=env)
    assert counted.exit_code == 0, counted.output
    assert "2 accounts of at most 100000" in counted.output
    assert "forgotten after 180 days unused" in counted.output
    kept_now = runner.invoke(pocha, ["accounts", "keep", kept.id], env=env)
    assert kept_now.exit_code == 0, kept_now.output
    missing = runner.invoke(pocha, ["accounts", "keep", "nobody"], env=env)
    assert missing.exit_code != 0
    dry = runner.invoke(pocha, ["accounts", "sweep", "--dry-run"], env=env)
    assert "1 account not in use" in dry.output
    assert accounts.count(connection) == 2
    swept = runner.invoke(pocha, ["accounts", "sweep"], env=env)
    assert swept.exit_code == 0, swept.output
    assert "forgot 1 account not in use" in swept.output
    # The counts read right in Spanish too, for 1 and for more (the catalogue's forms).
    spanish = {**env, "LANG": "es_ES.UTF-8", "LC_ALL": "", "LANGUAGE": ""}
    counted = runner.invoke(pocha, ["accounts", "count"], env=spanish)
    assert "1 cuenta de 100000 como mucho" in counted.output
    assert "tras 180 días sin usarse" in counted.output
    accounts.create(connection, "Otro", "person", now=LONG_AGO)
    accounts.create(connection, "Otra", "person", now=LONG_AGO)
    counted = runner.invoke(pocha, ["accounts", "count"], env=env)
    assert "3 accounts of at most 100000" in counted.output
    dry = runner.invoke(pocha, ["accounts", "sweep", "--dry-run"], env=spanish)
    assert "2 cuentas sin uso" in dry.output
    swept = runner.invoke(pocha, ["accounts", "sweep"], env=spanish)
    assert "olvidadas 2 cuentas sin uso" in swept.output
    dry = runner.invoke(pocha, ["accounts", "sweep", "--dry-run"], env=env)
    assert "0 accounts not in use" in dry.output
    assert accounts.get(connection, idle.id) is None
    assert accounts.get(connection, kept.id) is not None
    listed = runner.invoke(pocha, ["accounts", "list"], env=env)
    assert "kept" in listed.output


def test_a_change_written_from_a_read_before_the_scrub_is_scrubbed_again(
    client: FlaskClient, store: Any
) -> None:
    """The scrub does not move a game's version: a change of a finished game's seats or
    table decided on a read made before it (the rematch's link, a seat left) writes the
    forgotten account's seat back, and is taken out of it again by that same write."""
    r = store.redis
    key, idle = accounts.create(r, "Olvidona", "person", now=LONG_AGO)
    bruno = sign_up(client, "Bruna").json
    made = client.post(
        "/api/v1/games",
        json={"players": [{"name": "x"}, {"open": True}, {"name": "b", "bot": "easy"}],
              "rules": {"schedule": [1]}},
        headers=account_header(bruno["key"]),
    )  # fmt: skip
    joined = client.post(
        f"/api/v1/tables/{made.json['table_code']}/seats", json={"name": "n"},
        headers=account_header(key),
    )  # fmt: skip
    assert joined.status_code == 201, joined.json
    game_id = made.json["id"]
    tokens = {0: made.json["seats"][0]["token"], 1: joined.json["token"]}
    assert play_people(client, game_id, tokens)["phase"] == "finished"
    accounts.note_seen(r, idle.id, now=LONG_AGO)
    assert idle.id in sweep_all(r)
    read_before = store.load(game_id, history=False)
    assert scrub_forgotten(r) >= 1
    assert idle.id.encode() not in r.hget(game_key(game_id), "meta")

    store.change_table(read_before, read_before.seats, replace(read_before.table, listed=False), [])

    meta = r.hget(game_key(game_id), "meta")
    assert idle.id.encode() not in meta and b"Olvidona" not in meta
    assert FORGOTTEN_NAME in [
        p["name"] for p in client.get(f"/api/v1/games/{game_id}").json["players"]
    ]


def test_the_sweep_reaches_every_forgotten_account_however_many_wait(store: Any) -> None:
    """More forgotten accounts waiting than a step takes (a burst forgotten at once, in a
    hash too big to be read in one page): each step takes as many as it may, wherever they
    sit in the hash, until none is left."""
    r = store.redis
    r.hset(FORGOTTEN, mapping={f"gone{n:05d}": "" for n in range(20_000)})
    steps = 0
    while r.exists(FORGOTTEN) and steps <= 20_000 // SCRUB_STEP:
        scrub_forgotten(r)
        steps += 1
    assert r.hlen(FORGOTTEN) == 0 and steps == 20_000 // SCRUB_STEP


def test_a_set_of_records_expires_with_the_last_of_them(store: Any) -> None:
    """A kept account that stops playing keeps no set of records all gone."""
    r = store.redis
    _key, kept = accounts.create(r, "Guardada", "person")
    account_records.note(r, [kept.id], "game:GAMEONE", 60)
    account_records.note(r, [kept.id], "match:MATCHONE", DAY)
    account_records.note(r, [kept.id], "game:GAMETWO", 30)
    assert DAY - 60 < r.ttl(account_records_key(kept.id)) <= DAY + 1
    account_records.note(r, [kept.id], "game:GONE", -1)
    assert len(account_records.records_of(r, kept.id)) == 3
    _key, other = accounts.create(r, "Otrita", "person")
    assert account_records.note(r, [other.id], "game:GONE", -1) == []
    assert not r.exists(account_records_key(other.id))


def _forget_now(client: FlaskClient, store: Any, account_id: str, *in_play: str) -> None:
    """The account looks idle (its key and its seats in play used long ago) and the sweep
    forgets it."""
    accounts.note_seen(store.redis, account_id, now=LONG_AGO)
    for game_id in in_play:
        store.redis.zadd(f"pocha:{{accounts}}:seats:{account_id}", {game_id: LONG_AGO})
    assert account_id in sweep_all(store.redis)


def _game_in_play(client: FlaskClient, key: str) -> str:
    """A game the account with `key` makes and sits at (seat 0), two seats open: its id."""
    made = client.post(
        "/api/v1/games",
        json={"players": [{"name": "x"}, {"name": "b", "bot": "easy"}, {"open": True},
                          {"open": True}]},
        headers=account_header(key),
    )  # fmt: skip
    assert made.status_code == 201, made.json
    return str(made.json["id"])


def _given(record: Any, seat: int, name: str, account: str | None = None) -> tuple[Any, ...]:
    """`record`'s seats with open `seat` taken by `name` (and `account`)."""
    taken = replace(
        record.seats[seat], name=name, open=False, token_hash=f"{seat}" * 64, account=account
    )
    return (*record.seats[:seat], taken, *record.seats[seat + 1 :])


def test_a_seat_change_of_a_game_in_play_from_a_read_before_the_scrub_is_scrubbed_again(
    client: FlaskClient, store: Any
) -> None:
    """The scrub moves no version, and a game in play is not noted again until it ends: a
    change of its seats or table decided on a read made before the scrub (a seat taken,
    given or stood in for) writes the forgotten account's seat back, and is taken out of it
    again by that same write."""
    r = store.redis
    key, idle = accounts.create(r, "Olvidita", "person", now=LONG_AGO)
    game_id = _game_in_play(client, key)
    read_before = store.load(game_id, history=False)
    _forget_now(client, store, idle.id, game_id)
    assert scrub_forgotten(r) >= 1
    assert idle.id.encode() not in r.hget(game_key(game_id), "meta")

    store.change_table(read_before, _given(read_before, 2, "Nadie"), read_before.table, [])

    meta = r.hget(game_key(game_id), "meta")
    assert idle.id.encode() not in meta and b"Olvidita" not in meta
    assert b"Nadie" in meta


def test_a_seat_given_to_an_account_forgotten_since_it_was_read_is_taken_out_at_once(
    client: FlaskClient, store: Any
) -> None:
    """A request that read the account before the sweep forgot it seats it after: the game
    is in none of its records, and is taken out of it by that write."""
    r = store.redis
    key, _maker = accounts.create(r, "Anfitriona", "person")
    game_id = _game_in_play(client, key)
    _key, late = accounts.create(r, "Tardona", "person", now=LONG_AGO)
    _forget_now(client, store, late.id)
    record = store.load(game_id, history=False)

    store.change_table(record, _given(record, 3, "Tardona", late.id), record.table, [])

    meta = r.hget(game_key(game_id), "meta")
    assert late.id.encode() not in meta and b"Tardona" not in meta
    players = client.get(f"/api/v1/games/{game_id}").json["players"]
    assert [p["name"] for p in players][3] == FORGOTTEN_NAME


def busy(redis_url: str, key: str, field: str) -> Any:
    """A connection of its own to the store, on which another change of `field` of hash
    `key` (a game's seats and table, a match's spec) lands between each read of it and the
    write after it, as a game or match busy with changes would see: the JSON it holds gets
    a counter bumped."""
    connection = connect_store(redis_url)

    class Busy(type(connection)):  # type: ignore[misc]
        def hget(self, name: Any, read_field: Any) -> Any:
            read = super().hget(name, read_field)
            if (name, read_field) == (key, field) and read is not None:
                value = orjson.loads(read)
                value["busy"] = value.get("busy", 0) + 1
                super().hset(name, field, orjson.dumps(value))
            return read

    connection.__class__ = Busy
    return connection


def test_a_record_that_keeps_changing_under_the_scrub_waits_for_a_later_step(
    redis_url: str, client: FlaskClient, store: Any
) -> None:
    """A scrub gives up on a game after `SCRUB_TRIES` changes under it, and the record
    stays pending, behind the others: a later step takes the account out of it."""
    r = store.redis
    key, idle = accounts.create(r, "Ajetreada", "person", now=LONG_AGO)
    game_id = _game_in_play(client, key)
    _forget_now(client, store, idle.id, game_id)
    busy_game = busy(redis_url, game_key(game_id), "meta")

    scrubbers = {"game": partial(account_records.scrub_game, busy_game)}
    assert account_records.scrub_step(busy_game, scrubbers) == 0
    assert idle.id.encode() in r.hget(game_key(game_id), "meta")
    assert account_records.pending(r) == {idle.id: "Ajetreada"}

    assert scrub_forgotten(r) >= 1
    assert idle.id.encode() not in r.hget(game_key(game_id), "meta")
    assert not r.exists(FORGOTTEN)


def test_a_match_that_keeps_changing_under_the_scrub_waits_for_a_later_step(
    redis_url: str, app: Flask, store: Any
) -> None:
    r = store.redis
    spec = check_match(["account:abcDEF123", "easy", "easy"], 3, {"schedule": [1, 2]}, 1, False)
    match_id = create_match(app.extensions[EXTENSION].redises, spec)
    r.hset(FORGOTTEN, "abcDEF123", "Ocupada")
    r.zadd(forgotten_records_key("abcDEF123"), {f"match:{match_id}": 1.0})
    busy_match = busy(redis_url, match_key(match_id), "spec")

    assert account_records.scrub_step(busy_match, {"match": partial(scrub_match, busy_match)}) == 0
    assert b"abcDEF123" in r.hget(match_key(match_id), "spec")
    assert account_records.pending(r) == {"abcDEF123": "Ocupada"}

    assert scrub_forgotten(r) == 1
    assert b"abcDEF123" not in r.hget(match_key(match_id), "spec")
    assert not r.exists(FORGOTTEN)


def test_a_record_left_to_the_sweep_as_a_step_ends_keeps_the_account_pending(
    redis_url: str, client: FlaskClient, store: Any
) -> None:
    """A write leaves a game to the sweep (`leave_pending`) just as a step, done with the
    account's other records, drops the account from those pending: the account stays
    pending, and the next step takes it out of that game."""
    r = store.redis
    key, idle = accounts.create(r, "Rezagada", "person", now=LONG_AGO)
    game_id = _game_in_play(client, key)
    other_key, _other = accounts.create(r, "Anfitriona", "person")
    other_id = _game_in_play(client, other_key)
    _forget_now(client, store, idle.id, game_id)
    # The other game's seat written from a read made before the forgetting, as that write
    # would, and left to the sweep by it.
    record = store.load(other_id, history=False)
    meta = orjson.loads(r.hget(game_key(other_id), "meta"))
    meta["seats"][3] = _given(record, 3, "Rezagada", idle.id)[3].to_dict()
    r.hset(game_key(other_id), "meta", orjson.dumps(meta))
    left: list[str] = []
    connection = connect_store(redis_url)

    class Racing(type(connection)):  # type: ignore[misc]
        def execute_command(self, *args: Any, **options: Any) -> Any:
            drops = args[0] == "HDEL" or str(args[0]).startswith("EVAL")
            if drops and FORGOTTEN in args[1:] and not left:
                left.append(f"game:{other_id}")
                account_records.leave_pending(r, idle.id, "Rezagada", left[0])
            return super().execute_command(*args, **options)

    connection.__class__ = Racing
    scrubbers = {"game": partial(account_records.scrub_game, connection)}
    assert account_records.scrub_step(connection, scrubbers) >= 1
    assert left and idle.id.encode() not in r.hget(game_key(game_id), "meta")
    assert account_records.pending(r) == {idle.id: "Rezagada"}

    assert scrub_forgotten(r) == 1
    assert idle.id.encode() not in r.hget(game_key(other_id), "meta")
    assert not r.exists(FORGOTTEN)


def test_a_game_that_keeps_changing_under_its_scrub_at_a_write_is_left_to_the_sweep(
    redis_url: str, client: FlaskClient, store: Any
) -> None:
    """A write that finds a seated account forgotten takes it out at once; should the game
    keep changing under that, the game is left pending for the workers' sweep."""
    r = store.redis
    key, _maker = accounts.create(r, "Anfitriona", "person")
    game_id = _game_in_play(client, key)
    _key, late = accounts.create(r, "Tardía", "person", now=LONG_AGO)
    _forget_now(client, store, late.id)
    assert account_records.pending(r) == {}
    busy_store = GameStore(
        busy(redis_url, game_key(game_id), "meta"),
        finished_ttl=store.finished_ttl, idle_ttl=store.idle_ttl,
    )  # fmt: skip
    record = busy_store.load(game_id, history=False)

    busy_store.change_table(record, _given(record, 3, "Tardía", late.id), record.table, [])

    assert late.id.encode() in r.hget(game_key(game_id), "meta")
    assert account_records.pending(r) == {late.id: "Tardía"}
    assert scrub_forgotten(r) == 1
    assert late.id.encode() not in r.hget(game_key(game_id), "meta")
    assert not r.exists(FORGOTTEN)


def test_a_table_maker_who_holds_no_seat_is_taken_out_of_the_game(
    client: FlaskClient, store: Any
) -> None:
    """The table's maker is named in its game (never shown), seated or not: a table in
    play and a game kept after it ended forget the maker once the account is forgotten."""
    r = store.redis
    key, maker = accounts.create(r, "Hacedora", "person", now=LONG_AGO)
    games = []
    for schedule in ([1], [1, 2]):
        made = client.post(
            "/api/v1/games",
            json={"players": [{"open": True}, {"open": True}, {"name": "b", "bot": "easy"}],
                  "rules": {"schedule": schedule}},
            headers=account_header(key),
        )  # fmt: skip
        assert made.status_code == 201, made.json
        games.append(made.json)
    finished = games[0]
    tokens = {}
    for name in ("Ana", "Eva"):
        joined = client.post(f"/api/v1/tables/{finished['table_code']}/seats", json={"name": name})
        assert joined.status_code == 201, joined.json
        tokens[joined.json["seat"]] = joined.json["token"]
    assert play_people(client, finished["id"], tokens)["phase"] == "finished"
    for made in games:
        assert maker.id.encode() in r.hget(game_key(made["id"]), "meta")

    _forget_now(client, store, maker.id)
    assert scrub_forgotten(r) >= 2

    assert keys_naming(r, maker.id) == []
    for made in games:
        assert maker.id.encode() not in r.hget(game_key(made["id"]), "meta")


def test_only_the_forgotten_accounts_own_seat_taking_loses_its_name(
    client: FlaskClient, store: Any
) -> None:
    """Someone may take a seat under a name an account had there once it left: a forgotten
    account's name comes out of the event that seated the account, never out of the one
    that seated someone else sitting under that name now."""
    r = store.redis
    key, idle = accounts.create(r, "Tocaya", "person", now=LONG_AGO)
    made = client.post(
        "/api/v1/games",
        json={"players": [{"name": "Host"}, {"open": True}, {"open": True}, {"open": True}]},
    )
    assert made.status_code == 201, made.json
    game_id, code = made.json["id"], made.json["table_code"]

    def join(**headers: str) -> Any:
        joined = client.post(
            f"/api/v1/tables/{code}/seats", json={"name": "Tocaya"}, headers=headers
        )
        assert joined.status_code == 201, joined.json
        return joined.json

    first = join(**account_header(key))
    gone = client.post(
        f"/api/v1/games/{game_id}/seats/{first['seat']}/leave",
        headers={"Authorization": f"Bearer {first['token']}"},
    )
    assert gone.status_code == 200, gone.json
    namesake = join()
    assert namesake["seat"] == first["seat"]
    taken = [
        (e["seat"], e["name"])
        for e in map(orjson.loads, r.lrange(events_key(game_id), 0, -1))
        if e["type"] == "seat_taken"
    ]
    assert taken == [(1, "Tocaya"), (1, "Tocaya")]

    _forget_now(client, store, idle.id, game_id)
    assert scrub_forgotten(r) >= 1

    taken = [
        (e["seat"], e["name"])
        for e in map(orjson.loads, r.lrange(events_key(game_id), 0, -1))
        if e["type"] == "seat_taken"
    ]
    assert taken == [(1, FORGOTTEN_NAME), (1, "Tocaya")]
    players = client.get(f"/api/v1/games/{game_id}").json["players"]
    assert [p["name"] for p in players][1] == "Tocaya"
    assert idle.id.encode() not in r.hget(game_key(game_id), "meta")


def test_an_analysis_keeps_no_name_nor_id_of_the_accounts_a_record_names(
    app: Flask, client: FlaskClient, store: Any
) -> None:
    """An analysis of a game's record (`POST /api/v1/analyses`) is tied to no account, and
    its job, in the queues' Redis, keeps of the record only what the analysis reads: nothing
    there for a forgetting to take the account out of."""
    r = store.redis
    key, player = accounts.create(r, "Analizada", "person")
    made = client.post(
        "/api/v1/games",
        json={"players": [{"name": "x"}, {"name": "b", "bot": "easy"},
                          {"name": "c", "bot": "easy"}], "rules": {"schedule": [1]}},
        headers=account_header(key),
    )  # fmt: skip
    assert made.status_code == 201, made.json
    game_id = made.json["id"]
    assert play_people(client, game_id, {0: made.json["seats"][0]["token"]})["phase"] == "finished"
    record = client.get(f"/api/v1/games/{game_id}/record").json
    assert "Analizada" in str(record)  # its seat's name (the record holds no account id)

    asked = client.post("/api/v1/analyses", json={"record": record, "level": "easy", "seed": 1})

    assert asked.status_code == 202, asked.json
    queues = app.extensions[EXTENSION].redises.queues
    job = Job.fetch(asked.json["id"], connection=queues, serializer=SERIALIZER)
    kept = repr((job.args, job.kwargs, job.meta, job.description, job.origin))
    assert player.id not in kept and "Analizada" not in kept
