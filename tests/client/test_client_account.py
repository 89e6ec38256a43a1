"""The terminal client's account against the live service: `pocha signup` makes a person's
account and keeps its key in the user's config file (mode 0600), `pocha play` reads it back,
and a client with the key makes a rated table in the account's seat; the client replaces
its key."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import pocha
from client.account import config_file, load_account
from client.api import ApiError, PochaClient
from tests.live import LiveService


def test_signup_keeps_the_key_for_the_owner_only_and_a_rated_table_seats_the_account(
    live_service: LiveService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    url = live_service.url
    name = f"Terminal{tmp_path.name[-6:]}"
    result = CliRunner().invoke(pocha, ["signup", "--url", url, "--name", name])
    assert result.exit_code == 0, result.output
    path = config_file()
    assert path == tmp_path / "config" / "pocha" / "account.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    kept = load_account(url)
    assert kept is not None and kept["name"] == name
    assert kept["key"] not in result.output  # kept in the file, never printed
    assert json.loads(path.read_text())[url]["id"] == kept["id"]
    # The same name again is refused, and the file keeps the first account.
    again = CliRunner().invoke(pocha, ["signup", "--url", url, "--name", name])
    assert again.exit_code != 0 and load_account(url) == kept

    api = PochaClient(url, account_key=kept["key"])
    players = [{"name": name}, {"name": "B1", "bot": "random"}, {"name": "B2", "bot": "easy"}]
    created = api.create_game(players, rules={"schedule": [1]}, rated=True)
    assert created["seats"][0]["account"] == kept["id"]
    # Without the key, a rated table is refused.
    with pytest.raises(ApiError) as refused:
        PochaClient(url).create_game(players, rules={"schedule": [1]}, rated=True)
    assert 400 <= refused.value.status < 500


def test_play_rated_without_an_account_says_to_sign_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    result = CliRunner().invoke(pocha, ["play", "--url", "http://127.0.0.1:9", "--rated"])
    assert result.exit_code != 0 and "pocha signup" in result.output


def test_the_client_replaces_its_accounts_key(live_service: LiveService, tmp_path: Path) -> None:
    made = PochaClient(live_service.url).create_account(f"Keyed{tmp_path.name[-6:]}")
    api = PochaClient(live_service.url, account_key=made["key"])
    answer = api.replace_account_key(made["id"])
    assert answer["id"] == made["id"] and api.account_key == answer["key"] != made["key"]
    with pytest.raises(ApiError) as refused:
        PochaClient(live_service.url, account_key=made["key"]).replace_account_key(made["id"])
    assert (refused.value.status, refused.value.error) == (401, "unknown_account")
    # The client's new key is the account's.
    assert api.replace_account_key(made["id"])["id"] == made["id"]
