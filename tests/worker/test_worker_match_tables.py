"""Matches with an account that moves over its event stream, with real `pocha worker`
processes: the match plays its games at tables, a few at a time; the account, reading its
stream (`GET /api/v1/bot/events`) in a thread, plays each of its turns with its key. One
that goes silent is paused and the match still ends."""

from __future__ import annotations

import itertools
import json
import threading
import time
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from core.errors import GameNotFound
from core.jobs.matches import (
    AT_TABLES_AT_ONCE,
    _claim_table,
    _note_told,
    _seat,
    at_tables,
    cancel_match,
    check_match,
    count_ended,
    create_match,
    forgotten_seat,
    load_spec,
    scrub_match,
)
from core.play.turns import store_for
from core.store import account_records, accounts
from core.store.account_records import FORGOTTEN_NAME
from core.store.keys import FORGOTTEN, checkpoint_key, match_key, records_key
from tests.service.helpers import bearer, move
from tests.waiting import LONG
from tests.worker.conftest import WorkerProcesses, wait_until
from tests.worker.test_worker_stream_bots import events, sign_up

#: Short games: two hands of one and two cards.
RULES = {"schedule": [1, 2]}


class MatchPlayer:
    """Plays every turn its stream tells of, the first legal action, until stopped."""

    def __init__(self, app: Flask, key: str) -> None:
        self.app = app
        self.key = key
        self.seen: list[dict[str, Any]] = []
        #: When it played in each game: first and last move (monotonic seconds).
        self.played_at: dict[str, list[float]] = {}
        self.moves = 0
        self.failure: BaseException | None = None

    def run(self) -> None:
        client = self.app.test_client()
        try:
            for event in events(self.app, self.key):
                self.seen.append(event)
                if event["type"] != "your_turn":
                    continue
                game_id = event["game_id"]
                view = client.get(f"/api/v1/games/{game_id}", headers=bearer(self.key)).json
                if view["turn"] != event["seat"]:
                    continue  # told late: it moved already
                answer = move(client, game_id, self.key, view["you"]["legal"][0])
                assert answer.status_code in (200, 409), answer.json
                self.moves += answer.status_code == 200
                when = self.played_at.setdefault(game_id, [time.monotonic()] * 2)
                when[1] = time.monotonic()
        except BaseException as exc:  # the test reports it
            self.failure = exc


def _finished(client: FlaskClient, url: str, player: MatchPlayer | None = None) -> Any:
    def over() -> bool:
        if player is not None and player.failure is not None:
            raise AssertionError(player.failure)
        return bool(client.get(url).json["status"] == "finished")

    wait_until(over, LONG * 2, "the match to end", explain=lambda: repr(client.get(url).json))
    return client.get(url).json


def test_a_stream_bot_plays_a_duplicate_match_at_tables(
    app: Flask, client: FlaskClient, workers: WorkerProcesses
) -> None:
    workers.start()
    streamy = sign_up(client, "Streamy", "bot")
    player = MatchPlayer(app, streamy["key"])
    threading.Thread(target=player.run, daemon=True).start()
    label = f"account:{streamy['id']}"
    games = 6  # two deals, each from the three seats: more than are played at once
    assert games > AT_TABLES_AT_ONCE
    made = client.post(
        "/api/v1/matches",
        json={"seats": [label, "easy", "medium"], "games": games, "duplicate": True,
              "seed": 11, "rules": {**RULES, "turn_seconds": 300}},
        headers={"X-Pocha-Account": streamy["key"]},
    )  # fmt: skip
    assert made.status_code == 202, made.json
    assert made.json["at_tables"] is True and made.json["rules"]["turn_seconds"] == 300

    def whole_deals_only() -> bool:
        # A deal's records show only once all its rotations ended: a record shows every
        # hand of the deal, which its later rotations deal again.
        shown = client.get(made.json["records_url"], query_string={"format": "json"}).json
        deals = [r["game"] // 3 for r in shown]
        assert all(deals.count(d) == 3 for d in deals), sorted(r["game"] for r in shown)
        if player.failure is not None:
            raise AssertionError(player.failure)
        return bool(client.get(made.json["url"]).json["status"] == "finished")

    wait_until(whole_deals_only, LONG * 2, "the match to end")
    report = client.get(made.json["url"]).json
    assert (report["done"], report["failed"], report["paused"]) == (games, 0, []), report
    assert report["stand_in_decisions"] == {label: 0}
    records = client.get(made.json["records_url"], query_string={"format": "json"}).json
    assert sorted(r["game"] for r in records) == list(range(games))
    # It never sat at two tables of one deal at once: it would have seen two hands of it.
    for deal in range(games // 3):
        spans = sorted(player.played_at[r["table"]] for r in records if r["game"] // 3 == deal)
        assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans)), spans
    # Each game was a table, and every decision of the bot's seat its own.
    its = 0
    for record in records:
        seat = record["seats"].index(label)
        assert record["decisions"][seat] >= (1 + 1) + (1 + 2)
        its += record["decisions"][seat]
        played = client.get(f"/api/v1/games/{record['table']}/events").json
        mine = [e for e in played if e["type"] in ("bid", "card_played") and e["seat"] == seat]
        assert len(mine) == record["decisions"][seat] and all("by" not in e for e in mine)
        view = client.get(f"/api/v1/games/{record['table']}").json
        assert view["players"][seat]["account"] == streamy["id"]
    assert player.moves == its
    # Its page counts its timed turns: every one its own, none run out.
    turns = client.get(f"/api/v1/accounts/{streamy['id']}").json["turns"]
    assert (turns["decisions"], turns["clocks_ran_out"]) == (its, 0), turns
    assert turns["mean_decision_ms"] >= 0
    assert {r["seats"][0] for r in records} == {label, "easy", "medium"}  # the rotations
    assert {b["bot"] for b in report["bots"]} == {label, "easy", "medium"}


def test_a_silent_stream_bot_is_paused_and_the_match_ends(
    client: FlaskClient, workers: WorkerProcesses
) -> None:
    workers.start()
    silent = sign_up(client, "Silent", "bot")
    label = f"account:{silent['id']}"
    games = AT_TABLES_AT_ONCE + 1
    made = client.post(
        "/api/v1/matches",
        json={"seats": [label, "easy", "easy"], "games": games, "duplicate": False,
              "rules": {**RULES, "turn_seconds": 1}},
        headers={"X-Pocha-Account": silent["key"]},
    )  # fmt: skip
    assert made.status_code == 202, made.json
    report = _finished(client, made.json["url"])
    assert (report["done"], report["failed"], report["paused"]) == (games, 0, [label]), report
    records = client.get(made.json["records_url"], query_string={"format": "json"}).json
    # Every decision of its seat was the stand-in's.
    assert report["stand_in_decisions"] == {label: sum(r["decisions"][0] for r in records)}
    # Its page counts the clocks that ran out: two a game at least until it was paused.
    turns = client.get(f"/api/v1/accounts/{silent['id']}").json["turns"]
    assert turns["decisions"] == 0 and turns["mean_decision_ms"] is None
    assert turns["clocks_ran_out"] >= 2, turns


def test_a_poch_match_at_tables_numbers_its_games(
    client: FlaskClient, workers: WorkerProcesses
) -> None:
    """A Poch game's record names its game (`"game": "poch"`); a match's line at a table
    numbers it in the match instead, as a match played straight through does."""
    workers.start()
    silent = sign_up(client, "Silent", "bot")
    label = f"account:{silent['id']}"
    made = client.post(
        "/api/v1/matches",
        json={"game": "poch", "seats": [label, "easy", "easy"], "games": 2,
              "duplicate": False, "rules": {"deals": 1, "turn_seconds": 1}},
        headers={"X-Pocha-Account": silent["key"]},
    )  # fmt: skip
    assert made.status_code == 202 and made.json["at_tables"], made.json
    report = _finished(client, made.json["url"])
    assert (report["done"], report["failed"]) == (2, 0), report
    records = client.get(made.json["records_url"], query_string={"format": "json"}).json
    assert sorted(r["game"] for r in records) == [0, 1], [r["game"] for r in records]
    assert all(r["table"] and r["chips"] for r in records), records


def test_a_match_seats_an_account_without_a_webhook_by_its_own_key_only(
    client: FlaskClient,
) -> None:
    streamy = sign_up(client, "Streamy", "bot")
    other = sign_up(client, "Other", "person")
    label = f"account:{streamy['id']}"

    def asked(seats: list[str], key: str | None, **body: Any) -> Any:
        headers = {"X-Pocha-Account": key} if key else {}
        return client.post(
            "/api/v1/matches",
            json={"seats": seats, "games": 1, "duplicate": False, "rules": RULES, **body},
            headers=headers,
        )

    for seats, key in (
        ([label, "easy", "easy"], None),
        ([label, "easy", "easy"], other["key"]),
        # At tables, the others are levels by name: no bot of any budget.
        ([label, "ismcts:100", "easy"], streamy["key"]),
        ([label, label, "easy"], streamy["key"]),
    ):
        refused = asked(seats, key)
        assert (refused.status_code, refused.json["error"]) == (422, "validation_error"), seats
        assert refused.json["errors"]["json"]["seats"], refused.json
    guessed = asked([label, "easy", "easy"], "pa_guessed")
    assert (guessed.status_code, guessed.json["error"]) == (401, "unknown_account")
    # A person's account too, by its own key: a table's clock for each of its turns.
    mine = asked([f"account:{other['id']}", "easy", "easy"], other["key"])
    assert mine.status_code == 202 and mine.json["at_tables"], mine.json
    assert mine.json["rules"]["turn_seconds"] == 10
    assert client.delete(mine.json["url"]).status_code == 204
    # A stream bot its owner opened to matches sits beside the caller's own account.
    opened = client.patch(f"/api/v1/accounts/{streamy['id']}", json={"open_to_matches": True},
                          headers={"X-Pocha-Account": streamy["key"]})  # fmt: skip
    assert opened.status_code == 200, opened.json
    both = asked([f"account:{other['id']}", label, "easy"], other["key"])
    assert both.status_code == 202 and both.json["at_tables"], both.json
    assert client.delete(both.json["url"]).status_code == 204


def test_two_accounts_forgotten_from_one_match_keep_their_own_labels_and_statistics(
    client: FlaskClient, connection: redis.Redis, workers: WorkerProcesses
) -> None:
    """Each account forgotten from a match takes its own label there (`account:forgotten-1`,
    `-2`), never derived from its id: the two seats' statistics, pauses and stand-in counts
    stay apart instead of merging into one."""
    workers.start()
    first, second = sign_up(client, "Olvido Uno", "bot"), sign_up(client, "Olvido Dos", "bot")
    opened = client.patch(f"/api/v1/accounts/{second['id']}", json={"open_to_matches": True},
                          headers={"X-Pocha-Account": second["key"]})  # fmt: skip
    assert opened.status_code == 200, opened.json
    labels = [f"account:{first['id']}", f"account:{second['id']}"]
    made = client.post(
        "/api/v1/matches",
        json={"seats": [*labels, "easy"], "games": 2, "duplicate": False,
              "rules": {**RULES, "turn_seconds": 1}},
        headers={"X-Pocha-Account": first["key"]},
    )  # fmt: skip
    assert made.status_code == 202, made.json
    report = _finished(client, made.json["url"])
    assert report["paused"] == sorted(labels), report
    ids = [first["id"], second["id"]]
    assert accounts.forget(connection, ids, time.time() + 1) == ids

    wait_until(lambda: not connection.exists(FORGOTTEN), LONG, "the sweep to take both out")
    report = client.get(made.json["url"]).json
    gone = {forgotten_seat(1), forgotten_seat(2)}
    assert set(report["seats"][:2]) == set(report["paused"]) == gone, report
    assert set(report["stand_in_decisions"]) == gone, report
    assert {bot["bot"] for bot in report["bots"]} == gone | {"easy"}, report["bots"]
    assert all(bot["games"] == 2 for bot in report["bots"]), report["bots"]
    records = client.get(made.json["records_url"], query_string={"format": "json"}).json
    assert len(records) == 2 and all(r["seats"] == report["seats"] for r in records), records
    assert not any(i in json.dumps([report, records]) for i in ids)


def test_a_game_ended_after_its_account_was_forgotten_takes_the_label_the_match_gave_it(
    connection: Any,
) -> None:
    """A game begun before its account was forgotten ends after the match was taken out
    of: its record takes the label the match already gave that account, not a new one."""
    first, second = "account:AAAAAAAAAAAAAAAA", "account:BBBBBBBBBBBBBBBB"
    spec = check_match([first, second, "easy"], 2, RULES, 1, False)
    match_id = create_match(connection, spec)  # neither account exists: both are gone
    scrub_match(connection, match_id, second.removeprefix("account:"), "")
    seats = json.loads(connection.hget(match_key(match_id), "spec"))["seats"]
    assert seats == [first, forgotten_seat(1), "easy"]
    # Played with the spec as read before: it names both accounts.
    record = {"game": 0, "deal": 0, "seats": [first, second, "easy"],
              "stand_in_decisions": {first: 3, second: 4}}  # fmt: skip
    count_ended(connection, spec, match_id, 0, record)
    seats = json.loads(connection.hget(match_key(match_id), "spec"))["seats"]
    assert seats == [forgotten_seat(2), forgotten_seat(1), "easy"]
    [line] = connection.lrange(records_key(match_id), 0, -1)
    assert json.loads(line)["seats"] == seats
    assert json.loads(line)["stand_in_decisions"] == {seats[0]: 3, seats[1]: 4}
    cancel_match(connection, match_id)


def test_a_tables_claim_making_and_note_hold_against_ends_cancels_and_a_second_try(
    connection: Any,
) -> None:
    spec = at_tables(check_match(["account:abcDEF123", "easy", "easy"], 2, RULES, 1, False))
    task = spec.kind.tasks_for(spec.rules, spec.lineup, spec.deals, spec.seed, spec.duplicate)
    store = store_for(connection)
    # Game 0: claimed, made once (a second try finds it being made), its accounts told.
    match_id = create_match(connection, spec)
    claimed = _claim_table(connection, match_id, 0)
    assert claimed is not None and claimed[1:] == (False, False)
    table = claimed[0]
    assert _seat(connection, spec, match_id, 0, task[0], table) is True
    assert _seat(connection, spec, match_id, 0, task[0], table) is None
    assert store.load(table).version == 1 and len(store.events(table)) >= 1
    assert _claim_table(connection, match_id, 0) == (table, True, False)
    assert _note_told(connection, match_id, 0)
    # Once the game is counted ended, nothing claims it or brings its checkpoint back.
    count_ended(connection, spec, match_id, 0, None)
    assert _claim_table(connection, match_id, 0) is None
    assert not _note_told(connection, match_id, 0)
    assert not connection.exists(checkpoint_key(match_id, 0))
    # A table claimed, then the match cancelled before it is made: the maker drops it.
    claimed = _claim_table(connection, match_id, 1)
    assert claimed is not None
    assert cancel_match(connection, match_id)
    assert _seat(connection, spec, match_id, 1, task[1], claimed[0]) is False
    with pytest.raises(GameNotFound):
        store.load(claimed[0])


def test_cancelling_a_rated_match_counts_its_games_in_play_as_lost(
    client: FlaskClient, workers: WorkerProcesses, connection: Any
) -> None:
    # Else a bot would cancel its rated match whenever a game in play went badly, and only
    # the games it was winning would reach the ladder.
    workers.start()
    quitter = sign_up(client, "Quitter", "bot")
    label = f"account:{quitter['id']}"
    made = client.post(
        "/api/v1/matches",
        json={"seats": [label, "easy", "medium"], "games": 3, "duplicate": False, "rated": True,
              "rules": {**RULES, "turn_seconds": 300}},
        headers={"X-Pocha-Account": quitter["key"]},
    )  # fmt: skip
    assert made.status_code == 202 and made.json["at_tables"], made.json
    match_id = made.json["id"]
    store = store_for(connection)

    def tables() -> list[str]:
        found = [connection.hget(checkpoint_key(match_id, i), "table") for i in range(3)]
        return [t.decode() for t in found if t is not None]

    def all_waiting_for_the_bot() -> bool:
        # Every game in play made, and at the bot's turn (it never moves: no clock runs out).
        made_tables = tables()
        if len(made_tables) < 3:
            return False
        try:
            return all(store.load(t).game.turn == 0 for t in made_tables)
        except GameNotFound:
            return False

    wait_until(all_waiting_for_the_bot, LONG, "the match's games to wait for the bot")
    in_play = tables()
    cancelled = client.delete(made.json["url"], headers={"X-Pocha-Account": quitter["key"]})
    assert cancelled.status_code == 204, cancelled.data
    history = client.get(f"/api/v1/accounts/{quitter['id']}/history?game=pocha").json["entries"]
    assert sorted(e["match_game"] for e in history) == [0, 1, 2]
    assert all(e["match_id"] == match_id and e["given_up"] for e in history), history
    assert all(e["rank"] == 3 for e in history), history
    rated = client.get(f"/api/v1/accounts/{quitter['id']}").json["ratings"][0]
    assert rated["games"] == 3 and rated["mu"] < 25, rated
    for table in in_play:
        with pytest.raises(GameNotFound):
            store.load(table)


def test_a_rated_matchs_seed_is_never_chosen_nor_shown_while_it_runs(
    client: FlaskClient,
) -> None:
    # The seed makes every deal of the match (`ai.arena.tasks_for`, open source): a bot that
    # chose it, or read it from the report, would know every hand it plays against.
    bot = sign_up(client, "Seer", "bot")
    label = f"account:{bot['id']}"
    body = {"seats": [label, "easy", "medium"], "games": 2, "duplicate": False,
            "rated": True, "rules": RULES}  # fmt: skip
    key = {"X-Pocha-Account": bot["key"]}
    chosen = client.post("/api/v1/matches", json={**body, "seed": 5}, headers=key)
    assert (chosen.status_code, chosen.json["error"]) == (422, "validation_error"), chosen.json
    assert chosen.json["errors"]["json"]["seed"], chosen.json
    made = client.post("/api/v1/matches", json=body, headers=key)
    assert made.status_code == 202, made.json
    assert "seed" not in made.json
    report = client.get(made.json["url"]).json
    assert report["status"] == "running" and "seed" not in report, report
    # An unrated match is for testing bots: its seed is chosen and shown, to replay it.
    unrated = client.post("/api/v1/matches", json={**body, "rated": False, "seed": 5}, headers=key)
    assert unrated.status_code == 202 and unrated.json["seed"] == 5, unrated.json
    for url in (made.json["url"], unrated.json["url"]):
        assert client.delete(url, headers=key).status_code == 204


def test_a_forgotten_account_is_taken_out_of_its_match_and_its_tables(
    client: FlaskClient, connection: redis.Redis, workers: WorkerProcesses
) -> None:
    """A match and its tables are kept after their games: once the account seated there is
    forgotten, the workers' sweep takes its id out of the match's seats, records, pause and
    statistics, and its id and name out of each table's game."""
    workers.start()
    silent = sign_up(client, "Olvidable", "bot")
    label = f"account:{silent['id']}"
    made = client.post(
        "/api/v1/matches",
        json={"seats": [label, "easy", "easy"], "games": 2, "duplicate": False,
              "rules": {**RULES, "turn_seconds": 1}},
        headers={"X-Pocha-Account": silent["key"]},
    )  # fmt: skip
    assert made.status_code == 202, made.json
    report = _finished(client, made.json["url"])
    assert report["paused"] == [label] and label in report["seats"], report
    shown = client.get(made.json["records_url"], query_string={"format": "json"}).json
    tables = [r["table"] for r in shown]
    assert set(account_records.records_of(connection, silent["id"])) == {
        f"match:{made.json['id']}",
        *(f"game:{t}" for t in tables),
    }
    # Unused as long as the idle days, whatever they are.
    assert accounts.forget(connection, [silent["id"]], time.time() + 1) == [silent["id"]]

    def taken_out() -> bool:
        return not connection.exists(FORGOTTEN)

    wait_until(taken_out, LONG, "the sweep to take the account out of its records")
    report = client.get(made.json["url"]).json
    gone = forgotten_seat(1)
    assert report["seats"][0] == report["paused"][0] == gone, report
    assert report["stand_in_decisions"] == {gone: report["stand_in_decisions"][gone]}
    records = client.get(made.json["records_url"], query_string={"format": "json"}).json
    assert len(records) == 2 and all(r["seats"][0] == gone for r in records)
    assert silent["id"] not in json.dumps([report, records])
    for table in tables:
        players = client.get(f"/api/v1/games/{table}").json["players"]
        assert players[0]["name"] == FORGOTTEN_NAME and "account" not in players[0]
    for key in connection.scan_iter(match="pocha:*", count=1000):
        if connection.type(key) == b"hash":
            values = connection.hvals(key)
        elif connection.type(key) == b"list":
            values = connection.lrange(key, 0, -1)
        else:
            continue
        assert not any(silent["id"].encode() in v for v in values), key


def test_a_match_whose_account_is_taken_out_is_not_scrubbed_again_at_each_game(
    connection: Any,
) -> None:
    """Once the forgotten seat stands in a match's spec, a game that ends notes no account
    for it (none is behind it), and a scrub that finds nothing to take out writes nothing:
    the statistics kept beside the match stand, and no game's end rereads every record."""
    spec = check_match(["account:abcDEF123", "easy", "easy"], 3, RULES, 1, False)
    match_id = create_match(connection, spec)
    scrub_match(connection, match_id, "abcDEF123", "")
    scrubbed = load_spec(connection, match_id)
    assert scrubbed is not None and scrubbed.seats[0] == forgotten_seat(1)
    connection.hset(match_key(match_id), mapping={"stats": "{}", "stats_of": "kept"})

    scrub_match(connection, match_id, "abcDEF123", "")
    count_ended(connection, scrubbed, match_id, 0, None)

    assert connection.hmget(match_key(match_id), ["stats", "stats_of"]) == [b"{}", b"kept"]
    assert account_records.records_of(connection, "forgotten-1") == []
