"""The web front end's files as the service serves them: the page at `/`, every module it
imports, nothing fetched from the internet, the headers that keep the page to its own
scripts and out of other sites' frames, and the page kept out of the OpenAPI document."""

from __future__ import annotations

import re
from pathlib import Path

from service import create_app

STATIC = Path(__file__).resolve().parents[3] / "service" / "static"
# A module's static imports (`from "./x.js"`) and its imports on demand (`import("./x.js")`).
IMPORT = re.compile(r"""(?:from\s+|import\(\s*)["'](\./[\w.-]+)["']""")
# The one absolute URL allowed: the SVG namespace, which is a name, not a download.
#: The home pages vendored libraries name in their banners (service/static/vendor).
VENDOR_HOMES = {"https://github.com/leeoniya/uPlot"}
URL = re.compile(r"""https?://(?!www\.w3\.org/2000/svg)[^\s"'`)]+""")


def test_the_page_and_its_modules_are_served(redis_url: str) -> None:
    client = create_app({"REDIS_URL": redis_url, "TESTING": True}).test_client()
    page = client.get("/")
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert page.headers["Cache-Control"] == "no-cache"
    html = page.get_data(as_text=True)
    assert '<script type="module" src="/static/app.js">' in html
    assert 'name="viewport"' in html

    # Every module reachable from app.js, and the stylesheet, with usable types.
    pending, seen = ["app.js"], set()
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        response = client.get(f"/static/{name}")
        assert response.status_code == 200, name
        assert response.mimetype in ("text/javascript", "application/javascript"), name
        pending += [m.removeprefix("./") for m in IMPORT.findall(response.get_data(as_text=True))]
    assert seen == {
        "app.js", "api.js", "cards.js", "hand.js", "html.js", "i18n.js", "ruleform.js",
        "rules.js", "seats.js", "tables.js", "pace.js", "poch.js", "pochboard.js", "pochcards.js",
        "account.js", "focus.js", "storage.js",
    }  # fmt: skip
    # A table's link, and a game's, are the same page, which reads them from its address.
    for address in ("/t/ABCD-EFGH", "/play/q3ZkR8vX1mNc2pLw"):
        link = client.get(address)
        assert link.status_code == 200 and link.get_data(as_text=True) == html, address
        assert link.headers["Cache-Control"] == "no-cache", address
    css = client.get("/static/style.css")
    assert css.status_code == 200 and css.mimetype == "text/css"


def test_nothing_is_downloaded_from_the_internet() -> None:
    for path in STATIC.rglob("*"):
        if not path.is_file() or path.suffix == ".md":
            continue
        found = URL.findall(path.read_text())
        # A vendored library's banner names its home page: a comment, not a download.
        if path.parent.parent.name == "vendor":
            found = [url for url in found if url not in VENDOR_HOMES]
        assert not found, f"{path.name} names an outside URL: {found}"


def test_the_ladder_account_and_replay_pages_and_their_modules_are_served(
    redis_url: str,
) -> None:
    client = create_app({"REDIS_URL": redis_url, "TESTING": True}).test_client()
    for address, module in [
        ("/ladder", "ladderpage.js"), ("/ladder/poch", "ladderpage.js"),
        ("/accounts/q3ZkR8vX1mNc2pLw", "accountpage.js"),
        ("/replay/q3ZkR8vX1mNc2pLw", "replaypage.js"),
    ]:  # fmt: skip
        page = client.get(address)
        assert page.status_code == 200 and page.headers["Cache-Control"] == "no-cache", address
        assert f'src="/static/{module}"' in page.get_data(as_text=True)
    assert client.get("/ladder/chess").status_code == 404
    for name in ("uPlot.iife.min.js", "uPlot.min.css", "LICENSE"):
        assert client.get(f"/static/vendor/uplot/{name}").status_code == 200


def test_the_icon_a_browser_asks_for_by_itself_is_nothing_not_an_error(redis_url: str) -> None:
    # Chromium asks for /favicon.ico on a page that names no icon (the API docs): a 404
    # there is an error on every visitor's console.
    client = create_app({"REDIS_URL": redis_url, "TESTING": True}).test_client()
    icon = client.get("/favicon.ico")
    assert icon.status_code == 204 and icon.get_data() == b""
    assert "max-age" in icon.headers["Cache-Control"]


def test_the_page_is_not_part_of_the_api_document(redis_url: str) -> None:
    client = create_app({"REDIS_URL": redis_url, "TESTING": True}).test_client()
    paths = client.get("/api/openapi.json").get_json()["paths"]
    assert "/" not in paths and all(p.startswith("/api/") or p.endswith("z") for p in paths)


#: Every address the service answers with one of the page's documents.
PAGE_ADDRESSES = [
    "/", "/t/ABCD-EFGH", "/play/q3ZkR8vX1mNc2pLw", "/how-to-play", "/how-to-play/poch",
    "/ladder", "/ladder/poch",
    "/accounts/q3ZkR8vX1mNc2pLw", "/replay/q3ZkR8vX1mNc2pLw", "/replay",
]  # fmt: skip
# A script written into a document (`<script>` with no src), or a tag's event handler
# attribute (`<img onerror=...>`), in a document or in the markup a module builds.
INLINE_SCRIPT = re.compile(
    r"<script(?![^>]*\bsrc=)[^>]*>|<[a-z][^<>]*\son[a-z]+\s*=", re.IGNORECASE
)


def _policy(header: str) -> dict[str, list[str]]:
    return {d.split()[0]: d.split()[1:] for d in header.split(";") if d.strip()}


def test_no_other_site_may_show_the_page_in_a_frame(redis_url: str) -> None:
    # A site that framed the page could lay a decoy over it and steer a person's clicks
    # onto its buttons (a move, leaving the table, removing a seat): the page at `/` opens
    # the browser's current seat by itself. The CSP's word, and the older header.
    client = create_app({"REDIS_URL": redis_url, "TESTING": True}).test_client()
    for address in PAGE_ADDRESSES:
        page = client.get(address)
        assert page.status_code == 200, address
        policy = _policy(page.headers.get("Content-Security-Policy", ""))
        assert policy.get("frame-ancestors") == ["'none'"], (address, policy)
        assert page.headers.get("X-Frame-Options") == "DENY", address


def test_the_page_runs_only_its_own_scripts(redis_url: str) -> None:
    client = create_app({"REDIS_URL": redis_url, "TESTING": True}).test_client()
    for address in PAGE_ADDRESSES:
        page = client.get(address)
        assert page.status_code == 200, address
        policy = _policy(page.headers.get("Content-Security-Policy", ""))
        # Scripts of this origin only: markup that slipped into the page unescaped (a
        # name such as `<img src=x onerror=...>`) runs nothing, and nothing is loaded
        # from any other host.
        assert policy.get("script-src") == ["'self'"], (address, policy)
        assert policy.get("default-src") == ["'self'"], (address, policy)
        assert policy.get("connect-src") == ["'self'"], (address, policy)
        assert policy.get("object-src") == ["'none'"], (address, policy)
        assert policy.get("base-uri") == ["'none'"], (address, policy)
        assert policy.get("form-action") == ["'self'"], (address, policy)
        # The table's code in a link's address stays on this site.
        assert page.headers.get("Referrer-Policy") == "same-origin", address
        assert page.headers.get("X-Content-Type-Options") == "nosniff", address
    # The API's answers (an error's message may echo what was sent) and the page's files are
    # read only as the type they say, once.
    for response in (
        client.get("/api/v1/rules"),
        client.get("/api/v1/games/nosuchgame"),
        client.get("/api/v1/tables/%3Cb%3E"),
        client.get("/static/app.js"),
        client.get("/i18n/en.json"),
    ):
        assert response.headers.getlist("X-Content-Type-Options") == ["nosniff"], response


def test_the_pages_documents_hold_no_script_the_policy_would_refuse() -> None:
    # The policy above allows no script written into a document: the page keeps its
    # scripts in files, and builds no event handler attributes into its markup.
    for path in sorted(STATIC.glob("*.html")) + sorted(STATIC.glob("*.js")):
        found = INLINE_SCRIPT.findall(path.read_text())
        assert not found, f"{path.name}: {found}"
