"""Requests a hostile client sends that the generated examples of the OpenAPI document do
not (tests/service/test_service_fuzz.py): each is refused with a 4xx, its machine code and
a sentence in the caller's language, and changes nothing.
"""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from service import create_app
from tests.service.helpers import ANA


@pytest.mark.parametrize(
    ("allow_private", "host"), [("on", "127.0.0.1"), ("off", "1.1.1.1")], ids=["private", "public"]
)
def test_a_webhook_on_port_0_is_refused(redis_url: str, allow_private: str, host: str) -> None:
    # Port 0 reaches nothing: registered, the calls would go to the scheme's own port, one
    # the bot's owner never gave.
    app = create_app({"REDIS_URL": redis_url, "TESTING": True, "BOT_ALLOW_PRIVATE": allow_private})
    client = app.test_client()
    bot = client.post(
        "/api/v1/accounts", json={"name": "Portless", "kind": "bot"}, environ_base=ANA
    ).json
    path, key = f"/api/v1/accounts/{bot['id']}/webhook", {"X-Pocha-Account": bot["key"]}
    for url in (f"http://{host}:0/move", f"https://{host}:00/move"):
        refused = client.put(path, json={"url": url}, headers={**key, "Accept-Language": "es"})
        assert (refused.status_code, refused.json["error"]) == (422, "webhook_refused"), url
        assert refused.json["message"].startswith("Esta no es una URL"), refused.json
        assert client.get(path, headers=key).json["error"] == "no_webhook"
    taken = client.put(path, json={"url": f"http://{host}:8080/move"}, headers=key)
    assert taken.status_code == 200, taken.json


@pytest.mark.parametrize("host", ["a b", "localhost:99999", "[::1", 'x"<y>', ""])
def test_a_table_link_never_leads_nowhere(client: FlaskClient, host: str) -> None:
    # A Host header that names no host is read as none: the link is made at the server's
    # own address, as for a request that sent none, never `http:///t/CODE`.
    players = [{"name": "Ana"}, {"open": True}, {"name": "Bea"}]
    made = client.post("/api/v1/games", json={"players": players}, headers={"Host": host})
    assert made.status_code == 201, made.json
    code = made.json["table_code"]
    assert made.json["table_link"] == f"http://localhost/t/{code}"
    token = made.json["seats"][0]["token"]
    seat = {"Host": host, "Authorization": f"Bearer {token}"}
    view = client.get(f"/api/v1/games/{made.json['id']}", headers=seat).json
    assert view["table"]["link"] == f"http://localhost/t/{code}"


def test_thousands_of_unknown_fields_are_refused_in_a_few_lines(client: FlaskClient) -> None:
    # Each field named in a refusal is translated, scrubbed and encoded while the process
    # answers nobody else: a body of thousands of them is named by its first 50 alone.
    body = {f"campo{i}": i for i in range(5000)}
    refused = client.post("/api/v1/analyses", json=body, headers={"Accept-Language": "es"})
    assert (refused.status_code, refused.json["error"]) == (422, "validation_error")
    assert refused.json["message"].startswith("La petición"), refused.json["message"]
    named = refused.json["errors"]["json"]
    assert len(named) == 50
    assert named["record"] == ["Falta este campo, que es obligatorio."]
    assert all(named[f] == ["Campo desconocido."] for f in named if f != "record"), named
    assert len(refused.data) < 5_000
