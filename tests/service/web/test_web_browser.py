"""The web front end in a real headless Chromium (Debian's `chromium`, driven by Playwright
from PyPI through `executable_path`; Playwright's own browser downloads are never used).

A whole short game against bots is clicked through from the setup form, with a hint and a
reload on the way, following the event stream; the same at phone size, polling instead; the
setup form has a field for every rule option GET /api/v1/rules lists, and deals a game with
the rules it was set to; a seat that must follow suit sees its other cards as not playable
with the very sentence the server refuses them with; and over many random positions the
page marks the cards and bids the engine refuses, with the engine's sentences. The setup
form's switches read as sentences in either language; "Last baza" is never the previous
hand's; seats of equal points share their place in the final ranking.
Screenshots are saved under tests/artifacts/ (ignored by git) for the record.
"""

from __future__ import annotations

import json
import random
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from client.api import OPEN, ApiError, PochaClient
from client.terminal import card_name
from core.play.games import view_of
from engine.errors import IllegalActionError
from engine.pocha.cards import card_code, cards_list
from engine.pocha.game import Game
from engine.pocha.legality import explain_illegal
from engine.pocha.rules import Rules
from tests.live import LiveService
from tests.service.web.conftest import Screen
from tests.waiting import LONG, LONG_MS, scaled

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip(
        "no chromium: install Debian's `chromium` package (scripts/test does, as root)",
        allow_module_level=True,
    )

ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
DESKTOP = {"width": 1280, "height": 900}
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 360, "height": 740}

# What a person can click now: a legal bid, a playable card, or the end of the game.
MY_MOVE = (
    "#game[data-my-turn=yes] .bid-btn.legal, #game[data-my-turn=yes] .card-btn.playable, .final"
)


class Tab:
    """A tab with its console errors collected (any is a failure)."""

    def __init__(self, browser: Any, viewport: dict[str, int], name: str) -> None:
        self.name = name
        self.context = browser.new_context(viewport=viewport)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        # How the page followed the events: "eventsource" (SSE) or "fetch" (polling).
        self.event_requests: set[str] = set()
        self.page.on(
            "request",
            lambda r: self.event_requests.add(r.resource_type) if "/events" in r.url else None,
        )
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on(
            "console",
            lambda m: self.errors.append(m.text) if m.type == "error" else None,
        )
        # The last requests and their outcomes, for the account of a failed test.
        self.requests: list[str] = []
        self.page.on("response", lambda r: self._note(f"{r.request.method} {r.url} {r.status}"))
        self.page.on("requestfailed", lambda r: self._note(f"{r.method} {r.url} {r.failure}"))

    def _note(self, what: str) -> None:
        self.requests = [*self.requests[-29:], f"{time.strftime('%H:%M:%S')} {what}"]

    def account(self) -> str:
        """What the tab shows and did, for a failed test's report."""
        try:
            shown = self.page.inner_text("body", timeout=2000)[:1500]
        except Exception as exc:  # the page itself may be what failed
            shown = f"(unreadable: {exc})"
        return "\n".join([f"url: {self.page.url}", "errors:", *self.errors,
                          "requests:", *self.requests, "shows:", shown])  # fmt: skip

    def screenshot(self, name: str) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / name
        self.page.screenshot(path=str(path), full_page=True)
        print(f"screenshot: {path}")
        return path

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def desktop(browser: Any) -> Iterator[Tab]:
    page = Tab(browser, DESKTOP, "desktop")
    yield page
    page.close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Tab]:
    page = Tab(browser, PHONE, "phone")
    yield page
    page.close()


def open_seat(page: Any, url: str, saved: dict[str, Any]) -> None:
    """Open the page at `url` holding the seat `saved` (as a deal leaves it in
    localStorage), written before any of the page's own scripts run: the page resumes that
    game as after a reload. (A write from the loaded page followed by a reload is not
    always there for the reload: Chromium commits localStorage in the background.)"""
    page.add_init_script(f"localStorage.setItem('pocha.game', {json.dumps(json.dumps(saved))})")
    page.goto(url)


def more_options(page: Any) -> None:
    """Open the setup form's "More options" (the rules, the seats, the seed): closed at
    first, so that a newcomer sees only the game, a name and Play."""
    if not page.locator("#more-options[open]").count():
        page.click("#more-options > summary")
    page.wait_for_selector("#setup fieldset.rules", state="visible")


def deal(tab: Tab, url: str, players: int, schedule: str) -> None:
    page = tab.page
    page.goto(url)
    page.wait_for_selector("#setup")
    page.fill("input[name=name]", "Ana")
    more_options(page)
    page.select_option("select[name=players]", str(players))
    page.select_option("select[name=all-levels]", "random")
    page.select_option("select[name=schedule]", "custom")
    page.fill("input[name=schedule-custom]", schedule)
    # The form built from the rule options fits the screen, a phone's too.
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    tab.screenshot(f"web-{tab.name}-setup.png")
    page.click("#deal")
    page.wait_for_selector("#game")


def play_to_the_end(tab: Tab, *, hint: bool = False, reload_after: int | None = None) -> int:
    """Click the first legal bid or playable card whenever it is our turn; moves made."""
    page = tab.page
    moves = 0
    deadline = time.monotonic() + scaled(LONG)
    while time.monotonic() < deadline:
        page.wait_for_selector(MY_MOVE, timeout=LONG_MS)
        if page.query_selector(".final"):
            return moves
        if hint and moves == 0:
            page.click("[data-action=hint]")
            notice = page.wait_for_selector(".notice.hint", timeout=LONG_MS)
            assert notice.inner_text().startswith("Hint: ")
            assert page.query_selector(".hinted") is not None
            tab.screenshot(f"web-{tab.name}-hint.png")
        if moves == reload_after:
            # The seat's token is in localStorage: a reload resumes the same game.
            game_id = page.inner_text(".game-id")
            page.reload()
            page.wait_for_selector(MY_MOVE, timeout=LONG_MS)
            assert page.inner_text(".game-id") == game_id
        target = page.query_selector(
            "#game[data-my-turn=yes] .bid-btn.legal, #game[data-my-turn=yes] .card-btn.playable"
        )
        assert target is not None
        version = page.get_attribute("#game", "data-version")
        target.click()
        # Wait for the move to be taken (our turn ends, or the game moves on).
        page.wait_for_selector(
            f'#game:not([data-my-turn=yes]), #game:not([data-version="{version}"]), '
            "body:not(:has(#game))",
            state="attached",
            timeout=LONG_MS,
        )
        moves += 1
    raise AssertionError("the game did not end in two minutes")


def test_a_whole_game_against_bots(desktop: Tab, live_service: LiveService) -> None:
    deal(desktop, live_service.url, players=3, schedule="1,2")
    page = desktop.page
    # The table as dealt: our cards drawn as cards, the trump, every seat.
    page.wait_for_selector(".hand .card-btn svg")
    assert page.query_selector(".trump svg[aria-label]") is not None
    assert len(page.query_selector_all(".seat")) == 3
    moves = play_to_the_end(desktop, hint=True, reload_after=2)
    assert moves >= 4  # two bids and three cards, at least

    final = page.inner_text(".final")
    assert "win" in final
    assert len(page.query_selector_all(".ranking li")) == 3
    rows = page.query_selector_all(".score-sheet tbody tr")
    api = PochaClient(live_service.url)
    game_id = page.inner_text(".game-id").removeprefix("Game ")
    history = api.history(game_id)
    assert history["finished"] and len(rows) == len(history["hands"])
    totals = [int(t.inner_text().rstrip(" ★")) for t in page.query_selector_all("tfoot td")]
    assert totals == history["scores"]
    desktop.screenshot("web-desktop-final.png")
    title = page.inner_text(".final h2")
    page.click("[data-action=close]")
    # The panel closed, who won stays on the table.
    assert page.inner_text(".table .table-note") == title
    desktop.screenshot("web-desktop-sheet.png")
    assert "eventsource" in desktop.event_requests
    assert desktop.errors == []


def test_a_game_on_a_phone_following_by_polling(phone: Tab, live_service: LiveService) -> None:
    # `?poll` makes the page poll the events as JSON, as it does when no stream can be had.
    deal(phone, f"{live_service.url}/?poll", players=4, schedule="2")
    page = phone.page
    page.wait_for_selector(MY_MOVE, timeout=LONG_MS)
    phone.screenshot("web-phone-setup-done.png")
    # Nothing wider than the screen: no sideways scrolling on a phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    play_to_the_end(phone, hint=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.screenshot("web-phone-final.png")
    assert phone.event_requests == {"fetch"}
    assert phone.errors == []


def test_the_setup_form_has_every_option_the_api_lists(
    desktop: Tab, live_service: LiveService
) -> None:
    options = PochaClient(live_service.url).rules()["options"]
    page = desktop.page
    page.goto(live_service.url)
    page.wait_for_selector("#setup")
    more_options(page)
    # Each option as listed: its field, at its default, with its sentence.
    for option in options:
        field = page.locator(f"#setup fieldset.rules [name={option['name']}]")
        assert field.count() == 1, option["name"]
        if option["kind"] == "bool":
            assert field.is_checked() is option["default"], option["name"]
        else:
            assert field.input_value() == str(option["default"]), option["name"]
        assert field.locator("xpath=ancestor::label").get_attribute("title") == option["doc"]

    # Every option set away from its default reaches the game as set.
    page.select_option("select[name=all-levels]", "random")
    chosen: dict[str, Any] = {}
    for option in options:
        name, kind, default = option["name"], option["kind"], option["default"]
        selector = f"#setup [name={name}]"
        if kind == "bool":
            chosen[name] = not default
            page.set_checked(selector, chosen[name])
        elif kind == "int":
            chosen[name] = option["maximum"] if default != option["maximum"] else option["minimum"]
            if page.eval_on_selector(selector, "e => e.tagName") == "SELECT":
                page.select_option(selector, str(chosen[name]))
            else:
                page.fill(selector, str(chosen[name]))
        elif kind == "schedule":
            chosen[name] = next(c for c in option["choices"] if c != default)
            page.select_option(selector, chosen[name])
        else:
            raise AssertionError(f"the test knows no field of kind {kind!r} ({name})")
    page.click("#deal")
    page.wait_for_selector("#game")
    game_id = page.inner_text(".game-id").removeprefix("Game ")
    assert PochaClient(live_service.url).view(game_id)["rules"] == chosen
    assert desktop.errors == []


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=lambda s: f"{s['width']}x{s['height']}")
def test_play_deals_a_game_against_bots_at_once(
    browser: Any, live_service: LiveService, size: dict[str, int]
) -> None:
    """The setup form shows a newcomer the game, a name and Play, on the first screen; the
    rules and seats wait closed under More options. Play deals at once: every rule at the
    API's default, bots in the other seats."""
    tab = Tab(browser, size, f"play-{size['width']}")
    page = tab.page
    try:
        page.goto(live_service.url)
        page.wait_for_selector("#setup")
        assert not page.locator("#setup fieldset.rules").is_visible()
        assert not page.locator("#setup select[name=all-levels]").is_visible()
        assert page.inner_text("#more-options > summary") == "More options"
        play = page.locator("#deal")
        assert play.inner_text() == "Play"
        box = play.bounding_box()
        assert box is not None and box["y"] + box["height"] <= size["height"], box
        assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], box
        assert page.evaluate(MISFITS) == [], "the setup form, closed"
        tab.screenshot(f"web-play-{size['width']}-setup.png")
        # Opened, More options shows every rule and the seats, at their defaults.
        more_options(page)
        assert page.locator("#setup select[name=all-levels]").is_visible()
        assert page.evaluate(MISFITS) == [], "the setup form, open"
        play.click()
        page.wait_for_selector("#game")
        api = PochaClient(live_service.url)
        view = api.view(page.inner_text(".game-id").removeprefix("Game "))
        defaults = {o["name"]: o["default"] for o in api.rules()["options"]}
        assert view["rules"] == defaults
        assert [p["bot"] is None for p in view["players"]] == [True] + [False] * (
            len(view["players"]) - 1
        )
        assert tab.errors == []
    finally:
        tab.close()


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=lambda s: f"{s['width']}x{s['height']}")
def test_the_score_sheets_last_column_is_not_cut(
    browser: Any, live_service: LiveService, size: dict[str, int]
) -> None:
    """Eight players, four hands scored: on a laptop the whole sheet shows beside the table,
    no column behind a scroll bar; on a phone it scrolls inside its box to the last one."""
    api = PochaClient(live_service.url)
    players = [{"name": "Ana"}] + [{"name": f"Bot {i}", "bot": "random"} for i in range(1, 8)]
    created = api.create_game(players, rules={"schedule": [1, 2, 3, 3, 3]}, seed=3)
    game_id, ana = created["id"], api.seat(created, 0)
    while (view := ana.view(game_id))["hand_number"] < 5:
        if view["turn"] == 0 and view["you"]["legal"]:
            ana.act(game_id, view["you"]["legal"][-1], version=view["version"])
    tab = Tab(browser, size, f"sheet-{size['width']}")
    page = tab.page
    try:
        saved = {"id": game_id, "token": created["seats"][0]["token"],
                 "hostToken": created["host_token"], "seat": 0}  # fmt: skip
        open_seat(page, live_service.url, saved)
        page.wait_for_selector(".score-sheet tbody tr:nth-child(4)")
        box = page.locator(".sheet-scroll")
        scroll_width, client_width = box.evaluate("e => [e.scrollWidth, e.clientWidth]")
        if size is LAPTOP:
            assert scroll_width <= client_width, (scroll_width, client_width)
        box.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
        last = page.locator(".score-sheet thead th:last-child").bounding_box()
        shown = box.bounding_box()
        assert last is not None and shown is not None
        assert last["x"] + last["width"] <= shown["x"] + shown["width"] + 0.5, (last, shown)
        assert last["x"] + last["width"] <= size["width"]
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        tab.screenshot(f"web-sheet-{size['width']}.png")
        assert tab.errors == []
    finally:
        tab.close()


def refused_cards(
    api: PochaClient,
) -> tuple[dict[str, Any], list[PochaClient], int, dict[str, Any], list[str]]:
    """A game of people played through the API until a seat must follow suit with other
    cards in hand: the game made, its seats' clients, that seat, its `you` and the cards
    it may not play."""
    for seed in range(60):
        created = api.create_game(["Ana", "Bea", "Carla"], rules={"schedule": [5]}, seed=seed)
        game_id = created["id"]
        seats = [api.seat(created, s) for s in range(3)]
        while (view := api.view(game_id))["phase"] == "bidding":
            bidder = seats[view["turn"]]
            bidder.bid(game_id, bidder.view(game_id)["you"]["legal"][0])
        leader = seats[view["turn"]]
        leader.play(game_id, leader.view(game_id)["you"]["legal"][0])
        seat = (view["turn"] + 1) % 3
        mine = seats[seat].view(game_id)["you"]
        refused = [c for c in mine["hand"] if c not in mine["legal"]]
        if refused:
            return created, seats, seat, mine, refused
    raise AssertionError("no seed gave a card to refuse")


#: The few words under a refused card, by rule, in each language.
SHORT_REASONS = {
    "en": {"asistir": "must follow suit", "montar": "must beat it", "fallar": "must trump",
           "pisar": "must over-trump"},
    "es": {"asistir": "debes asistir", "montar": "debes montar", "fallar": "debes fallar",
           "pisar": "debes pisar"},
}  # fmt: skip


def test_cards_that_may_not_be_played_say_why(desktop: Tab, live_service: LiveService) -> None:
    # Every seat a person, played from here, until one must follow suit with other cards
    # in hand; the page then shows that seat (its token in localStorage, as after a deal).
    api = PochaClient(live_service.url)
    created, seats, seat, mine, refused = refused_cards(api)
    game_id = created["id"]
    # What the server answers when each of those cards is tried (the game is untouched).
    said = {}
    for card in refused:
        with pytest.raises(ApiError) as caught:
            seats[seat].play(game_id, card)
        said[card] = caught.value.message

    page = desktop.page
    saved = {"id": game_id, "token": created["seats"][seat]["token"],
             "hostToken": created["host_token"], "seat": seat}  # fmt: skip
    open_seat(page, live_service.url, saved)
    page.wait_for_selector("#game[data-my-turn=yes] .card-btn.playable")
    shown = {
        b.get_attribute("data-card"): b.get_attribute("title")
        for b in page.query_selector_all(".card-btn.unplayable")
    }
    assert shown == said
    # Under each, its rule in a few words.
    rules = {r["card"]: r["rule"] for r in mine["refused"]}
    for card in refused:
        why = page.inner_text(f'.card-btn[data-card="{card}"] .why')
        assert why == SHORT_REASONS["en"][rules[card]], (card, why)
    assert len(page.query_selector_all(".card-btn.playable")) == len(mine["legal"])
    # Marked aria-disabled, which Playwright will not click; a person can, and is told why.
    page.click(f".card-btn[data-card={refused[0]}]", force=True)
    assert said[refused[0]] in page.inner_text(".notice.error")
    assert seats[seat].view(game_id)["you"]["hand"] == mine["hand"]  # nothing was sent
    desktop.screenshot("web-desktop-not-playable.png")
    page.click(".card-btn.playable")
    page.wait_for_selector(f'.hand [data-card="{mine["legal"][0]}"]', state="detached")
    assert mine["legal"][0] not in seats[seat].view(game_id)["you"]["hand"]
    assert desktop.errors == []


def test_refused_cards_say_why_in_two_lines_on_a_phone_in_spanish(
    phone: Tab, live_service: LiveService
) -> None:
    """Under a refused card on a phone, the Spanish page writes its rule in a few words
    from its catalogue (the whole sentence is the card's title), in two lines at most."""
    api = PochaClient(live_service.url)
    created, _, seat, mine, refused = refused_cards(api)
    page = phone.page
    page.add_init_script("localStorage.setItem('pocha.lang', 'es')")
    saved = {"id": created["id"], "token": created["seats"][seat]["token"],
             "hostToken": created["host_token"], "seat": seat}  # fmt: skip
    open_seat(page, live_service.url, saved)
    page.wait_for_selector("#game[data-my-turn=yes] .card-btn.unplayable .why")
    rules = {r["card"]: r["rule"] for r in mine["refused"]}
    for card in refused:
        label = f'.card-btn[data-card="{card}"] .why'
        assert page.inner_text(label) == SHORT_REASONS["es"][rules[card]]
        lines = page.eval_on_selector(
            label,
            "e => e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight)",
        )
        assert round(lines) <= 2, (card, lines)
    phone.screenshot("web-phone-es-not-playable.png")
    assert phone.errors == []


def test_the_page_shows_the_engines_reasons(desktop: Tab, live_service: LiveService) -> None:
    """The page's hand and bid buttons, drawn from the views the service sends over random
    positions under every obligation, mark as refused exactly the cards and bids the engine
    refuses, each titled with the engine's sentence (`explain_illegal`, `Game.bid`)."""
    rng = random.Random(7)
    cases: list[dict[str, Any]] = []
    for flags in range(8):
        options = {"montar": bool(flags & 1), "fallar": bool(flags & 2), "pisar": bool(flags & 4)}
        for _ in range(6):
            game = Game.new(
                Rules.from_dict({"players": 4, "schedule": [8], **options}), rng.randrange(1 << 30)
            )
            while not game.finished and game.hand_number == 1:
                seat = game.turn
                assert seat is not None
                st = game.state
                expected: dict[str, str] = {}
                if st.bidding:
                    for bid in range(st.cards + 1):
                        try:
                            game.copy().bid(seat, bid)
                        except IllegalActionError as refused:
                            expected[str(bid)] = refused.message
                else:
                    for card in cards_list(st.hands[seat]):
                        why = explain_illegal(
                            card, st.hands[seat], st.lead, st.win, st.trump,
                            st.montar, st.fallar, st.pisar,
                        )  # fmt: skip
                        if why is not None:
                            expected[card_code(card)] = why[1]
                cases.append({"view": view_of(game, seat), "expected": expected})
                game.apply(seat, rng.choice(list(game.legal_actions())))
    assert sum(len(c["expected"]) for c in cases) > 100
    assert sum(c["view"]["phase"] == "bidding" and bool(c["expected"]) for c in cases) > 5
    page = desktop.page
    page.goto(f"{live_service.url}/static/index.html")
    got = page.evaluate(
        """async (casesJson) => {
            const hand = await import('/static/hand.js');
            const cases = JSON.parse(casesJson);
            const box = document.createElement('div');
            return cases.map(({ view }) => {
                const bidding = view.phase === 'bidding';
                box.innerHTML = bidding
                    ? hand.bidsHtml(view, { mine: true, hint: null })
                    : hand.handHtml(view, { mine: true, hint: null });
                const barred = box.querySelectorAll(bidding ? '.bid-btn.illegal' : '.unplayable');
                const titles = Object.fromEntries([...barred].map(
                    (b) => [b.dataset.bid ?? b.dataset.card, b.getAttribute('title')]));
                box.innerHTML = hand.reasonsHtml(view);
                const reasons = [...box.querySelectorAll('li')].map((li) => li.textContent);
                return { titles, reasons };
            });
        }""",
        # One string rather than the views as structures: Playwright checks an argument's
        # every element on its way, which for these ~2,000 views took seconds.
        json.dumps(cases),
    )
    wrong = [(c, g) for c, g in zip(cases, got, strict=True) if g["titles"] != c["expected"]]
    assert not wrong, json.dumps(wrong[:3], indent=1)
    # The list under the bids gives the dealer's sentence as it is: it names the bid once.
    for case, shown in zip(cases, got, strict=True):
        if case["view"]["phase"] == "bidding":
            assert shown["reasons"] == [f"{why}." for why in case["expected"].values()], shown


# What does not fit a phone's screen, as sentences: see the script's opening comment (left
# out here, as Playwright takes a function only when the text starts with one).
MISFITS = "\n".join(
    line
    for line in (Path(__file__).parent / "misfits.js").read_text().splitlines()
    if not line.startswith("//")
)


def first_dealt_after_me(players: int, cards: int) -> int:
    """A seed whose first hand puts the person (seat 0) neither first to play nor dealer, so
    that on its first card there are cards on the table, and it bids with 8 cards in hand."""
    rules = Rules.from_dict({"players": players, "schedule": [cards]})
    return next(
        s for s in range(1000) if 0 not in (Game.new(rules, s).mano, Game.new(rules, s).dealer)
    )


@pytest.mark.parametrize("size", [SMALL_PHONE, PHONE], ids=lambda s: f"{s['width']}x{s['height']}")
def test_a_phone_shows_everything_within_reach(
    browser: Any, live_service: LiveService, size: dict[str, int]
) -> None:
    """At the start page, mid-bid and mid-trick with 8 cards each: nothing wider than the
    screen or spilling out of its box, no menu option cut, every control within reach, and
    the Deal button on the first screen."""
    tab = Tab(browser, size, f"phone-{size['width']}")
    page = tab.page
    try:
        page.goto(live_service.url)
        page.wait_for_selector("#setup")
        deal = page.locator("#deal").bounding_box()
        assert deal is not None and deal["y"] + deal["height"] <= size["height"], deal
        assert page.evaluate(MISFITS) == [], "start page"
        tab.screenshot(f"web-phone-{size['width']}-start.png")

        api = PochaClient(live_service.url)
        players = [{"name": "Ana"}] + [{"name": f"Bot {i}", "bot": "random"} for i in range(1, 5)]
        seed = first_dealt_after_me(5, 8)
        created = api.create_game(players, rules={"schedule": [8]}, seed=seed)
        saved = {"id": created["id"], "token": created["seats"][0]["token"],
                 "hostToken": created["host_token"], "seat": 0}  # fmt: skip
        open_seat(page, live_service.url, saved)
        page.wait_for_selector("#game[data-my-turn=yes] .bid-btn.legal", timeout=LONG_MS)
        assert len(page.query_selector_all(".hand .card-btn")) == 8
        assert page.evaluate(MISFITS) == [], "mid-bid"
        # Each opponent's 8 backs at their full width: they overlap more only when short of room.
        backs = page.eval_on_selector_all(
            ".seat .backs i", "bs => bs.map(b => b.getBoundingClientRect().width)"
        )
        assert len(backs) == 4 * 8 and min(backs) >= 7, backs
        # The trump card readable: drawn at least 48 px wide, and named in words.
        box = page.locator(".trump .card").bounding_box()
        assert box is not None and box["width"] >= 48, box
        assert card_name(api.view(created["id"])["trump"]["card"]) in page.inner_text(".trump")
        tab.screenshot(f"web-phone-{size['width']}-bid.png")

        page.click(".bid-btn.legal")
        page.wait_for_selector("#game[data-my-turn=yes] .card-btn.playable", timeout=LONG_MS)
        assert len(page.query_selector_all(".hand .card-btn")) == 8
        assert page.query_selector_all(".table .played")
        assert page.evaluate(MISFITS) == [], "mid-trick"
        tab.screenshot(f"web-phone-{size['width']}-trick.png")
        assert tab.errors == []
    finally:
        tab.close()


@pytest.mark.parametrize(
    "size",
    [{"width": 320, "height": 568}, {"width": 430, "height": 932}, {"width": 768, "height": 1024},
     DESKTOP],
    ids=lambda s: f"{s['width']}x{s['height']}",
)  # fmt: skip
def test_the_setup_form_fits_any_screen(
    browser: Any, live_service: LiveService, size: dict[str, int]
) -> None:
    """From a small phone to a desktop: no menu option cut short (the schedule's phrases
    were, wherever its menu shared a row), and the Deal button on the first screen."""
    tab = Tab(browser, size, f"setup-{size['width']}")
    try:
        tab.page.goto(live_service.url)
        tab.page.wait_for_selector("#setup")
        assert tab.page.evaluate(MISFITS) == []
        deal = tab.page.locator("#deal").bounding_box()
        assert deal is not None and deal["y"] + deal["height"] <= size["height"], deal
    finally:
        tab.close()


def test_the_table_shows_who_is_winning_the_trick(desktop: Tab, live_service: LiveService) -> None:
    # Every seat a person, played from here, until the second card of the first trick beats
    # the first: the page of the third seat, whose turn it is, then marks the second card.
    api = PochaClient(live_service.url)
    for seed in range(60):
        created = api.create_game(["Ana", "Bea", "Carla"], rules={"schedule": [5]}, seed=seed)
        game_id = created["id"]
        seats = [api.seat(created, s) for s in range(3)]
        while (view := api.view(game_id))["phase"] == "bidding":
            bidder = seats[view["turn"]]
            bidder.bid(game_id, bidder.view(game_id)["you"]["legal"][0])
        for _ in range(2):
            player = seats[view["turn"]]
            player.play(game_id, player.view(game_id)["you"]["legal"][-1])
            view = api.view(game_id)
        if view["winning"] == view["trick"][1]["seat"]:
            break
    else:
        raise AssertionError("no seed had the second card beat the first")
    seat = view["turn"]
    page = desktop.page
    saved = {"id": game_id, "token": created["seats"][seat]["token"],
             "hostToken": created["host_token"], "seat": seat}  # fmt: skip
    open_seat(page, live_service.url, saved)
    page.wait_for_selector("#game[data-my-turn=yes] .card-btn.playable")
    marked = page.query_selector_all(".table .played.winning")
    assert [m.get_attribute("data-seat") for m in marked] == [str(view["winning"])]
    assert "winning" in marked[0].inner_text().lower()
    desktop.screenshot("web-desktop-winning.png")
    assert desktop.errors == []


def test_a_hand_scored_is_on_the_sheet_once(desktop: Tab, live_service: LiveService) -> None:
    """While a hand's score is shown, before the next deal is drawn, the sheet has that
    hand's row once (as scored), not also as the hand in play: every state the sheet is
    drawn in, from the first card of hand 1 to hand 2, is watched."""
    api = PochaClient(live_service.url)
    created = api.create_game(["Ana", "Bea", "Carla"], rules={"schedule": [1, 2]}, seed=1)
    game_id = created["id"]
    seats = [api.seat(created, s) for s in range(3)]
    page = desktop.page
    saved = {"id": game_id, "token": created["seats"][0]["token"],
             "hostToken": created["host_token"], "seat": 0}  # fmt: skip
    open_seat(page, live_service.url, saved)
    page.wait_for_selector(".score-sheet tr.current")
    # Each state of the sheet's rows, as their hand numbers, noted after every change.
    page.evaluate(
        """() => {
            window.sheets = [];
            const note = () => window.sheets.push([...document.querySelectorAll(
                '.score-sheet tbody th')].map((th) => th.textContent));
            new MutationObserver(note).observe(document.body, { childList: true, subtree: true });
        }"""
    )
    while (view := api.view(game_id))["hand_number"] == 1:
        player = seats[view["turn"]]
        legal = player.view(game_id)["you"]["legal"]
        if view["phase"] == "bidding":
            player.bid(game_id, legal[0])
        else:
            player.play(game_id, legal[0])
    page.wait_for_selector(".score-sheet tr:not(.current) th:text-is('1')", timeout=LONG_MS)
    page.wait_for_selector(".score-sheet tr.current th:text-is('2')", timeout=LONG_MS)
    sheets = page.evaluate("window.sheets")
    twice = [rows for rows in sheets if len(rows) != len(set(rows))]
    assert not twice, twice[:3]
    assert desktop.errors == []


def test_a_tiebreak_hand_says_so(desktop: Tab, live_service: LiveService) -> None:
    # One card each and every bid 0: one seat takes the trick (-5), two tie at 10, and a
    # tiebreak hand is dealt, the second hand of a game of one.
    api = PochaClient(live_service.url)
    created = api.create_game(["Ana", "Bea", "Carla"], rules={"schedule": [1]}, seed=5)
    game_id = created["id"]
    seats = [api.seat(created, s) for s in range(3)]
    while (view := api.view(game_id))["hand_number"] == 1:
        player = seats[view["turn"]]
        if view["phase"] == "bidding":
            player.bid(game_id, 0)
        else:
            player.play(game_id, player.view(game_id)["you"]["legal"][0])
    assert (view["tiebreak_hand"], view["hand_number"], view["hands_total"]) == (1, 2, 2)
    page = desktop.page
    saved = {"id": game_id, "token": created["seats"][0]["token"],
             "hostToken": created["host_token"], "seat": 0}  # fmt: skip
    open_seat(page, live_service.url, saved)
    page.wait_for_selector("#game")
    title = page.inner_text(".hand-info strong")
    assert title == "Tiebreak 1", title
    assert page.inner_text(".score-sheet tr.current th") == "2*"
    # The star is explained under the sheet.
    assert page.inner_text(".sheet .legend").endswith(" · * tiebreak hand")
    assert desktop.errors == []


def play_by_api(api: PochaClient, created: dict[str, Any], until: Any) -> dict[str, Any]:
    """Every seat a person, played from here (each bid 0 when it may, each the first card
    it may play) until `until(view)` holds of the game's view; that view."""
    game_id = created["id"]
    seats = [api.seat(created, s) for s in range(len(created["seats"]))]
    while not until(view := api.view(game_id)):
        player = seats[view["turn"]]
        legal = player.view(game_id)["you"]["legal"]
        if view["phase"] == "bidding":
            player.bid(game_id, 0 if 0 in legal else legal[0])
        else:
            player.play(game_id, legal[0])
    return view


def seat_saved(created: dict[str, Any], seat: int) -> dict[str, Any]:
    """What a deal leaves in localStorage for `seat` of the game `created`."""
    return {"id": created["id"], "token": created["seats"][seat]["token"],
            "hostToken": created["host_token"], "seat": seat}  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_setup_forms_switches_read_as_sentences(
    browser: Any, screens: list[Screen], live_service: LiveService, lang: str
) -> None:
    """A switch's name is written as a sentence is, in either language (not "Dealer
    Restriction", "Restricción Del Que Da"): the page's words, as they are."""
    screen = Screen(browser, LAPTOP, lang)
    screens.append(screen)
    page = screen.page
    page.goto(live_service.url)
    page.wait_for_selector("#setup")
    more_options(page)
    page.select_option("select[name=seat-2]", "open")  # shows "listed in the lobby"
    names = {
        name: page.inner_text(f"label.toggle:has([name={name}]) > span")
        for name in ("dealer_restriction", "montar", "tiebreak", "listed")
    }
    assert names == {
        "en": {"dealer_restriction": "Dealer restriction", "montar": "Montar",
               "tiebreak": "Tiebreak", "listed": "Listed in the lobby"},
        "es": {"dealer_restriction": "Restricción del que da", "montar": "Montar",
               "tiebreak": "Desempate", "listed": "En la lista de mesas"},
    }[lang]  # fmt: skip
    assert screen.errors == []


def test_the_last_trick_shown_is_one_of_this_hand(
    browser: Any, desktop: Tab, live_service: LiveService
) -> None:
    """Under the hand, "Last baza" is the trick taken last in this hand: at a hand's first
    lead the view's `last_trick` is still the previous hand's (another trump, cards long
    gone), and the page shows none, as the terminal does."""
    api = PochaClient(live_service.url)
    created = api.create_game(["Ana", "Bea", "Carla"], rules={"schedule": [1, 2]}, seed=3)
    view = play_by_api(api, created, lambda v: v["hand_number"] == 2 and v["phase"] == "playing")
    assert view["last_trick"] and not any(view["tricks_won"])
    page = desktop.page
    open_seat(page, live_service.url, seat_saved(created, view["turn"]))
    page.wait_for_selector("#game[data-my-turn=yes] .card-btn.playable")
    assert page.locator(".last-trick").count() == 0

    # The hand's first trick taken: its winner, to lead the next, sees it.
    view = play_by_api(api, created, lambda v: any(v["tricks_won"]))
    later = Tab(browser, DESKTOP, "later")
    try:
        open_seat(later.page, live_service.url, seat_saved(created, view["turn"]))
        later.page.wait_for_selector("#game[data-my-turn=yes] .last-trick")
        shown = later.page.eval_on_selector_all(
            ".last-trick .mini-played .card svg", "svgs => svgs.length"
        )
        assert shown == len(view["last_trick"]) == 3
        assert later.errors == []
    finally:
        later.close()
    assert desktop.errors == []


def test_seats_of_equal_points_share_their_place(desktop: Tab, live_service: LiveService) -> None:
    """One card each, every bid 0, no tiebreak: the seat that takes the trick is last and
    the other two share the win, both first ("1.", "1.", "3.")."""
    api = PochaClient(live_service.url)
    created = api.create_game(
        ["Ana", "Bea", "Carla"], rules={"schedule": [1], "tiebreak": False}, seed=5
    )
    view = play_by_api(api, created, lambda v: v["phase"] == "finished")
    assert sorted(view["scores"]) == [-5, 10, 10], view["scores"]
    page = desktop.page
    open_seat(page, live_service.url, seat_saved(created, 0))
    page.wait_for_selector(".final .ranking")
    places = [s.strip() for s in page.eval_on_selector_all(
        ".ranking li > span", "spans => spans.map(s => s.textContent)")]  # fmt: skip
    assert places == ["1.", "1.", "3."]
    assert len(page.query_selector_all(".ranking li.won")) == 2
    assert desktop.errors == []


def test_a_sota_refused_is_named_as_a_spaniard_names_it(
    browser: Any, screens: list[Screen], live_service: LiveService
) -> None:
    """The sota alone of the ranks is feminine: a refused sota is "la sota de ...", never
    "el sota de ...", in the line the page says when it is clicked."""
    api = PochaClient(live_service.url)
    for seed in range(200):
        created = api.create_game(["Ana", "Bea", "Carla"], rules={"schedule": [5]}, seed=seed)
        view = play_by_api(api, created, lambda v: len(v["trick"]) == 1)
        seat = view["turn"]
        mine = api.seat(created, seat).view(created["id"])["you"]
        sotas = [c for c in mine["hand"] if c not in mine["legal"] and c.endswith("10")]
        if sotas:
            break
    else:
        raise AssertionError("no seed gave a sota to refuse")
    screen = Screen(browser, LAPTOP, "es")
    screens.append(screen)
    page = screen.page
    open_seat(page, live_service.url, seat_saved(created, seat))
    page.wait_for_selector("#game[data-my-turn=yes] .card-btn.playable")
    page.click(f".card-btn[data-card={sotas[0]}]", force=True)
    said = page.inner_text(".notice.error")
    assert said.startswith(f"No puedes jugar la {card_name(sotas[0])}: "), said
    assert screen.errors == []


def test_two_seats_of_one_name_are_told_apart(desktop: Tab, live_service: LiveService) -> None:
    """Two people who both sat down as Ana: each is "Ana #seat" on the page, as in the
    terminal, and this browser's own seat stays "You"."""
    api = PochaClient(live_service.url)
    created = api.create_game(["Ana", "Ana", "Bea"], rules={"schedule": [1]})
    page = desktop.page
    open_seat(page, live_service.url, seat_saved(created, 2))
    page.wait_for_selector("#game .seat")
    names = page.eval_on_selector_all(".seat .name", "names => names.map(n => n.textContent)")
    assert names == ["Ana #1", "Ana #2", "You"]
    sheet = page.eval_on_selector_all(".score-sheet thead th", "ths => ths.map(t => t.textContent)")
    assert sheet[-3:] == ["Ana #1", "Ana #2", "You"]
    assert desktop.errors == []


def test_a_person_who_left_is_not_shown_at_the_table(
    desktop: Tab, live_service: LiveService
) -> None:
    """Bea sits down, plays, and leaves: her seat says so ("left", the stand-in), and its
    dot no longer says she is at the table, though she was seen a moment ago."""
    api = PochaClient(live_service.url)
    created = api.create_game(["Ana", OPEN, {"name": "Bot", "bot": "random"}], {"schedule": [3]})
    taken = api.join(created["table_code"], "Bea")
    bea = api.joined(taken)
    bea.view(created["id"])  # seen at the table
    bea.leave(created["id"], taken["seat"])
    page = desktop.page
    open_seat(page, live_service.url, seat_saved(created, 0))
    seat = f".seat[data-seat='{taken['seat']}']"
    page.wait_for_selector(f"{seat} .badge.left")
    assert page.locator(f"{seat} .dot.here").count() == 0
    assert page.locator(f"{seat} .dot.gone").count() == 1
    assert page.locator(".seat[data-seat='0'] .dot.here").count() == 1  # Ana, here
    assert desktop.errors == []


def test_the_trump_in_your_own_hand_is_said_so(desktop: Tab, live_service: LiveService) -> None:
    """The whole deck dealt, the dealer's last card is the trump: on the dealer's own page
    it is "in your hand" (not "held by You"); on another's, held by the dealer's name."""
    api = PochaClient(live_service.url)
    for seed in range(40):
        created = api.create_game(["Ana", "Bea", "Carla"], rules={"schedule": [12]}, seed=seed)
        view = api.view(created["id"])
        if view["dealer"] == 0:
            break
    else:
        raise AssertionError("no seed made Ana the dealer")
    assert view["trump"]["holder"] == 0
    page = desktop.page
    open_seat(page, live_service.url, seat_saved(created, 0))
    page.wait_for_selector("#game .trump small")
    assert page.inner_text(".trump small") == "in your hand"
    page.evaluate("localStorage.clear()")
    open_seat(page, live_service.url, seat_saved(created, 1))
    page.wait_for_selector("#game .trump small")
    assert page.inner_text(".trump small") == "held by Ana"
    assert desktop.errors == []


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("abc", "List the cards of each hand as whole numbers, such as 1,2,3."),
        # Whole numbers out of range: the server's sentence, which says the range.
        (
            "0,2",
            "every hand of the schedule must deal from 1 to 10 cards to each of 4 players, not 0",
        ),
        (
            "2,99",
            "every hand of the schedule must deal from 1 to 10 cards to each of 4 players, not 99",
        ),
    ],
)
def test_a_schedule_typed_wrong_is_refused_with_what_is_wrong(
    desktop: Tab, live_service: LiveService, typed: str, said: str
) -> None:
    page = desktop.page
    page.goto(live_service.url)
    page.wait_for_selector("#setup")
    more_options(page)
    page.select_option("select[name=schedule]", "custom")
    page.fill("input[name=schedule-custom]", typed)
    page.click("#deal")
    page.wait_for_selector("#setup #notice.error:not(:empty)")
    assert page.inner_text("#setup #notice") == said
    assert page.locator("#game").count() == 0


def test_a_hint_for_the_only_card_allowed_says_so(desktop: Tab, live_service: LiveService) -> None:
    """One card in hand: the hint names it and says it is the only move, not that the
    search "spent 100% of its time there"."""
    api = PochaClient(live_service.url)
    created = api.create_game(["Ana", "Bea", "Carla"], rules={"schedule": [1]}, seed=2)
    view = play_by_api(api, created, lambda v: v["phase"] == "playing")
    page = desktop.page
    open_seat(page, live_service.url, seat_saved(created, view["turn"]))
    page.wait_for_selector("#game[data-my-turn=yes] .card-btn.playable")
    page.click("[data-action=hint]")
    notice = page.wait_for_selector(".notice.hint", timeout=LONG_MS)
    assert notice.inner_text().endswith(". It is the only move the rules allow."), (
        notice.inner_text()
    )
    assert "100%" not in notice.inner_text()
    assert desktop.errors == []
