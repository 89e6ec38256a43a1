"""An address that names no page, opened in a browser (a link mistyped: `/nope`,
`/tabel/ABC`), is a small page in the visitor's language that says so and links home, with
the page's look; the API's addresses, and any client that does not prefer HTML, still get
the JSON error with its machine code. Checked on the app, and in a real headless Chromium.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from service import create_app
from service.web import MACHINE_PATHS, for_people
from tests.live import LiveService
from tests.service.test_service_errors import assert_error
from tests.service.web.conftest import SIZES, Screen

#: What Chromium sends when it opens an address.
BROWSER_ACCEPT = (
    "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,"
    "image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7"
)
WORDS = {
    "en": {"heading": "This page does not exist", "home": "Go to the home page",
           "title": "Page not found · Pocha"},
    "es": {"heading": "Esta página no existe", "home": "Ir a la página de inicio",
           "title": "Página no encontrada · Pocha"},
}  # fmt: skip


@pytest.fixture
def client(redis_url: str) -> FlaskClient:
    return create_app({"REDIS_URL": redis_url, "TESTING": True}).test_client()


def browse(client: FlaskClient, path: str, **headers: str) -> Any:
    return client.get(path, headers={"Accept": BROWSER_ACCEPT, **headers})


def assert_error_page(page: Any, lang: str, words: dict[str, str]) -> None:
    """`page` is an error page (404 or 405) in `lang`, saying `words`: its title, heading
    and link home, the service's own stylesheet, no script, guarded as documents are."""
    text = page.get_data(as_text=True)
    assert f'<html lang="{lang}">' in text
    assert f">{words['title']}</title>" in text and f">{words['heading']}</h2>" in text
    assert f'<a id="home" href="/" data-i18n="notFound.home">{words["home"]}</a>' in text
    # The page's own stylesheet, from this service; no script, nothing from elsewhere.
    assert '<link rel="stylesheet" href="/static/style.css">' in text
    assert "<script" not in text and not re.search(r"https?://", text)
    assert page.headers["Content-Language"] == lang
    assert {"Accept", "Accept-Language", "Cookie"} <= set(page.vary)
    # Guarded as the page's documents are, and never a 304 standing for a 200.
    assert "frame-ancestors 'none'" in page.headers["Content-Security-Policy"]
    assert page.headers["Cache-Control"] == "no-cache" and "ETag" not in page.headers


@pytest.mark.parametrize("path", ["/nope", "/tabel/ABC", "/ladder/chess", "/how-to-play/x"])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_browser_at_an_unknown_address_gets_a_page_in_its_language(
    client: FlaskClient, path: str, lang: str
) -> None:
    words = WORDS[lang]
    page = browse(client, path, **{"Accept-Language": f"{lang},en;q=0.5"})
    assert page.status_code == 404 and page.mimetype == "text/html", page.status_code
    assert_error_page(page, lang, words)


def test_the_language_picked_in_the_page_wins(client: FlaskClient) -> None:
    client.set_cookie("pocha_lang", "es")
    text = browse(client, "/nope", **{"Accept-Language": "en"}).get_data(as_text=True)
    assert '<html lang="es">' in text and WORDS["es"]["heading"] in text


@pytest.mark.parametrize(
    "accept", [None, "*/*", "application/json", "text/html, application/json", "text/plain"]
)
def test_a_client_that_does_not_prefer_html_gets_the_json_error(
    client: FlaskClient, accept: str | None
) -> None:
    headers = {} if accept is None else {"Accept": accept}
    for path in ("/nope", "/tabel/ABC", "/ladder/chess"):
        answer = client.get(path, headers=headers)
        assert answer.mimetype == "application/json", (path, accept)
        assert_error(answer, 404, "not_found")
        # The same address answers a browser with a page: caches keep them apart.
        assert "Accept" in answer.vary, (path, answer.vary)
    spanish = client.get("/nope", headers={**headers, "Accept-Language": "es"})
    assert_error(spanish, 404, "not_found")
    assert spanish.headers["Content-Language"] == "es"


def test_the_apis_addresses_answer_json_even_to_a_browser(client: FlaskClient) -> None:
    document = client.get("/api/openapi.json").get_json()
    checked = 0
    # Every path of the document, and an unknown address under it.
    for path in document["paths"]:
        assert not for_people(path) and path.startswith(MACHINE_PATHS), path
        known = re.sub(r"\{[^}]+\}", "nope", path)
        for address in (known + "/nope", known + "nope"):
            answer = browse(client, address)
            if answer.status_code != 404:
                continue  # "/healthznope" aside, an address that exists after all
            assert answer.mimetype == "application/json", address
            # Nothing there (not_found), or no such game, account, ... (game_not_found).
            assert answer.json["error"].endswith("not_found"), (address, answer.json)
            assert answer.headers.get("Vary") == "Accept-Language", address
            checked += 1
    assert checked > len(document["paths"])
    for address in ("/api", "/api/", "/api/v2/games", "/api/docs/assets/index.html",
                    "/metrics/nope", "/api/v1/games/nope"):  # fmt: skip
        answer = browse(client, address)
        assert answer.status_code == 404 and answer.mimetype == "application/json", address
    assert_error(browse(client, "/api/v1/games/nope"), 404, "game_not_found")
    # And the page's addresses are still its documents.
    assert browse(client, "/t/ABCD-EFGH").status_code == 200


@pytest.mark.parametrize("lang", ["en", "es"])
def test_chromium_shows_the_page_and_its_link_home(
    browser: Any, live_service: LiveService, screens: list[Screen], lang: str
) -> None:
    screen = Screen(browser, SIZES[0], lang)
    screens.append(screen)
    page = screen.page
    elsewhere: list[str] = []
    page.on(
        "request",
        lambda r: elsewhere.append(r.url) if not r.url.startswith(live_service.url) else None,
    )
    response = page.goto(f"{live_service.url}/tabel/ABC")
    assert response is not None and response.status == 404
    assert page.title() == WORDS[lang]["title"]
    assert page.inner_text("#not-found h2") == WORDS[lang]["heading"]
    # The page's look: its stylesheet's header bar, not the browser's plain defaults.
    header = page.eval_on_selector("header.top", "e => getComputedStyle(e).backgroundColor")
    assert header not in ("rgba(0, 0, 0, 0)", "transparent"), header
    home = page.locator("#home")
    assert home.inner_text() == WORDS[lang]["home"]
    home.click()
    page.wait_for_url(f"{live_service.url}/")
    page.wait_for_selector("#setup")
    assert elsewhere == []
    # The browser's own line for the document's 404 is the only one on the console.
    assert [e for e in screen.errors if "status of 404" not in e] == []
