"""The account a key opens (`GET /api/v1/account`), against the test's real Redis: each
account's key answers that account's profile, as `GET /api/v1/accounts/{id}` shows it, and
notes the key's use; no key, a key of no account (a replaced one too) and a disabled
account's key are refused in the caller's language; the operation is in the published
document, and its answers hold to it."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from core.store import accounts
from core.store.store import GameStore
from tests.contract import Contract

PATH = "/api/v1/account"


def sign_up(client: FlaskClient, name: str, kind: str = "person") -> dict[str, Any]:
    made = client.post("/api/v1/accounts", json={"name": name, "kind": kind})
    assert made.status_code == 201, made.json
    return dict(made.json)


def own(client: FlaskClient, key: str | None, language: str = "en") -> Any:
    headers = {"Accept-Language": language}
    if key is not None:
        headers["X-Pocha-Account"] = key
    return client.get(PATH, headers=headers)


def test_each_key_answers_its_own_account_as_its_profile_shows_it(
    client: FlaskClient, store: GameStore
) -> None:
    ana, robo = sign_up(client, "Ana"), sign_up(client, "Robo", "bot")
    # Last seen long ago: the answer says so (the use before this one), and the read is a
    # use of the key, noted for the next.
    accounts.note_seen(store.redis, ana["id"], now=1.0)
    answer = own(client, ana["key"])
    assert answer.status_code == 200, answer.json
    assert answer.json["last_seen"] == 1.0
    found = accounts.get(store.redis, ana["id"])
    assert found is not None and found.seen >= found.created > 1.0
    for account in (ana, robo):
        answer = own(client, account["key"])
        assert answer.status_code == 200, answer.json
        assert answer.json["id"] == account["id"] and answer.json["name"] == account["name"]
        assert answer.json["kind"] == account["kind"]
        # The profile anyone reads, the same schema and the same code: one account, one
        # answer (but when it was last seen, which this read has just moved on).
        public = client.get(f"/api/v1/accounts/{account['id']}").json
        assert answer.json["last_seen"] <= public["last_seen"]
        assert {**answer.json, "last_seen": None} == {**public, "last_seen": None}
        assert "key" not in answer.json


def test_no_key_a_wrong_key_and_a_disabled_account_are_refused_in_the_callers_language(
    client: FlaskClient, store: GameStore
) -> None:
    ana = sign_up(client, "Ana")
    cases = [
        (None, 401, "account_required",
         "This needs your account's key", "Hace falta la clave de tu cuenta"),
        ("pa_" + "x" * 43, 401, "unknown_account",
         "This account key opens no account", "Esta clave de cuenta no abre"),
        ("   ", 401, "account_required",
         "This needs your account's key", "Hace falta la clave de tu cuenta"),
    ]  # fmt: skip
    for key, status, error, english, spanish in cases:
        for language, sentence in (("en", english), ("es", spanish)):
            answer = own(client, key, language)
            assert (answer.status_code, answer.json["error"]) == (status, error), key
            assert answer.json["message"].startswith(sentence), answer.json
    accounts.set_disabled(store.redis, ana["id"])
    for language, sentence in (("en", "This account is disabled"),
                               ("es", "Esta cuenta está desactivada")):  # fmt: skip
        answer = own(client, ana["key"], language)
        assert (answer.status_code, answer.json["error"]) == (403, "account_disabled")
        assert answer.json["message"].startswith(sentence), answer.json


def test_a_replaced_key_opens_nothing_and_the_new_one_opens_the_account(
    client: FlaskClient,
) -> None:
    ana = sign_up(client, "Ana")
    replaced = client.post(
        f"/api/v1/accounts/{ana['id']}/key", headers={"X-Pocha-Account": ana["key"]}
    )
    assert replaced.status_code == 200, replaced.json
    assert own(client, ana["key"]).json["error"] == "unknown_account"
    assert own(client, replaced.json["key"]).json["id"] == ana["id"]


@pytest.mark.parametrize("status", [200, 401, 403])
def test_the_operation_is_published_and_its_answers_hold_to_the_document(
    client: FlaskClient, store: GameStore, responses_hold_to_the_document: Contract, status: int
) -> None:
    contract = responses_hold_to_the_document
    # Published (an address the document does not describe would be judged by nobody).
    operation = contract.operation("GET", PATH)
    assert operation is not None and operation.template == PATH
    assert {"200", "401", "403", "429", "503"} <= set(operation.responses)
    assert contract.document["paths"][PATH]["get"]["operationId"] == "getOwnAccount"
    ana = sign_up(client, "Ana")
    key = {200: ana["key"], 401: None, 403: ana["key"]}[status]
    if status == 403:
        accounts.set_disabled(store.redis, ana["id"])
    answer = own(client, key)
    assert answer.status_code == status, answer.json
    problems = contract.problems("GET", PATH, status, answer.headers, answer.get_data())
    assert problems == []
