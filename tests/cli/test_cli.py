"""The `pocha` command line: help works without the engine, benches print their lines."""

from __future__ import annotations

import sys
import types

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
