"""The web front end: the page at `/` that plays Pocha in a browser, on the public API.
How it works: docs/internals.md, `service.web`.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import html
import re
from importlib.resources import files

from flask import Blueprint, Response, abort, jsonify, request, send_from_directory

from engine.registry import DEFAULT_GAME
from service.api.wire.games import FORMS
from service.context import current_request
from service.i18n import LANGUAGES, choose, page_strings

blp = Blueprint("web", __name__)

#: Where the API docs page (`/api/docs`, flask-smorest's Swagger UI page) loads Swagger
#: UI's script and stylesheet from: this server, out of the installed `flask-swagger-ui`
#: package, so the docs work on a machine without internet and no third party sees who
#: reads them.
SWAGGER_UI_URL = "/api/docs/assets/"
_SWAGGER_UI_DIST = str(files("flask_swagger_ui") / "dist")
_SWAGGER_UI_FILES = frozenset(
    ("swagger-ui.css", "swagger-ui-bundle.js", "swagger-ui-standalone-preset.js")
)


#: The cookie the page writes when a person picks its language (i18n.js, `setLanguage`), so
#: that the next document is drawn in it before any script runs; no secret, one of LANGUAGES.
LANG_COOKIE = "pocha_lang"
#: An element whose text is a key of the page's catalogue: `data-i18n="key" ...>text<`.
_MARKED = re.compile(r'(data-i18n="([\w.]+)"[^>]*>)([^<]*)(<)')
#: An element named for screen readers by a key's text:
#: `aria-label="..." data-i18n-label="key"`.
_LABELLED = re.compile(r'aria-label="[^"]*"( data-i18n-label="([\w.]+)")')
#: A `<meta>` whose content is a key's text: `content="..." data-i18n-content="key"`.
_CONTENTS = re.compile(r'content="([^"]*)"( data-i18n-content="([\w.]+)")')
_HTML_LANG = re.compile(r'<html lang="\w+">')
#: The document's title, marked with its key (`data-i18n`), as `document` may name another.
_TITLE_KEY = re.compile(r'<title data-i18n="[\w.]+">')


@functools.cache
def _drawn(name: str, lang: str, title: str | None) -> tuple[str, str]:
    """The document `name` drawn in `lang` (see `document`), and its ETag: the same until a
    new version of the service, and few (the documents, by two languages and the games'
    titles), so drawn once each."""
    # The document's marked words are no sentences about a count.
    strings = {key: text for key, text in page_strings(lang).items() if isinstance(text, str)}
    source = (files("service") / "static" / name).read_text(encoding="utf-8")
    text = _HTML_LANG.sub(f'<html lang="{lang}">', source, count=1)
    if title is not None:
        text = _TITLE_KEY.sub(f'<title data-i18n="{title}">', text, count=1)
    text = _MARKED.sub(
        lambda m: m[1] + html.escape(strings.get(m[2], m[3]), quote=False) + m[4], text
    )
    text = _LABELLED.sub(
        lambda m: f'aria-label="{html.escape(strings.get(m[2], m[2]))}"' + m[1], text
    )
    text = _CONTENTS.sub(
        lambda m: f'content="{html.escape(strings[m[3]]) if m[3] in strings else m[1]}"' + m[2],
        text,
    )
    return text, hashlib.sha1(text.encode()).hexdigest()


def document(name: str, title: str | None = None, status: int = 200) -> Response:
    """The page's document `name` (service/static) in the visitor's language, its first
    paint: `lang` set and each marked word (`data-i18n`: the title, the header's links,
    "Loading…", what `<noscript>` says; `data-i18n-label`: the language menu's name;
    `data-i18n-content`: the description a search engine or a shared link shows) in the
    language picked in the page (its cookie), else the browser's (Accept-Language); `title`,
    when given, the key of the title instead of the document's own (which stays marked on
    the element, so that the page's script keeps it on a switch of language). The page's
    scripts then go on in the language they choose: the same one, unless this browser's
    pick was made where no cookie is kept. A document answered with another `status` than
    200 (the page of an unknown address) carries no ETag: a 304 would stand for a 200."""
    request = current_request()
    lang = choose(request.cookies.get(LANG_COOKIE), request.headers.get("Accept-Language"))
    text, etag = _drawn(name, lang, title)
    response = Response(text, status=status, mimetype="text/html")
    response.headers["Content-Language"] = lang
    response.vary.update(("Accept-Language", "Cookie"))
    if status == 200:
        response.set_etag(etag)
        response.make_conditional(request)
    return response


@blp.get("/")
def index() -> Response:
    return document("index.html")


@blp.get("/i18n/<lang>.json")
def page_texts(lang: str) -> Response:
    """The page's own strings in `lang`, from the API's catalogues (context `page`):
    `{english: translation}`. The page asks for its language's file and falls back to the
    English key for anything missing."""
    if lang not in LANGUAGES:
        abort(404)
    response = jsonify(page_strings(lang))
    response.headers["Content-Language"] = lang
    # The catalogues change only with a new version of the service: revalidate, as the
    # page's files do (the ETag makes that cheap).
    response.headers["Cache-Control"] = "no-cache"
    response.add_etag()
    response.make_conditional(request)
    return response


@blp.get("/how-to-play")
@blp.get("/how-to-play/<game>")
def how_to_play(game: str = DEFAULT_GAME) -> Response:
    """The rules of a game for a player, in the page's language: one page (howto.js) that
    reads the game from its address. The games the page draws are those whose wire forms
    the service publishes (`service.api.wire`): a game registered from elsewhere has none."""
    if game not in FORMS:
        abort(404)
    # The rules of that game, named in the title from the first paint (howto.js' keys).
    return document("howto.html", title=f"howto.{game}.title")


@blp.get("/t/<code>")
def table_link(code: str) -> Response:
    # The page finds the table by the code in its own address (location.pathname).
    return document("index.html")


@blp.get("/play/<game_id>")
def game_link(game_id: str) -> Response:
    # The page opens the seat in that game: the one this browser holds, else the signed-in
    # account's (an account's games in play link here: GET /api/v1/accounts/{id}/games).
    return document("index.html")


@blp.get("/ladder")
@blp.get("/ladder/<game>")
def ladder_page(game: str = DEFAULT_GAME) -> Response:
    """The ladder of a game (ladder.html, ladderpage.js reads the game from its address)."""
    if game not in FORMS:
        abort(404)
    return document("ladder.html")


@blp.get("/accounts/<account_id>")
def account_page(account_id: str) -> Response:
    # The page reads the account from its own address; an unknown one it says so.
    return document("account.html")


@blp.get("/replay/<game_id>")
def replay_page(game_id: str) -> Response:
    # The page reads the game's record (GET /api/v1/games/{id}/record) by its address.
    return document("replay.html")


@blp.get("/replay")
def replay_a_file() -> Response:
    # The same page, with no game: it opens a record file the person picks.
    return document("replay.html")


@blp.get("/favicon.ico")
def favicon() -> Response:
    # Pocha has no icon (its pages name an empty one, `data:,`), but a browser asks for
    # this one on every page that names none: the API docs, a JSON answer opened in a tab.
    # Nothing, said plainly, rather than a 404 on the console every time.
    return Response(status=204, headers={"Cache-Control": "public, max-age=86400"})


@blp.get(SWAGGER_UI_URL + "<name>")
def swagger_ui_asset(name: str) -> Response:
    if name not in _SWAGGER_UI_FILES:
        abort(404)
    # The files change only with the installed package: a day's cache is safe.
    return send_from_directory(_SWAGGER_UI_DIST, name, max_age=24 * 3600)


#: The addresses of the API's operations (its document's paths: `/api/...`, `/healthz`,
#: `/readyz`; tests/service/web/test_web_not_found.py checks each is covered) and of the
#: metrics: machine addresses, where an unknown one is the JSON error whatever the client
#: accepts.
MACHINE_PATHS = ("/api/", "/healthz", "/readyz", "/metrics")


def for_people(path: str) -> bool:
    """Whether `path` is none of the machines' addresses (`MACHINE_PATHS`), so that an
    unknown one may be said to a person as a page (`wants_page`, `error_page`)."""
    return path != "/api" and not path.startswith(MACHINE_PATHS)


def wants_page() -> bool:
    """Whether the current request is a person's, in a browser, at an address of the page's
    side: its path is for people and its Accept header prefers HTML to JSON (a browser's
    `text/html,...,*/*;q=0.8`); a client that accepts both alike (`*/*`, or no header)
    gets the JSON error, the shape every machine client reads."""
    request = current_request()
    if not for_people(request.path):
        return False
    offered = ("application/json", "text/html")
    return request.accept_mimetypes.best_match(offered) == "text/html"


#: The page a person's browser is answered with, by error status, at an address of the
#: page's side (`wants_page`): an address that names no page (a link mistyped,
#: `/tabel/ABC`), and one that is a page to open, not to send anything to (a form posted to
#: `/ladder`).
ERROR_PAGES = {404: "notfound.html", 405: "notallowed.html"}


def error_page(status: int) -> Response:
    """The page of an error `status` of `ERROR_PAGES`, in the visitor's language, as the
    documents are drawn (`document`), with the page's look and a link home. Which of this
    and the JSON error a request gets depends on its Accept header too, hence
    `Vary: Accept`."""
    response = document(ERROR_PAGES[status], status=status)
    response.vary.add("Accept")
    # What the page's documents get at their own addresses (`guard_and_revalidate`):
    # this one is drawn at any address.
    response.headers["Cache-Control"] = "no-cache"
    response.headers.update(PAGE_HEADERS)
    return response


#: The addresses of the page's documents and files.
PAGE_PATHS = ("/static/", "/t/", "/play/", "/how-to-play", "/ladder", "/accounts/", "/replay")

#: What the page's documents may load and run: this origin's files only, no script written
#: into the markup (so a name that ever reached the markup unescaped, such as
#: `<img src=x onerror=...>`, runs nothing), no plugin, no `<base>` to move the page's
#: relative addresses, and no frame of another site around the page (clickjacking of its
#: buttons: a move, leaving a table, removing a seat). Styles may sit in `style` attributes:
#: the hand's fan sets a custom property on each card. Images: this origin's, and the
#: `data:` icon of the documents' heads.
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
PAGE_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    # For browsers that know no frame-ancestors.
    "X-Frame-Options": "DENY",
    # A table's link (/t/CODE) is its way in: its address goes to no other site.
    "Referrer-Policy": "same-origin",
}


#: The API docs page (flask-smorest's Swagger UI page, `OPENAPI_URL_PREFIX` and
#: `OPENAPI_SWAGGER_UI_PATH`) and its files.
DOCS_PATH = "/api/docs"
_INLINE_SCRIPT = re.compile(rb"<script>(.*?)</script>", re.DOTALL)


def docs_policy(page: bytes) -> str:
    """The docs page's policy: the page's, except that the one inline script of
    flask-smorest's template, which starts Swagger UI, runs too (allowed by its SHA-256, so
    no other inline script would), and Swagger UI's `data:` images and styles load."""
    hashes = " ".join(
        f"'sha256-{base64.b64encode(hashlib.sha256(script).digest()).decode()}'"
        for script in _INLINE_SCRIPT.findall(page)
    )
    return CONTENT_SECURITY_POLICY.replace(
        "script-src 'self'", f"script-src 'self' {hashes}".rstrip()
    )


@blp.after_app_request
def guard_and_revalidate(response: Response) -> Response:
    headers = response.headers
    # Every answer is read as the type it says, never sniffed into a page (an error's
    # message may echo what was sent). Added, not set: nothing else writes it, and every
    # move passes here.
    headers.add("X-Content-Type-Options", "nosniff")
    path = current_request().path
    if path == "/" or path.startswith(PAGE_PATHS):
        # The modules import each other by plain path: a browser must revalidate them
        # (cheap, with the ETag) so that a new version of the service never runs with
        # half-old files.
        headers["Cache-Control"] = "no-cache"
        headers.update(PAGE_HEADERS)
    elif path == DOCS_PATH and response.mimetype == "text/html":
        # No frame of another site around the docs either (their "Try it out" buttons
        # send requests); the page is a few hundred bytes, rendered from a template.
        headers.update(PAGE_HEADERS)
        headers["Content-Security-Policy"] = docs_policy(response.get_data())
    return response
