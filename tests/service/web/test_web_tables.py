"""Tables of people through the web page, in real headless Chromium (as test_web_browser.py),
against the live service: gunicorn, Redis and a `pocha worker` whose watchdog runs the clocks.

Two people, each in a browser context of their own (their own localStorage, as two
browsers), and a bot: one opens a table with an open seat from the setup form, the other
sits down through the table's link, and they play to the end and on into the rematch. In
another game one person closes the tab: the clock (three seconds here) lets the stand-in
play, the other person's page shows the seat away, and the link takes the person back to
their seat (coming back is acting again) to play on. A code that opens no table is
answered under the box it was typed in; a seat whose own clock ran out is told the
stand-in played for "you".
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from client.api import ApiError, PochaClient
from core.network import network_address
from tests.live import LiveService
from tests.service.web.conftest import wait_until as page_wait_until
from tests.service.web.test_web_browser import (
    ARTIFACTS,
    DESKTOP,
    LAPTOP,
    MISFITS,
    PHONE,
    more_options,
    open_seat,
    sync_api,
)
from tests.waiting import LONG, LONG_MS, scaled, wait_until
from tools.embedded_redis import free_port
from tools.serve import gunicorn_command

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"]

# A move a person can make now on the page.
MOVE = "#game[data-my-turn=yes] .bid-btn.legal, #game[data-my-turn=yes] .card-btn.playable"


class Person:
    """One person's browser: a context (its own localStorage) and a tab in it, with the
    tab's console errors collected (any is a failure). Motion is reduced, so the page shows
    each move at once and a person can act well inside a short clock."""

    def __init__(
        self, browser: Any, viewport: dict[str, int], name: str, locale: str = "en-GB"
    ) -> None:
        self.name = name
        self.context = browser.new_context(
            viewport=viewport, reduced_motion="reduce", locale=locale
        )
        self.errors: list[str] = []
        self.moves = 0
        self.page = self.open_tab()

    def open_tab(self) -> Any:
        page = self.context.new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        # "Leave" asks for a confirmation: say yes.
        page.on("dialog", lambda dialog: dialog.accept())
        self.page = page
        return page

    def screenshot(self, name: str) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / name), full_page=True)

    def move(self) -> bool:
        """Make the first move the page offers, if it offers one now."""
        target = self.page.locator(MOVE).first
        if not target.count():
            return False
        try:
            target.click(timeout=2_000)
        except sync_api.Error:
            return False  # the page moved on under the click: look again
        self.moves += 1
        return True

    def finished(self) -> bool:
        return self.page.locator(".final").count() > 0


@pytest.fixture
def people(browser: Any) -> Iterator[tuple[Person, Person]]:
    ana = Person(browser, PHONE, "ana")
    bea = Person(browser, DESKTOP, "bea")
    yield ana, bea
    ana.context.close()
    bea.context.close()


def play(people: list[Person], until: Any, seconds: float = LONG) -> None:
    """Each person makes their moves as the page offers them, until `until()` holds."""

    def there() -> bool:
        if until():
            return True
        for person in people:
            if not person.finished():
                person.move()
        return False

    wait_until(there, seconds, "the game to get there")


def open_table(
    person: Person,
    url: str,
    schedule: str,
    turn_seconds: int | None = None,
    others: tuple[str, ...] = ("open", "random"),
    listed: bool = True,
) -> str:
    """From the setup form's "More options": Ana's seat, then `others` (a bot's level, or
    "open" for a person), the table `listed` in the lobby or not; the table's code."""
    page = person.page
    page.goto(url)
    page.wait_for_selector("#setup")
    page.fill("input[name=name]", "Ana")
    more_options(page)
    page.select_option("select[name=players]", str(1 + len(others)))
    page.select_option("select[name=schedule]", "custom")
    page.fill("input[name=schedule-custom]", schedule)
    assert page.locator("#table-options").is_hidden()
    for seat, choice in enumerate(others, start=2):
        page.select_option(f"select[name=seat-{seat}]", choice)
    # A seat for a person makes a table: a stand-in, and the API's clock proposed; the
    # table is private unless its host lists it.
    assert page.locator("#table-options").is_visible()
    assert page.input_value("input[name=turn_seconds]") == "60"
    assert not page.is_checked("input[name=listed]")
    page.set_checked("input[name=listed]", listed)
    if turn_seconds is not None:
        page.fill("input[name=turn_seconds]", str(turn_seconds))
    page.click("#deal")
    page.wait_for_selector("#waiting")
    code = page.get_attribute("#waiting", "data-code")
    assert code
    return code


def sit_down(person: Person, link: str, name: str) -> None:
    page = person.page
    page.goto(link)
    page.wait_for_selector("#join")
    page.fill("#join input[name=name]", name)
    page.click("#take-seat")


def lobby(url: str) -> list[dict[str, Any]]:
    with urllib.request.urlopen(f"{url}/api/v1/tables", timeout=scaled(60)) as answer:
        tables: list[dict[str, Any]] = json.load(answer)
    return tables


def test_two_people_and_a_bot_play_at_a_table_joined_by_its_link(
    people: tuple[Person, Person], live_service: LiveService
) -> None:
    ana, bea = people
    url = live_service.url
    code = open_table(ana, url, "1,2")
    # The waiting room: the link to share is the page's own address, the table is listed.
    link = ana.page.input_value("#table-link")
    assert link == f"{url}/t/{code}" and ana.page.url == link
    assert ana.page.get_attribute("#waiting", "data-open-seats") == "1"
    assert ana.page.locator("#start").is_visible()  # Ana is the host
    listed = next(t for t in lobby(url) if t["code"] == code)
    assert "token" not in json.dumps(listed)
    # Nothing in the waiting room too wide for a phone, or out of reach.
    assert ana.page.evaluate(MISFITS) == [], "waiting room"
    ana.screenshot("web-tables-waiting.png")

    sit_down(bea, link, "Bea")
    # The last open seat taken, the game starts on both pages.
    for person in people:
        person.page.wait_for_selector("#game", timeout=LONG_MS)
    assert "Bea" in ana.page.inner_text(".seat[data-seat='1'] .name")
    assert "Ana" in bea.page.inner_text(".seat[data-seat='0'] .name")
    assert ana.page.evaluate(MISFITS) == [], "a table of people on a phone"
    assert code not in [t["code"] for t in lobby(url)]
    bea.screenshot("web-tables-bea-playing.png")

    play([ana, bea], until=lambda: ana.finished() and bea.finished())
    assert ana.moves >= 5 and bea.moves >= 5  # two bids and three cards each, at least
    game_id = ana.page.inner_text(".game-id").removeprefix("Game ")
    assert bea.page.inner_text(".game-id") == f"Game {game_id}"
    assert PochaClient(url).history(game_id)["finished"]
    ana.screenshot("web-tables-final.png")

    # The rematch: Ana makes it and lands at its table; Bea's page offers her seat there.
    ana.page.click("#rematch")
    ana.page.wait_for_selector("#waiting")
    new_code = ana.page.get_attribute("#waiting", "data-code")
    assert new_code and new_code != code and ana.page.url == f"{url}/t/{new_code}"
    bea.page.wait_for_selector("#rematch:has-text('Take your seat')", timeout=LONG_MS)
    bea.page.click("#rematch")
    # Both at the new table, its game started (every person took their seat).
    for person in people:
        person.page.wait_for_url(f"{url}/t/{new_code}", timeout=LONG_MS)
        person.page.wait_for_selector("#game:not([data-phase=finished])", timeout=LONG_MS)
    assert ana.page.inner_text(".game-id") == bea.page.inner_text(".game-id") != f"Game {game_id}"
    assert ana.errors == [] and bea.errors == []


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=lambda s: f"{s['width']}x{s['height']}")
def test_a_table_made_on_the_page_is_private_unless_its_host_lists_it(
    browser: Any, live_service: LiveService, size: dict[str, int]
) -> None:
    # Two hosts (a browser goes back to the table it holds when the page is opened again).
    ana, eva = Person(browser, size, "ana"), Person(browser, size, "eva")
    try:
        private = open_table(ana, live_service.url, "1", listed=False)
        assert private not in [t["code"] for t in lobby(live_service.url)]
        listed = open_table(eva, live_service.url, "1", listed=True)
        assert listed in [t["code"] for t in lobby(live_service.url)]
        assert ana.errors == [] and eva.errors == []
    finally:
        ana.context.close()
        eva.context.close()


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=lambda s: f"{s['width']}x{s['height']}")
def test_a_guest_is_offered_the_rematch_by_the_event_stream(
    browser: Any, live_service: LiveService, size: dict[str, int]
) -> None:
    """Bea's page runs no timer at all (its setInterval does nothing): no poll can bring the
    rematch, so the offer it shows the moment Ana makes one came by the event stream."""
    url = live_service.url
    api = PochaClient(url)
    players = [{"name": "Ana"}, {"open": True}, {"name": "Bot", "bot": "random"}]
    created = api.create_game(players, rules={"schedule": [1]})
    game_id, ana = created["id"], api.seat(created, 0)
    bea = Person(browser, size, "bea")
    try:
        bea.context.add_init_script("window.setInterval = () => 0;")
        bea.open_tab()
        sit_down(bea, f"{url}/t/{created['table_code']}", "Bea")
        bea.page.wait_for_selector("#game", timeout=LONG_MS)

        def played_out() -> bool:
            view = ana.view(game_id)
            if view["turn"] == 0 and view["you"]["legal"]:
                with contextlib.suppress(ApiError):  # the game moved on meanwhile
                    ana.act(game_id, view["you"]["legal"][0], version=view["version"])
            bea.move()
            return bea.finished()

        wait_until(played_out, 120, "the end of the game on Bea's page")
        ana.rematch(game_id)
        bea.page.wait_for_selector("#rematch:has-text('Take your seat')", timeout=LONG_MS)
        bea.screenshot(f"web-tables-rematch-offer-{size['width']}.png")
        assert bea.errors == []
    finally:
        bea.context.close()


def test_a_person_who_closes_the_tab_is_played_for_then_comes_back_by_the_link(
    people: tuple[Person, Person], live_service: LiveService
) -> None:
    ana, bea = people
    url = live_service.url
    code = open_table(ana, url, "4,4", turn_seconds=3)
    link = f"{url}/t/{code}"
    sit_down(bea, link, "Bea")
    for person in people:
        person.page.wait_for_selector("#game", timeout=LONG_MS)
    game_id = ana.page.inner_text(".game-id").removeprefix("Game ")
    # The seat whose turn it is shows its clock.
    ana.page.wait_for_selector(".seat.turn .clock", timeout=LONG_MS)

    play([ana, bea], until=lambda: bea.moves >= 2)
    bea.page.close()  # Bea walks away
    moves_before = bea.moves

    # Ana plays on; Bea's clock runs out twice and her seat is away, played by the stand-in.
    away = ".seat[data-seat='1'] .badge.away"
    try:
        play([ana], until=lambda: ana.page.locator(away).count() > 0 or ana.finished(), seconds=60)
    except AssertionError:
        # What the server saw, for the record: did the clock run out?
        print(json.dumps(PochaClient(url).events(game_id))[-3000:])
        print(json.dumps(PochaClient(url).view(game_id))[:3000])
        raise
    assert not ana.finished(), "the game ended before Bea's seat was away"
    assert ana.page.locator(".seat[data-seat='1'] .badge.stand-in").count() == 1
    ana.screenshot("web-tables-away.png")
    played_for = [
        e for e in PochaClient(url).events(game_id) if e.get("by") == "stand_in" and e["seat"] == 1
    ]
    assert len(played_for) >= 2

    # Bea opens the link again: her browser holds her seat there, and she is back.
    bea.open_tab().goto(link)
    bea.page.wait_for_selector("#game", timeout=LONG_MS)
    assert bea.page.locator(".away-bar").count() == 0
    ana.page.wait_for_selector(away, state="detached", timeout=LONG_MS)
    assert PochaClient(url).view(game_id)["players"][1]["away"] is False

    play([ana, bea], until=lambda: ana.finished() and bea.finished())
    assert bea.moves > moves_before  # Bea played on herself
    bea.screenshot("web-tables-back-final.png")
    assert ana.errors == [] and bea.errors == []


def test_the_page_speaks_the_browsers_language_until_another_is_picked(
    browser: Any, live_service: LiveService
) -> None:
    context = browser.new_context(viewport=PHONE, locale="es-ES")
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        asked: list[str | None] = []
        page.on(
            "request",
            lambda r: (
                asked.append(r.headers.get("accept-language")) if "/api/v1/" in r.url else None
            ),
        )
        page.goto(live_service.url)
        page.wait_for_selector("#setup")
        # Spanish from the browser's languages, with the game's words; the API asked in it.
        assert page.inner_text("#deal") == "Jugar"
        assert page.input_value("#lang") == "es"
        assert page.evaluate("document.documentElement.lang") == "es"
        assert page.inner_text("#lobby h2") == "Mesas públicas"
        assert asked and set(asked) == {"es"}, asked
        # The Spanish words fit a phone as the English ones do.
        assert page.evaluate(MISFITS) == [], "the start page in Spanish"
        # A table's link in Spanish, on a phone: its seats and the name field fit.
        body = json.dumps(
            {"players": [{"name": "Ana"}, {"open": True}, {"name": "Bot", "bot": "random"}]}
        ).encode()
        request = urllib.request.Request(
            f"{live_service.url}/api/v1/games",
            data=body,
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=scaled(60)) as answer:
            code = json.load(answer)["table_code"]
        page.goto(f"{live_service.url}/t/{code}")
        page.wait_for_selector("#join")
        assert page.inner_text("#take-seat") == "Sentarme"
        assert page.inner_text("#join h2") == f"Mesa {code}"
        assert page.evaluate(MISFITS) == [], "a table's link in Spanish"
        page.goto(live_service.url)
        page.wait_for_selector("#setup")
        # Picked in the page: English from now on, remembered over a reload.
        page.select_option("#lang", "en")
        page.wait_for_selector("html[lang=en]", state="attached")
        page.wait_for_selector("#setup")
        assert page.inner_text("#deal") == "Play"
        page.reload()
        page.wait_for_selector("#setup")
        assert page.inner_text("#deal") == "Play" and page.input_value("#lang") == "en"
        assert errors == []
    finally:
        context.close()


def test_the_waiting_room_fills_and_empties_live_and_the_host_starts_with_bots(
    people: tuple[Person, Person], live_service: LiveService
) -> None:
    ana, bea = people
    url = live_service.url
    code = open_table(ana, url, "1", others=("open", "open", "random"))
    assert ana.page.get_attribute("#waiting", "data-open-seats") == "2"

    # Bea sees the table in the lobby's list, and joins by typing its code.
    page = bea.page
    page.goto(url)
    page.wait_for_selector(f".lobby-table[data-code='{code}'] a.sit", timeout=LONG_MS)
    page.fill("#join-code input[name=code]", code.lower().replace("-", " "))
    page.click("#join-code button[type=submit]")
    page.wait_for_selector("#join")
    page.fill("#join input[name=name]", "Bea")
    page.click("#take-seat")
    page.wait_for_selector("#waiting[data-open-seats='1']")
    assert page.url == f"{url}/t/{code}"
    assert page.locator("#start").count() == 0  # only the host starts
    # Ana's waiting room shows her at once, at the table.
    ana.page.wait_for_selector("#waiting li[data-seat='1']:has-text('Bea')", timeout=LONG_MS)
    ana.page.wait_for_selector("#waiting li[data-seat='1'] .dot.here", timeout=LONG_MS)

    # Bea leaves: her seat opens again on Ana's page, and she is back in the lobby.
    page.click("[data-action=leave]")
    page.wait_for_selector("#setup")
    ana.page.wait_for_selector("#waiting[data-open-seats='2']", timeout=LONG_MS)

    # Bea sits again by the link; the host removes her: her page says so and she is back
    # at the setup, and the seat is open on Ana's page.
    page.goto(f"{url}/t/{code}")
    page.wait_for_selector("#join")
    page.fill("#join input[name=name]", "Bea")
    page.click("#take-seat")
    page.wait_for_selector("#waiting[data-open-seats='1']", timeout=LONG_MS)
    ana.page.wait_for_selector("#waiting li[data-seat='1']:has-text('Bea')", timeout=LONG_MS)
    assert ana.page.locator("#waiting li[data-seat='0'] [data-action=seat-remove]").count() == 0
    ana.page.click("#waiting li[data-seat='1'] [data-action=seat-remove]")
    ana.page.wait_for_selector("#waiting[data-open-seats='2']", timeout=LONG_MS)
    page.wait_for_selector("#setup", timeout=LONG_MS)
    page.wait_for_selector("text=The host removed you from this table.", timeout=LONG_MS)

    # The host puts a bot in one open seat, then starts with bots of a chosen level.
    ana.page.select_option("#start-level", "random")
    ana.page.click("#waiting li[data-seat='1'] [data-action=seat-bot]")
    ana.page.wait_for_selector("#waiting[data-open-seats='1']", timeout=LONG_MS)
    ana.page.click("#start")
    ana.page.wait_for_selector("#game", timeout=LONG_MS)
    levels = [e.inner_text() for e in ana.page.query_selector_all(".seat .level")]
    assert levels == ["random"] * 3, levels
    assert code not in [t["code"] for t in lobby(url)]
    play([ana], until=ana.finished)
    assert ana.errors == [] and bea.errors == []


#: What the waiting room says under a link that opens only on the host's machine.
HERE_ONLY = {
    "en-GB": "This link opens only on this machine.",
    "es-ES": "Este enlace solo se abre en este equipo.",
}


def ready(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=scaled(10)) as up:
            return bool(up.status == 200)
    except OSError:
        return False


@pytest.fixture
def api_on_the_network(live_service: LiveService, tmp_path: Any) -> Iterator[int]:
    """Another API process on the live service's Redis (its worker plays the bots),
    listening on every interface as `bash scripts/serve` does; its port."""
    port = free_port()
    env = {**os.environ, "REDIS_URL": live_service.redis_url, "POCHA_BOT_RUNNER": "rq",
           "POCHA_RATE_LIMIT_TABLES": "600/minute"}  # fmt: skip
    with (tmp_path / "api.log").open("wb") as log:
        process = subprocess.Popen(
            gunicorn_command("0.0.0.0", port, processes=1), env=env, stdout=log,
            stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    try:
        wait_until(lambda: ready(port), LONG, "the API on every interface to start",
                   explain=lambda: (tmp_path / "api.log").read_text(errors="replace"))  # fmt: skip
        yield port
    finally:
        process.terminate()
        process.wait(timeout=scaled(LONG))


@pytest.mark.parametrize(
    ("size", "locale"), [(LAPTOP, "en-GB"), (PHONE, "es-ES")], ids=["1280x800", "390x844"]
)
def test_the_link_to_share_opens_from_another_machine_or_says_it_cannot(
    browser: Any,
    live_service: LiveService,
    api_on_the_network: int,
    size: dict[str, int],
    locale: str,
) -> None:
    network = network_address()
    if network is None:
        pytest.skip("this machine has no network address")
    ana = Person(browser, size, "ana", locale)
    bea = Person(browser, size, "bea", locale)
    try:
        # The live service listens on loopback only: Ana's link opens on her machine alone,
        # and the waiting room says so.
        code = open_table(ana, live_service.url, "1", listed=False)
        assert ana.page.input_value("#table-link") == f"{live_service.url}/t/{code}"
        assert HERE_ONLY[locale] in ana.page.inner_text("#link-here-only")
        assert ana.page.evaluate(MISFITS) == [], "the waiting room with its hint"
        ana.screenshot(f"web-tables-link-here-only-{size['width']}.png")

        # Served on every interface and opened on localhost, the link names this
        # machine's network address; a friend opens it there and sits down.
        here = f"http://localhost:{api_on_the_network}"
        code = open_table(ana, here, "1", listed=False)
        link = ana.page.input_value("#table-link")
        assert link == f"http://{network}:{api_on_the_network}/t/{code}"
        assert ana.page.locator("#link-here-only").count() == 0
        assert ana.page.evaluate(MISFITS) == [], "the waiting room with a network link"
        ana.screenshot(f"web-tables-link-network-{size['width']}.png")
        sit_down(bea, link, "Bea")
        for person in (ana, bea):
            person.page.wait_for_selector("#game", timeout=LONG_MS)
        assert "Bea" in ana.page.inner_text(".seat[data-seat='1'] .name")
        assert ana.errors == [] and bea.errors == [], ana.errors + bea.errors
    finally:
        ana.context.close()
        bea.context.close()


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=lambda s: f"{s['width']}x{s['height']}")
@pytest.mark.parametrize("locale", ["en-GB", "es-ES"])
def test_whoever_opens_a_seeded_tables_link_is_warned_before_and_after_sitting_down(
    browser: Any, live_service: LiveService, size: dict[str, int], locale: str
) -> None:
    api = PochaClient(live_service.url)
    players = [{"name": "Ana"}, {"open": True}, {"open": True}]
    seeded = api.create_game(players, {"schedule": [1]}, seed=7)["table_code"]
    plain = api.create_game(players, {"schedule": [1]})["table_code"]
    warning = "Quien creó esta mesa eligió la semilla" if locale == "es-ES" else "The host chose"
    bea = Person(browser, size, "bea", locale=locale)
    try:
        page = bea.page
        page.goto(f"{live_service.url}/t/{plain}")
        page.wait_for_selector("#take-seat")
        assert page.locator("#seeded-warning").count() == 0
        page.goto(f"{live_service.url}/t/{seeded}")
        page.wait_for_selector("#take-seat")
        assert warning in page.inner_text("#seeded-warning")
        box = page.locator("#seeded-warning").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size["width"]
        page.fill("#join input[name=name]", "Bea")
        page.click("#take-seat")
        page.wait_for_selector("#waiting")
        assert warning in page.inner_text("#seeded-warning")
        bea.screenshot(f"seeded-table-{size['width']}-{locale}.png")
        assert bea.errors == []
    finally:
        bea.context.close()


@pytest.mark.parametrize("locale", ["en-GB", "es-ES"])
def test_a_code_that_opens_no_table_is_said_under_the_box_it_was_typed_in(
    browser: Any, live_service: LiveService, locale: str
) -> None:
    """On a phone the setup form's own line is a screen above "Join a table": the answer
    to a code comes under the code, and the form's line stays the form's."""
    bea = Person(browser, PHONE, "bea", locale=locale)
    try:
        page = bea.page
        page.goto(live_service.url)
        page.wait_for_selector("#join-code")
        assert page.locator("#join-code-notice").is_hidden()  # nothing said, no room taken
        page.fill("#join-code input[name=code]", "hello")
        page.click("#join-code button[type=submit]")
        said = {"es-ES": "Ninguna mesa tiene el código HELLO"}.get(
            locale, "No table has the code HELLO"
        )
        page.wait_for_selector(f"#join-code-notice:has-text('{said}')", timeout=LONG_MS)
        assert page.inner_text("#setup #notice") == ""
        assert page.get_attribute("#join-code input[name=code]", "aria-invalid") == "true"
        box = page.locator("#join-code").bounding_box()
        notice = page.locator("#join-code-notice").bounding_box()
        assert box is not None and notice is not None
        bottom = notice["y"] + notice["height"]
        assert box["y"] <= notice["y"] and bottom <= box["y"] + box["height"]
        assert page.evaluate(MISFITS) == []
        bea.screenshot(f"join-code-unknown-{locale}.png")

        # A code that does open a table takes the person there.
        code = PochaClient(live_service.url).create_game(
            [{"name": "Ana"}, {"open": True}, {"open": True}], {"schedule": [1]}
        )["table_code"]
        page.fill("#join-code input[name=code]", code)
        page.click("#join-code button[type=submit]")
        page.wait_for_selector("#take-seat")
        # The only console error is the browser's own line for the answer 404.
        assert all("404" in error for error in bea.errors), bea.errors
    finally:
        bea.context.close()


def test_your_own_seat_played_by_the_stand_in_is_told_to_you(
    browser: Any, live_service: LiveService
) -> None:
    """Ana lets her three-second clock run out: her page says the stand-in played for
    "you", not for "You" (her seat's name on the page)."""
    api = PochaClient(live_service.url)
    created = api.create_game(
        ["Ana", {"open": True}, {"name": "Bot", "bot": "random"}],
        {"schedule": [3], "turn_seconds": 3},
    )
    api.join(created["table_code"], "Bea")  # the game starts; Bea never moves either
    ana = Person(browser, LAPTOP, "ana")
    try:
        saved = {"id": created["id"], "token": created["seats"][0]["token"],
                 "hostToken": created["host_token"], "seat": 0}  # fmt: skip
        open_seat(ana.page, live_service.url, saved)
        ana.page.wait_for_selector("#game")
        page_wait_until(
            ana.page,
            "() => document.querySelector('#notice')?.textContent"
            " === 'The stand-in played for you.'",
        )
        assert ana.errors == []
    finally:
        ana.context.close()
