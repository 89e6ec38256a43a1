"""The page's first words and its words on a failure, in the visitor's language, in real
headless Chromium (as test_web_tables.py) against the live service.

The document arrives in the browser's language (Accept-Language) before any script runs,
and in the one picked in the page once a person picks one (its cookie); without JavaScript
it says, in that language, what is needed, and no "Loading…" waits forever. A request that
gets no answer, and answers that carry no message of the API's (a proxy's page: a 502, a
429 with Retry-After), are told in the page's own sentences, never the browser's English
("Failed to fetch") nor a bare "HTTP 502". A button pressed twice sends one request.
"""

from __future__ import annotations

import contextlib
import http.client
import re
import threading
import urllib.parse
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

from tests.live import LiveService
from tests.service.web.test_web_browser import ARTIFACTS, sync_api
from tests.service.web.test_web_tables import Person
from tests.waiting import LONG_MS, scaled

expect = sync_api.expect

#: The phone the audit plays on: a small one.
SMALL_PHONE = {"width": 360, "height": 640}

SPANISH_NOSCRIPT = "Esta página necesita JavaScript"


def test_without_javascript_the_page_says_what_it_needs_in_the_browsers_language(
    browser: Any,
    live_service: LiveService,
) -> None:
    for locale, words, absent in (
        ("es-ES", SPANISH_NOSCRIPT, "Cargando"),
        ("en-GB", "This page needs JavaScript", "Loading"),
    ):
        context = browser.new_context(
            viewport=SMALL_PHONE, locale=locale, java_script_enabled=False
        )
        try:
            page = context.new_page()
            for path in ("/", "/how-to-play/pocha", "/ladder", "/replay"):
                page.goto(live_service.url + path)
                # (Playwright's text selectors do not look inside <noscript>.)
                said = page.locator("noscript p")
                expect(said).to_be_visible()
                expect(said).to_contain_text(words)
                expect(page.locator(".loading")).to_be_hidden()
                expect(page.locator("#lang")).to_be_hidden()
                assert absent not in page.inner_text("body"), path
                assert page.get_attribute("html", "lang") == locale[:2], path
            if locale == "es-ES":
                page.screenshot(path=str(ARTIFACTS / "web-noscript-es.png"), full_page=True)
        finally:
            context.close()


def test_the_language_picked_is_the_next_documents_before_its_scripts_run(
    browser: Any,
    live_service: LiveService,
) -> None:
    person = Person(browser, SMALL_PHONE, "ana", locale="es-ES")
    try:
        page = person.page
        first = page.goto(live_service.url)
        assert first is not None and '<html lang="es">' in first.text()
        expect(page.locator("#setup")).to_be_visible()
        assert page.get_attribute("html", "lang") == "es"
        # The menu reloads the page: its document drawn in English by the server. Waiting for
        # that reload itself, since a navigation of ours started before it ends is cut short.
        with page.expect_navigation() as reloaded:
            page.select_option("#lang", "en")
        again = reloaded.value
        assert again is not None
        assert '<html lang="en">' in again.text() and "Loading…" in again.text()
        expect(page.locator("#lang")).to_have_attribute("aria-label", "Language")
        assert person.errors == []
    finally:
        person.context.close()


def test_the_title_is_in_the_pages_language_and_follows_a_switch(
    browser: Any,
    live_service: LiveService,
) -> None:
    # A page that switches its language in place (the ladder, the rules) names itself in the
    # new one; the description goes with it; a page that reloads (the game's) arrives in it.
    person = Person(browser, SMALL_PHONE, "ana", locale="es-ES")
    try:
        page = person.page
        description = page.locator('meta[name="description"]')
        for path, spanish, english in (
            ("/ladder", "Clasificación · Pocha", "Ladder · Pocha"),
            ("/how-to-play/poch", "Cómo se juega al Poch", "How to play Poch"),
            ("/", "Pocha: cartas contra bots o amigos", "Pocha: cards against bots or friends"),
        ):
            page.goto(live_service.url + path)
            expect(page).to_have_title(spanish)
            expect(description).to_have_attribute("content", re.compile(r"\bjuega|\bjuego"))
            expect(page.locator("#lang option")).to_have_count(2)
            page.select_option("#lang", "en")
            expect(page).to_have_title(english)
            expect(description).to_have_attribute("content", re.compile(r"\bplay|\bgame"))
            page.select_option("#lang", "es")
            expect(page).to_have_title(spanish)
        assert person.errors == []
    finally:
        person.context.close()


def test_a_request_with_no_answer_is_told_in_the_pages_words(
    browser: Any,
    live_service: LiveService,
) -> None:
    person = Person(browser, SMALL_PHONE, "ana", locale="es-ES")
    try:
        page = person.page
        page.goto(live_service.url)
        expect(page.locator("#setup")).to_be_visible()
        person.context.set_offline(True)
        page.click("#deal")
        notice = page.locator("#notice.error")
        expect(notice).to_contain_text("El servicio no responde: comprueba tu conexión")
        text = notice.inner_text()
        assert "fetch" not in text.lower() and "TypeError" not in text, text
        # The button is back for another try once the connection is.
        expect(page.locator("#deal")).to_be_enabled()
        person.context.set_offline(False)
        page.click("#deal")
        expect(page.locator("#game")).to_be_visible(timeout=LONG_MS)
        person.screenshot("web-offline-then-dealt-es.png")
    finally:
        person.context.close()


class _Proxy(BaseHTTPRequestHandler):
    """Forwards to the live service, except what `answers` says to answer itself (method
    and path -> status, headers, an HTML body): a proxy's own refusals, with no message of
    the API's."""

    upstream: str = ""
    answers: ClassVar[dict[tuple[str, str], tuple[int, dict[str, str], bytes]]] = {}
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _handle(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        path = urllib.parse.urlsplit(self.path).path
        own = self.answers.get((self.command, path))
        if own is not None:
            status, headers, content = own
        else:
            upstream = urllib.parse.urlsplit(self.upstream)
            connection = http.client.HTTPConnection(
                upstream.hostname, upstream.port, timeout=scaled(60)
            )
            sent = {k: v for k, v in self.headers.items() if k.lower() != "host"}
            connection.request(self.command, self.path, body=body, headers=sent)
            answer = connection.getresponse()
            status, content = answer.status, answer.read()
            headers = {
                k: v
                for k, v in answer.getheaders()
                if k.lower() not in ("transfer-encoding", "connection", "content-length")
            }
            connection.close()
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(content)))
        self.end_headers()
        self.wfile.write(content)

    do_GET = do_POST = do_DELETE = _handle


@contextlib.contextmanager
def proxy(
    upstream: str, answers: dict[tuple[str, str], tuple[int, dict[str, str], bytes]]
) -> Iterator[str]:
    handler = type("Proxy", (_Proxy,), {"upstream": upstream, "answers": answers})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_a_proxys_refusals_are_told_in_the_pages_words(
    browser: Any,
    live_service: LiveService,
) -> None:
    html = {"Content-Type": "text/html"}
    answers = {
        ("GET", "/api/v1/tables"): (502, html, b"<html><body>502 Bad Gateway</body></html>"),
        ("POST", "/api/v1/games"): (
            429,
            {**html, "Retry-After": "7"},
            b"<html><body>429 Too Many Requests</body></html>",
        ),
    }
    with proxy(live_service.url, answers) as url:
        person = Person(browser, SMALL_PHONE, "ana", locale="es-ES")
        try:
            page = person.page
            page.goto(url)
            # The lobby's list, refused by the proxy.
            expect(page.locator("#lobby .notice.error")).to_have_text(
                "El servicio no está disponible ahora mismo: vuelve a intentarlo en un momento."
            )
            page.click("#deal")
            expect(page.locator("#notice.error")).to_have_text(
                "Demasiadas peticiones ahora mismo: vuelve a intentarlo dentro de 7 s."
            )
            assert "<html>" not in page.inner_text("body")
            person.screenshot("web-proxy-refusals-es.png")
        finally:
            person.context.close()
