"""The terminal client's account against the live service: `pocha signup` makes a person's
account and keeps its key in the user's config file (mode 0600), `pocha play` reads it back,
and a client with the key makes a rated table in the account's seat; the client replaces
its key and asks whose key it holds; `pocha new-key` replaces the kept key and keeps the
new one, and a kept key the service no longer knows is told as such, in the terminal's
language."""

from __future__ import annotations

import json
import resource
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import pocha
from client.account import config_file, load_account
from client.api import OPEN, ApiError, PochaClient, Seat
from tests.live import LiveService
from tests.waiting import LONG, scaled


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
    # The same name again is refused, and the file keeps the first account; the service's
    # refusal comes in the terminal's language.
    for locale, said in [("C.UTF-8", "This name is taken"), ("es_ES.UTF-8", "Este nombre ya")]:
        environ = {"LANGUAGE": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": locale}
        again = CliRunner().invoke(pocha, ["signup", "--url", url, "--name", name], env=environ)
        assert again.exit_code != 0 and load_account(url) == kept
        assert f"Error: {said}" in again.output, again.output

    api = PochaClient(url, account_key=kept["key"])
    players: list[Seat] = [
        {"name": name},
        {"name": "B1", "bot": "random"},
        {"name": "B2", "bot": "easy"},
    ]
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


def test_the_client_asks_whose_key_it_holds(live_service: LiveService, tmp_path: Path) -> None:
    made = PochaClient(live_service.url).create_account(f"Owned{tmp_path.name[-6:]}", "bot")
    own = PochaClient(live_service.url, account_key=made["key"]).own_account()
    assert (own["id"], own["name"], own["kind"]) == (made["id"], made["name"], "bot")
    assert "key" not in own
    with pytest.raises(ApiError) as refused:
        PochaClient(live_service.url).own_account()
    assert (refused.value.status, refused.value.error) == (401, "account_required")


def test_a_seats_client_keeps_the_account_key_where_the_account_sits(
    live_service: LiveService, tmp_path: Path
) -> None:
    made = PochaClient(live_service.url).create_account(f"Seated{tmp_path.name[-6:]}")
    api = PochaClient(live_service.url, account_key=made["key"], language="es")
    created = api.create_game(["Ana", OPEN, {"name": "Bot", "bot": "random"}])
    # The account's seat and the host reach the account's own calls; the key stays theirs.
    mine, host = api.seat(created, 0), api.host(created)
    assert mine.account_key == host.account_key == made["key"] and mine.language == "es"
    assert mine.own_account()["id"] == host.own_account()["id"] == made["id"]
    games = mine.account_games(made["id"])["games"]
    assert [game["game_id"] for game in games] == [created["id"]]
    # A guest's seat, taken by a client of no account, is nobody's account.
    guest = PochaClient(live_service.url).join(str(created["table_code"]), "Bea")
    assert PochaClient(live_service.url).joined(guest).account_key is None
    # A seat the account takes at someone's table: its client is the account's too.
    other = PochaClient(live_service.url).create_game(["Cy", OPEN, {"name": "Bot", "bot": "easy"}])
    sat = api.joined(api.join(str(other["table_code"]), "Ana"))
    assert sat.view(other["id"])["players"][1]["account"] == made["id"]
    assert {game["game_id"] for game in sat.account_games(made["id"])["games"]} == {
        created["id"],
        other["id"],
    }
    # A seat the account does not sit in (a guest's, made by the account's client) drops it.
    hosted = api.create_game(["Ana", "Dan", {"name": "Bot", "bot": "easy"}])
    assert api.seat(hosted, 1).account_key is None
    assert api.seat(hosted, 0).account_key == made["key"]
    with pytest.raises(ApiError) as refused:
        api.seat(hosted, 1).own_account()
    assert (refused.value.status, refused.value.error) == (401, "account_required")


def _signed_up(url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """An account made with `pocha signup`, its key kept under tmp_path: {id, name, key}."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    name = f"Owner{tmp_path.name[-6:]}"
    made = CliRunner().invoke(pocha, ["signup", "--url", url, "--name", name])
    assert made.exit_code == 0, made.output
    kept = load_account(url)
    assert kept is not None
    return kept


_PLAYERS: list[Seat] = [
    {"name": "Ana"},
    {"name": "B1", "bot": "random"},
    {"name": "B2", "bot": "easy"},
]


def test_new_key_replaces_the_kept_key_and_the_old_one_opens_nothing(
    live_service: LiveService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = live_service.url
    before = _signed_up(url, tmp_path, monkeypatch)
    result = CliRunner().invoke(pocha, ["new-key", "--url", url])
    assert result.exit_code == 0, result.output
    assert "old key no longer works" in result.output
    after = load_account(url)
    assert after is not None and after["key"] != before["key"]
    assert {k: after[k] for k in ("id", "name")} == {k: before[k] for k in ("id", "name")}
    assert after["key"] not in result.output  # kept in the file, never printed
    path = config_file()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary file left
    with pytest.raises(ApiError) as refused:
        PochaClient(url, account_key=before["key"]).create_game(_PLAYERS, rules={"schedule": [1]})
    assert (refused.value.status, refused.value.error) == (401, "unknown_account")
    created = PochaClient(url, account_key=after["key"]).create_game(
        _PLAYERS, rules={"schedule": [1]}, rated=True
    )
    assert created["seats"][0]["account"] == before["id"]


def test_signup_and_new_key_say_what_they_did_in_the_terminals_language(
    live_service: LiveService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("LANGUAGE", raising=False)
    monkeypatch.setenv("LC_ALL", "es_ES.UTF-8")
    url = live_service.url
    name = f"Duena{tmp_path.name[-6:]}"
    made = CliRunner().invoke(pocha, ["signup", "--url", url, "--name", name])
    assert made.exit_code == 0, made.output
    kept = load_account(url)
    assert kept is not None
    assert f"Cuenta {name} ({kept['id']}) creada; su clave se guarda en {config_file()}." in (
        made.output
    )
    assert "guarda una copia de ese fichero en un lugar seguro" in made.output
    replaced = CliRunner().invoke(pocha, ["new-key", "--url", url])
    assert replaced.exit_code == 0, replaced.output
    assert f"La cuenta {name} ({kept['id']}) tiene una clave nueva" in replaced.output
    assert "La anterior ya no sirve" in replaced.output


def test_signup_says_a_name_too_long_in_the_terminals_language(
    live_service: LiveService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The service's refusal of a body's field comes in the terminal's Spanish too (a name
    taken: in the test above)."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("LANGUAGE", raising=False)
    monkeypatch.setenv("LC_ALL", "es_ES.UTF-8")
    long = CliRunner().invoke(pocha, ["signup", "--url", live_service.url, "--name", "x" * 40])
    assert long.exit_code == 1
    assert "Error: La petición tiene campos no válidos" in long.output, long.output


def _no_file_past(size: int) -> None:
    """In the child: a regular file written past `size` bytes fails (EFBIG), as a full disk
    fails a write, rather than the process being stopped by SIGXFSZ."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


def test_new_key_shows_the_new_key_when_the_file_cannot_take_it(
    live_service: LiveService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = live_service.url
    before = _signed_up(url, tmp_path, monkeypatch)
    kept = config_file().read_bytes()
    # The command run as a process of its own, whose files can hold no more than a few bytes:
    # the new key is made, and writing it to the file fails.
    result = subprocess.run(
        [sys.executable, "-m", "cli.main", "new-key", "--url", url],
        capture_output=True, text=True, timeout=scaled(LONG), check=False,
        cwd=Path(__file__).resolve().parents[2], preexec_fn=lambda: _no_file_past(16),
    )  # fmt: skip
    assert result.returncode == 1, result.stderr
    assert "old key no longer works" in result.stderr
    shown = result.stdout.strip()
    assert shown.startswith("pa_") and shown != before["key"]
    assert config_file().read_bytes() == kept  # the file as it was, no half key
    assert [p.name for p in config_file().parent.iterdir()] == [config_file().name]
    # The key shown is the account's now: it opens it (and replaces itself).
    answer = PochaClient(url, account_key=shown).replace_account_key(before["id"])
    assert answer["id"] == before["id"]


@pytest.mark.parametrize(
    ("command", "lang", "said"),
    [
        (["play"], "en_GB.UTF-8", "knows no account by the key saved in"),
        (["new-key"], "en_GB.UTF-8", "knows no account by the key saved in"),
        (["play", "--rated"], "es_ES.UTF-8", "no conoce ninguna cuenta con la clave guardada en"),
        (["new-key"], "es_ES.UTF-8", "no conoce ninguna cuenta con la clave guardada en"),
    ],
)
def test_a_kept_key_replaced_elsewhere_is_told_with_the_way_back_in(
    live_service: LiveService,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    command: list[str],
    lang: str,
    said: str,
) -> None:
    url = live_service.url
    kept = _signed_up(url, tmp_path, monkeypatch)
    # Replaced as the web page does: the file keeps the key before.
    PochaClient(url, account_key=kept["key"]).replace_account_key(kept["id"])
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", lang)
    result = CliRunner().invoke(pocha, [*command, "--url", url])
    assert result.exit_code == 1, result.output
    sentence = " ".join(result.stderr.split())  # the terminal may wrap it
    assert said in sentence and str(config_file()) in sentence
    assert "pocha signup --name" in sentence
    assert load_account(url) == kept  # the file is left as it was
