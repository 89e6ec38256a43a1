"""One person with the page open in several tabs of one browser (one context: one
localStorage), in real headless Chromium (as test_web_tables.py), against a live service of
its own (so that sign-ups are not limited to five an hour).

What one tab changes in the browser's storage the others follow (the `storage` event): a
key replaced on the account's page is the one the lobby in another tab sends and the one
another account's page replaces next; signing up in one tab signs in the others; a
language picked in one tab is the others' too, a game in play there drawn again in it with
the keyboard's focus where it was; a game left in one tab is left in the others, and one
another tab only forgot is kept again, and one whose person the host removed is left in
every tab saying so; a seat left in one tab is left quietly in another that hears of it
first from the server (never "the host removed you"), and a tab that cannot follow the
stream learns a removal from the game's events. One game open in two tabs is played from
either: each tab shows the moves made in the other. The name given to a game in one tab is
the one the others' forms offer; a replay is drawn again in the language picked, a record
opened from a file kept, the keyboard's focus on the control that had it.
"""

from __future__ import annotations

import contextlib
import json
import secrets
from collections.abc import Iterator
from typing import Any

import pytest

from client.api import OPEN, PochaClient
from tests.live import LiveService
from tests.service.web.conftest import accounts_service
from tests.service.web.conftest import wait_until as wait_in
from tests.service.web.test_web_browser import LAPTOP, more_options
from tests.service.web.test_web_ladder import finished_record
from tests.service.web.test_web_tables import MOVE, Person, open_table
from tests.waiting import LONG, LONG_MS, wait_until
from tools.embedded_redis import RedisServer

#: This module's own logical DB on the session's Redis.
TABS_DB = 14


@pytest.fixture(scope="module")
def tabs_service(
    redis_server: RedisServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveService]:
    with accounts_service(redis_server, tmp_path_factory, TABS_DB, "tabs") as service:
        yield service


@pytest.fixture
def one(browser: Any) -> Iterator[Person]:
    """One person's browser, English; its tabs are opened with `tab`."""
    person = Person(browser, LAPTOP, "ana")
    person.context.add_init_script(
        "if (!localStorage.getItem('pocha.lang')) localStorage.setItem('pocha.lang', 'en')"
    )
    yield person
    person.context.close()


def tab(person: Person, url: str, ready: str) -> Any:
    """Another tab of `person`'s browser at `url`, once `ready` shows in it."""
    page = person.open_tab()
    page.goto(url)
    page.wait_for_selector(ready, timeout=LONG_MS)
    return page


def headers_sent(page: Any, header: str) -> list[str | None]:
    """The value of `header` on each API request `page` makes from now on."""
    sent: list[str | None] = []
    page.on(
        "request", lambda r: sent.append(r.headers.get(header)) if "/api/v1/" in r.url else None
    )
    return sent


def sign_up(page: Any, name: str) -> dict[str, str]:
    """Sign up from the lobby's panel in `page`; the account as the page keeps it."""
    page.fill("#signup input[name=name]", name)
    page.click("#signup-go")
    page.wait_for_selector("#key-kept")
    page.click("#key-kept")
    page.wait_for_selector("#account-link")
    return page.evaluate("JSON.parse(localStorage.getItem('pocha.account'))")  # type: ignore[no-any-return]


def new_key(page: Any) -> str:
    """Replace the account's key on its own page, shown in `page`; the new key."""
    page.click("#new-key")  # the confirmation is accepted (Person)
    page.wait_for_selector("#account-key, #new-key-error")
    assert page.locator("#new-key-error").count() == 0, page.inner_text("#new-key-error")
    key: str = page.inner_text("#account-key")
    page.click("#key-kept")
    page.wait_for_selector("#key-replaced")
    return key


def deal_against_bots(page: Any, schedule: str = "3") -> None:
    """From the setup form in `page`: three players, two random bots, `schedule`."""
    more_options(page)
    page.select_option("select[name=players]", "3")
    page.select_option("select[name=schedule]", "custom")
    page.fill("input[name=schedule-custom]", schedule)
    page.select_option("select[name=seat-2]", "random")
    page.select_option("select[name=seat-3]", "random")
    page.click("#deal")
    page.wait_for_selector("#game, #notice.error", timeout=LONG_MS)
    assert page.locator("#notice.error").count() == 0, page.inner_text("#notice")


#: The control with the keyboard's focus: its tag, and the card or bid it stands for.
FOCUSED = (
    "[document.activeElement.tagName, document.activeElement.dataset.card ?? null,"
    " document.activeElement.dataset.bid ?? null]"
)


def stored(page: Any, key: str) -> Any:
    return page.evaluate(f"JSON.parse(localStorage.getItem('{key}'))")


def test_a_key_replaced_in_one_tab_is_the_one_the_other_tabs_use(
    one: Person, tabs_service: LiveService
) -> None:
    """Ana has the lobby open in one tab and her account's page in two more. A new key made
    in one account tab is the key the other replaces next, and the key the lobby's tab sends
    when it deals a game: no tab goes on with the key before."""
    url = tabs_service.url
    lobby = one.page
    lobby.goto(url)
    lobby.wait_for_selector("#signup")
    kept = sign_up(lobby, f"Ana{secrets.token_hex(3)}")
    page = f"{url}/accounts/{kept['id']}"
    first = tab(one, page, "#new-key")
    second = tab(one, page, "#new-key")

    key = new_key(first)
    assert key != kept["key"]
    newer = new_key(second)
    assert newer not in (key, kept["key"])
    assert stored(lobby, "pocha.account")["key"] == newer

    sent = headers_sent(lobby, "x-pocha-account")
    lobby.bring_to_front()
    deal_against_bots(lobby)
    assert newer in sent and key not in sent and kept["key"] not in sent
    # The game is the account's: its page lists it among its games in play.
    first.reload()
    first.wait_for_selector(f"#in-play-list li[data-game='{stored(lobby, 'pocha.game')['id']}']")
    assert one.errors == []


def test_signing_up_in_one_tab_signs_in_the_others(one: Person, tabs_service: LiveService) -> None:
    """Two tabs show the lobby, nobody signed up. Ana signs up in one: the other names her
    account at once (no second sign-up offered), offers a rated game, and sends her key."""
    url = tabs_service.url
    other = one.page
    other.goto(url)
    other.wait_for_selector("#signup")
    other.fill("input[name=name]", "Ana at the table")
    here = tab(one, url, "#signup")
    kept = sign_up(here, f"Ana{secrets.token_hex(3)}")

    other.wait_for_selector("#account-link", timeout=LONG_MS)
    assert other.inner_text("#account-link") == kept["name"]
    assert other.locator("#signup").count() == 0
    assert other.locator("#rated").is_visible()
    # What was typed in the setup form stays.
    assert other.input_value("input[name=name]") == "Ana at the table"
    sent = headers_sent(other, "x-pocha-account")
    other.bring_to_front()
    deal_against_bots(other)
    assert kept["key"] in sent
    assert one.errors == []


def test_the_language_picked_in_one_tab_is_the_others(
    one: Person, tabs_service: LiveService
) -> None:
    """Ana plays in one tab and has the rules' page in another, where she picks Spanish: the
    game's tab speaks Spanish at once, the card or bid she was on still focused, and asks the
    API in Spanish; the game goes on. Tabs at the lobby, the ladder and the other game's rules
    are in Spanish too."""
    url = tabs_service.url
    game = one.page
    game.goto(url)
    game.wait_for_selector("#setup")
    deal_against_bots(game, "2,2")
    game.wait_for_selector(MOVE, timeout=LONG_MS)
    game.focus(MOVE)
    focused = game.evaluate(FOCUSED)
    assert focused[1] or focused[2], focused
    # The page at / opens the current game: a table's link that names no table shows the
    # lobby instead. The language is picked on the rules' page.
    idle = tab(one, f"{url}/t/NOPE-NOPE", "#setup")
    ladder = tab(one, f"{url}/ladder", "h2:has-text('Ladder')")
    poch = tab(one, f"{url}/how-to-play/poch", "#play-link:has-text('Play')")
    rules = tab(one, f"{url}/how-to-play/pocha", "#lang")
    rules.select_option("#lang", "es")
    rules.wait_for_selector("html[lang=es]", state="attached")

    wait_in(game, "() => document.documentElement.lang === 'es'")
    # Each request from here on: before the switch reached the tab, one may have gone in
    # English (its presence's, its stream's), which says nothing.
    asked = headers_sent(game, "accept-language")
    game.wait_for_selector("#howto-link:has-text('Cómo se juega')", state="attached")
    game.wait_for_selector("#turn-line:has-text('Te toca')")
    assert game.input_value("#lang") == "es"
    assert game.evaluate(FOCUSED) == focused
    idle.wait_for_selector("#deal:has-text('Jugar')", timeout=LONG_MS)
    ladder.wait_for_selector("h2:has-text('Clasificación')", timeout=LONG_MS)
    poch.wait_for_selector("#play-link:has-text('Jugar')", timeout=LONG_MS)

    game.bring_to_front()
    game.click(MOVE)
    wait_until(lambda: "es" in asked, LONG, "a request in Spanish")
    assert set(asked) == {"es"}, asked
    # The one refusal the browser logs itself is the table that is not there.
    assert [e for e in one.errors if "status of 404" not in e] == []


def moves_sent(page: Any) -> list[str]:
    """The moves (bids and cards) `page` sends from now on: a click on a busy machine can
    land and still time out waiting after it, so what a tab played is what it sent."""
    sent: list[str] = []
    page.on(
        "request",
        lambda r: (
            sent.append(r.url)
            if r.method == "POST" and r.url.endswith(("/bids", "/plays"))
            else None
        ),
    )
    return sent


def move_in(page: Any) -> None:
    """Make the first move `page` offers, if it offers one now (a tab on its way with a
    move offers none)."""
    target = page.locator(MOVE).first
    if target.count():
        with contextlib.suppress(Exception):  # the page moved on under the click: look again
            target.click(timeout=2_000)


def version(page: Any) -> str | None:
    return page.get_attribute("#game", "data-version") if page.locator("#game").count() else None


def test_one_game_in_two_tabs_is_played_from_either(one: Person, tabs_service: LiveService) -> None:
    """Ana's game is open in two tabs (a reload of / opens it in the second): she plays
    from each in turn, and each move shows in the other tab; both see the game end."""
    url = tabs_service.url
    first = one.page
    first.goto(url)
    first.wait_for_selector("#setup")
    deal_against_bots(first, "2,2")
    second = tab(one, url, "#game")
    pages = [first, second]
    sent = [moves_sent(page) for page in pages]

    def step() -> bool:
        if all(p.locator(".final").count() for p in pages):
            return True
        # The next move from the tab whose turn it is, once both show the same position.
        turn = (len(sent[0]) + len(sent[1])) % 2
        shown = version(first)
        if shown is not None and shown == version(second):
            move_in(pages[turn])
        return False

    wait_until(step, LONG * 2, "the game played out from both tabs")
    assert len(sent[0]) >= 3 and len(sent[1]) >= 3, sent
    assert version(first) == version(second)
    assert first.inner_text(".game-id") == second.inner_text(".game-id")
    assert all(p.locator("#notice.error").count() == 0 for p in pages)
    assert one.errors == []


@pytest.mark.parametrize("table", [False, True], ids=["against-bots", "at-a-table"])
def test_a_game_left_in_one_tab_is_left_in_the_others(
    one: Person, tabs_service: LiveService, table: bool
) -> None:
    """Ana's game is open in two tabs, her turn. She leaves it in one: the other stops
    showing it and goes back to the lobby (against bots the game is deleted; at a table the
    seat goes to the stand-in), with no error, and a reload there opens no game."""
    url = tabs_service.url
    first = one.page
    first.goto(url)
    first.wait_for_selector("#setup")
    if table:
        more_options(first)
        first.select_option("select[name=players]", "3")
        first.select_option("select[name=schedule]", "custom")
        first.fill("input[name=schedule-custom]", "3")
        first.select_option("select[name=seat-2]", "open")
        first.select_option("select[name=seat-3]", "random")
        first.click("#deal")
        first.wait_for_selector("#start")
        first.click("#start")
        first.wait_for_selector("#game", timeout=LONG_MS)
    else:
        deal_against_bots(first)
    game = stored(first, "pocha.game")
    second = tab(one, url, "#game")
    second.wait_for_selector(MOVE, timeout=LONG_MS)

    first.bring_to_front()
    first.click("[data-action=leave]")  # the confirmation is accepted (Person)
    first.wait_for_selector("#setup")
    assert stored(first, "pocha.seats").get(game["id"]) is None

    second.wait_for_selector("#setup", timeout=LONG_MS)
    assert second.locator("#notice.error").count() == 0
    second.reload()
    second.wait_for_selector("#setup")
    # What the browser logs itself: the game gone (404) or the seat's token refused (401).
    assert [e for e in one.errors if "status of 404" not in e and "status of 401" not in e] == []


def test_a_seat_another_tab_only_forgot_stays_in_play(
    one: Person, tabs_service: LiveService
) -> None:
    """Another tab also forgets seats that were not left (one it failed to open, the oldest
    of too many): the tab playing the game asks the server, plays on, and keeps its seat
    again."""
    url = tabs_service.url
    first = one.page
    first.goto(url)
    first.wait_for_selector("#setup")
    deal_against_bots(first)
    game = stored(first, "pocha.game")
    first.wait_for_selector(MOVE, timeout=LONG_MS)
    second = tab(one, f"{url}/ladder", "h2:has-text('Ladder')")

    second.evaluate("localStorage.removeItem('pocha.seats')")
    wait_until(
        lambda: (stored(first, "pocha.seats") or {}).get(game["id"], {}).get("token")
        == game["token"],
        LONG, "the seat kept again",
    )  # fmt: skip
    assert first.locator("#game").count() == 1
    before = PochaClient(url).view(game["id"])["version"]
    first.bring_to_front()
    first.click(MOVE)
    wait_until(lambda: PochaClient(url).view(game["id"])["version"] > before, LONG, "her move")
    assert first.locator("#game").count() == 1 and first.locator("#notice.error").count() == 0
    assert one.errors == []


def name_field(page: Any, form: str) -> str:
    return page.input_value(f"#{form} input[name=name]")  # type: ignore[no-any-return]


def test_the_name_given_in_one_tab_is_the_one_the_others_offer_and_send(
    one: Person, tabs_service: LiveService
) -> None:
    """Ana deals a game as "Bea" in one tab: the setup form of another tab's lobby and the
    join form of a table's link in a third offer "Bea" at once, and that is the name each
    sends next; a name typed in a fourth tab, not yet sent, stays as typed."""
    url = tabs_service.url
    code = PochaClient(url).create_game(["Host", OPEN, {"name": "Bot", "bot": "random"}])[
        "table_code"
    ]
    lobby = one.page
    lobby.goto(url)
    lobby.wait_for_selector("#setup")
    assert name_field(lobby, "setup") == "You"
    join = tab(one, f"{url}/t/{code}", "#join")
    assert name_field(join, "join") == ""
    typed = tab(one, url, "#setup")
    typed.fill("#setup input[name=name]", "Cris")
    here = tab(one, url, "#setup")
    here.fill("#setup input[name=name]", "Bea")
    deal_against_bots(here)

    wait_in(lobby, "() => document.querySelector('#setup input[name=name]').value === 'Bea'")
    wait_in(join, "() => document.querySelector('#join input[name=name]').value === 'Bea'")
    wait_in(typed, "() => localStorage.getItem('pocha.name') === 'Bea'")
    assert name_field(typed, "setup") == "Cris"

    first_game = stored(here, "pocha.game")["id"]
    lobby.bring_to_front()
    deal_against_bots(lobby)
    dealt = stored(lobby, "pocha.game")["id"]
    assert dealt != first_game
    assert PochaClient(url).view(dealt)["players"][0]["name"] == "Bea"
    join.bring_to_front()
    join.click("#take-seat")
    # The last open seat taken, the game starts.
    join.wait_for_selector("#game", timeout=LONG_MS)
    seated = PochaClient(url).view(stored(join, "pocha.game")["id"])["players"]
    assert [p["name"] for p in seated][:2] == ["Host", "Bea"]
    assert one.errors == []


#: What the page says to a person the host removed from a table.
REMOVED = "The host removed you from this table."


def test_a_person_the_host_removed_is_told_so_in_every_tab(
    browser: Any,
    one: Person,
    tabs_service: LiveService,
) -> None:
    """Eva sits at a table that waits for one more person, in two tabs; the second hears
    nothing of the game's events (its stream cannot be had) and its reads of the view are
    held back, so it learns of her removal from the first. Both go back to the lobby saying
    that the host removed her."""
    url = tabs_service.url
    host = Person(browser, LAPTOP, "host")
    try:
        code = open_table(host, url, "1", others=("open", "open", "random"), listed=False)
        first = sit_eva(one, url, code)
        second = one.open_tab()
        second.route(lambda address: "/events" in address, lambda route: route.abort())
        second.goto(f"{url}/t/{code}")
        second.wait_for_selector("#waiting", timeout=LONG_MS)
        # A read of the view (every 15 s) refused between the removal and the first tab's
        # word of it would find no events to say why: held until both tabs have told.
        game_id = stored(first, "pocha.game")["id"]
        views: list[Any] = []
        second.route(f"**/api/v1/games/{game_id}", lambda route: views.append(route))
        read_view_now(second)
        wait_until(lambda: second.evaluate("true") and bool(views), LONG, "a read held back")

        remove = "#waiting li:has-text('Eva') [data-action=seat-remove]"
        host.page.wait_for_selector(remove, timeout=LONG_MS)
        host.page.click(remove)
        for which, page in (("first", first), ("second", second)):
            page.wait_for_selector("#setup", timeout=LONG_MS)
            assert page.inner_text("#notice") == REMOVED, which
        assert stored(first, "pocha.game") is None
        second.unroute(f"**/api/v1/games/{game_id}")
        for view in views:
            view.continue_()
        # The table's link no longer opens a seat there.
        second.goto(f"{url}/t/{code}")
        second.wait_for_selector("#join, #setup", timeout=LONG_MS)
        assert second.locator("#waiting").count() == 0
        assert host.errors == []
    finally:
        host.context.close()


def without_stream(page: Any) -> None:
    """`page` gets no event stream (each is answered as one over for good, 204, which ends
    an EventSource): it reads the events by polling, with the seat's token."""

    def answer(route: Any) -> None:
        if "text/event-stream" in route.request.headers.get("accept", ""):
            route.fulfill(status=204)
        else:
            route.continue_()

    page.route(lambda address: "/events" in address, answer)


def read_view_now(page: Any) -> None:
    """`page` reads its view now, as when its tab comes back to the front (a tab in the
    background would read it at its next presence, 15 s later)."""
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")


def sit_eva(person: Person, url: str, code: str) -> Any:
    """Eva takes a seat at table `code` in `person`'s tab; the tab, at the waiting room."""
    page = person.page
    page.goto(f"{url}/t/{code}")
    page.wait_for_selector("#join")
    page.fill("#join input[name=name]", "Eva")
    page.click("#take-seat")
    page.wait_for_selector("#waiting", timeout=LONG_MS)
    return page


@pytest.mark.parametrize("follows", ["stream", "polling"])
def test_a_person_who_left_in_another_tab_is_not_told_the_host_removed_her(
    browser: Any,
    one: Person,
    tabs_service: LiveService,
    follows: str,
) -> None:
    """Eva sits at a table that waits for more people, in two tabs, and leaves it in the
    first. The answer to her leave is held back there, so the second tab hears of it from
    the server before the first has forgotten the seat: from its stream (the seat opened
    again), or, polling, when it reads its view and the seat's token opens nothing. It goes
    back to the lobby without a word, as the first does once answered: never saying that
    the host removed her."""
    url = tabs_service.url
    host = Person(browser, LAPTOP, "host")
    try:
        code = open_table(host, url, "1", others=("open", "open", "random"), listed=False)
        first = sit_eva(one, url, code)
        game = stored(first, "pocha.game")
        second = one.open_tab()
        if follows == "polling":
            without_stream(second)
        second.goto(f"{url}/t/{code}")
        second.wait_for_selector("#waiting", timeout=LONG_MS)

        held: list[tuple[Any, Any]] = []
        first.route("**/seats/*/leave", lambda route: held.append((route, route.fetch())))
        first.bring_to_front()
        first.click("[data-action=leave]")  # the confirmation is accepted (Person)
        # Each look at the page lets Playwright run the route's handler meanwhile.
        wait_until(lambda: first.evaluate("true") and bool(held), LONG, "her leave done")
        assert held[0][1].status == 200
        if follows == "polling":
            second.bring_to_front()
            read_view_now(second)
        second.wait_for_selector("#setup", timeout=LONG_MS)
        assert second.inner_text("#notice") == ""

        route, answer = held[0]
        route.fulfill(response=answer)
        first.wait_for_selector("#setup", timeout=LONG_MS)
        assert first.inner_text("#notice") == ""
        assert stored(first, "pocha.seats").get(game["id"]) is None
        # Her seat is open again, and the table's link offers it to anyone.
        second.goto(f"{url}/t/{code}")
        second.wait_for_selector("#join", timeout=LONG_MS)
        assert host.errors == []
        # What the browser logs itself: the token refused (401) once the seat was left.
        assert [e for e in one.errors if "status of 401" not in e] == []
    finally:
        host.context.close()


def test_a_tab_without_the_stream_learns_from_the_events_that_the_host_removed_her(
    browser: Any,
    one: Person,
    tabs_service: LiveService,
) -> None:
    """Eva sits at a table in one tab that cannot follow the stream, and no other tab tells
    it anything: the host removes her, and when the tab reads its view, its token refused,
    the game's events say that the host removed her, and so does the tab."""
    url = tabs_service.url
    host = Person(browser, LAPTOP, "host")
    try:
        code = open_table(host, url, "1", others=("open", "open", "random"), listed=False)
        page = one.page
        without_stream(page)
        sit_eva(one, url, code)
        remove = "#waiting li:has-text('Eva') [data-action=seat-remove]"
        host.page.wait_for_selector(remove, timeout=LONG_MS)
        host.page.click(remove)
        host.page.wait_for_selector(remove, state="detached", timeout=LONG_MS)

        read_view_now(page)
        page.wait_for_selector("#setup", timeout=LONG_MS)
        assert page.inner_text("#notice") == REMOVED
        assert host.errors == []
        assert [e for e in one.errors if "status of 401" not in e] == []
    finally:
        host.context.close()


def test_a_replay_follows_the_language_picked_and_keeps_a_record_opened_from_a_file(
    one: Person, tabs_service: LiveService, tmp_path: Any
) -> None:
    """Ana steps through a record opened from a file, and has the same game's replay from
    the server in another tab. Spanish picked in a third tab: both replays are drawn again
    in Spanish where they were; English picked in the file's own tab: drawn again in
    English, the record still there, and its buttons still step through it."""
    url = tabs_service.url
    bots = [{"name": f"Bot {s}", "bot": "random"} for s in range(3)]
    record = finished_record(url, {"players": bots, "rules": {"schedule": [2]}})
    saved = tmp_path / "record.json"
    saved.write_text(json.dumps(record))
    viewer = one.page
    viewer.goto(f"{url}/replay")
    viewer.wait_for_selector("#replay-file")
    viewer.set_input_files("#replay-file", str(saved))
    viewer.wait_for_selector("#replay-step[data-step='0']", timeout=LONG_MS)
    viewer.click("#replay-next")
    viewer.click("#replay-next")
    viewer.wait_for_selector("#replay-step[data-step='2']")
    fetched = tab(one, f"{url}/replay/{record['id']}", "#replay-step[data-step='0']")
    rules = tab(one, f"{url}/how-to-play/pocha", "#lang")
    rules.select_option("#lang", "es")

    for page in (viewer, fetched):
        page.wait_for_selector("#replay h2:has-text('Repetición')", timeout=LONG_MS)
        page.wait_for_selector("#replay-weigh:has-text('Valorar')", timeout=LONG_MS)
        assert page.title().startswith("Repetición")
    assert viewer.locator("#replay-step[data-step='2']").count() == 1
    assert "Bot 2" in viewer.inner_text("#replay-final")

    viewer.bring_to_front()
    viewer.select_option("#lang", "en")
    viewer.wait_for_selector("#replay h2:has-text('Replay')", timeout=LONG_MS)
    assert viewer.locator("#replay-step[data-step='2']").count() == 1
    assert viewer.locator("#replay-file").count() == 0
    viewer.click("#replay-prev")
    viewer.wait_for_selector("#replay-step[data-step='1']")
    fetched.wait_for_selector("#replay h2:has-text('Replay')", timeout=LONG_MS)
    assert one.errors == []


def focused_id(page: Any) -> str:
    return page.evaluate("document.activeElement.id")  # type: ignore[no-any-return]


def test_a_replay_drawn_again_in_another_language_keeps_the_keyboards_focus(
    one: Person, tabs_service: LiveService
) -> None:
    """Ana steps through a replay by keyboard, the focus on "Next". Spanish picked in
    another tab draws the replay again in Spanish with the focus still on "Next", and Enter
    steps once from there; on the level's menu, English picked keeps the focus there, and
    the level she chose."""
    url = tabs_service.url
    bots = [{"name": f"Bot {s}", "bot": "random"} for s in range(3)]
    record = finished_record(url, {"players": bots, "rules": {"schedule": [2]}})
    viewer = one.page
    viewer.goto(f"{url}/replay/{record['id']}")
    viewer.wait_for_selector("#replay-step[data-step='0']", timeout=LONG_MS)
    viewer.focus("#replay-next")
    viewer.keyboard.press("Enter")
    viewer.wait_for_selector("#replay-step[data-step='1']")
    rules = tab(one, f"{url}/how-to-play/pocha", "#lang")
    rules.select_option("#lang", "es")

    viewer.wait_for_selector("#replay h2:has-text('Repetición')", timeout=LONG_MS)
    assert focused_id(viewer) == "replay-next"
    assert viewer.inner_text("#replay-next") == "Baza siguiente"
    viewer.bring_to_front()
    viewer.keyboard.press("Enter")
    wait_in(viewer, "() => document.querySelector('#replay-step').dataset.step !== '1'")
    assert viewer.get_attribute("#replay-step", "data-step") == "2"

    viewer.focus("#replay-level")
    viewer.select_option("#replay-level", "random")
    rules.bring_to_front()
    rules.select_option("#lang", "en")
    viewer.wait_for_selector("#replay h2:has-text('Replay')", timeout=LONG_MS)
    assert focused_id(viewer) == "replay-level"
    assert viewer.input_value("#replay-level") == "random"
    assert viewer.get_attribute("#replay-step", "data-step") == "2"
    assert one.errors == []
