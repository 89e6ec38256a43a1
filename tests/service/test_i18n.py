"""Spanish and English: every sentence the API sends a person has a translation in each
catalogue, every error code answers in the language asked for, and the machine codes
(`error`, `rule`) never change with it."""

from __future__ import annotations

import ast
import importlib
import io
import json
import pickle
import re
import string
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient
from limits import parse_many

import service.app
from ai.registry import levels_of
from core import errors as core_errors
from engine.i18n import Message, _, join, ngettext
from engine.registry import KINDS
from service import create_app
from service.edge import BodyTooSlow
from service.errors import _CODE_BY_STATUS, _MESSAGE_BY_STATUS, ENGINE_STATUS
from service.events import TooManyStreams
from service.gunicorn_worker import GUNICORN_ERRORS
from service.i18n import (
    PAGE_CONTEXT,
    catalogue,
    choose,
    extract_page_js,
    page_strings,
    plurals,
    translate,
    translate_known,
)
from service.openapi import COMMITTED
from service.ratelimits import spoken_limit
from tests.service.helpers import AI_POSITION, bearer, create_game, humans, move, tokens_of

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ROOT / "service" / "locales"
ES = {"Accept-Language": "es"}
EN = {"Accept-Language": "en"}


# -- the catalogues ----------------------------------------------------------------------


def extracted() -> set[tuple[str | None, str]]:
    """Every (context, msgid) Babel extracts from the source with babel.cfg, as
    scripts/i18n does."""
    with (ROOT / "babel.cfg").open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    found: set[tuple[str | None, str]] = set()
    for _filename, _lineno, message, _comments, context in extract_from_dir(
        str(ROOT), method_map, options_map
    ):
        # A sentence about a count (ngettext's) by its singular, the catalogue's key.
        found.add((context, message if isinstance(message, str) else message[0]))
    return found


def entries(path: Path) -> dict[tuple[str | None, str], str]:
    """Each entry's text by (context, msgid); a plural entry's by its singular msgid, with
    its forms (see `forms`) joined by a NUL (a sentence may hold newlines)."""
    with path.open("rb") as handle:
        po = read_po(handle)
    return {
        (m.context, m.id if isinstance(m.id, str) else m.id[0]): (
            m.string if isinstance(m.string, str) else "\0".join(m.string)
        )
        for m in po
        if m.id
    }


def forms(text: str) -> list[str]:
    """The forms of an `entries` text (one, unless the entry is plural)."""
    return text.split("\0")


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


#: The Spanish word of a game's word that the catalogues say one way, the page's: a player
#: who meets "suplente" on the page or in the terminal meets no "sustituto" in a refusal.
SPANISH_WORDS = {"stand-in": "suplente"}


@pytest.mark.parametrize(
    "path",
    [LOCALES / "es" / "LC_MESSAGES" / "messages.po",
     ROOT / "client" / "locales" / "es" / "LC_MESSAGES" / "terminal.po"],
    ids=["service", "terminal"],
)  # fmt: skip
def test_the_games_words_are_said_one_way_in_spanish(path: Path) -> None:
    said = entries(path)
    for english, spanish in SPANISH_WORDS.items():
        naming = {msgid: text for (_c, msgid), text in said.items() if english in msgid.lower()}
        assert naming, english
        other = {msgid: text for msgid, text in naming.items() if spanish not in text.lower()}
        assert not other, (english, spanish, other)


@pytest.fixture(scope="module")
def source_messages() -> set[tuple[str | None, str]]:
    found = extracted()
    # Sanity: the extraction sees the engine's, core's and the service's sentences.
    assert (None, "you must follow {suit}: you hold {cards}") in found
    assert (None, "There is no such job: it never existed, or its result expired (results "
            "are kept 10 minutes).") in found  # fmt: skip
    assert (None, "Missing data for required field.") in found
    return found


def test_every_marked_sentence_is_in_both_catalogues_and_spanish(
    source_messages: set[tuple[str | None, str]],
) -> None:
    template = entries(LOCALES / "messages.pot")
    spanish = entries(LOCALES / "es" / "LC_MESSAGES" / "messages.po")
    english = entries(LOCALES / "en" / "LC_MESSAGES" / "messages.po")
    # The template, and each catalogue, hold exactly what the source marks: nothing
    # missing (run scripts/i18n) and nothing stale.
    assert set(template) == source_messages
    assert set(spanish) == source_messages
    assert set(english) == source_messages
    untranslated = sorted(msgid for key, msgid in spanish if not spanish[key, msgid])
    assert not untranslated, f"no Spanish for {untranslated}"
    for key, msgstr in spanish.items():
        # The same values go back in: a placeholder lost or invented would break the
        # sentence (or fall back to English). The page's entries are keyed by name: their
        # English is the English catalogue's text.
        original = english[key] if key[0] == PAGE_CONTEXT and english[key] else key[1]
        # Each form of a sentence about a count is there, with the English's values.
        assert all(forms(msgstr)), key
        for said in forms(msgstr):
            assert placeholders(said) == placeholders(forms(original)[-1]), key
    for key, msgstr in english.items():
        if key[0] == PAGE_CONTEXT:
            # The page shows its English from here: every key has its text, but the rules'
            # labels, whose English the page takes from GET /api/v1/rules.
            assert msgstr or key[1].startswith("rule."), key
        else:
            for said in forms(msgstr):
                assert not said or placeholders(said) == placeholders(key[1]), key


def marked_in_source() -> set[str]:
    """Every literal template (a singular's) of a `_(...)`, `N_(...)` or `ngettext(...)`
    call in the Python layers, found by Python's own parser."""
    found: set[str] = set()
    for package in ("engine", "ai", "core", "service"):
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name)
                    and node.func.id in ("_", "N_", "ngettext")
                    and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)
                ):
                    found.add(node.args[0].value)
    return found


def test_babel_extracts_every_marked_sentence(
    source_messages: set[tuple[str | None, str]],
) -> None:
    # Babel's extractor reads tokens, not the syntax tree: a _() it missed (inside another
    # call's arguments, say) would be sent untranslated without any other test noticing.
    missed = marked_in_source() - {msgid for context, msgid in source_messages if not context}
    assert not missed, f"Babel does not extract {sorted(missed)}"


def test_page_strings_are_extracted_with_their_context() -> None:
    module = io.BytesIO(b'const a = t("New game"); el.title = t(name) + other("Not this");')
    found = list(extract_page_js(module, {}, [], {}))
    assert [message for _, _, message, _ in found] == [("page", "New game")]
    assert all(funcname == "pgettext" for _, funcname, _, _ in found)


def test_page_strings_endpoint(client: FlaskClient) -> None:
    for lang in ("en", "es"):
        response = client.get(f"/i18n/{lang}.json")
        assert response.status_code == 200
        assert response.headers["Content-Language"] == lang
        assert response.json == page_strings(lang)
        assert response.headers["ETag"]
        again = client.get(
            f"/i18n/{lang}.json", headers={"If-None-Match": response.headers["ETag"]}
        )
        assert again.status_code == 304
    assert client.get("/i18n/fr.json").status_code == 404


def test_the_page_names_every_rule_and_named_schedule_in_spanish(client: FlaskClient) -> None:
    # The setup form and a table's line of rules show each option's name and a schedule
    # by its name (`classic`), through `ruleLabel` (service/static/i18n.js): `rule.NAME`.
    # The obligations' names are the game's Spanish words already.
    # Pocha's options (the top level) and every game's (Poch's chips, ante, deals).
    spanish = client.get("/i18n/es.json").json
    rules = client.get("/api/v1/rules").json
    described = rules["options"] + [o for game in rules["games"] for o in game["options"]]
    names = {option["name"] for option in described} | {
        choice for option in described for choice in option.get("choices", [])
    }
    names -= {"montar", "fallar", "pisar"}
    # A key with no translation is served as itself (and the page falls back to English).
    missing = sorted(
        name for name in names if spanish.get(f"rule.{name}") in (None, "", f"rule.{name}")
    )
    assert not missing, f"no Spanish for rule.NAME: {missing}"


#: The fields of GET /api/v1/rules that are words for a person (the setup form shows an
#: option's `doc` beside its toggle and as its tooltip); the rest are for programs.
RULE_WORDS = frozenset({"allowed", "doc", "description"})


def test_every_word_of_the_rules_is_in_the_language_asked_for(client: FlaskClient) -> None:
    english = client.get("/api/v1/rules", headers=EN)
    spanish = client.get("/api/v1/rules", headers=ES)
    assert spanish.headers["Content-Language"] == "es"
    assert client.get("/api/v1/rules?lang=es").json == spanish.json
    assert client.get("/api/v1/rules").data == english.data
    en, es = english.json, spanish.json
    assert {game["game"] for game in es["games"]} == {"pocha", "poch"}
    words = 0

    def same_but_words(en_value: Any, es_value: Any, where: str) -> None:
        nonlocal words
        if isinstance(en_value, dict):
            assert set(en_value) == set(es_value), where
            for key in en_value:
                if key in RULE_WORDS:
                    words += 1
                    assert isinstance(es_value[key], str) and es_value[key], where
                    assert es_value[key] != en_value[key], f"{where}.{key}: {en_value[key]}"
                else:
                    same_but_words(en_value[key], es_value[key], f"{where}.{key}")
        elif isinstance(en_value, list):
            assert len(en_value) == len(es_value), where
            for i, (a, b) in enumerate(zip(en_value, es_value, strict=True)):
                same_but_words(a, b, f"{where}[{i}]")
        else:
            assert en_value == es_value, where

    same_but_words(en, es, "rules")
    # Every option's `allowed` and `doc` and every level's `description` were compared.
    books = [en, *en["games"]]
    assert words == sum(2 * len(book["options"]) + len(book["bot_levels"]) for book in books)


def test_every_word_of_the_rules_has_its_spanish_entry() -> None:
    # Each option's words and each level's, as the engine and the bots declare them: a
    # `Message` by its template, a plain sentence (`N_`) as itself.
    spanish = catalogue("es")
    texts = [
        text
        for kind in KINDS.values()
        for option in kind.describe_options().values()
        for text in (option["allowed"], option["doc"])
    ] + [level.description for kind in KINDS.values() for level in levels_of(kind).values()]
    assert len(texts) > len(KINDS) * 2
    for text in texts:
        key = str(getattr(text, "template", text))
        assert spanish.get((None, key)), key
        assert spanish[None, key] != key, key


# -- translating -------------------------------------------------------------------------


def test_a_message_is_its_english_sentence_and_keeps_its_template() -> None:
    message = _("you must follow {suit}: you hold {cards}", suit="oros", cards="O3, O5")
    assert message == "you must follow oros: you hold O3, O5"
    assert isinstance(message, str)
    assert message.template == "you must follow {suit}: you hold {cards}"
    # RQ pickles what jobs leave behind: the template and values survive.
    again = pickle.loads(pickle.dumps(message))
    assert isinstance(again, Message) and again.params == message.params
    assert translate(message, "es") == "debes asistir a oros: tienes O3, O5"
    assert translate(message, "en") == message
    assert translate("a plain str", "es") == "a plain str"


def test_values_that_are_sentences_are_translated_with_them() -> None:
    why = _("you must beat the {card}: you hold {cards}", card="O7", cards="O12")
    outer = _("seat {seat} could not play {card} in trick {trick}: {why}",
              seat=1, card="O3", trick=2, why=why)  # fmt: skip
    assert translate(outer, "es") == (
        "el asiento 1 no podía jugar el O3 en la baza 2: debes montar (superar el O7): tienes O12"
    )
    listed = join([_("{card} by seat {seat}", card="O1", seat=0), "E3 by seat 1"])
    assert str(listed) == "O1 by seat 0, E3 by seat 1"
    assert translate(listed, "es") == "O1 del asiento 0, E3 by seat 1"


def test_a_translation_missing_or_broken_falls_back_to_english(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    unknown = _("a sentence in no catalogue about {thing}", thing="x")
    assert translate(unknown, "es") == "a sentence in no catalogue about x"
    broken = dict(catalogue("es"))
    broken[None, unknown.template] = "una frase con {otra_cosa}"
    monkeypatch.setattr("service.i18n.catalogue", lambda lang: broken)
    assert translate(unknown, "es") == "a sentence in no catalogue about x"


def test_a_failed_jobs_error_is_in_the_requests_language(app: Flask) -> None:
    # What a worker leaves in the job's meta: a Message, pickled by RQ and read back.
    from service.api.jobs import translate_report

    error = pickle.loads(pickle.dumps(_("The game is gone: it was deleted or expired.")))
    report = {"id": "j", "status": "failed", "error": error}
    with app.test_request_context("/api/v1/jobs/j", headers=ES):
        assert translate_report(report)["error"] == "La partida ya no existe: se borró o caducó."
    with app.test_request_context("/api/v1/jobs/j?lang=en", headers=ES):
        assert translate_report(report)["error"] == error
    with app.test_request_context("/api/v1/jobs/j", headers=ES):
        assert translate_report({"id": "j", "status": "queued"}) == {"id": "j", "status": "queued"}


# -- choosing the language ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "header", "chosen"),
    [
        (None, None, "en"),
        (None, "", "en"),
        (None, "es", "es"),
        (None, "es-ES,es;q=0.9", "es"),
        (None, "es-MX", "es"),
        (None, "es_ES", "es"),
        (None, "ES", "es"),
        (None, "fr", "en"),
        (None, "fr-FR,fr;q=0.9,es;q=0.5", "es"),
        (None, "en-GB,en;q=0.9,es;q=0.8", "en"),
        # Each entry by its own language, the highest weight first: a region named first
        # is not passed over for another language's exact tag further down.
        (None, "es-MX,en;q=0.9", "es"),
        (None, "es-419,en;q=0.5", "es"),
        (None, "en-US,es;q=0.9", "en"),
        (None, "de-DE,en-US;q=0.9,es;q=0.8", "en"),
        (None, "en;q=0.5,es;q=0.8", "es"),
        (None, "en,es", "en"),
        (None, "es,en", "es"),
        # A weight of 0 is "not this one"; `*` is any language not named otherwise.
        (None, "es;q=0", "en"),
        (None, "en;q=0,es;q=0.1", "es"),
        (None, "fr,*;q=0.5", "en"),
        (None, "en;q=0,*", "es"),
        # A broken weight orders as its nearest end, or as none when it is no number:
        # the language named is still the one asked for.
        (None, "es;q=1.5", "es"),
        (None, "es;q=1.5,en;q=0.9", "es"),
        (None, "en;q=0.9,es;q=7", "es"),
        (None, "es;q=-1,en;q=0.1", "en"),
        (None, "es;q=-1", "en"),
        (None, "es;q=abc,en;q=0.9", "es"),
        (None, "es;q=.5,en;q=0.4", "es"),
        (None, "es;q=0.1234,en;q=0.1233", "es"),
        (None, "es;Q=0.9,en;q=0.8", "es"),
        (None, "es ; q=0.5, en;q=0.4", "es"),
        (None, "es;q=nan,en;q=0.9", "es"),
        (None, ",,;;=,", "en"),
        ("es", "en", "es"),
        ("en", "es-ES,es;q=0.9", "en"),
        ("ES", "", "es"),
        ("es-AR", "", "es"),
        ("es_ES", "", "es"),
        ("es-ES", "", "es"),
        (" es ", "", "es"),
        ("en_GB", "es", "en"),
        # An unknown ?lang= is no error and no choice: Accept-Language decides.
        ("fr", "es", "es"),
        ("", "es", "es"),
        ("xx", "", "en"),
        ("*", "es", "es"),
    ],
)
def test_choose(query: str | None, header: str | None, chosen: str) -> None:
    assert choose(query, header) == chosen


def test_the_query_beats_the_header_and_codes_never_change(client: FlaskClient) -> None:
    url = "/api/v1/games/no-such-game"
    english = client.get(url, headers=ES, query_string={"lang": "en"})
    spanish = client.get(url, headers=EN, query_string={"lang": "es"})
    spain = client.get(url, headers={"Accept-Language": "es-ES,es;q=0.9"})
    french = client.get(url, headers={"Accept-Language": "fr"})
    odd = client.get(url, headers=ES, query_string={"lang": "klingon"})
    assert (
        english.json["message"]
        == french.json["message"]
        == ("There is no game no-such-game: it never existed, ended or expired.")
    )
    assert (
        spanish.json["message"]
        == spain.json["message"]
        == odd.json["message"]
        == ("No hay ninguna partida no-such-game: nunca existió, terminó o caducó.")
    )
    for response, lang in ((english, "en"), (spanish, "es"), (spain, "es"), (french, "en")):
        assert response.status_code == 404
        assert response.json["error"] == "game_not_found"
        assert response.headers["Content-Language"] == lang
        assert "Accept-Language" in response.headers["Vary"]


@pytest.mark.parametrize(
    ("query", "header", "chosen"),
    [
        ({"lang": "es_ES"}, {}, "es"),
        ({"lang": "es-ES"}, {}, "es"),
        ({"lang": "ES"}, {}, "es"),
        ({"lang": "en_GB"}, {"Accept-Language": "es"}, "en"),
        ({}, {"Accept-Language": "es_ES"}, "es"),
        ({}, {"Accept-Language": "es;q=1.5"}, "es"),
        ({}, {"Accept-Language": "es;q=1.5,en;q=0.9"}, "es"),
        ({}, {"Accept-Language": "es-MX,en;q=0.9"}, "es"),
        ({}, {"Accept-Language": "en-US,es;q=0.9"}, "en"),
        ({}, {"Accept-Language": "es;q=0"}, "en"),
    ],
)
def test_the_api_and_the_page_choose_one_language_and_say_it(
    client: FlaskClient, query: dict[str, str], header: dict[str, str], chosen: str
) -> None:
    answer = client.get("/api/v1/games/no-such-game", query_string=query, headers=header)
    assert answer.status_code == 404
    assert answer.headers["Content-Language"] == chosen
    spanish = answer.json["message"].startswith("No hay ninguna partida")
    assert spanish == (chosen == "es")
    # The page's first paint: the same choice, its cookie in the query's place.
    if query:
        client.set_cookie("pocha_lang", query["lang"])
    page = client.get("/", headers={**header, "Accept": "text/html"})
    assert page.status_code == 200
    assert page.headers["Content-Language"] == chosen
    assert f'<html lang="{chosen}">' in page.get_data(as_text=True)


def test_lang_is_taken_where_query_parameters_are_checked(client: FlaskClient) -> None:
    # The jobs' query schema refuses unknown parameters: ?lang= must not be one.
    response = client.get("/api/v1/jobs/no-such-job", query_string={"lang": "es", "wait": 0})
    assert response.status_code == 404
    assert response.json["error"] == "job_not_found"
    assert response.json["message"].startswith("No existe ese trabajo")


# -- every error code, in both languages -------------------------------------------------


def both(client: FlaskClient, method: str, url: str, **kwargs: Any) -> tuple[Any, Any]:
    """The same request in English and in Spanish; both answers, checked to agree on
    everything but the sentences."""
    headers = kwargs.pop("headers", {})
    english = client.open(url, method=method, headers={**headers, **EN}, **kwargs)
    spanish = client.open(url, method=method, headers={**headers, **ES}, **kwargs)
    assert english.status_code == spanish.status_code, (english.json, spanish.json)
    en, es = english.json, spanish.json
    assert set(en) == set(es)
    for key in ("code", "status", "error", "rule", "version"):
        assert en.get(key) == es.get(key), key
    assert isinstance(es["message"], str) and es["message"]
    assert es["message"] != en["message"], en["message"]
    assert english.headers["Content-Language"] == "en"
    assert spanish.headers["Content-Language"] == "es"
    return english, spanish


@pytest.fixture
def table(client: FlaskClient) -> dict[str, Any]:
    # 4 players, a first hand of 3 cards, seed 7: seat 1 bids first.
    return create_game(client, humans(4), {"schedule": [3, 3]}, seed=7)


def bid_round(client: FlaskClient, table: dict[str, Any]) -> None:
    game_id, tokens = table["id"], tokens_of(table)
    for _bid in range(4):
        view = client.get(f"/api/v1/games/{game_id}").json
        seat = view["turn"]
        mine = client.get(f"/api/v1/games/{game_id}", headers=bearer(tokens[seat])).json
        assert move(client, game_id, tokens[seat], mine["you"]["legal"][0]).status_code == 200


DRIVEN: dict[str, str] = {}


def driven(code: str) -> Any:
    """Marks a test as driving `code` through a real request in both languages."""

    def mark(test: Any) -> Any:
        DRIVEN[code] = test.__name__
        return test

    return mark


@driven("game_not_found")
def test_game_not_found(client: FlaskClient) -> None:
    both(client, "GET", "/api/v1/games/nope")


@driven("not_found")
def test_not_found(client: FlaskClient) -> None:
    both(client, "GET", "/api/v1/nothing-here")


@driven("method_not_allowed")
def test_method_not_allowed(client: FlaskClient) -> None:
    english, _ = both(client, "PUT", "/api/v1/games")
    assert english.status_code == 405


@driven("unauthorized")
def test_unauthorized(client: FlaskClient, table: dict[str, Any]) -> None:
    english, _ = both(client, "POST", f"/api/v1/games/{table['id']}/bids", json={"bid": 1})
    assert english.status_code == 401
    # An account's key sent where account endpoints take it is told where a seat takes it,
    # whether the body is a move or not.
    for body in ({"bid": 1}, {"card": "O1"}):
        keyed, spanish = both(
            client, "POST", f"/api/v1/games/{table['id']}/bids", json=body,
            headers={"X-Pocha-Account": "pa_x"},
        )  # fmt: skip
        assert (keyed.status_code, keyed.json["error"]) == (401, "unauthorized")
        assert "Authorization: Bearer pa_..." in keyed.json["message"]
        assert "Authorization: Bearer pa_..." in spanish.json["message"]
    both(client, "GET", f"/api/v1/games/{table['id']}", headers={"Authorization": "Basic x"})


@driven("forbidden")
def test_forbidden(client: FlaskClient, table: dict[str, Any]) -> None:
    english, _ = both(
        client, "POST", f"/api/v1/games/{table['id']}/bids", json={"bid": 1},
        headers=bearer(table["host_token"]),
    )  # fmt: skip
    assert english.status_code == 403


@driven("not_your_turn")
def test_not_your_turn(client: FlaskClient, table: dict[str, Any]) -> None:
    url = f"/api/v1/games/{table['id']}/bids"
    english, spanish = both(
        client, "POST", url, json={"bid": 1}, headers=bearer(tokens_of(table)[2])
    )
    assert english.json["rule"] == "turn"
    assert english.json["message"] == "it is seat 1's turn, not seat 2's"
    assert spanish.json["message"] == "es el turno del asiento 1, no del asiento 2"


@driven("wrong_phase")
def test_wrong_phase(client: FlaskClient, table: dict[str, Any]) -> None:
    url = f"/api/v1/games/{table['id']}/plays"
    both(client, "POST", url, json={"card": "O1"}, headers=bearer(tokens_of(table)[1]))


@driven("invalid_bid")
def test_invalid_bid(client: FlaskClient, table: dict[str, Any]) -> None:
    url = f"/api/v1/games/{table['id']}/bids"
    english, _ = both(client, "POST", url, json={"bid": 4}, headers=bearer(tokens_of(table)[1]))
    assert english.json["rule"] == "bid_range"


@driven("invalid_card")
def test_invalid_card(client: FlaskClient, table: dict[str, Any]) -> None:
    bid_round(client, table)
    game_id, tokens = table["id"], tokens_of(table)
    seat = client.get(f"/api/v1/games/{game_id}").json["turn"]
    both(client, "POST", f"/api/v1/games/{game_id}/plays", json={"card": "Z9"},
         headers=bearer(tokens[seat]))  # fmt: skip


@driven("illegal_move")
def test_illegal_card_keeps_its_rule(client: FlaskClient) -> None:
    """A card an obligation forbids (asistir, montar, fallar, pisar): the same `rule`, a
    Spanish sentence; and the view's `you.refused` says it in the same words."""
    for seed in range(1, 40):
        table = create_game(client, humans(4), {"schedule": [3, 3]}, seed=seed)
        bid_round(client, table)
        game_id, tokens = table["id"], tokens_of(table)
        for _trick in range(3):
            seat = client.get(f"/api/v1/games/{game_id}").json["turn"]
            url = f"/api/v1/games/{game_id}"
            english = client.get(url, headers={**bearer(tokens[seat]), **EN}).json
            spanish = client.get(url, headers={**bearer(tokens[seat]), **ES}).json
            refused = [r for r in english["you"]["refused"] if r["rule"] != "not_in_hand"]
            if refused:
                card, rule = refused[0]["card"], refused[0]["rule"]
                assert [r["rule"] for r in spanish["you"]["refused"]] == [
                    r["rule"] for r in english["you"]["refused"]
                ]
                said = next(r["message"] for r in spanish["you"]["refused"] if r["card"] == card)
                en, es = both(client, "POST", f"{url}/plays", json={"card": card},
                              headers=bearer(tokens[seat]))  # fmt: skip
                assert en.json["error"] == "illegal_move" and en.json["rule"] == rule
                assert en.json["message"] == refused[0]["message"]
                assert es.json["message"] == said
                spanish_words = {"asistir": "asistir", "montar": "montar", "fallar": "fallar",
                                 "pisar": "pisar"}  # fmt: skip
                assert spanish_words[rule] in said
                return
            legal = english["you"]["legal"][0]
            assert move(client, game_id, tokens[seat], legal).status_code == 200
    pytest.fail("no refused card in 40 games")


@driven("validation_error")
def test_validation_error(client: FlaskClient) -> None:
    english, spanish = both(client, "POST", "/api/v1/games", json={"rules": {}})
    assert english.json["errors"] == {"json": {"players": ["Missing data for required field."]}}
    assert spanish.json["errors"] == {
        "json": {"players": ["Falta este campo, que es obligatorio."]}
    }
    assert "Falta este campo" in spanish.json["message"]
    # Ours, inside `errors`: an unknown bot level.
    english, spanish = both(
        client, "POST", "/api/v1/games",
        json={"players": [{"name": "a"}, {"name": "b", "bot": "genius"}, {"name": "c"}]},
    )  # fmt: skip
    assert "Nivel de bot desconocido 'genius'" in str(spanish.json["errors"])
    # marshmallow's validators' sentences, values and all.
    english, spanish = both(
        client, "POST", "/api/v1/games", json={"players": humans(3), "seed": -1}
    )
    [said] = english.json["errors"]["json"]["seed"]
    assert said.startswith("Must be greater than or equal to 0 and less than or equal to ")
    bound = said.removesuffix(".").rsplit(" ", 1)[1]
    assert spanish.json["errors"]["json"]["seed"] == [
        f"Debe ser mayor o igual que 0 y menor o igual que {bound}."
    ]


def test_foreign_sentences_are_read_back_with_their_values() -> None:
    assert translate_known("Length must be between 1 and 40.", "es") == (
        "La longitud debe estar entre 1 y 40."
    )
    assert translate_known("Unknown field.", "es") == "Campo desconocido."
    assert translate_known("Not one of ours.", "es") == "Not one of ours."
    assert translate_known("Length must be between 1 and 40.", "en") == (
        "Length must be between 1 and 40."
    )


@driven("invalid_rules")
def test_invalid_rules_sentences() -> None:
    # Refused rules reach clients inside a validation_error (the schema or the game
    # service wraps them): the engine's sentence is translated wherever it lands.
    from engine.errors import InvalidRulesError
    from engine.pocha.rules import Rules

    with pytest.raises(InvalidRulesError) as refused:
        Rules.from_dict({"players": 4, "montar": 3})
    message = refused.value.message
    assert message == "montar must be true or false, not 3"
    assert translate(message, "es") == "montar debe ser true o false, no 3"


def test_a_refused_schedule_names_its_option_in_a_spanish_sentence(client: FlaskClient) -> None:
    # An option's name is the code a client sends: inside a Spanish sentence it comes with
    # a Spanish noun ("la opción schedule"), as "opción de reglas desconocida" does.
    players = [{"name": "Ana"}, {"name": "B", "bot": "random"}, {"name": "C", "bot": "random"}]
    refused = client.post(
        "/api/v1/games",
        json={"players": players, "rules": {"schedule": [1, 99]}},
        headers=ES,
    )
    assert (refused.status_code, refused.json["error"]) == (422, "validation_error")
    assert refused.json["message"] == (
        "cada mano de la opción schedule debe repartir de 1 a 12 cartas a cada uno de los 3 "
        "jugadores, no 99"
    )


@driven("stale_version")
def test_stale_version(client: FlaskClient, table: dict[str, Any]) -> None:
    english, _ = both(
        client, "POST", f"/api/v1/games/{table['id']}/bids", json={"bid": 1},
        headers={**bearer(tokens_of(table)[1]), "If-Match": '"999"'},
    )  # fmt: skip
    assert english.status_code == 412 and english.json["version"] == table["version"]


@driven("idempotency_key_reused")
def test_idempotency_key_reused(client: FlaskClient, table: dict[str, Any]) -> None:
    sent = {**bearer(tokens_of(table)[1]), "Idempotency-Key": "bid-1"}
    url = f"/api/v1/games/{table['id']}/bids"
    assert client.post(url, json={"bid": 0}, headers=sent).status_code == 200
    english, _ = both(client, "POST", url, json={"bid": 1}, headers=sent)
    assert english.status_code == 422 and english.json["error"] == "idempotency_key_reused"


def _waiting_table(client: FlaskClient) -> dict[str, Any]:
    created: dict[str, Any] = client.post(
        "/api/v1/games", json={"players": [{"name": "Ana"}, {"open": True}, {"open": True}]}
    ).json
    return created


@driven("not_started")
def test_not_started(client: FlaskClient) -> None:
    waiting = _waiting_table(client)
    english, _spanish = both(
        client, "POST", f"/api/v1/games/{waiting['id']}/bids", json={"bid": 0},
        headers=bearer(waiting["seats"][0]["token"]),
    )  # fmt: skip
    assert english.status_code == 409


@driven("wrong_game")
def test_wrong_game(client: FlaskClient) -> None:
    poch = client.post(
        "/api/v1/games",
        json={"game": "poch", "players": [{"name": "Ana"}, {"name": "Bea"}, {"name": "Cris"}]},
    ).json
    pocha = client.post(
        "/api/v1/games", json={"players": [{"name": "Ana"}, {"name": "Bea"}, {"name": "Cris"}]}
    ).json
    for created, path, body in (
        (poch, "bids", {"bid": 0}),
        (pocha, "bets", {"bet": "pass"}),
        (pocha, "suits", {"suit": "H"}),
    ):
        english, spanish = both(
            client, "POST", f"/api/v1/games/{created['id']}/{path}", json=body,
            headers=bearer(created["seats"][0]["token"]),
        )  # fmt: skip
        assert english.status_code == 409
        assert english.json["error"] == spanish.json["error"] == "wrong_game"


@driven("table_full")
def test_table_full(client: FlaskClient) -> None:
    waiting = _waiting_table(client)
    code = waiting["table_code"]
    for name in ("Bruno", "Carmen"):
        client.post(f"/api/v1/tables/{code}/seats", json={"name": name})
    english, _spanish = both(client, "POST", f"/api/v1/tables/{code}/seats", json={"name": "Dora"})
    assert english.status_code == 409


@driven("table_not_found")
def test_table_not_found(client: FlaskClient) -> None:
    english, _spanish = both(client, "GET", "/api/v1/tables/AAAA-AAAA")
    assert english.status_code == 404


@driven("bad_request")
def test_bad_request(client: FlaskClient, table: dict[str, Any]) -> None:
    both(
        client, "POST", f"/api/v1/games/{table['id']}/bids", json={"bid": 1},
        headers={**bearer(tokens_of(table)[1]), "If-Match": "soon"},
    )  # fmt: skip


@driven("bad_json")
def test_bad_json(client: FlaskClient) -> None:
    both(client, "POST", "/api/v1/games", data="{", content_type="application/json")
    both(client, "POST", "/api/v1/games", data="[" * 100 + "]" * 100,
         content_type="application/json")  # fmt: skip


@driven("body_too_large")
def test_body_too_large(client: FlaskClient) -> None:
    english, _ = both(client, "POST", "/api/v1/games", data="x" * (64 * 1024),
                      content_type="application/json")  # fmt: skip
    assert english.status_code == 413


@driven("unsupported_media_type")
def test_unsupported_media_type(client: FlaskClient) -> None:
    both(client, "POST", "/api/v1/games", data="players", content_type="text/plain")


@driven("job_not_found")
def test_job_not_found(client: FlaskClient) -> None:
    both(client, "GET", "/api/v1/jobs/nope")


@driven("match_not_found")
def test_match_not_found(client: FlaskClient) -> None:
    both(client, "GET", "/api/v1/matches/nope")


@driven("analysis_not_found")
def test_analysis_not_found(client: FlaskClient) -> None:
    both(client, "GET", "/api/v1/analyses/nope")


def test_an_analysis_refused_speaks_both_languages(client: FlaskClient) -> None:
    record = {"format": 1, "game": "chess", "rules": {}, "deals": [], "scores": []}
    english, spanish = both(client, "POST", "/api/v1/analyses", json={"record": record})
    assert english.json["message"] == "This service analyses records of pocha, poch."
    assert spanish.json["message"] == "Este servicio analiza registros de pocha, poch."


@driven("invalid_position")
def test_invalid_position(client: FlaskClient) -> None:
    position = {
        "seat": 1, "hand": ["O1", "O1", "C3"], "trump": {"card": "E5", "holder": None},
        "dealer": 0, "bids": [None, None, None], "rules": {"players": 3},
    }  # fmt: skip
    english, spanish = both(client, "POST", "/api/v1/ai/move", json=position)
    assert english.json["message"] == "the hand holds O1 twice"
    assert spanish.json["message"] == "la mano tiene el O1 dos veces"


def test_a_position_of_an_unknown_game_is_refused_in_both_languages(client: FlaskClient) -> None:
    # A `game` with no AI move schema of its own is read by the default game's, whose
    # `game` field takes its own name only (marshmallow's Equal, values and all).
    position = {
        "game": "chess", "seat": 0, "hand": ["O1"], "trump": {"card": "E7", "holder": None},
        "dealer": 3, "bids": [None, None, None, None], "rules": {"players": 4},
    }  # fmt: skip
    english, spanish = both(client, "POST", "/api/v1/ai/move", json=position)
    assert english.json["errors"] == {"json": {"game": ["Must be equal to pocha."]}}
    assert spanish.json["errors"] == {"json": {"game": ["Debe ser igual a pocha."]}}
    assert spanish.json["message"] == (
        "La petición tiene campos no válidos: game: Debe ser igual a pocha."
    )


def test_a_position_error_speaks_json_in_both_languages(client: FlaskClient) -> None:
    # The whole deck dealt (4 x 10 cards): the trump card is the dealer's, not nobody's.
    hand = ["O1", "O3", "O12", "O11", "O10", "O7", "O6", "O5", "O4", "O2"]
    position = {
        "seat": 1, "hand": hand, "trump": {"card": "E7", "holder": None},
        "dealer": 0, "bids": [None, None, None, None], "rules": {"players": 4},
    }  # fmt: skip
    english, spanish = both(client, "POST", "/api/v1/ai/move", json=position)
    for answer in (english, spanish):
        assert answer.json["error"] == "invalid_position"
        assert "null" in answer.json["message"], answer.json["message"]
        assert "None" not in answer.json["message"], answer.json["message"]


def test_a_position_missing_its_plays_is_told_so_in_both_languages(client: FlaskClient) -> None:
    # Mid-hand, a card on the table, and no plays at all: the missing field is named.
    position = {
        "seat": 2, "hand": ["O1", "C3", "E5"], "trump": {"card": "B7", "holder": None},
        "dealer": 0, "bids": [1, 0, 1, 0], "trick": [{"seat": 1, "card": "O3"}],
        "rules": {"players": 4},
    }  # fmt: skip
    english, spanish = both(client, "POST", "/api/v1/ai/move", json=position)
    assert english.json["message"] == (
        'the position has no "plays": its "trick" says cards were played this hand, and '
        '"plays" must list every one of them, in order'
    )
    assert spanish.json["message"] == (
        'a la posición le falta "plays": su "trick" dice que en esta mano se han jugado '
        'cartas, y "plays" debe darlas todas, en orden'
    )


@driven("rate_limited")
def test_rate_limited(redis_url: str) -> None:
    app = create_app({"REDIS_URL": redis_url, "TESTING": True, "BOT_RUNNER": "inline",
                      "RATE_LIMITS": "on", "RATE_LIMIT_CREATE": "1/minute"})  # fmt: skip
    client = app.test_client()
    body = {"players": humans(3), "rules": {"schedule": [3]}}
    assert client.post("/api/v1/games", json=body).status_code == 201
    english, spanish = both(client, "POST", "/api/v1/games", json=body)
    assert english.status_code == 429
    assert "crear partidas" in spanish.json["message"]
    # The limit too is said in the request's language, not in the limits library's words.
    assert "(como mucho 1 por minuto)" in spanish.json["message"], spanish.json
    assert "(at most 1 a minute)" in english.json["message"], english.json


@driven("accounts_full")
def test_accounts_full(redis_url: str) -> None:
    app = create_app({"REDIS_URL": redis_url, "TESTING": True, "BOT_RUNNER": "inline",
                      "MAX_ACCOUNTS": 1})  # fmt: skip
    client = app.test_client()
    made = client.post("/api/v1/accounts", json={"name": "Ana", "kind": "person"})
    assert made.status_code == 201
    english, spanish = both(client, "POST", "/api/v1/accounts", json={"name": "Bea", "kind": "bot"})
    assert english.status_code == 503
    assert "no new one can be made" in english.json["message"]
    assert "no se puede crear ninguna nueva" in spanish.json["message"]


@driven("over_think_budget")
def test_over_think_budget(redis_url: str) -> None:
    app = create_app({"REDIS_URL": redis_url, "TESTING": True, "BOT_RUNNER": "rq",
                      "RATE_LIMITS": "on", "THINK_BUDGET": 1})  # fmt: skip
    client = app.test_client()
    body = {**AI_POSITION, "milliseconds": 1500}
    english, spanish = both(client, "POST", "/api/v1/ai/move", json=body)
    assert english.status_code == 422
    assert "more than your address may spend in a minute" in english.json["message"]
    assert "más de lo que tu dirección puede gastar en un minuto" in spanish.json["message"]


def test_every_limit_is_said_in_the_requests_language() -> None:
    # Each unit a limit may be written in (POCHA_RATE_LIMIT_*), one window of it or several.
    for unit, english_one, spanish_one, spanish_many in [
        ("second", "a second", "por segundo", "segundos"),
        ("minute", "a minute", "por minuto", "minutos"),
        ("hour", "an hour", "por hora", "horas"), ("day", "a day", "al día", "días"),
        ("month", "a month", "al mes", "meses"), ("year", "a year", "al año", "años"),
    ]:  # fmt: skip
        (one,) = parse_many(f"5/{unit}")
        (many,) = parse_many(f"5 per 3 {unit}s")
        assert translate(spoken_limit(one), "en") == f"5 {english_one}"
        assert translate(spoken_limit(many), "en") == f"5 every 3 {unit}s"
        assert translate(spoken_limit(one), "es") == f"5 {spanish_one}"
        assert translate(spoken_limit(many), "es") == f"5 cada 3 {spanish_many}"
        assert translate(spoken_limit(str(one)), "es") == f"5 {spanish_one}"


@driven("unknown_key")
def test_unknown_key(client: FlaskClient) -> None:
    body = {"players": humans(3), "rules": {"schedule": [3]}}
    key = {"X-Pocha-Key": "pk_" + "x" * 43}
    english, spanish = both(client, "POST", "/api/v1/games", json=body, headers=key)
    assert english.status_code == 401
    assert "X-Pocha-Key" in spanish.json["message"]


@driven("unavailable")
def test_unavailable() -> None:
    app = create_app({"REDIS_URL": "redis://127.0.0.1:1/0", "REDIS_CONNECT_TIMEOUT": 0.5})
    english, _ = both(app.test_client(), "GET", "/api/v1/games/abc")
    assert english.status_code == 503


@driven("internal_error")
def test_internal_error(redis_url: str) -> None:
    app: Flask = create_app({"REDIS_URL": redis_url, "TESTING": True})

    def boom() -> str:
        raise RuntimeError("boom")

    app.add_url_rule("/boom", view_func=boom)
    english, _ = both(app.test_client(), "GET", "/boom")
    assert english.status_code == 500


@driven("too_many_streams")
def test_too_many_streams() -> None:
    message = TooManyStreams(cap=4, retry_after=1).message
    assert translate(message, "es").startswith("Tu dirección ya sigue 4 flujos de eventos")


@driven("body_too_slow")
def test_body_too_slow() -> None:
    # Raised under gunicorn only: tests/resilience/test_hostile_load.py trickles a body.
    message = BodyTooSlow(seconds=10).message
    assert translate(message, "es").startswith("El cuerpo de la petición no llegó entero en 10 s")


# The codes no test drives above (a race, a full Redis, gunicorn's own refusals before the
# app runs, statuses werkzeug alone raises): the English sentence each is sent with, whose
# Spanish must be in the catalogue.
CATALOGUED: dict[str, list[str]] = {
    "not_replicated": [
        "Your move was recorded, but no replica confirmed it in time: reload the game to see "
        "whether it stands."
    ],
    "conflict": [
        "Another move was applied to this game at the same moment; reload it and try again.",
        "A move with this Idempotency-Key is being applied right now: ask for the game in a "
        "moment to see it.",
        _MESSAGE_BY_STATUS[409],
    ],
    "store_full": [
        "The game store is full: nothing new can be saved until games end or are deleted. "
        "Try again later.",
        "Redis is full (maxmemory, evicting nothing): games can be read and deleted, not "
        "created or played.",
    ],
    "busy": [
        "The bots are busy: {queued} s of thinking is queued for hints and AI moves, more "
        "than they can start within {max_wait} s; try again in {retry_after} s.",
    ],
    "too_many_tables": [
        "You have {n} table in the lobby already: start it, or make this one unlisted and "
        "share its code.",
    ],
    "too_many_changes": [
        "Seats at this table have been taken and given up too often. The host may still "
        "start the game, or open a new table.",
    ],
    "one_seat_each": [
        "You have a seat at this table already: one seat each at a table from the lobby. To "
        "play more seats from one address, ask the host for an unlisted table and its code.",
    ],
    "removed_by_host": ["The host removed you from this table: you cannot sit here again."],
    "game_not_over": [
        "The game is not over: its record shows every hand, so it is given once the game has ended."
    ],
    "rate_limited_seat": [
        "Too many changes of this seat (at most {limit}); try again in {retry_after} s.",
    ],
    "too_many_connections": [
        "Your address holds {n} connection to this server, the most it may: close it (or "
        "reuse it) and try again.",
    ],
    "unknown_account": [
        "This account key opens no account (a replaced key opens nothing): check it, or make "
        "an account with POST /api/v1/accounts."
    ],
    "account_disabled": ["This account is disabled: it cannot take a seat."],
    "account_not_found": ["No account has this id."],
    "name_taken": [
        "This name is taken, or looks too much like one that is (letters of other alphabets "
        "that look alike, case and spacing count as the same): choose another."
    ],
    "account_required": [
        "A rated table seats accounts only: send your account's key in X-Pocha-Account.",
        "This needs your account's key: send it in X-Pocha-Account (POST /api/v1/accounts makes "
        "an account).",
    ],
    "one_seat_per_account": [
        "Your account, {name}, has a seat at this table already: at a rated table each "
        "account has one seat.",
        "The bot level {level} would have more than one seat in this game: at a rated table "
        "each bot level has one seat.",
        "Your account has a seat at this table already: an account plays one seat at a table.",
    ],
    "validation_error_rated": [
        "A rated game's deals are never chosen: leave out the seed.",
        "A rated game's deals are never chosen.",
        "At a rated table people take their seats with their own accounts: give the other "
        "people open seats.",
    ],
    "rate_limited_accounts": ["making accounts"],
    "rate_limited_analyses": ["analyses of game records"],
    "rate_limited_match_records": ["reading matches' game records"],
    "validation_error_analyses": [
        "The record cannot be read back: {why}",
        "Weighing {decisions} decisions at {level} may take {seconds} s, more than the {most} "
        "s an analysis may think; choose one of {levels}.",
    ],
    "failed_analyses": ["The record could not be analysed: {why}"],
    "webhook_refused": [
        "A webhook's URL is http:// or https://.",
        "This is not a URL a webhook can have (a host, a port from 1 to 65535 if any, no "
        "user or password).",
        "The webhook's host name does not resolve to any address.",
        "The webhook's host resolves to a private, loopback, link-local, multicast or "
        "reserved address, which the service does not call.",
    ],
    "not_a_bot": ["Only a bot's account may register a webhook."],
    "no_webhook": ["This account has no webhook: register one with PUT first."],
    "not_your_account": [
        "This is another account's: send its own key in X-Pocha-Account to do this."
    ],
    "validation_error_webhooks": [
        "account:{account} is not an enabled account",
        "account:{account}: no account has this id (a seat names an account by its id, which "
        "GET /api/v1/account tells its key)",
        "account:{account} is seated in a match by its own key only (send it in "
        "X-Pocha-Account), unless it is a bot its owner opened to matches (open_to_matches)",
        "{seat}: an account's seat is account:ID",
        "{seat}: a match with an account that moves over its event stream seats accounts and "
        "levels of the game only ({levels})",
        "a match at tables seats each account once",
        "Only a bot's account may be opened to matches.",
    ],
    "challenge_not_found": [
        "No challenge has this id (or it was forgotten, an hour after it ended)."
    ],
    "not_in_challenge": [
        "Only the account that made a challenge may cancel it.",
        "This challenge does not name your account.",
    ],
    "challenge_closed": ["This challenge is no longer open: it was {status}."],
    "too_many_challenges": [
        "You have {n} open challenge, the most you may: wait for its answer or cancel it.",
        "{name} has {n} open challenge waiting, the most one account may: try again later.",
        "{name} has {n} open challenge from you (or your address) waiting, the most one "
        "challenger may send one account: wait for its answer.",
        "You made {n} challenge within the last hour or so (it counts until an hour after it "
        "ends), the most you may: try again later.",
        "{name} had {n} challenge from you (or your address) within the last hour or so (it "
        "counts until an hour after it ends), the most one challenger may send one account: "
        "try again later.",
        "{name} had {n} challenge within the last hour or so (it counts until an hour after "
        "it ends), the most one account may receive: try again later.",
    ],
    "bot_paused": [
        "{name} is a webhook bot paused after failing its calls: it cannot be challenged "
        "until its owner resumes it."
    ],
    "validation_error_challenges": [
        "A challenge names at least one account; to play our levels alone, make a game.",
        "An account of this challenge is disabled or gone.",
        "An opponent is an account or a bot level: give one.",
        "No account has the id or name {name}.",
        "{name} has a seat in this challenge already.",
        "{name} is disabled: it cannot be challenged.",
        "{game} is played by {least} to {most} players: you and your opponents make {seats}.",
    ],
    "rate_limited_challenges": ["challenges"],
    "challenge_refused": ["{name} does not take challenges from your account."],
    "too_many_blocks": ["You block {n} account, the most you may: unblock it first."],
    # Driven in both languages by tests/service/test_block_seats.py.
    "seat_refused": [
        "Someone at this table does not play with your account.",
        "You block an account at this table: unblock it to sit here.",
        "An account in this match does not play with yours.",
        "You block an account in this match: unblock it to play beside it.",
        "Two accounts in this match do not play together: one blocks the other.",
    ],
    "validation_error_blocks": [
        "An account cannot block itself.",
        "{name} is one of our bot levels: it challenges nobody, so there is nothing to block.",
    ],
    "account_not_found_blocks": ["No account has this id or name."],
    "rate_limited_blocks": ["reading and changing the accounts you block"],
    "not_acceptable": [_MESSAGE_BY_STATUS[406]],
    "precondition_required": [_MESSAGE_BY_STATUS[428]],
    **{code: [sentence] for code, sentence in GUNICORN_ERRORS.values()},
}


def test_catalogued_codes_have_spanish_sentences() -> None:
    # A sentence about a count is listed by its singular, the key of its plural entry.
    spanish = {**catalogue("es"), **{k: v[0] for k, v in plurals("es").items()}}
    for code, sentences in CATALOGUED.items():
        for sentence in sentences:
            key = str(getattr(sentence, "template", sentence))
            assert spanish.get((None, key)), (code, key)
            assert spanish[None, key] != key, (code, key)


def all_service_errors() -> set[str]:
    assert service.app  # every module with a ServiceError is imported by now
    found: set[str] = set()
    pending: list[type] = [core_errors.ServiceError]
    while pending:
        cls = pending.pop()
        found.add(cls.error)  # type: ignore[attr-defined]
        pending.extend(cls.__subclasses__())
    return found


def every_error_code() -> set[str]:
    """Every machine code an error answer may carry: the service's errors, the engines',
    werkzeug's by status, and gunicorn's own refusals."""
    return (
        all_service_errors()
        | set(ENGINE_STATUS)
        | set(_CODE_BY_STATUS.values())
        | {"store_full", "too_many_connections"}
        | {code for code, _sentence in GUNICORN_ERRORS.values()}
    )


def test_every_error_code_is_covered() -> None:
    # Poch's refusals (invalid_suit among them) are driven in their own module, which
    # imports this one: imported here, so that its marks count wherever this test runs.
    importlib.import_module("tests.service.test_poch_i18n")
    codes = every_error_code()
    missing = codes - set(DRIVEN) - set(CATALOGUED)
    assert not missing, f"no Spanish test for {sorted(missing)}"
    # Every status's default sentence has its Spanish too.
    for sentence in _MESSAGE_BY_STATUS.values():
        assert translate(sentence, "es") != sentence, sentence


def test_the_document_names_every_error_code() -> None:
    # A front end learns the codes it may branch on from the Error schema's `error`.
    document = json.loads(COMMITTED.read_text())
    described = document["components"]["schemas"]["Error"]["properties"]["error"]
    named = set(re.findall(r"[a-z]+(?:_[a-z]+)*", described["description"]))
    assert every_error_code() - named == set()


# -- sentences about a count ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "english", "spanish"),
    [(0, "after 0 calls it is seat 1's turn to bet", "tras 0 jugadas le toca apostar al asiento 1"),
     (1, "after 1 call it is seat 1's turn to bet", "tras 1 jugada le toca apostar al asiento 1"),
     (2, "after 2 calls it is seat 1's turn to bet",
      "tras 2 jugadas le toca apostar al asiento 1")],
)  # fmt: skip
def test_a_sentence_about_a_count_takes_each_languages_form(
    count: int, english: str, spanish: str
) -> None:
    message = ngettext(
        "after {n} call it is seat {seat}'s turn to bet",
        "after {n} calls it is seat {seat}'s turn to bet",
        count,
        seat=1,
    )
    assert message == english
    # RQ pickles a job's error: its forms and count survive, to be said in the caller's
    # language at the edge, as the API's errors are.
    again = pickle.loads(pickle.dumps(message))
    assert isinstance(again, Message) and again == english
    assert translate(again, "en") == english
    assert translate(again, "es") == spanish
    # A sentence about a count inside another is said in the language too.
    outer = join([again, _("{card} is played twice", card="O1")], _(" or "))
    assert translate(outer, "es") == f"{spanish} o el O1 se juega dos veces"


def test_a_count_missing_from_the_catalogue_keeps_the_english_form() -> None:
    for count, said in ((1, "1 thing in no catalogue"), (2, "2 things in no catalogue")):
        message = ngettext("{n} thing in no catalogue", "{n} things in no catalogue", count)
        assert translate(message, "es") == said


def test_the_page_gets_a_counts_forms_by_plural_category(client: FlaskClient) -> None:
    # i18n.js `tn` picks the form by `Intl.PluralRules(lang).select(n)`: one for 1, other
    # for 0 and 2 in English and Spanish (Spanish's many, a million's, says it as other).
    english = client.get("/i18n/en.json").json
    spanish = client.get("/i18n/es.json").json
    assert english["seat.cards"] == {"one": "{n} card", "other": "{n} cards"}
    assert spanish["seat.cards"] == {
        "one": "{n} carta",
        "many": "{n} cartas",
        "other": "{n} cartas",
    }
    for key, one, other in (
        ("rules.deals", "{n} deal", "{n} deals"),
        ("poch.chipsN", "{n} chip", "{n} chips"),
        ("account.games", "{n} rated game", "{n} rated games"),
    ):
        assert english[key] == {"one": one, "other": other}
        assert set(spanish[key]) == {"one", "many", "other"} and "{n}" in spanish[key]["one"]
    # Sentences about no count stay plain texts.
    assert english["lobby.sit"] == "Sit down"


@pytest.mark.parametrize(
    ("hand", "bids", "english", "spanish"),
    [(["O1"], [1, 0, 0], "the 1 card in play", "sumarían 1, la única carta en juego"),
     (["O1", "C3"], [2, 0, 0], "the 2 cards in play", "sumarían las 2 cartas en juego")],
)  # fmt: skip
def test_an_api_refusal_about_a_count_reads_right_in_both_languages(
    client: FlaskClient, hand: list[str], bids: list[int], english: str, spanish: str
) -> None:
    # The dealer (seat 0, bidding last) bid what makes the bids add up to the cards dealt.
    position = {
        "seat": 1, "hand": hand, "trump": {"card": "E5", "holder": None},
        "dealer": 0, "bids": bids, "rules": {"players": 3},
    }  # fmt: skip
    en, es = both(client, "POST", "/api/v1/ai/move", json=position)
    assert en.json["message"].endswith(f"the bids would add up to {english}"), en.json
    assert es.json["message"].endswith(f"las apuestas {spanish}"), es.json


@pytest.mark.parametrize(
    ("count", "english", "spanish"),
    [(0, ["follows 0 event streams, the most it may: close one",
          "You block 0 accounts, the most you may: unblock one first."],
         ["sigue 0 flujos de eventos, el máximo permitido: cierra uno",
          "Bloqueas 0 cuentas, el máximo permitido: desbloquea una primero."]),
     (1, ["follows 1 event stream, the most it may: close it",
          "You block 1 account, the most you may: unblock it first."],
         ["sigue 1 flujo de eventos, el máximo permitido: ciérralo",
          "Bloqueas 1 cuenta, el máximo permitido: desbloquéala primero."]),
     (2, ["follows 2 event streams, the most it may: close one",
          "You block 2 accounts, the most you may: unblock one first."],
         ["sigue 2 flujos de eventos, el máximo permitido: cierra uno",
          "Bloqueas 2 cuentas, el máximo permitido: desbloquea una primero."])],
)  # fmt: skip
def test_a_cap_is_said_in_each_languages_form_of_its_count(
    count: int, english: list[str], spanish: list[str]
) -> None:
    # A cap set by the operator (the streams an address may follow) may be any count; the
    # accounts one may block is a constant today, said the same way should it change.
    streams = TooManyStreams(cap=count, retry_after=1).message
    blocks = core_errors.TooManyBlocks(count).message
    assert english[0] in streams and translate(streams, "es").startswith("Tu dirección ya ")
    assert spanish[0] in translate(streams, "es")
    assert [str(blocks), translate(blocks, "es")] == [english[1], spanish[1]]


@pytest.mark.parametrize(
    ("hand", "english", "spanish"),
    [(["O1"], "holds 1 card and has played 0, so each seat was dealt 1, not 3",
      "tiene 1 carta y ha jugado 0, así que cada asiento recibió 1, no 3"),
     (["O1", "C3"], "holds 2 cards and has played 0, so each seat was dealt 2, not 3",
      "tiene 2 cartas y ha jugado 0, así que cada asiento recibió 2, no 3")],
)  # fmt: skip
def test_a_positions_hand_size_refused_reads_right_in_both_languages(
    client: FlaskClient, hand: list[str], english: str, spanish: str
) -> None:
    # A seat holds at least one card while a hand is played: 0 is refused in another way.
    position = {
        "seat": 1, "hand": hand, "trump": {"card": "E5", "holder": None},
        "dealer": 0, "bids": [None] * 3, "rules": {"players": 3}, "cards_per_player": 3,
    }  # fmt: skip
    en, es = both(client, "POST", "/api/v1/ai/move", json=position)
    assert en.json["message"].endswith(english), en.json
    assert es.json["message"].endswith(spanish), es.json
