"""The installed product points at nothing it does not ship. A wheel has no docs/, scripts/,
openapi/ or examples/ folder beside it, so every text the product shows (the OpenAPI
document and the JSON Schemas the service serves, every `pocha` command's --help in English
and Spanish, the service's, the terminal's and the CLI's catalogues, the pages, the strings
of the terminal client and the CLI) names such a path only as an address the service itself
answers (`/api/...`), never as a file of the repository."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import pytest
from babel.messages.pofile import read_po
from click.testing import CliRunner
from flask.testing import FlaskClient

from cli.main import pocha
from service import create_app

ROOT = Path(__file__).resolve().parents[2]
#: A run of the characters a path or an address is made of.
TOKEN = re.compile(r"[\w./{}-]+")
#: A token that goes into one of the repository's folders the wheel leaves out.
INTO_A_FOLDER = re.compile(r"(?:^|/)(?:docs|scripts|openapi|examples)/")
#: The packages whose own words a person reads in a terminal (the client's game and lobby,
#: the CLI's messages, the tools the CLI runs).
TERMINAL_PACKAGES = ("client", "cli", "tools")
#: The JSON Schemas the service serves (the OpenAPI document names each).
SCHEMAS = ("/api/v1/schemas/game-record.json",)


def pointers(text: str) -> Iterator[str]:
    """The paths in `text` that go into docs/, scripts/, openapi/ or examples/."""
    for token in TOKEN.findall(text):
        if INTO_A_FOLDER.search(token):
            yield token.rstrip(".,")


def strings(node: Any) -> Iterator[str]:
    """Every string in a JSON document."""
    if isinstance(node, dict):
        for value in node.values():
            yield from strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from strings(value)
    elif isinstance(node, str):
        yield node


def help_texts(command: click.Command, path: list[str], env: dict[str, str]) -> Iterator[str]:
    """`pocha PATH --help` for `command` and every command under it."""
    shown = CliRunner().invoke(pocha, [*path, "--help"], env=env)
    assert shown.exit_code == 0, (path, shown.output)
    yield shown.output
    if isinstance(command, click.Group):
        for name, sub in command.commands.items():
            yield from help_texts(sub, [*path, name], env)


def catalogue_texts() -> Iterator[tuple[str, str]]:
    """Each message and translation of every catalogue the packages ship."""
    for catalogue in sorted(ROOT.glob("*/locales/**/*.po*")):
        with catalogue.open("rb") as file:
            for message in read_po(file):
                for text in (message.id, message.string):
                    for one in text if isinstance(text, tuple) else (text,):
                        if one:
                            yield str(catalogue.relative_to(ROOT)), one


def source_strings(package: str) -> Iterator[tuple[str, str]]:
    """The string literals of a package's modules (f-strings' parts included), less the
    docstrings, which only a reader of the source sees."""
    for module in sorted((ROOT / package).rglob("*.py")):
        tree = ast.parse(module.read_text())
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in docstrings
            ):
                yield f"{module.relative_to(ROOT)}:{node.lineno}", node.value


@pytest.fixture
def client(redis_url: str) -> FlaskClient:
    return create_app({"REDIS_URL": redis_url, "TESTING": True}).test_client()


def shown_texts(client: FlaskClient) -> Iterator[tuple[str, str]]:
    """(where, text) for every text the installed product shows."""
    document = client.get("/api/openapi.json").get_json()
    for text in strings(document):
        yield "the OpenAPI document", text
    for address in SCHEMAS:
        assert address in document["paths"], address
        answer = client.get(address)
        assert answer.status_code == 200, address
        for text in strings(answer.get_json(force=True)):
            yield address, text
    for language, usage in (("C", "Usage:"), ("es_ES", "Uso:")):
        locale = {"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": f"{language}.UTF-8"}
        texts = list(help_texts(pocha, [], locale))
        assert texts[0].startswith(usage), texts[0][:200]
        for text in texts:
            yield f"pocha ... --help ({language})", text
    yield from catalogue_texts()
    for page in sorted((ROOT / "service" / "static").glob("*.html")):
        yield str(page.relative_to(ROOT)), page.read_text()
    for package in TERMINAL_PACKAGES:
        yield from source_strings(package)


def test_the_scan_sees_what_it_looks_for() -> None:
    """The matcher finds a file of the repository in a sentence, and an address too."""
    said = "See docs/api.md, or bash scripts/serve; the schema: /api/v1/schemas/x.json."
    assert list(pointers(said)) == ["docs/api.md", "scripts/serve"]
    found = list(pointers("(openapi/game-record.schema.json)"))
    assert found == ["openapi/game-record.schema.json"]
    assert list(pointers("Swagger UI at /api/docs/assets/x.js.")) == ["/api/docs/assets/x.js"]
    assert list(pointers("mydocs/a and /api/docs and examples")) == []


def test_every_path_the_product_shows_is_an_address_it_answers(client: FlaskClient) -> None:
    seen, wrong = 0, []
    for where, text in shown_texts(client):
        seen += 1
        for pointer in pointers(text):
            if not pointer.startswith("/"):
                wrong.append(f"{where}: {pointer} (a file the installed product lacks)")
            elif (status := client.get(pointer).status_code) != 200:
                wrong.append(f"{where}: {pointer} (the service answers {status})")
    # Every kind of text was read: thousands of them, the terminal's join command among them.
    assert seen > 5000
    assert not wrong, "\n".join(sorted(set(wrong)))
