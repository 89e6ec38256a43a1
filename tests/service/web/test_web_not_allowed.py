"""A page's address sent something instead of opened (a form posted to `/ladder`, a DELETE
of `/t/CODE`), by a browser that prefers HTML, answers 405 with a small page in the
visitor's language that says so and links home, as an unknown address does (404); the
API's addresses, and any client that does not prefer HTML, still get the JSON error
`method_not_allowed` with its sentence. Both keep the `Allow` header. Checked on the app,
and in a real headless Chromium.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from service import create_app
from tests.live import LiveService
from tests.service.test_service_errors import assert_error
from tests.service.web.conftest import SIZES, Screen
from tests.service.web.test_web_not_found import BROWSER_ACCEPT, assert_error_page

WORDS = {
    "en": {"heading": "This page takes nothing sent to it", "home": "Go to the home page",
           "title": "Nothing to send here · Pocha"},
    "es": {"heading": "Esta página no admite que se le envíe nada",
           "home": "Ir a la página de inicio", "title": "Nada que enviar aquí · Pocha"},
}  # fmt: skip
#: Addresses of the page's side, each with a method none of them takes.
SENT_TO = [("POST", "/"), ("POST", "/ladder"), ("DELETE", "/t/ABCD-EFGH"),
           ("PUT", "/how-to-play/pocha"), ("POST", "/accounts/nobody")]  # fmt: skip


@pytest.fixture
def client(redis_url: str) -> FlaskClient:
    return create_app({"REDIS_URL": redis_url, "TESTING": True}).test_client()


@pytest.mark.parametrize(("method", "path"), SENT_TO)
@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_browser_sending_to_a_page_gets_a_page_in_its_language(
    client: FlaskClient, method: str, path: str, lang: str
) -> None:
    words = WORDS[lang]
    headers = {"Accept": BROWSER_ACCEPT, "Accept-Language": f"{lang},en;q=0.5"}
    page = client.open(path, method=method, headers=headers)
    assert page.status_code == 405 and page.mimetype == "text/html", page.status_code
    assert set(page.headers["Allow"].split(", ")) >= {"GET", "HEAD"}
    assert_error_page(page, lang, words)


@pytest.mark.parametrize("accept", [None, "*/*", "application/json", "text/plain"])
def test_a_client_that_does_not_prefer_html_gets_the_json_error(
    client: FlaskClient, accept: str | None
) -> None:
    headers = {} if accept is None else {"Accept": accept}
    for method, path in SENT_TO:
        answer = client.open(path, method=method, headers=headers)
        assert answer.mimetype == "application/json", (path, accept)
        assert_error(answer, 405, "method_not_allowed")
        assert "GET" in answer.headers["Allow"]
        # The same address answers a browser with a page: caches keep them apart.
        assert "Accept" in answer.vary, (path, answer.vary)
    spanish = client.post("/ladder", headers={**headers, "Accept-Language": "es"})
    assert assert_error(spanish, 405, "method_not_allowed")["message"] == (
        "Esta dirección no admite ese método."
    )


def test_the_apis_addresses_answer_json_even_to_a_browser(client: FlaskClient) -> None:
    for method, path in [("PUT", "/api/v1/rules"), ("POST", "/healthz"), ("DELETE", "/api/docs"),
                         ("POST", "/metrics"), ("PATCH", "/api/v1/games")]:  # fmt: skip
        answer = client.open(path, method=method, headers={"Accept": BROWSER_ACCEPT})
        assert answer.mimetype == "application/json", path
        body = assert_error(answer, 405, "method_not_allowed")
        assert body["message"] == "This address does not accept that method."
        assert answer.headers["Allow"], path
        assert "Accept" not in answer.vary, path


@pytest.mark.parametrize("lang", ["en", "es"])
def test_chromium_posting_to_a_page_shows_the_page_and_its_link_home(
    browser: Any, live_service: LiveService, screens: list[Screen], lang: str
) -> None:
    screen = Screen(browser, SIZES[0], lang)
    screens.append(screen)
    page = screen.page
    # The browser's own navigation, its own Accept header, sent as a form's POST would be.
    page.route(f"{live_service.url}/ladder", lambda route: route.continue_(method="POST"))
    response = page.goto(f"{live_service.url}/ladder")
    assert response is not None and response.status == 405
    assert "GET" in response.headers["allow"]
    assert page.title() == WORDS[lang]["title"]
    assert page.inner_text("#not-allowed h2") == WORDS[lang]["heading"]
    header = page.eval_on_selector("header.top", "e => getComputedStyle(e).backgroundColor")
    assert header not in ("rgba(0, 0, 0, 0)", "transparent"), header
    home = page.locator("#home")
    assert home.inner_text() == WORDS[lang]["home"]
    home.click()
    page.wait_for_url(f"{live_service.url}/")
    page.wait_for_selector("#setup")
    assert [e for e in screen.errors if "status of 405" not in e] == []
