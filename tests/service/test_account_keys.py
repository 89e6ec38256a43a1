"""Replacing an account's key, against the test's real Redis: the new key is shown once and
opens what the old one did (its seats, its settings), the old one opens nothing from that
moment, and a bot's webhook goes with it (the answer says so); two replacements of one key
at once leave one key; the key's event stream ends at once when the key is replaced or the
account disabled (by the operator's `pocha accounts disable`); the operator's `pocha
accounts rotate-key` (which removes a bot's webhook too); the refusals, and the limit per
address."""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient

from cli.main import pocha
from core.errors import AccountDisabled, UnknownAccount
from core.store import accounts, webhooks
from core.store.keys import ACCOUNT_KEYS, account_stream_key
from service import create_app
from service.bot_events import open_stream
from service.context import EXTENSION
from tests.contract import Contract
from tests.service.helpers import account_game, bearer, move
from tests.waiting import LONG, scaled, wait_until

STREAM = {"Accept": "text/event-stream"}
#: How long a stream may take to end once its key or account is no longer good: at once,
#: on the account's channel, well before a keepalive (30 s in these tests) would look.
PROMPTLY = 5.0


def key_of(account: dict[str, Any]) -> dict[str, str]:
    return {"X-Pocha-Account": account["key"]}


def sign_up(client: FlaskClient, name: str, kind: str = "person", **kwargs: Any) -> Any:
    made = client.post("/api/v1/accounts", json={"name": name, "kind": kind}, **kwargs)
    assert made.status_code == 201, made.json
    return dict(made.json)


def new_key(client: FlaskClient, account_id: str, key: str | None, **kwargs: Any) -> Any:
    headers = {} if key is None else {"X-Pocha-Account": key}
    return client.post(f"/api/v1/accounts/{account_id}/key", headers=headers, **kwargs)


def refused(answer: Any) -> tuple[int, str]:
    return answer.status_code, answer.json["error"]


def keys_of(app: Flask, account_id: str) -> list[str]:
    """The stored keys' hashes that open `account_id`."""
    stored = app.extensions[EXTENSION].redises.store.hgetall(ACCOUNT_KEYS)
    return [k.decode() for k, v in stored.items() if v.decode() == account_id]


def test_a_new_key_opens_what_the_old_one_did_and_the_old_one_nothing(
    app: Flask, client: FlaskClient
) -> None:
    ana = sign_up(client, "Ana")
    game_id = account_game(client, ana["key"])

    answer = new_key(client, ana["id"], ana["key"])
    assert answer.status_code == 200, answer.json
    fresh = answer.json["key"]
    assert answer.json["id"] == ana["id"]
    assert fresh.startswith("pa_") and fresh != ana["key"] and len(fresh) == len(ana["key"])
    # Stored as its hash alone, the old one's gone.
    assert keys_of(app, ana["id"]) == [accounts.hash_key(fresh)]

    # The old key, everywhere a key is taken, at once: 401 unknown_account.
    old = {"X-Pocha-Account": ana["key"]}
    assert refused(new_key(client, ana["id"], ana["key"])) == (401, "unknown_account")
    seat = client.post("/api/v1/games", json={"players": [{"name": "A"}, {"name": "R", "bot":
                       "random"}, {"name": "S", "bot": "random"}]}, headers=old)  # fmt: skip
    assert refused(seat) == (401, "unknown_account")
    assert refused(client.get("/api/v1/bot/events", headers={**STREAM, **old})) == (
        401, "unknown_account",
    )  # fmt: skip
    assert refused(client.get(f"/api/v1/games/{game_id}", headers=bearer(ana["key"]))) == (
        401, "unknown_account",
    )  # fmt: skip

    # The new one opens the account's seat, and moves there.
    mine = client.get(f"/api/v1/games/{game_id}", headers=bearer(fresh))
    assert mine.status_code == 200 and mine.json["you"]["seat"] == 0
    legal = mine.json["you"]["legal"][0]
    assert refused(move(client, game_id, ana["key"], legal)) == (401, "unknown_account")
    assert move(client, game_id, fresh, legal).status_code == 200
    # The account is the same one.
    profile = client.get(f"/api/v1/accounts/{ana['id']}").json
    assert (profile["name"], profile["kind"]) == ("Ana", "person")


def test_a_bots_webhook_goes_with_its_key(app: Flask, client: FlaskClient) -> None:
    # Its key leaked: whoever held it may have pointed the webhook at their own server.
    robo = sign_up(client, "Robo", "bot")
    connection = app.extensions[EXTENSION].redises.store
    webhooks.register(connection, robo["id"], "https://bots.example/robo")
    answer = new_key(client, robo["id"], robo["key"])
    assert answer.status_code == 200, answer.json
    assert answer.json["webhook_removed"] is True
    fresh = answer.json["key"]
    assert webhooks.get(connection, robo["id"]) is None
    assert "webhook" not in client.get(f"/api/v1/accounts/{robo['id']}").json
    # With none to remove, the answer says so.
    again = new_key(client, robo["id"], fresh)
    assert again.status_code == 200 and again.json["webhook_removed"] is False
    ana = sign_up(client, "Ana")
    mine = new_key(client, ana["id"], ana["key"])
    assert mine.status_code == 200 and mine.json["webhook_removed"] is False
    # Its settings are its new key's to change, no longer the old one's.
    fresh = again.json["key"]
    change = {"open_to_matches": True}
    patched = client.patch(f"/api/v1/accounts/{robo['id']}", json=change, headers=key_of(robo))
    assert refused(patched) == (401, "unknown_account")
    patched = client.patch(
        f"/api/v1/accounts/{robo['id']}", json=change, headers={"X-Pocha-Account": fresh}
    )
    assert patched.status_code == 200 and patched.json["open_to_matches"] is True


def test_a_replacement_that_loses_the_race_removes_no_webhook(app: Flask) -> None:
    """The webhook goes in the step that replaces the key, never apart from it: a
    replacement refused (its key replaced meanwhile) leaves the webhook registered since."""
    connection = app.extensions[EXTENSION].redises.store
    key, robo = accounts.create(connection, "Robo", "bot")
    webhooks.register(connection, robo.id, "https://bots.example/robo")
    made = accounts.replace_key(connection, robo.id, key)
    assert made is not None and made.webhook_removed
    webhooks.register(connection, robo.id, "https://bots.example/robo-again")
    assert accounts.replace_key(connection, robo.id, key) is None
    hook = webhooks.get(connection, robo.id)
    assert hook is not None and hook.url == "https://bots.example/robo-again"


def test_only_the_accounts_own_enabled_key_replaces_it(app: Flask, client: FlaskClient) -> None:
    ana, bea = sign_up(client, "Ana"), sign_up(client, "Bea")
    assert refused(new_key(client, ana["id"], None)) == (401, "account_required")
    assert refused(new_key(client, ana["id"], "pa_guessed")) == (401, "unknown_account")
    assert refused(new_key(client, ana["id"], bea["key"])) == (403, "not_your_account")
    assert refused(new_key(client, "nobody", ana["key"])) == (404, "account_not_found")
    accounts.set_disabled(app.extensions[EXTENSION].redises.store, ana["id"])
    assert refused(new_key(client, ana["id"], ana["key"])) == (403, "account_disabled")
    # None of them changed a key.
    assert keys_of(app, ana["id"]) == [accounts.hash_key(ana["key"])]
    assert keys_of(app, bea["id"]) == [accounts.hash_key(bea["key"])]


def test_replacements_of_one_key_at_once_leave_one_key(app: Flask, client: FlaskClient) -> None:
    ana = sign_up(client, "Ana")
    at_once = 8
    start = threading.Barrier(at_once)
    answers: queue.Queue[Any] = queue.Queue()

    def replace() -> None:
        own = app.test_client()
        start.wait(scaled(LONG))
        answers.put(new_key(own, ana["id"], ana["key"]))

    threads = [threading.Thread(target=replace) for _ in range(at_once)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(scaled(LONG))
    got = [answers.get_nowait() for _ in range(at_once)]
    given = [a.json["key"] for a in got if a.status_code == 200]
    assert len(given) == 1, [(a.status_code, a.json) for a in got]
    assert sorted(refused(a) for a in got if a.status_code != 200) == [(401, "unknown_account")] * (
        at_once - 1
    )
    assert keys_of(app, ana["id"]) == [accounts.hash_key(given[0])]


def test_replacements_in_the_store_at_once_leave_one_key(app: Flask) -> None:
    """The same race below the HTTP layer, where both have passed the key's look-up."""
    connection = app.extensions[EXTENSION].redises.store
    key, ana = accounts.create(connection, "Ana", "person")
    at_once = 8
    start = threading.Barrier(at_once)
    given: queue.Queue[str | None] = queue.Queue()

    def replace() -> None:
        start.wait(scaled(LONG))
        made = accounts.replace_key(connection, ana.id, key)
        given.put(None if made is None else made.key)

    threads = [threading.Thread(target=replace) for _ in range(at_once)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(scaled(LONG))
    new = [k for k in (given.get_nowait() for _ in range(at_once)) if k is not None]
    assert len(new) == 1
    assert accounts.find(connection, key) is None
    found = accounts.find(connection, new[0])
    assert found is not None and found.id == ana.id
    assert keys_of(app, ana.id) == [accounts.hash_key(new[0])]


def test_a_webhook_registered_with_a_key_replaced_meanwhile_is_not_kept(app: Flask) -> None:
    """A registration whose key was checked just before the key was replaced (by its owner,
    who found it leaked) writes nothing: the thief's URL does not land after the removal."""
    connection = app.extensions[EXTENSION].redises.store
    key, robo = accounts.create(connection, "Robo", "bot")
    checked = accounts.find(connection, key)
    assert checked is not None
    assert accounts.replace_key(connection, robo.id, key) is not None
    assert (
        webhooks.register(connection, robo.id, "https://thief.example/", checked.key_hash) is None
    )
    assert webhooks.get(connection, robo.id) is None
    # With the key it has now, it is registered.
    now = accounts.get(connection, robo.id)
    assert now is not None
    assert webhooks.register(connection, robo.id, "https://bots.example/robo", now.key_hash)
    hook = webhooks.get(connection, robo.id)
    assert hook is not None and hook.url == "https://bots.example/robo"


@pytest.fixture
def slow_app(redis_url: str) -> Flask:
    """Streams whose keepalive (when they look at their account anyway) comes after 30 s:
    ending before it is ending at once."""
    return create_app(
        {"REDIS_URL": redis_url, "TESTING": True, "SSE_MAX_SECONDS": 60,
         "SSE_KEEPALIVE_SECONDS": 30, "BOT_RUNNER": "inline", "RATE_LIMITS": "off"}
    )  # fmt: skip


#: The document, which says what each event of an account's stream holds (`BotEvent`).
CONTRACT = Contract.load()


class Reader:
    """An account's stream read in a thread: its chunks, and whether it ended."""

    def __init__(self, app: Flask, key: str) -> None:
        self.response = app.test_client().get(
            "/api/v1/bot/events", headers={**STREAM, "X-Pocha-Account": key}, buffered=False
        )
        assert self.response.status_code == 200, self.response.get_data()
        self.chunks: list[bytes] = []
        self.ended = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for chunk in self.response.response:
                self.chunks.append(chunk)
        finally:
            self.ended.set()

    def events(self) -> list[dict[str, Any]]:
        """What the stream said so far, each event held to the document's `BotEvent`."""
        said = b"".join(self.chunks).decode()
        events = [json.loads(line[6:]) for line in said.splitlines() if line.startswith("data: ")]
        for event in events:
            assert CONTRACT.component_problems("BotEvent", event) == [], event
        return events

    def close(self) -> None:
        self.response.close()


@pytest.fixture
def reader(slow_app: Flask) -> Iterator[Callable[[str], Reader]]:
    opened: list[Reader] = []

    def open_(key: str) -> Reader:
        opened.append(Reader(slow_app, key))
        return opened[-1]

    yield open_
    # Streams still open end as when the process stops, before their responses close.
    slow_app.extensions["pocha_events"].hub.close_streams()
    for one in opened:
        wait_until(one.ended.is_set, scaled(LONG), "the test's streams to end")
        one.close()


def listening(app: Flask, stream: Reader) -> None:
    """Wait until `stream` has made its first look at the account (said what is pending:
    nothing) and listens to the account's channel."""
    wait_until(lambda: bool(stream.chunks), scaled(LONG), "the stream to start")
    wait_until(lambda: bool(app.extensions["pocha_events"].hub._feeds), scaled(LONG),
               "the stream to listen")  # fmt: skip


def ends_at_once(stream: Reader, reason: str) -> None:
    wait_until(stream.ended.is_set, PROMPTLY, f"the stream to end ({reason})",
               explain=lambda: repr(stream.chunks))  # fmt: skip
    assert stream.events()[-1] == {"type": "closed", "reason": reason}
    assert b"".join(stream.chunks).endswith(
        b'event: closed\ndata: {"type":"closed","reason":"%s"}\n\n' % reason.encode()
    )


def test_the_old_keys_stream_ends_at_once(slow_app: Flask, reader: Callable[[str], Reader]) -> None:
    client = slow_app.test_client()
    robo = sign_up(client, "Robo", "bot")
    stream = reader(robo["key"])
    listening(slow_app, stream)
    fresh = new_key(client, robo["id"], robo["key"]).json["key"]
    ends_at_once(stream, "key_replaced")
    # The new key's stream is the account's.
    again = reader(fresh)
    wait_until(lambda: bool(again.chunks), scaled(LONG), "the new key's stream")
    assert not again.ended.is_set()


def test_a_stream_asked_for_before_its_key_was_replaced_takes_nothing_from_the_new_keys(
    slow_app: Flask, reader: Callable[[str], Reader]
) -> None:
    """A stream whose key was checked just before the key was replaced: it is refused as
    it opens, and the stream of the new key, open already, goes on as the account's."""
    client = slow_app.test_client()
    robo = sign_up(client, "Robo", "bot")
    connection = slow_app.extensions[EXTENSION].redises.store
    checked = accounts.find(connection, robo["key"])
    assert checked is not None
    fresh = new_key(client, robo["id"], robo["key"]).json["key"]
    stream = reader(fresh)
    listening(slow_app, stream)
    held = connection.get(account_stream_key(robo["id"]))
    assert held is not None
    with pytest.raises(UnknownAccount):
        open_stream(slow_app.extensions["pocha_events"], connection, checked, None, None)
    assert connection.get(account_stream_key(robo["id"])) == held
    accounts.set_disabled(connection, robo["id"])
    disabled = accounts.get(connection, robo["id"])
    assert disabled is not None
    with pytest.raises(AccountDisabled):
        open_stream(slow_app.extensions["pocha_events"], connection, disabled, None, None)
    ends_at_once(stream, "account_disabled")


def test_a_disabled_accounts_stream_ends_at_once(
    slow_app: Flask, reader: Callable[[str], Reader], redis_url: str
) -> None:
    client = slow_app.test_client()
    robo = sign_up(client, "Robo", "bot")
    stream = reader(robo["key"])
    listening(slow_app, stream)
    disabled = CliRunner().invoke(pocha, ["accounts", "disable", robo["id"], "--redis-url",
                                          redis_url])  # fmt: skip
    assert disabled.exit_code == 0, disabled.output
    ends_at_once(stream, "account_disabled")


def test_pocha_accounts_rotate_key(app: Flask, client: FlaskClient, redis_url: str) -> None:
    ana = sign_up(client, "Ana")
    runner = CliRunner()
    rotated = runner.invoke(pocha, ["accounts", "rotate-key", ana["id"], "--redis-url", redis_url])
    assert rotated.exit_code == 0, rotated.output
    fresh = rotated.stdout.strip()
    assert fresh.startswith("pa_") and fresh != ana["key"]
    assert rotated.stderr == ""
    assert refused(new_key(client, ana["id"], ana["key"])) == (401, "unknown_account")
    # The operator's key is the account's: its holder may replace it in turn.
    assert new_key(client, ana["id"], fresh).status_code == 200
    # Even a disabled account's (an owner's key stolen: disable, new key, enable again).
    accounts.set_disabled(app.extensions[EXTENSION].redises.store, ana["id"])
    again = runner.invoke(pocha, ["accounts", "rotate-key", ana["id"], "--redis-url", redis_url])
    assert again.exit_code == 0, again.output
    for missing in ("nobody", "level-easy"):
        if missing == "level-easy":
            accounts.level_account(app.extensions[EXTENSION].redises.store, "easy")
        answer = runner.invoke(pocha, ["accounts", "rotate-key", missing, "--redis-url", redis_url])
        assert answer.exit_code != 0 and "no account" in answer.output


def test_pocha_accounts_rotate_key_removes_the_bots_webhook(
    app: Flask, client: FlaskClient, redis_url: str
) -> None:
    robo = sign_up(client, "Robo", "bot")
    connection = app.extensions[EXTENSION].redises.store
    webhooks.register(connection, robo["id"], "https://bots.example/robo")
    rotated = CliRunner().invoke(pocha, ["accounts", "rotate-key", robo["id"], "--redis-url",
                                         redis_url])  # fmt: skip
    assert rotated.exit_code == 0, rotated.output
    # The key alone on stdout, for a script; the removal said on stderr.
    fresh = rotated.stdout.strip()
    assert fresh.startswith("pa_") and accounts.find(connection, fresh) is not None
    assert "removed the webhook" in rotated.stderr and robo["id"] in rotated.stderr
    assert webhooks.get(connection, robo["id"]) is None
    # Its owner registers it again with the new key.
    put = client.put(f"/api/v1/accounts/{robo['id']}/webhook",
                     json={"url": "https://bots.example/robo"}, headers=key_of(robo))  # fmt: skip
    assert refused(put) == (401, "unknown_account")


def test_new_keys_are_limited_per_address(redis_url: str) -> None:
    client = create_app(
        {"REDIS_URL": redis_url, "TESTING": True, "RATE_LIMITS": "on",
         "RATE_LIMIT_ACCOUNT_KEYS": "2/hour"}
    ).test_client()  # fmt: skip
    here = {"REMOTE_ADDR": "203.0.113.40"}
    ana = sign_up(client, "Ana", environ_base=here)
    key = ana["key"]
    for _ in range(2):
        answer = new_key(client, ana["id"], key, environ_base=here)
        assert answer.status_code == 200, answer.json
        key = answer.json["key"]
    # A third, even with the right key; wrong keys count as much.
    over = new_key(client, ana["id"], key, environ_base=here)
    assert refused(over) == (429, "rate_limited") and "Retry-After" in over.headers
    elsewhere = new_key(client, ana["id"], key, environ_base={"REMOTE_ADDR": "198.51.100.40"})
    assert elsewhere.status_code == 200
