"""The page's protective headers at work in a real headless Chromium: a page of another site
that puts the game's page in a frame (to steer a person's clicks onto its move buttons under
a decoy) gets nothing shown in it, and markup that reached the page unescaped, such as a
name `<img src=x onerror=...>`, runs no script.
"""

from __future__ import annotations

import contextlib
import http.server
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from tests.live import LiveService
from tests.service.web.test_web_browser import browser  # noqa: F401 (a fixture)
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
    browser: Any,  # noqa: F811
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
    browser: Any,  # noqa: F811
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
