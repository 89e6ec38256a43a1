"""The API docs page (`/api/docs`, Swagger UI) works with no internet: Chromium loads it
with every request to another host refused, and the page still lists the API's operations.
It is framed by no other site (X-Frame-Options, the policy's frame-ancestors), and its
policy lets Swagger UI's own inline start run and nothing else break: its console shows no
error (a file that failed to load included).
"""

from __future__ import annotations

import http.client
import shutil
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.live import LiveService
from tests.waiting import LONG_MS, scaled

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip(
        "no chromium: install Debian's `chromium` package (scripts/test does, as root)",
        allow_module_level=True,
    )

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update"]  # fmt: skip


def test_the_api_docs_render_with_every_other_host_blocked(live_service: LiveService) -> None:
    own = urlsplit(live_service.url).netloc
    elsewhere: list[str] = []
    errors: list[str] = []
    refused: list[str] = []

    def route(route: Any) -> None:
        if urlsplit(route.request.url).netloc == own:
            route.continue_()
        else:
            elsewhere.append(route.request.url)
            route.abort()

    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            # What the page's policy blocks, Chromium says on the console; so it says a
            # file that failed to load.
            page.on("console", lambda m: refused.append(m.text) if m.type == "error"
                    else None)  # fmt: skip
            page.route("**/*", route)
            answer = page.goto(live_service.url + "/api/docs")
            assert answer is not None and answer.status == 200
            assert answer.headers["x-frame-options"] == "DENY"
            policy = answer.headers["content-security-policy"]
            assert (
                "frame-ancestors 'none'" in policy
                and "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]
            )
            page.wait_for_selector(".swagger-ui .info .title", timeout=LONG_MS)
            assert "Pocha" in page.inner_text(".swagger-ui .info .title")
            # The operations are listed, so the document itself loaded and was read.
            page.wait_for_selector(".opblock", timeout=LONG_MS)
            assert page.locator(".opblock").count() > 10
        finally:
            browser.close()
    assert elsewhere == []
    assert errors == []
    assert refused == []


def test_only_swagger_uis_own_files_are_served_from_its_folder(live_service: LiveService) -> None:
    netloc = urlsplit(live_service.url).netloc
    for name, status in [("swagger-ui-bundle.js", 200), ("swagger-ui.css", 200),
                         ("index.html", 404), ("..%2F__init__.py", 404)]:  # fmt: skip
        connection = http.client.HTTPConnection(netloc, timeout=scaled(60))
        try:
            connection.request("GET", f"/api/docs/assets/{name}")
            response = connection.getresponse()
            response.read()
            assert response.status == status, name
        finally:
            connection.close()
