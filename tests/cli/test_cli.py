"""The `pocha` command line: help works without the engine, benches print their lines."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import pocha


def test_help_lists_bench() -> None:
    result = CliRunner().invoke(pocha, ["--help"])
    assert result.exit_code == 0, result.output
    assert "bench" in result.output


def test_bench_engine_prints_lines_from_engine_bench(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[float, int | None, int]] = []

    def run(seconds: float, seed: int | None, rounds: int) -> list[str]:
        calls.append((seconds, seed, rounds))
        return ["hands: 42", "engine: 14 hands/s"]

    fake = types.ModuleType("engine.pocha.bench")
    fake.run = run  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "engine.pocha.bench", fake)

    result = CliRunner().invoke(
        pocha, ["bench", "engine", "--seconds", "0.5", "--seed", "7", "--rounds", "2"]
    )

    assert result.exit_code == 0, result.output
    assert calls == [(0.5, 7, 2)]
    assert result.output.splitlines() == ["hands: 42", "engine: 14 hands/s"]


def test_missing_module_is_a_clean_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "engine.pocha.bench", None)  # makes the import fail

    result = CliRunner().invoke(pocha, ["bench", "engine"])

    assert result.exit_code == 1
    assert "cannot import engine.pocha.bench" in result.output


def test_play_help_lists_the_keys_of_the_game() -> None:
    result = CliRunner().invoke(pocha, ["play", "--help"])
    assert result.exit_code == 0, result.output
    keys = {line.split()[0]: line for line in result.output.splitlines() if line.strip()}
    assert "hint" in keys["?"]
    assert "leave" in keys["q"]


@pytest.mark.parametrize("command", [["play"], ["lobby"], ["signup", "--name", "Ana"]])
@pytest.mark.parametrize("url", ["ftp://example.org", "http://", "https:///games"])
def test_a_service_address_that_is_not_http_is_a_usage_error(command: list[str], url: str) -> None:
    result = CliRunner().invoke(pocha, [*command, "--url", url])
    assert result.exit_code == 2, result.output
    assert "is not an http:// or https:// address with a host" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize("command", [["play"], ["lobby"]])
@pytest.mark.parametrize("url", ["http://[::1", "http://example.org:99999", "example.org:port"])
def test_a_service_address_that_cannot_be_read_is_a_usage_error(
    command: list[str], url: str
) -> None:
    # An unclosed IPv6 bracket, a port out of range or not a number: urllib's ValueError,
    # which would otherwise reach the user as a traceback from the client.
    result = CliRunner().invoke(pocha, [*command, "--url", url])
    assert result.exit_code == 2, result.output
    assert "is not an http:// or https:// address with a host" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_resume_refuses_the_options_of_a_new_game_rather_than_ignore_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.delenv("LANGUAGE", raising=False)
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    given = ["play", "--resume", "--players", "3", "--game", "poch", "--rated"]
    refused = CliRunner().invoke(pocha, given)
    assert refused.exit_code == 2, refused.output
    assert "--resume plays on in a game as it was made: leave out" in refused.output
    assert all(option in refused.output for option in ("--players", "--game", "--rated"))
    monkeypatch.setenv("LC_ALL", "es_ES.UTF-8")
    spanish = CliRunner().invoke(pocha, ["play", "--resume", "GAME", "--level", "hard"])
    assert spanish.exit_code == 2, spanish.output
    assert "--resume sigue una partida tal como se creó: quita --level" in spanish.output
    # The address of the service is not one of them: without an account, that is the refusal.
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    alone = CliRunner().invoke(pocha, ["play", "--resume", "--url", "http://127.0.0.1:9"])
    assert alone.exit_code == 2 and "pocha signup" in alone.output, alone.output
