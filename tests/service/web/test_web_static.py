"""The web front end's files as the service serves them: the page at `/`, every module it
imports, nothing fetched from the internet, the headers that keep the page to its own
scripts and out of other sites' frames, and the page kept out of the OpenAPI document."""

from __future__ import annotations

import re
from collections.abc import Iterator
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
        "account.js", "focus.js", "storage.js", "thinking.js",
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


def _literals(source: str) -> Iterator[tuple[int, str]]:
    """The text of each string literal of a page module, and each text part of a template
    literal (outside its `${...}`), with the line it starts on; comments are skipped."""
    i, line, depth = 0, 1, 0
    # For each template whose `${...}` is open: the brace depth that `}` closes it at.
    templates: list[int] = []

    def template(i: int) -> tuple[int, str]:
        """The text of a template from `i` to its end or its next `${`, and where after."""
        text, n = [], len(source)
        while i < n and source[i] != "`":
            if source[i] == "\\":
                text.append(source[i + 1])
                i += 2
                continue
            if source.startswith("${", i):
                templates.append(depth)
                return i + 2, "".join(text)
            text.append(source[i])
            i += 1
        return i + 1, "".join(text)

    while i < len(source):
        c = source[i]
        if templates and c == "}" and depth == templates[-1]:
            templates.pop()
            start = line
            i, text = template(i + 1)
            line += text.count("\n")
            yield start, text
            continue
        if source.startswith("//", i):
            i = source.find("\n", i) if "\n" in source[i:] else len(source)
            continue
        if source.startswith("/*", i):
            end = source.index("*/", i) + 2
            line += source.count("\n", i, end)
            i = end
            continue
        if c == "/" and re.search(r"(?:[(,=:[!&|?{};]|\breturn)\s*$", source[max(0, i - 9) : i]):
            # A regular expression (`/[&<>"']/g`): its quotes are no string's.
            end, klass = i + 1, False
            while klass or source[end] != "/":
                klass = (klass or source[end] == "[") and source[end] != "]"
                end += 2 if source[end] == "\\" else 1
            i = end + 1
            continue
        if c in "\"'":
            end = i + 1
            while source[end] != c:
                end += 2 if source[end] == "\\" else 1
            yield line, source[i + 1 : end]
            i = end + 1
            continue
        if c == "`":
            start = line
            i, text = template(i + 1)
            line += text.count("\n")
            yield start, text
            continue
        depth += {"{": 1, "}": -1}.get(c, 0)
        line += c == "\n"
        i += 1


#: Three words or more of English prose, in a literal's text once its markup is taken out.
PROSE = re.compile(r"\b[A-Za-z][a-z']+(?: [a-z']+){2,}")
MARKUP = re.compile(r"""<[^>]*>|[\w-]+="[^"]*"?""")


def test_the_page_modules_say_no_sentence_of_their_own_outside_the_catalogue() -> None:
    # Every word the page shows a person comes from its catalogue (`t("key")`), in the
    # page's language: a sentence written in a module (a refusal made by the page itself,
    # "No answer in time.") would stay English on the Spanish page.
    found = [
        f"{path.name}:{line}: {text!r}"
        for path in sorted(STATIC.glob("*.js"))
        for line, text in _literals(path.read_text())
        if PROSE.search(MARKUP.sub(" ", text))
    ]
    assert found == [], found
    # The scan sees the literals: a module's own key names, and markup's words.
    app = [text for _line, text in _literals((STATIC / "app.js").read_text())]
    assert "error.create" in app and any("notice error" in text for text in app)


def test_each_document_arrives_in_the_visitors_language(redis_url: str) -> None:
    # The first paint, before any script: `lang`, the header's words, "Loading…" and what
    # <noscript> says, in the browser's language, or the one picked in the page (its cookie).
    client = create_app({"REDIS_URL": redis_url, "TESTING": True}).test_client()
    documents = ("/", "/t/ABCD-EFGH", "/play/g1", "/how-to-play/poch", "/ladder",
                 "/accounts/a1", "/replay/g1", "/replay")  # fmt: skip
    for path in documents:
        spanish = client.get(path, headers={"Accept-Language": "es-AR,es;q=0.9,en;q=0.5"})
        text = spanish.get_data(as_text=True)
        assert '<html lang="es">' in text and "Cargando…" in text, path
        assert "Esta página necesita JavaScript" in text and 'aria-label="Idioma"' in text, path
        assert "Loading" not in text and "needs JavaScript" not in text, path
        assert spanish.headers["Content-Language"] == "es", path
        assert {"Accept-Language", "Cookie"} <= set(spanish.vary), path
        english = client.get(path)
        assert '<html lang="en">' in english.get_data(as_text=True), path
        assert "Loading…" in english.get_data(as_text=True), path
    client.set_cookie("pocha_lang", "en")
    picked = client.get("/", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert '<html lang="en">' in picked and "Loading…" in picked
    # A cookie naming no language of the page's is the browser's language's.
    client.set_cookie("pocha_lang", "<x>")
    odd = client.get("/", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert '<html lang="es">' in odd


def test_each_documents_title_and_description_arrive_in_the_visitors_language(
    redis_url: str,
) -> None:
    # What a tab, a bookmark, a search engine and a shared link show, before any script:
    # the title (the rules' names their game) and the description, in the browser's language.
    client = create_app({"REDIS_URL": redis_url, "TESTING": True}).test_client()
    titles = {
        "/": ("Pocha: cartas contra bots o amigos", "Pocha: cards against bots or friends"),
        "/t/ABCD-EFGH": ("Pocha: cartas contra bots o amigos", "Pocha: cards against"),
        "/how-to-play/pocha": ("Cómo se juega a la Pocha", "How to play Pocha"),
        "/how-to-play/poch": ("Cómo se juega al Poch", "How to play Poch"),
        "/ladder/poch": ("Clasificación · Pocha", "Ladder · Pocha"),
        "/accounts/a1": ("Cuenta · Pocha", "Account · Pocha"),
        "/replay": ("Repetición · Pocha", "Replay · Pocha"),
    }
    for path, (spanish, english) in titles.items():
        es = client.get(path, headers={"Accept-Language": "es"}).get_data(as_text=True)
        head = es[: es.index("</head>")]
        assert re.search(rf'<title data-i18n="[\w.]+">{re.escape(spanish)}</title>', head), path
        description = re.search(r'<meta name="description" content="([^"]*)"', head)
        assert description is not None, path
        assert description[1] and not re.search(r"\b(the|and|play)\b", description[1]), path
        en = client.get(path, headers={"Accept-Language": "en"}).get_data(as_text=True)
        assert f">{english}" in en, path
