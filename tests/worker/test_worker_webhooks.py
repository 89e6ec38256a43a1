"""Outside bots by webhook, against a tiny bot the test starts on loopback: registered under
the bot's key (refused for private addresses unless the operator allows them), asked by
the workers for each decision of a match with a signed view, played through 50 duplicate
deals against `hard`; hostile webhooks (silent, dripping, 100 MB, redirecting, illegal,
bad JSON, failing, refusing connections) each contained by the stand-in; paused after N
failures in a row and resumed by the owner; never called once its account is disabled, nor
once its key is replaced (the webhook and its secret go with the key, in a rated match and
in a challenge's game already under way, the operator's `rotate-key` as its owner's new
key); an account whose bot plays only by webhook is in use for the idle sweep while a match
seats it (its webhook silent or not) and once its webhook answers, noted at most once an
hour."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient

from ai.registry import BOT_KINDS
from cli.main import pocha
from core.play.games import view_of
from core.play.webhooks import LONGEST_CALL, Settings, ask
from core.store import accounts, webhooks
from core.store.accounts import set_disabled
from core.store.keys import ACCOUNTS_SWEEP_DUE, account_key, webhook_key
from service import create_app
from tests.service.helpers import move
from tests.service.test_account_lifetime import IDLE, LONG_AGO, sweep_all
from tests.waiting import LONG, scaled, wait_until
from tests.worker.conftest import Drain
from tests.worker.webhook_server import WebhookBot, example_bot, webhook_bot

RULES = {"schedule": [2, 3]}


@pytest.fixture
def allowing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The operator allows loopback webhooks (the test's bot); calls are cut at 1 s."""
    monkeypatch.setenv("POCHA_BOT_ALLOW_PRIVATE", "1")
    monkeypatch.setenv("POCHA_BOT_WEBHOOK_MS", "1000")


def answers_in_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Calls are cut at the longest deadline a call may have, not at 1 s: the test's bot
    answers from a thread of this process, which a busy machine may not run within a second,
    and a test that asserts every answer was in time (or failed for its own reason, not as
    a timeout) is about what the bot answers."""
    monkeypatch.setenv("POCHA_BOT_WEBHOOK_MS", str(int(LONGEST_CALL * 1000)))


@pytest.fixture
def in_time(allowing: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """`answers_in_time`, for the whole test."""
    answers_in_time(monkeypatch)


@pytest.fixture
def app(redis_url: str, allowing: None) -> Flask:
    return create_app(
        {"REDIS_URL": redis_url, "TESTING": True, "BOT_RUNNER": "rq", "RATE_LIMITS": "off"}
    )


@pytest.fixture
def bot() -> Iterator[WebhookBot]:
    with webhook_bot() as running:
        yield running


def key_of(key: str) -> dict[str, str]:
    return {"X-Pocha-Account": key}


def bot_account(
    client: FlaskClient, bot: WebhookBot, name: str = "Hooky", open_to_matches: bool = True
) -> tuple[str, str]:
    """A bot account with `bot` as its webhook (open to anyone's matches, unless told):
    its id and key."""
    made = client.post("/api/v1/accounts", json={"name": name, "kind": "bot"})
    assert made.status_code == 201, made.json
    account_id, key = made.json["id"], made.json["key"]
    answer = client.put(
        f"/api/v1/accounts/{account_id}/webhook", json={"url": bot.url}, headers=key_of(key)
    )
    assert answer.status_code == 200, answer.json
    assert answer.json["secret"].startswith("whsec_") and not answer.json["paused"]
    bot.secret = answer.json["secret"]
    if open_to_matches:
        opened = client.patch(
            f"/api/v1/accounts/{account_id}", json={"open_to_matches": True}, headers=key_of(key)
        )
        assert opened.status_code == 200 and opened.json["open_to_matches"], opened.json
    return account_id, key


def status(client: FlaskClient, account_id: str, key: str) -> dict[str, Any]:
    answer = client.get(f"/api/v1/accounts/{account_id}/webhook", headers=key_of(key))
    assert answer.status_code == 200, answer.json
    return dict(answer.json)


def play_match(
    client: FlaskClient, drain: Drain, seats: list[str], headers: dict[str, str] | None = None,
    **body: Any,
) -> Any:  # fmt: skip
    asked = {"seats": seats, "games": 3, "rules": RULES, "duplicate": False, **body}
    if not asked.get("rated"):
        asked.setdefault("seed", 5)  # a rated match's deals are never chosen
    made = client.post("/api/v1/matches", json=asked, headers=headers or {})
    assert made.status_code == 202, made.json
    drain()
    report = client.get(made.json["url"]).json
    assert (report["status"], report["failed"]) == ("finished", 0), report
    return report


def account_decisions(client: FlaskClient, report: dict[str, Any], label: str) -> int:
    lines = client.get(report["records_url"] + "?format=json").json
    return sum(
        r["decisions"][i] for r in lines for i, seat in enumerate(r["seats"]) if seat == label
    )


def test_a_webhook_bot_plays_fifty_duplicate_deals_against_hard(
    in_time: None, client: FlaskClient, drain: Drain, bot: WebhookBot
) -> None:
    account_id, key = bot_account(client, bot)
    label = f"account:{account_id}"
    report = play_match(
        client, drain, [label, "hard", "hard"], key_of(key), games=150, duplicate=True, rated=True
    )
    assert report["done"] == 150 and report["rated"]
    assert {b["bot"] for b in report["bots"]} == {label, "hard"}
    # Every decision of the bot was its webhook's, each call signed as the example checks.
    assert report["stand_in_decisions"] == {label: 0}
    decisions = account_decisions(client, report, label)
    assert decisions == len(bot.calls) > 150
    assert all(call["verified"] for call in bot.calls)
    first = bot.calls[0]
    assert first["headers"]["X-Pocha-Deadline"] == str(int(LONGEST_CALL * 1000))
    assert first["body"]["game"] == "pocha" and first["body"]["you"]["legal"]
    counted = status(client, account_id, key)
    assert (counted["decisions"], counted["failures"], counted["paused"]) == (decisions, 0, False)
    assert counted["mean_decision_ms"] is not None
    # Rated: the first play of each of the 50 deals moved the bot's rating once (the
    # later rotations it plays knowing the deal), and the ladder ranks it.
    history = client.get(f"/api/v1/accounts/{account_id}/history?game=pocha").json["entries"]
    assert len(history) == min(50, len(history)) and history
    assert {e["match_id"] for e in history} == {report["id"]}
    assert {e["match_game"] for e in history} <= {d * 3 + d % 3 for d in range(50)}
    assert len({e["match_game"] for e in history}) == len(history)
    rating = client.get(f"/api/v1/accounts/{account_id}").json["ratings"]
    assert [r["games"] for r in rating if r["game"] == "pocha"] == [50]
    ladder = client.get("/api/v1/ladder?game=pocha&kind=bot").json
    assert account_id in {entry["id"] for entry in ladder["entries"]}


def test_a_rated_match_is_asked_for_with_its_bots_key_and_moves_its_rating_only(
    client: FlaskClient, drain: Drain, bot: WebhookBot
) -> None:
    account_id, key = bot_account(client, bot)
    other_id, other_key = bot_account(client, bot, name="Other hook")
    label = f"account:{account_id}"
    asked = {"seats": [label, "hard", "hard"], "games": 3, "rules": RULES, "rated": True}
    refused = client.post("/api/v1/matches", json=asked)
    assert (refused.status_code, refused.json["error"]) == (401, "account_required")
    # Another bot's key does not rate this one, nor do seats other than levels by name.
    refused = client.post("/api/v1/matches", json=asked, headers=key_of(other_key))
    assert (refused.status_code, refused.json["error"]) == (422, "validation_error")
    custom = {**asked, "seats": [label, "ismcts:50", "hard"]}
    refused = client.post("/api/v1/matches", json=custom, headers=key_of(key))
    assert (refused.status_code, refused.json["error"]) == (422, "validation_error")
    report = play_match(client, drain, [label, "hard", "easy"], key_of(key), rated=True)
    assert report["rated"] and report["done"] == 3
    mine = client.get(f"/api/v1/accounts/{account_id}").json["ratings"]
    assert [r["games"] for r in mine] == [3]
    # The levels beside it keep theirs (held still in a match); the other bot has none.
    for level in ("hard", "easy"):
        rated = client.get(f"/api/v1/accounts/level-{level}").json
        assert all(r["games"] == 0 for r in rated["ratings"]), rated
    assert client.get(f"/api/v1/accounts/{other_id}").json["ratings"] == []


def test_a_rated_match_is_cancelled_by_its_bots_key_only(
    client: FlaskClient, drain: Drain, bot: WebhookBot
) -> None:
    # A rated match's id is public (its bot's rating history links its records), so
    # knowing it is no proof of asking for it: only the key it was asked with cancels it.
    account_id, key = bot_account(client, bot)
    _other_id, other_key = bot_account(client, bot, name="Other hook")
    report = play_match(client, drain, [f"account:{account_id}", "easy", "easy"], key_of(key),
                        games=1, rated=True)  # fmt: skip
    history = client.get(f"/api/v1/accounts/{account_id}/history").json["entries"]
    url = f"/api/v1/matches/{history[0]['match_id']}"
    for headers, status, error in (
        ({}, 401, "account_required"),
        ({**key_of(key), "X-Pocha-Account": "pocha_nokey"}, 401, "unknown_account"),
        (key_of(other_key), 403, "not_your_account"),
    ):
        refused = client.delete(url, headers={**headers, "Accept-Language": "es"})
        assert refused.status_code == status, refused.get_data()
        assert refused.json["error"] == error, refused.json
        assert refused.headers["Content-Language"] == "es"
        # Nothing changed: the match and its records are all there.
        assert client.get(url).json == report
        assert len(client.get(f"{url}/records?format=json").json) == 1
    assert client.delete(url, headers=key_of(key)).status_code == 204
    assert client.get(url).status_code == 404


def test_an_unrated_match_is_cancelled_by_whoever_knows_its_id(
    client: FlaskClient, drain: Drain, bot: WebhookBot
) -> None:
    account_id, _key = bot_account(client, bot)
    report = play_match(client, drain, [f"account:{account_id}", "easy", "easy"], games=1)
    assert client.delete(report["url"]).status_code == 204
    assert client.get(report["url"]).status_code == 404


def test_the_example_checks_the_signature(
    client: FlaskClient, drain: Drain, bot: WebhookBot
) -> None:
    account_id, _key = bot_account(client, bot)
    play_match(client, drain, [f"account:{account_id}", "easy", "easy"], games=1)
    call = bot.calls[0]
    verified = example_bot().verified
    body = bytes(__import__("json").dumps(call["body"], separators=(",", ":")), "utf-8")
    stamp, signed = call["headers"]["X-Pocha-Timestamp"], call["headers"]["X-Pocha-Signature"]
    assert verified(bot.secret, stamp, body, signed)
    assert not verified(bot.secret, stamp, body + b" ", signed)
    assert not verified("whsec_another", stamp, body, signed)


@pytest.mark.parametrize(
    ("behaviour", "reason"),
    [
        ("silent", "timeout"),
        ("drip", "timeout"),
        ("drip_status", "timeout"),
        ("huge", "too_large"),
        ("redirect", "redirect"),
        ("illegal", "illegal"),
        ("bad_json", "bad_json"),
        ("error", "status_500"),
    ],
)
def test_a_hostile_webhook_is_contained_by_the_stand_in(
    client: FlaskClient, drain: Drain, bot: WebhookBot, behaviour: str, reason: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    if reason != "timeout":
        answers_in_time(monkeypatch)  # a late answer would be told as a timeout
    account_id, key = bot_account(client, bot)
    bot.behaviour = behaviour
    label = f"account:{account_id}"
    report = play_match(client, drain, [label, "easy", "easy"], games=1)
    # The match ended; every decision of the bot was the stand-in's.
    assert report["done"] == 1
    assert report["stand_in_decisions"] == {label: account_decisions(client, report, label)}
    counted = status(client, account_id, key)
    assert counted["last_failure"] == reason
    assert counted["failures"] == len(bot.calls) >= 1
    assert counted["decisions"] == 0


def test_an_account_in_two_seats_has_the_stand_ins_decisions_of_both_counted(
    client: FlaskClient, drain: Drain, bot: WebhookBot, tmp_path: Path
) -> None:
    """One account in two seats of a game: the game's `stand_in_decisions` is its two
    seats' counts summed under its label (it kept the last seat's only), and
    `stand_in_decisions_by_seat` has each seat's, as `pocha replay` tells them."""
    account_id, _key = bot_account(client, bot)
    bot.behaviour = "illegal"  # every call fails: each decision of its seats is the stand-in's
    label = f"account:{account_id}"
    report = play_match(client, drain, [label, "easy", label], games=2)
    lines = client.get(report["records_url"] + "?format=json").json
    assert len(lines) == 2
    for record in lines:
        seats = [i for i, seat in enumerate(record["seats"]) if seat == label]
        assert len(seats) == 2, record["seats"]
        by_seat = [record["decisions"][i] if i in seats else 0 for i in range(3)]
        assert record["stand_in_decisions_by_seat"] == by_seat
        assert record["stand_in_decisions"] == {label: sum(by_seat)}
        assert all(by_seat[i] > 0 for i in seats)
    assert report["stand_in_decisions"] == {label: account_decisions(client, report, label)}
    record = tmp_path / "game.json"
    record.write_text(json.dumps(lines[0]))
    told = CliRunner().invoke(pocha, ["replay", str(record)], env={"LANG": "C.UTF-8"})
    assert told.exit_code == 0, told.output
    first = lines[0]["stand_in_decisions_by_seat"]
    assert (
        f"Made by the stand-in for an account: account {account_id} #0 {first[0]} · "
        f"account {account_id} #2 {first[2]}"
    ) in told.output.splitlines()


def test_a_refused_connection_is_counted_as_connection_not_timeout(
    client: FlaskClient, drain: Drain, bot: WebhookBot
) -> None:
    account_id, key = bot_account(client, bot)
    # A port bound but not listening: every connection to it is refused at once, and no
    # other process can take the port while the test holds it.
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{closed.getsockname()[1]}/"
        moved = client.put(
            f"/api/v1/accounts/{account_id}/webhook", json={"url": url}, headers=key_of(key)
        )
        assert moved.status_code == 200, moved.json
        label = f"account:{account_id}"
        report = play_match(client, drain, [label, "easy", "easy"], games=1)
    assert report["stand_in_decisions"] == {label: account_decisions(client, report, label)}
    counted = status(client, account_id, key)
    assert (counted["last_failure"], counted["decisions"]) == ("connection", 0)
    assert counted["failures"] >= 1


def test_a_bot_failing_n_times_in_a_row_is_paused_until_resumed(
    in_time: None, client: FlaskClient, drain: Drain, bot: WebhookBot
) -> None:
    account_id, key = bot_account(client, bot)
    label = f"account:{account_id}"
    bot.behaviour = "illegal"
    report = play_match(client, drain, [label, "easy", "easy"], games=3)
    counted = status(client, account_id, key)
    # Five failures (the default), then no more calls: the stand-in played the rest.
    assert (counted["paused"], counted["failures"], counted["failures_in_a_row"]) == (
        True, 5, 5,
    )  # fmt: skip
    assert len(bot.calls) == 5
    # Its public profile says so (never its URL).
    profile = client.get(f"/api/v1/accounts/{account_id}").json
    assert profile["webhook"]["paused"] and "url" not in profile["webhook"]
    assert report["stand_in_decisions"] == {label: account_decisions(client, report, label)}
    # The owner resumes it.
    resumed = client.post(f"/api/v1/accounts/{account_id}/webhook/resume", headers=key_of(key))
    assert resumed.status_code == 200, resumed.json
    assert (resumed.json["paused"], resumed.json["failures_in_a_row"]) == (False, 0)
    bot.behaviour = "legal"
    again = play_match(client, drain, [label, "easy", "easy"], games=1)
    assert again["stand_in_decisions"] == {label: 0}
    assert status(client, account_id, key)["decisions"] == len(bot.calls) - 5 > 0


def test_private_addresses_are_refused_without_the_operators_setting(
    redis_url: str, bot: WebhookBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("POCHA_BOT_ALLOW_PRIVATE", raising=False)
    app = create_app({"REDIS_URL": redis_url, "TESTING": True, "RATE_LIMITS": "off"})
    client = app.test_client()
    made = client.post("/api/v1/accounts", json={"name": "Sneaky", "kind": "bot"}).json
    path, headers = f"/api/v1/accounts/{made['id']}/webhook", key_of(made["key"])
    # Shared address space (RFC 6598) is no more public than 10/8: carriers' and clouds'
    # inner networks (a metadata service at 100.100.100.200, VPN meshes), and loopback
    # wrapped in a 6to4 address is loopback still.
    inner = ("http://100.100.100.200/", "http://100.64.0.1/", "http://[2002:7f00:1::1]/")
    for url in (bot.url, "http://10.1.2.3/", "http://169.254.169.254/", "http://[::1]:8/", *inner):
        refused = client.put(path, json={"url": url}, headers=headers)
        assert (refused.status_code, refused.json["error"]) == (422, "webhook_refused"), url
    in_spanish = client.put(
        path, json={"url": bot.url}, headers={**headers, "Accept-Language": "es"}
    )
    assert in_spanish.status_code == 422
    english = client.put(path, json={"url": bot.url}, headers=headers).json["message"]
    assert in_spanish.json["message"] != english
    for url in ("ftp://example.org/", "http:///nohost", "http://user:pw@example.org/"):
        refused = client.put(path, json={"url": url}, headers=headers)
        assert (refused.status_code, refused.json["error"]) == (422, "webhook_refused"), url


def test_an_address_allowed_at_registration_is_checked_again_at_each_call(
    client: FlaskClient, drain: Drain, bot: WebhookBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    account_id, key = bot_account(client, bot)
    monkeypatch.delenv("POCHA_BOT_ALLOW_PRIVATE")
    label = f"account:{account_id}"
    report = play_match(client, drain, [label, "easy", "easy"], games=1)
    assert bot.calls == []
    assert report["stand_in_decisions"][label] > 0
    assert status(client, account_id, key)["last_failure"] == "refused_address"


def test_only_a_bots_own_key_manages_its_webhook(
    client: FlaskClient, bot: WebhookBot, connection: redis.Redis
) -> None:
    account_id, key = bot_account(client, bot)
    path = f"/api/v1/accounts/{account_id}/webhook"
    person = client.post("/api/v1/accounts", json={"name": "Ana", "kind": "person"}).json
    answers = {
        "none": client.get(path),
        "guessed": client.get(path, headers=key_of("pa_guessed")),
        "another": client.get(path, headers=key_of(person["key"])),
        "person": client.put(
            f"/api/v1/accounts/{person['id']}/webhook",
            json={"url": bot.url},
            headers=key_of(person["key"]),
        ),
        "nobody": client.get("/api/v1/accounts/nobody/webhook", headers=key_of(key)),
        "no_url": client.put(path, json={}, headers=key_of(key)),
    }
    seen = {name: (a.status_code, a.json["error"]) for name, a in answers.items()}
    assert seen == {
        "none": (401, "account_required"),
        "guessed": (401, "unknown_account"),
        "another": (403, "not_your_account"),
        "person": (409, "not_a_bot"),
        "nobody": (404, "account_not_found"),
        "no_url": (422, "validation_error"),
    }
    # A match seats a person, or an account that is none, by no one else's key.
    for seat in (f"account:{person['id']}", "account:nobody"):
        refused = client.post(
            "/api/v1/matches",
            json={"seats": [seat, "easy", "easy"], "games": 1, "duplicate": False},
        )
        assert (refused.status_code, refused.json["error"]) == (422, "validation_error")
    assert client.delete(path, headers=key_of(key)).status_code == 204
    gone = client.get(path, headers=key_of(key))
    assert (gone.status_code, gone.json["error"]) == (404, "no_webhook")
    # Without its webhook, the bot (open to matches) plays over its event stream: at tables.
    at_tables = client.post(
        "/api/v1/matches",
        json={"seats": [f"account:{account_id}", "easy", "easy"], "games": 1, "duplicate": False},
    )
    assert at_tables.status_code == 202 and at_tables.json["at_tables"], at_tables.json
    assert client.delete(at_tables.json["url"]).status_code == 204


def test_a_webhook_bot_seated_at_a_table_plays_a_whole_game(
    in_time: None, client: FlaskClient, drain: Drain, bot: WebhookBot
) -> None:
    account_id, key = bot_account(client, bot)
    made = client.post(
        "/api/v1/games",
        json={
            "players": [{"name": "Ana"}, {"open": True}, {"name": "B", "bot": "easy"}],
            "rules": {"schedule": [1, 2, 1], "turn_seconds": 0},
        },
    )
    assert made.status_code == 201, made.json
    ana = {"Authorization": f"Bearer {made.json['seats'][0]['token']}"}
    joined = client.post(
        f"/api/v1/tables/{made.json['table_code']}/seats", json={"name": "x"}, headers=key_of(key)
    )
    assert joined.status_code == 201, joined.json
    hooked = {"Authorization": f"Bearer {joined.json['token']}"}
    game = f"/api/v1/games/{made.json['id']}"
    shown: dict[int, dict[str, Any]] = {}
    for _turn in range(500):
        view = client.get(game, headers=ana).json
        if view["phase"] == "finished":
            break
        if view["turn"] == 1:
            # The bot's turn waits for the workers: what the API shows its seat now.
            shown[view["version"]] = client.get(game, headers=hooked).json
        if view["turn"] != 0:
            drain()
            continue
        choice = view["you"]["legal"][0]
        path, body = ("bids", {"bid": choice}) if isinstance(choice, int) else (
            "plays", {"card": choice}
        )  # fmt: skip
        assert client.post(f"{game}/{path}", json=body, headers=ana).status_code == 200
    else:
        raise AssertionError("the game did not end")
    # Every turn of the bot was its webhook's, sent the very document the API shows its seat
    # (less the table's link, which names the host the API was asked on).
    counted = status(client, account_id, key)
    assert (counted["decisions"], counted["failures"]) == (len(bot.calls), 0)
    sent = {call["body"]["version"]: call["body"] for call in bot.calls}
    assert shown and set(shown) <= set(sent)
    for version, document in shown.items():
        if isinstance(document.get("table"), dict):
            document["table"].pop("link", None)
        assert sent[version] == document
    players = client.get(game).json["players"]
    assert players[1]["account"] == account_id


@pytest.mark.parametrize(
    ("game", "rules", "levels"),
    [("pocha", {"schedule": [1, 2]}, ["hard", "easy"]), ("poch", {"deals": 2}, ["hard", "easy"])],
)
def test_a_webhook_bot_plays_the_game_it_makes_with_its_key_by_its_webhook(
    in_time: None, client: FlaskClient, drain: Drain, bot: WebhookBot, game: str,
    rules: dict[str, Any], levels: list[str],
) -> None:  # fmt: skip
    # A bot that makes its own game against our levels is asked for its turns as at a
    # table: it never moves by key, and a game of one account has no clock to end a wait.
    account_id, key = bot_account(client, bot)
    players = [{"name": "x"}] + [{"name": f"L{i}", "bot": lv} for i, lv in enumerate(levels)]
    made = client.post(
        "/api/v1/games", json={"game": game, "players": players, "rules": rules},
        headers=key_of(key),
    )  # fmt: skip
    assert made.status_code == 201, made.json
    path = f"/api/v1/games/{made.json['id']}"
    over = {"pocha": "finished", "poch": "over"}[game]

    def ended() -> bool:
        drain()
        return bool(client.get(path).json["phase"] == over)

    wait_until(ended, timeout=LONG, what=f"the {game} game the webhook bot made to end")
    assert bot.calls and all(call["verified"] for call in bot.calls)
    assert {call["body"]["game"] for call in bot.calls} == {game}
    counted = status(client, account_id, key)
    assert (counted["decisions"], counted["failures"]) == (len(bot.calls), 0)
    assert client.get(path).json["players"][0]["account"] == account_id


@pytest.mark.parametrize("behaviour", ["silent", "illegal"])
def test_a_failing_webhook_at_a_table_is_played_by_the_stand_in(
    client: FlaskClient, drain: Drain, bot: WebhookBot, behaviour: str
) -> None:
    account_id, key = bot_account(client, bot)
    bot.behaviour = behaviour
    made = client.post(
        "/api/v1/games",
        json={
            "players": [{"open": True}, {"name": "B", "bot": "easy"}, {"name": "C", "bot": "easy"}],
            "rules": {"schedule": [1, 2, 1], "turn_seconds": 0},
        },
    )
    assert made.status_code == 201, made.json
    joined = client.post(
        f"/api/v1/tables/{made.json['table_code']}/seats", json={"name": "x"}, headers=key_of(key)
    )
    assert joined.status_code == 201, joined.json
    drain()
    # Nobody but the bot and our levels: the game ran to its end on the workers, the stand-in
    # playing every turn of the bot (paused after five failures, then not called again).
    view = client.get(f"/api/v1/games/{made.json['id']}").json
    assert view["phase"] == "finished"
    counted = status(client, account_id, key)
    assert (counted["decisions"], counted["paused"]) == (0, True)
    assert counted["failures"] == len(bot.calls) == 5
    # Each of its moves says the stand-in made it (a match at tables counts them so), and
    # its seat missed no turn: it is no person gone away.
    played = client.get(f"/api/v1/games/{made.json['id']}/events").json
    its = [e for e in played if e["type"] in ("bid", "card_played") and e["seat"] == 0]
    assert its and all(e.get("by") == "stand_in" for e in its)
    assert not any(e["type"] == "seat_away" for e in played)


def test_only_its_key_seats_a_webhook_bot_in_a_match_unless_it_is_open_to_matches(
    client: FlaskClient, drain: Drain, bot: WebhookBot
) -> None:
    account_id, key = bot_account(client, bot, open_to_matches=False)
    _other_id, other_key = bot_account(client, bot, name="Other hook")
    label = f"account:{account_id}"
    asked = {"seats": [label, "easy", "easy"], "games": 1, "rules": RULES}
    for headers in ({}, key_of(other_key)):
        refused = client.post("/api/v1/matches", json=asked, headers=headers)
        assert (refused.status_code, refused.json["error"]) == (422, "validation_error")
        assert "open_to_matches" in refused.json["errors"]["json"]["seats"][0]
    assert not client.get(f"/api/v1/accounts/{account_id}").json["open_to_matches"]
    play_match(client, drain, [label, "easy", "easy"], key_of(key), games=1)
    # Only its own key opens it, and only a bot's account is opened.
    path = f"/api/v1/accounts/{account_id}"
    for headers, expected in (
        ({}, (401, "account_required")),
        (key_of(other_key), (403, "not_your_account")),
    ):
        answer = client.patch(path, json={"open_to_matches": True}, headers=headers)
        assert (answer.status_code, answer.json["error"]) == expected
    bad = client.patch(path, json={"open_to_matches": "yes"}, headers=key_of(key))
    assert (bad.status_code, bad.json["error"]) == (422, "validation_error")
    person = client.post("/api/v1/accounts", json={"name": "Ana", "kind": "person"}).json
    mine = client.patch(f"/api/v1/accounts/{person['id']}", json={"open_to_matches": True},
                        headers=key_of(person["key"]))  # fmt: skip
    assert (mine.status_code, mine.json["error"]) == (409, "not_a_bot")
    opened = client.patch(path, json={"open_to_matches": True}, headers=key_of(key))
    assert opened.status_code == 200 and opened.json["open_to_matches"], opened.json
    play_match(client, drain, [label, "easy", "easy"], key_of(other_key), games=1)
    closed = client.patch(path, json={"open_to_matches": False}, headers=key_of(key))
    assert closed.status_code == 200 and not closed.json["open_to_matches"]
    refused = client.post("/api/v1/matches", json=asked)
    assert (refused.status_code, refused.json["error"]) == (422, "validation_error")


def test_a_disabled_bots_webhook_is_called_no_more(
    client: FlaskClient, drain: Drain, bot: WebhookBot, connection: redis.Redis
) -> None:
    # The operator disables an account (a cheat, an abusive address) whose match is under
    # way: its seats are the stand-in's from then on, and its URL is never called again.
    account_id, key = bot_account(client, bot)
    label = f"account:{account_id}"
    asked = {"seats": [label, "easy", "easy"], "games": 2, "rules": RULES, "duplicate": False,
             "rated": True}  # fmt: skip
    made = client.post("/api/v1/matches", json=asked, headers=key_of(key))
    assert made.status_code == 202, made.json
    assert set_disabled(connection, account_id)
    drain()
    report = client.get(made.json["url"]).json
    assert (report["status"], report["done"]) == ("finished", 2), report
    assert bot.calls == []
    played = account_decisions(client, report, label)
    assert played > 0 and report["stand_in_decisions"] == {label: played}
    hook = webhooks.get(connection, account_id)
    assert hook is not None and (hook.failures, hook.paused) == (0, False)


def test_cancelling_a_rated_match_mid_game_counts_the_game_as_lost(
    client: FlaskClient, drain: Drain, bot: WebhookBot
) -> None:
    # The bot reads its seat's view, sees the game going badly, and cancels its match
    # before answering: that game must count as lost, not vanish from its record.
    account_id, key = bot_account(client, bot)
    label = f"account:{account_id}"
    bot.behaviour = "silent"
    asked = {"seats": [label, "easy", "easy"], "games": 1, "rules": RULES, "duplicate": False,
             "rated": True}  # fmt: skip
    made = client.post("/api/v1/matches", json=asked, headers=key_of(key))
    assert made.status_code == 202, made.json
    cancelled: list[int] = []

    def cancel_when_asked() -> None:
        wait_until(lambda: bool(bot.calls), LONG, "the bot's first call")
        answer = app_client.delete(made.json["url"], headers=key_of(key))
        cancelled.append(answer.status_code)

    app_client = client.application.test_client()
    watcher = threading.Thread(target=cancel_when_asked, daemon=True)
    watcher.start()
    drain()
    watcher.join(scaled(LONG))
    assert cancelled == [204]
    history = client.get(f"/api/v1/accounts/{account_id}/history?game=pocha").json["entries"]
    assert [(e["match_id"], e["match_game"], e.get("given_up")) for e in history] == [
        (made.json["id"], 0, True)
    ]
    assert history[0]["rank"] == 3


def new_key(client: FlaskClient, account_id: str, key: str) -> str:
    """The bot's key replaced by its owner (its webhook removed with it): the new key."""
    answer = client.post(f"/api/v1/accounts/{account_id}/key", headers=key_of(key))
    assert answer.status_code == 200, answer.json
    assert answer.json["webhook_removed"] is True, answer.json
    return str(answer.json["key"])


def held_anywhere(connection: redis.Redis, text: str) -> list[str]:
    """The Redis keys whose values (or fields) hold `text`."""
    found = []
    for name in connection.scan_iter(count=1000):
        kind = connection.type(name).decode()
        values: list[Any] = []
        if kind == "string":
            values = [connection.get(name)]
        elif kind == "hash":
            values = [x for pair in connection.hgetall(name).items() for x in pair]
        elif kind == "list":
            values = connection.lrange(name, 0, -1)
        elif kind == "set":
            values = list(connection.smembers(name))
        elif kind == "zset":
            values = connection.zrange(name, 0, -1)
        elif kind == "stream":
            values = [v for _id, f in connection.xrange(name) for v in f.values()]
        if any(text.encode() in v for v in values if isinstance(v, bytes)):
            found.append(name.decode())
    return found


def test_a_replaced_keys_webhook_is_called_no_more_in_a_rated_match(
    in_time: None, client: FlaskClient, drain: Drain, bot: WebhookBot, connection: redis.Redis
) -> None:
    # A key is replaced because it leaked, and its thief may have pointed the bot's webhook
    # at their own server (knowing its secret, having registered it): the webhook goes with
    # the key, and the match under way is the stand-in's from then on. The call in flight
    # as the key is replaced runs to its end (here its deadline): it brings nothing back.
    account_id, key = bot_account(client, bot)
    label = f"account:{account_id}"
    bot.behaviour = "silent"
    old_secret = bot.secret
    assert held_anywhere(connection, old_secret) == [webhook_key(account_id)]
    asked = {"seats": [label, "easy", "easy"], "games": 2, "rules": RULES, "duplicate": False,
             "rated": True}  # fmt: skip
    made = client.post("/api/v1/matches", json=asked, headers=key_of(key))
    assert made.status_code == 202, made.json
    replaced: list[str] = []

    def replace_when_asked() -> None:
        wait_until(lambda: bool(bot.calls), LONG, "the bot's first call")
        replaced.append(new_key(client.application.test_client(), account_id, key))

    watcher = threading.Thread(target=replace_when_asked, daemon=True)
    watcher.start()
    drain()
    watcher.join(scaled(LONG))
    assert len(replaced) == 1
    report = client.get(made.json["url"]).json
    assert (report["status"], report["done"]) == ("finished", 2), report
    assert len(bot.calls) == 1
    played = account_decisions(client, report, label)
    assert played > 1 and report["stand_in_decisions"] == {label: played}
    # Gone, and its secret with it: the failed call in flight was counted on nothing.
    assert webhooks.get(connection, account_id) is None
    assert held_anywhere(connection, old_secret) == []
    path = f"/api/v1/accounts/{account_id}/webhook"
    gone = client.get(path, headers=key_of(replaced[0]))
    assert (gone.status_code, gone.json["error"]) == (404, "no_webhook")
    assert "webhook" not in client.get(f"/api/v1/accounts/{account_id}").json
    # Its owner registers it again with the new key (the old one opens nothing): a new
    # secret, and the bot's next match is its webhook's again.
    stale = client.put(path, json={"url": bot.url}, headers=key_of(key))
    assert (stale.status_code, stale.json["error"]) == (401, "unknown_account")
    again = client.put(path, json={"url": bot.url}, headers=key_of(replaced[0]))
    assert again.status_code == 200, again.json
    assert again.json["secret"] not in (old_secret, "") and again.json["decisions"] == 0
    bot.secret, bot.behaviour = again.json["secret"], "legal"
    bot.calls.clear()
    report = play_match(client, drain, [label, "easy", "easy"], key_of(replaced[0]), games=1,
                        rated=True)  # fmt: skip
    assert report["stand_in_decisions"] == {label: 0}
    assert bot.calls and all(call["verified"] for call in bot.calls)


def test_a_replaced_keys_webhook_is_called_no_more_in_a_challenges_game(
    client: FlaskClient, drain: Drain, bot: WebhookBot, redis_url: str
) -> None:
    # The operator's way (`pocha accounts rotate-key`, for an owner whose key a thief
    # holds) removes the webhook as the owner's does: the bot's seat in a rated challenge's
    # game already made is the stand-in's from then on.
    account_id, key = bot_account(client, bot)
    ana = client.post("/api/v1/accounts", json={"name": "Ana", "kind": "person"}).json
    asked = {"game": "pocha", "rules": {"schedule": [1, 2, 1]}, "rated": True,
             "opponents": [{"account": account_id}, {"bot": "easy"}]}  # fmt: skip
    made = client.post("/api/v1/challenges", json=asked, headers=key_of(ana["key"]))
    assert made.status_code == 201, made.json
    accepted = client.post(f"/api/v1/challenges/{made.json['id']}/accept", headers=key_of(key))
    assert accepted.status_code == 200, accepted.json
    game_id = accepted.json["game_id"]
    game = f"/api/v1/games/{game_id}"
    rotated = CliRunner().invoke(pocha, ["accounts", "rotate-key", account_id, "--redis-url",
                                         redis_url])  # fmt: skip
    assert rotated.exit_code == 0, rotated.output
    assert rotated.stdout.strip().startswith("pa_")
    assert "removed the webhook" in rotated.stderr
    mine = {"Authorization": f"Bearer {ana['key']}"}
    for _turn in range(500):
        view = client.get(game, headers=mine).json
        if view["phase"] == "finished":
            break
        if view["turn"] != 0:
            drain()
            continue
        assert move(client, game_id, ana["key"], view["you"]["legal"][0]).status_code == 200
    else:
        raise AssertionError("the game did not end")
    assert bot.calls == []
    played = client.get(f"{game}/events").json
    its = [e for e in played if e["type"] in ("bid", "card_played") and e["seat"] == 1]
    assert its and all(e.get("by") == "stand_in" for e in its)


def test_a_match_seat_naming_an_account_by_its_name_is_told_it_takes_the_id(
    client: FlaskClient, bot: WebhookBot
) -> None:
    account_id, key = bot_account(client, bot, name="Named")
    asked = {"seats": ["account:Named", "easy", "easy"], "games": 1}
    refused = client.post("/api/v1/matches", json=asked, headers=key_of(key))
    assert (refused.status_code, refused.json["error"]) == (422, "validation_error")
    assert "no account has this id" in refused.json["message"]
    assert "GET /api/v1/account" in refused.json["errors"]["json"]["seats"][0]
    told = client.get("/api/v1/account", headers=key_of(key)).json["id"]
    assert told == account_id


def test_a_match_call_says_which_game_of_which_match_it_is(
    client: FlaskClient, drain: Drain, bot: WebhookBot
) -> None:
    # A match's games are stored nowhere (no game id), and may be played at once: a bot
    # that keeps anything per game tells them apart by the match and the game's number.
    account_id, key = bot_account(client, bot)
    report = play_match(client, drain, [f"account:{account_id}", "easy", "easy"], key_of(key))
    named = [call["body"]["match"] for call in bot.calls]
    assert {m["id"] for m in named} == {report["id"]}
    assert {m["game"] for m in named} == {0, 1, 2}


def unused_bot(connection: redis.Redis, bot: WebhookBot, name: str) -> str:
    """A bot account made long ago whose key was never used since, with `bot` as its
    webhook, open to anyone's matches: idle by its key alone. Its id."""
    _key, account = accounts.create(connection, name, "bot", now=LONG_AGO)
    secret = webhooks.register(connection, account.id, bot.url)
    assert secret is not None
    bot.secret = secret
    assert accounts.set_open_to_matches(connection, account.id, True)
    return account.id


def played_at(connection: redis.Redis, account_id: str) -> float | None:
    raw = connection.hget(account_key(account_id), "played")
    return None if raw is None else float(raw)


def test_a_match_keeps_its_webhook_bot_from_the_sweep_while_it_runs(
    in_time: None, client: FlaskClient, drain: Drain, bot: WebhookBot, connection: redis.Redis
) -> None:
    # A bot whose key went unused for longer than the idle days plays a match by webhook
    # alone, and its webhook never answers (the stand-in plays): only the match says that
    # the account is in use. The sweep comes while the bot's first call is held.
    account_id = unused_bot(connection, bot, "Hooky")
    idle = unused_bot(connection, bot, "Ocioso")
    label = f"account:{account_id}"
    bot.behaviour = "silent"
    asked = {"seats": [label, "easy", "easy"], "games": 2, "rules": RULES, "duplicate": False,
             "seed": 5}  # fmt: skip
    before = time.time()
    made = client.post("/api/v1/matches", json=asked)
    assert made.status_code == 202, made.json
    noted = played_at(connection, account_id)
    assert noted is not None and noted >= before
    # The test's sweep is the only one (the workers' mark taken, as one of them would), and
    # the creation's note is set back as long ago: the note of the game under way keeps it.
    connection.set(ACCOUNTS_SWEEP_DUE, "1", ex=int(LONG))
    connection.hset(account_key(account_id), "played", repr(LONG_AGO))
    swept: list[tuple[set[str], str]] = []

    def sweep_when_asked() -> None:
        wait_until(lambda: bool(bot.calls), LONG, "the bot's first call")
        forgotten = sweep_all(connection)
        status = client.application.test_client().get(made.json["url"]).json["status"]
        swept.append((forgotten, status))
        bot.released.set()  # every call from here on fails at once

    watcher = threading.Thread(target=sweep_when_asked, daemon=True)
    watcher.start()
    drain()
    watcher.join(scaled(LONG))
    assert swept == [({idle}, "running")]
    report = client.get(made.json["url"]).json
    assert (report["status"], report["done"], report["failed"]) == ("finished", 2, 0), report
    assert report["seats"][0] == label
    assert accounts.get(connection, account_id) is not None
    # Once the match is over and the idle days pass, nothing keeps it any more.
    assert sweep_all(connection, now=time.time() + IDLE + 1) == {account_id}


def test_a_webhook_that_answered_lately_keeps_its_account_noted_once_an_hour(
    in_time: None, bot: WebhookBot, connection: redis.Redis
) -> None:
    # The workers' call (`ask`) of a bot whose key went unused for the idle days: its answer
    # is the account in use; a failed call is not.
    answering = unused_bot(connection, bot, "Hooky")
    failing = unused_bot(connection, bot, "Fallido")
    kind = BOT_KINDS["pocha"]
    game = kind.game.new(kind.game.rules_from_dict(RULES), 5)
    seat = game.turn
    settings = Settings.from_config()

    before = time.time()
    action, why = ask(connection, answering, game, seat, view_of(game, seat), settings)
    assert (action is not None, why) == (True, None)
    noted = played_at(connection, answering)
    assert noted is not None and noted >= before
    # A second answer within the hour writes nothing: the note stays the first one's.
    assert ask(connection, answering, game, seat, view_of(game, seat), settings)[1] is None
    assert played_at(connection, answering) == noted
    hook = webhooks.get(connection, answering)
    assert hook is not None and hook.decisions == 2
    # An hour later, the next answer notes it again.
    connection.hset(account_key(answering), "played", repr(noted - accounts.PLAYED_EVERY))
    assert ask(connection, answering, game, seat, view_of(game, seat), settings)[1] is None
    again = played_at(connection, answering)
    assert again is not None and again >= noted

    bot.behaviour = "error"
    assert ask(connection, failing, game, seat, view_of(game, seat), settings) == (
        None,
        "status_500",
    )
    assert played_at(connection, failing) is None
    assert sweep_all(connection) == {failing}
    assert accounts.get(connection, answering) is not None
