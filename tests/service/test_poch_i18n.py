"""Poch in Spanish and English: every refusal of a Poch decision, of a Poch decision's body
and of Poch's rules, sent through real requests in both languages. The machine codes
(`error`, `rule`) are the same in both; the Spanish sentence differs from the English one
and holds no English sentence of the catalogue. (The helpers, `both` and `driven`, and the
test that every error code is driven, are `test_i18n.py`'s.)"""

from __future__ import annotations

import ast
import functools
import random
import string
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

import engine.poch.actions
import engine.poch.rules
from engine.errors import InvalidBidError, InvalidRulesError
from service.api.wire.poch import MAX_BET
from service.i18n import translate
from tests.service.helpers import bearer
from tests.service.test_i18n import EN, ES, LOCALES, ROOT, both, driven, entries

PEOPLE = [{"name": "Ana"}, {"name": "Bea"}, {"name": "Cris"}]


@functools.cache
def english_fragments() -> frozenset[str]:
    """Every run of three words or more of the catalogue's English sentences (the text
    between their placeholders): none may be left in a Spanish message."""
    found: set[str] = set()
    for context, msgid in entries(LOCALES / "messages.pot"):
        if context is not None:
            continue
        for literal, _name, _spec, _conversion in string.Formatter().parse(msgid):
            literal = literal.strip(" .,;:()")
            if len(literal.split()) >= 3:
                found.add(literal)
    return frozenset(found)


def assert_spanish(spanish: str, english: str) -> None:
    assert isinstance(spanish, str) and spanish
    assert spanish != english
    leaked = sorted(fragment for fragment in english_fragments() if fragment in spanish)
    assert not leaked, (spanish, leaked)


def leaves(tree: Any) -> list[str]:
    """The sentences of an `errors` tree, in order."""
    if isinstance(tree, dict):
        return [text for key in sorted(tree) for text in leaves(tree[key])]
    if isinstance(tree, list):
        return [text for item in tree for text in leaves(item)]
    return [tree]


def refused(
    client: FlaskClient,
    url: str,
    body: Any,
    token: str | None,
    error: str,
    rule: str | None = None,
    status: int = 422,
) -> tuple[Any, Any]:
    """POST `body` to `url` in both languages: refused with `status`, `error` and `rule`
    in both, every sentence (the message, each of `errors`) Spanish in Spanish."""
    english, spanish = both(client, "POST", url, json=body, headers=bearer(token))
    assert english.status_code == status, english.json
    assert english.json["error"] == spanish.json["error"] == error, english.json
    assert english.json.get("rule") == spanish.json.get("rule") == rule, english.json
    assert_spanish(spanish.json["message"], english.json["message"])
    en_errors, es_errors = leaves(english.json.get("errors")), leaves(spanish.json.get("errors"))
    assert len(en_errors) == len(es_errors)
    for en, es in zip(en_errors, es_errors, strict=True):
        if en is not None:
            assert_spanish(es, en)
    return english, spanish


# -- a Poch table, played to where each refusal can be asked for --------------------------


def create(client: FlaskClient, seed: int, **rules: Any) -> dict[str, Any]:
    body = {"game": "poch", "players": PEOPLE, "seed": seed, "rules": rules}
    response = client.post("/api/v1/games", json=body)
    assert response.status_code == 201, response.json
    created: dict[str, Any] = response.json
    return created


class Table:
    """A Poch game of three people, and their decisions sent as each of them."""

    def __init__(self, client: FlaskClient, seed: int = 11, **rules: Any) -> None:
        self.client = client
        self.created = create(client, seed, **rules)
        self.id = self.created["id"]
        self.tokens = [seat["token"] for seat in self.created["seats"]]

    def view(self, seat: int | None = None) -> dict[str, Any]:
        token = None if seat is None else self.tokens[seat]
        found: dict[str, Any] = self.client.get(
            f"/api/v1/games/{self.id}", headers=bearer(token)
        ).json
        return found

    @property
    def turn(self) -> int:
        turn: int = self.view()["turn"]
        return turn

    def url(self, path: str) -> str:
        return f"/api/v1/games/{self.id}/{path}"

    def decide(self, path: str, key: str, value: Any) -> dict[str, Any]:
        """The seat in turn decides `value`, which it may."""
        response = self.client.post(
            self.url(path), json={key: value}, headers=bearer(self.tokens[self.turn])
        )
        assert response.status_code == 200, response.json
        view: dict[str, Any] = response.json
        return view

    def refuse(
        self, path: str, key: str, value: Any, error: str, rule: str | None = None,
        status: int = 422, seat: int | None = None,
    ) -> tuple[Any, Any]:  # fmt: skip
        """The seat in turn (or `seat`) sends `value`, which is refused in both languages."""
        token = self.tokens[self.turn if seat is None else seat]
        return refused(self.client, self.url(path), {key: value}, token, error, rule, status)

    def everyone_passes(self) -> dict[str, Any]:
        view = self.view()
        while view["phase"] == "betting":
            view = self.decide("bets", "bet", "pass")
        assert view["phase"] == "starting", view
        return self.view(self.turn)


# -- betting ------------------------------------------------------------------------------


def test_bets_refused_in_both_languages(client: FlaskClient) -> None:
    table = Table(client)
    turn = table.turn
    english, spanish = table.refuse("bets", "bet", "hold", "invalid_bid", rule="hold")
    assert english.json["message"] == "nobody has bet: there is nothing to hold"
    assert spanish.json["message"] == "nadie ha apostado: no hay nada que igualar"
    chips = table.view()["chips"][turn]
    english, spanish = table.refuse("bets", "bet", chips + 1, "invalid_bid", rule="no_credit")
    assert english.json["message"] == f"you cannot pay {chips + 1} chips; you have {chips}"
    assert spanish.json["message"] == f"no puedes pagar {chips + 1} fichas; tienes {chips}"
    english, spanish = table.refuse(
        "bets", "bet", "pass", "not_your_turn", status=409, seat=(turn + 1) % 3
    )
    assert (
        spanish.json["message"]
        == f"es el turno del asiento {turn}, no del asiento {(turn + 1) % 3}"
    )
    hand = table.view(turn)["you"]["hand"]
    for path, key, value in (("plays", "card", hand[0]), ("suits", "suit", "H")):
        english, spanish = table.refuse(path, key, value, "wrong_phase", status=409)
        assert english.json["message"] == "the betting round takes pass, hold, a bet or a raise"
        assert "Pochen" in spanish.json["message"]
    table.decide("bets", "bet", 3)
    english, spanish = table.refuse("bets", "bet", 2, "invalid_bid", rule="raise_above")
    assert english.json["message"] == "a raise must be more than 3 chips"
    assert spanish.json["message"] == "para subir hay que pagar más de 3 fichas"


def test_a_refusal_about_one_chip_says_one_chip(client: FlaskClient) -> None:
    table = Table(client)
    table.decide("bets", "bet", 1)
    english, spanish = table.refuse("bets", "bet", 1, "invalid_bid", rule="raise_above")
    assert english.json["message"] == "a raise must be more than 1 chip"
    assert spanish.json["message"] == "para subir hay que pagar más de 1 ficha"


def test_a_hold_without_credit(client: FlaskClient) -> None:
    for seed in range(1, 40):
        table = Table(client, seed)
        view = table.view()
        turn, chips = view["turn"], view["chips"]
        nxt = (turn + 1) % 3
        if chips[turn] > chips[nxt]:
            break
    else:
        pytest.fail("no table where the first to bet has more chips than the next")
    table.decide("bets", "bet", chips[turn])
    english, spanish = table.refuse("bets", "bet", "hold", "invalid_bid", rule="no_credit")
    assert english.json["message"] == (f"holding costs {chips[turn]} chips; you have {chips[nxt]}")
    assert spanish.json["message"] == f"igualar cuesta {chips[turn]} fichas; tienes {chips[nxt]}"


# -- shedding -----------------------------------------------------------------------------


def test_a_start_card_that_is_not_a_seven_or_an_ace(client: FlaskClient) -> None:
    table = Table(client)
    mine = table.everyone_passes()
    hand = mine["you"]["hand"]
    other = next(card for card in hand if card[1:] not in ("7", "A"))
    english, spanish = table.refuse("plays", "card", other, "illegal_move", rule="start_card")
    assert english.json["message"] == "the shedding starts with a 7 or an ace"
    assert spanish.json["message"] == "el Ausspielen se empieza con un 7 o un as"
    missing = next(
        f"{suit}{rank}" for suit in "CSHD" for rank in ("7", "A") if f"{suit}{rank}" not in hand
    )
    english, spanish = table.refuse("plays", "card", missing, "illegal_move", rule="hold_card")
    assert spanish.json["message"] == f"no tienes el {missing}"
    english, spanish = table.refuse("bets", "bet", "pass", "wrong_phase", status=409)
    assert english.json["message"] == "start the shedding with a 7 or an ace"
    assert spanish.json["message"] == "empieza el Ausspielen con un 7 o un as"


@driven("invalid_suit")
def test_a_suit_already_played(client: FlaskClient) -> None:
    table = Table(client)
    mine = table.everyone_passes()
    view = table.decide("plays", "card", mine["you"]["legal"][0])
    assert view["phase"] == "choosing", view
    [played] = view["suits_done"]
    english, spanish = table.refuse("suits", "suit", played, "invalid_suit", rule="suit_played")
    assert english.json["message"] == f"{played} has been played"
    assert spanish.json["message"] == f"el palo {played} ya se ha jugado"
    english, spanish = table.refuse("bets", "bet", "pass", "wrong_phase", status=409)
    assert english.json["message"] == "choose the next suit"
    assert spanish.json["message"] == "elige el próximo palo"


def test_a_letter_that_is_no_suit_and_a_code_that_is_no_card(client: FlaskClient) -> None:
    table = Table(client)
    english, spanish = table.refuse("suits", "suit", "X", "invalid_card")
    assert english.json["message"] == "'X' is not a suit (C, S, H or D)"
    assert spanish.json["message"] == "'X' no es un palo (C, S, H o D)"
    table.refuse("suits", "suit", "HA", "invalid_card")
    for code in ("Z9", "O1", "H6"):  # O1 is a Pocha card
        english, spanish = table.refuse("plays", "card", code, "invalid_card")
        assert spanish.json["message"] == (
            f"'{code}' no es una carta de Poch (un palo C S H D y un valor 7-10 J Q K A)"
        )


def test_a_decision_after_the_game_is_over(client: FlaskClient) -> None:
    table = Table(client, deals=1)
    rng = random.Random(3)
    for _step in range(200):
        view = table.view()
        if view["phase"] == "over":
            break
        mine = table.view(view["turn"])
        path, key = {"betting": ("bets", "bet"), "starting": ("plays", "card")}.get(
            view["phase"], ("suits", "suit")
        )
        table.decide(path, key, rng.choice(mine["you"]["legal"]))
    else:
        pytest.fail("the game did not end")
    english, spanish = table.refuse("bets", "bet", "pass", "wrong_phase", status=409, seat=0)
    assert english.json["message"] == "the game is over"
    assert spanish.json["message"] == "la partida ha terminado"


# -- the bodies of the decisions ----------------------------------------------------------


def test_decision_bodies_refused_in_both_languages(client: FlaskClient) -> None:
    table = Table(client)
    for bet in ("all", 0, -3, True, None, MAX_BET + 1):
        english, spanish = table.refuse("bets", "bet", bet, "validation_error")
        if bet is not None:
            assert english.json["errors"] == {
                "json": {
                    "bet": [
                        f'Must be "pass", "hold" or a whole number of chips from 1 to {MAX_BET}.'
                    ]
                }
            }
            assert spanish.json["errors"] == {
                "json": {
                    "bet": [
                        f'Debe ser "pass", "hold" o un número entero de fichas de 1 a {MAX_BET}.'
                    ]
                }
            }
    _english, spanish = table.refuse("suits", "suit", "", "validation_error")
    assert spanish.json["errors"] == {"json": {"suit": ["La longitud debe estar entre 1 y 8."]}}
    table.refuse("suits", "suit", 3, "validation_error")


# -- the rules ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "option"),
    [
        ({"chips": 0}, "chips"),
        ({"chips": 10_001}, "chips"),
        ({"ante": 101}, "ante"),
        ({"deals": 0}, "deals"),
        ({"turn_seconds": -1}, "turn_seconds"),
        ({"chips": "many"}, "chips"),
        ({"chips": 2.5}, "chips"),
        ({"chips": 7}, "chips"),  # cannot pay the first ante: the engine refuses it
        ({"chips": 20, "ante": 3}, "chips"),
        ({"montar": True}, "montar"),  # Pocha's option, no Poch one
        ({"players": 4}, "players"),  # three are listed
    ],
)
def test_poch_rules_refused_at_creation(
    client: FlaskClient, rules: dict[str, Any], option: str
) -> None:
    body = {"game": "poch", "players": PEOPLE, "rules": rules}
    english, spanish = refused(client, "/api/v1/games", body, None, "validation_error")
    assert list(english.json["errors"]["json"]["rules"]) == [option]
    assert option in spanish.json["message"]


def test_poch_rules_that_are_not_an_object(client: FlaskClient) -> None:
    body = {"game": "poch", "players": PEOPLE, "rules": [1]}
    _english, spanish = refused(client, "/api/v1/games", body, None, "validation_error")
    assert spanish.json["errors"] == {"json": {"rules": ["No es un objeto válido."]}}


def test_the_engines_rule_sentences() -> None:
    with pytest.raises(InvalidRulesError) as info:
        engine.poch.rules.Rules(players=9)
    assert info.value.message == "players must be an integer from 3 to 8, not 9"
    assert translate(info.value.message, "es") == "players debe ser un número entero de 3 a 8, no 9"
    with pytest.raises(InvalidRulesError) as info:
        engine.poch.rules.Rules(chips=20, ante=3)
    assert info.value.message == "chips must be at least 8 x ante (24) to pay the first ante"
    assert translate(info.value.message, "es") == (
        "chips debe ser al menos 8 x ante (24) para poder pagar la primera puesta"
    )
    with pytest.raises(InvalidRulesError) as info:
        engine.poch.rules.Rules.from_dict({"montar": True})
    assert translate(info.value.message, "es") == "opción de Poch desconocida 'montar'"
    with pytest.raises(InvalidBidError) as bet:
        engine.poch.actions.action_from_wire(0)
    assert translate(bet.value.message, "es") == "una apuesta es de al menos 1 ficha, no 0"
    with pytest.raises(InvalidBidError) as bet:
        engine.poch.actions.action_to_wire(50)
    assert translate(bet.value.message, "es") == "50 no es una jugada de Poch"


def test_every_sentence_the_poch_engine_raises_is_marked() -> None:
    """Each error the Poch engine raises for a person is made with `_()` or `ngettext()`
    (not an f-string), so that it reaches the catalogues; a stored game the engine cannot read
    (`InvalidStateError`) is the service's fault, never shown to a person, and stays
    English, as in Pocha's engine; Python's own errors (a caller's mistake) too."""
    unmarked = []
    for path in sorted((ROOT / "engine" / "poch").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
                continue
            func = node.exc.func
            name = func.id if isinstance(func, ast.Name) else ""
            if not name.endswith("Error") or name in ("InvalidStateError", "ValueError"):
                continue
            first = node.exc.args[0] if node.exc.args else None
            marked = (
                isinstance(first, ast.Call)
                and isinstance(first.func, ast.Name)
                and first.func.id in ("_", "ngettext")
            )
            if not marked:
                unmarked.append(f"{Path(path).name}:{node.lineno}")
    assert not unmarked, unmarked


def test_english_is_the_default_and_the_query_wins(client: FlaskClient) -> None:
    table = Table(client)
    url = table.url("bets")
    token = bearer(table.tokens[table.turn])
    plain = client.post(url, json={"bet": "hold"}, headers=token)
    asked = client.post(
        url, json={"bet": "hold"}, headers={**token, **EN}, query_string={"lang": "es"}
    )
    spain = client.post(url, json={"bet": "hold"}, headers={**token, **ES})
    assert plain.json["message"] == "nobody has bet: there is nothing to hold"
    assert (
        asked.json["message"]
        == spain.json["message"]
        == "nadie ha apostado: no hay nada que igualar"
    )
    assert asked.headers["Content-Language"] == "es"
