"""The page's protective headers at work in a real headless Chromium: a page of another site
that puts the game's page in a frame (to steer a person's clicks onto its move buttons under
a decoy) gets nothing shown in it; markup that reached the page unescaped, such as a
name `<img src=x onerror=...>`, runs no script; and names that are markup show as typed
wherever a table shows them (the lobby, a table's link, the waiting room, the game).
"""

from __future__ import annotations

import contextlib
import http.server
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from client.api import OPEN, PochaClient
from tests.live import LiveService
from tests.waiting import LONG_MS

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")


@contextlib.contextmanager
def another_site(html: str) -> Iterator[str]:
    """A site of another origin on this machine (its own port) whose page is `html`: its
    address, while the block runs."""
    body = html.encode()

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_another_sites_frame_shows_nothing_of_the_page(
    browser: Any,
    live_service: LiveService,
) -> None:
    frame_html = f'<iframe id="victim" src="{live_service.url}/" width="900" height="700"></iframe>'
    context = browser.new_context()
    try:
        with another_site(frame_html) as hostile:
            page = context.new_page()
            refused: list[str] = []
            page.on("requestfailed", lambda r: refused.append(f"{r.url} {r.failure}"))
            # The load of the other site's page waits for its frame's.
            page.goto(hostile, timeout=LONG_MS)
            frame = page.locator("#victim").element_handle().content_frame()
            assert frame is not None
            # The browser showed its own error page in the frame, not the game's page.
            assert not frame.url.startswith(live_service.url), (frame.url, refused)
            assert page.frame_locator("#victim").locator("#app").count() == 0
    finally:
        context.close()


def test_markup_that_slipped_in_unescaped_runs_no_script(
    browser: Any,
    live_service: LiveService,
) -> None:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(live_service.url + "/", timeout=LONG_MS)
        page.wait_for_selector("#setup", timeout=LONG_MS)
        # As a player's name put into the markup without escaping would: its image fails
        # to load, and its handler would run then. A listener of the test's own (not
        # markup, and added after the handler, so called after it) says what the handler
        # did once the error has been dispatched.
        ran = page.evaluate(
            """() => new Promise((resolve) => {
              document.getElementById("notice").innerHTML =
                '<img id="probe" src="/no-such-image" onerror="window.__pwned = 1">';
              document.getElementById("probe").addEventListener("error", () => {
                resolve(window.__pwned ?? null);
              });
            })"""
        )
        assert ran is None
    finally:
        context.close()


# Names that are markup: each would make an element of its id if put into the page as such.
HOST = '<i id="pwned-host">Ana</i>'
GUEST = '<img id="pwned-guest" src=x>Bea'
MADE = "#pwned-host, #pwned-guest"


def test_names_that_are_markup_show_as_typed_at_a_table(
    browser: Any,
    live_service: LiveService,
) -> None:
    api = PochaClient(live_service.url)
    # Two open seats: the table still waits once the guest has taken one.
    created = api.create_game([HOST, OPEN, OPEN], listed=True)
    code = created["table_code"]
    context = browser.new_context(reduced_motion="reduce")
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        # The lobby lists the table with its host's name.
        page.goto(live_service.url + "/", timeout=LONG_MS)
        listed = page.wait_for_selector(f'.lobby-table[data-code="{code}"]', timeout=LONG_MS)
        assert HOST in listed.inner_text() and page.locator(MADE).count() == 0
        # Its link: the seats, and a name typed to take the open one.
        page.goto(f"{live_service.url}/t/{code}", timeout=LONG_MS)
        page.wait_for_selector("#join input[name=name]", timeout=LONG_MS)
        assert HOST in page.inner_text(".waiting-seats") and page.locator(MADE).count() == 0
        page.fill("#join input[name=name]", GUEST)
        page.click("#take-seat")
        # The waiting room, with both names.
        page.wait_for_selector("#waiting", timeout=LONG_MS)
        seats = page.inner_text(".waiting-seats")
        assert HOST in seats and GUEST in seats and page.locator(MADE).count() == 0
        # The game, once the host starts it (a bot in the seat left open).
        api.with_token(created["host_token"]).start(created["id"], "random")
        page.wait_for_selector("#game .seat .name", timeout=LONG_MS)
        names = page.locator("#game .seat .name").all_inner_texts()
        assert HOST in names and "You" in names, names
        assert page.locator(MADE).count() == 0
        assert errors == []
    finally:
        context.close()
