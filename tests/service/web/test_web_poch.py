"""The web page's Poch table in a real headless Chromium (the browser and tabs of
test_web_browser.py): a person sets up a short Poch game against two bots in the page and
plays it to the end by clicking (bets, start cards, suits), following the event stream; the
page in Spanish shows Poch's own German words; and over many positions of the engine the
table draws what the seat's view holds (every plate's and the pot's chips, the hand, the
bets) and offers exactly the decisions the engine allows.
Screenshots are saved under tests/artifacts/ (ignored by git) for the record.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest

from client.api import PochaClient
from engine.poch.game import Game
from engine.poch.observation import observe
from engine.poch.rules import MAX_PLAYERS, MIN_PLAYERS, PLATES, Rules
from tests.live import LiveService
from tests.service.web.conftest import wait_until
from tests.service.web.test_web_browser import (  # noqa: F401 (fixtures, used by name)
    DESKTOP,
    LAPTOP,
    MISFITS,
    PHONE,
    Tab,
    desktop,
    more_options,
    open_seat,
    phone,
)
from tests.waiting import LONG_MS, scaled

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

# What a person can click now at the Poch table: a call, a start card, a suit, or the end.
MY_DECISION = (
    "#game[data-my-turn=yes] [data-bet], #game[data-my-turn=yes] [data-start], "
    "#game[data-my-turn=yes] [data-suit], .final"
)


def poch_setup(
    tab: Tab,
    url: str,
    *,
    players: int,
    deals: int,
    level: str = "random",
    chips_help: str | None = None,
) -> None:
    """The setup form, Poch chosen, filled in and dealt; with `chips_help`, the chips
    field's help (its tooltip, the option's `doc` from GET /api/v1/rules) checked to be it."""
    page = tab.page
    page.goto(url)
    page.wait_for_selector("#setup")
    page.fill("input[name=name]", "Ana")
    page.select_option("select[name=game]", "poch")
    more_options(page)
    # The form is built again for Poch: its options and its bot levels.
    page.wait_for_selector("#setup fieldset.rules [name=chips]")
    if chips_help is not None:
        chips = page.locator("#setup fieldset.rules label:has([name=chips])")
        assert chips.get_attribute("title") == chips_help
    page.select_option("select[name=players]", str(players))
    page.fill("input[name=deals]", str(deals))
    page.select_option("select[name=all-levels]", level)
    # Poch's form fits as Pocha's does: nothing cut, nothing out of its box.
    assert page.evaluate(MISFITS) == [], "Poch's setup form"
    tab.screenshot(f"web-poch-{tab.name}-setup.png")
    page.click("#deal")
    page.wait_for_selector("#game[data-game=poch]")


def decide(tab: Tab, rng: random.Random) -> str:
    """Click one of the decisions offered now (a bet within the range shown, sometimes);
    what was clicked. Locators, not element handles: the table may be drawn again (a view
    read) between finding a button and clicking it."""
    page = tab.page
    mine = "#game[data-my-turn=yes]"
    for kind, selector in (
        ("start", f"{mine} .card-btn.playable[data-start]"),
        ("suit", f"{mine} [data-suit]"),
        ("bet", f"{mine} [data-bet]"),
    ):
        buttons = page.locator(selector)
        count = buttons.count()
        if not count:
            continue
        choice = buttons.nth(rng.randrange(count))
        what = f"{kind} {choice.get_attribute(f'data-{kind}')}"
        if what == "bet amount":
            field = page.locator("#poch-amount")
            low, high = int(field.get_attribute("min")), int(field.get_attribute("max"))
            amount = rng.randint(low, min(high, low + 2))
            field.fill(str(amount))
            what += f" {amount}"
        choice.click()
        return what
    raise AssertionError("no decision to click")


def play_poch_to_the_end(
    tab: Tab, api: PochaClient, game_id: str, seed: int = 3, minutes: float = 4
) -> list[str]:
    """Decide by clicking whenever it is our turn until the final result shows."""
    page = tab.page
    rng = random.Random(seed)
    done: list[str] = []
    deadline = time.monotonic() + scaled(minutes * 60)
    while time.monotonic() < deadline:
        try:
            page.wait_for_selector(MY_DECISION, timeout=LONG_MS)
        except sync_api.TimeoutError:
            # Which side stopped: the game (a turn nobody takes) or the page.
            view = api.view(game_id)
            game = {k: view[k] for k in ("phase", "turn", "version", "last_event")}
            shown = page.get_attribute("#game", "data-version")
            raise AssertionError(
                f"no decision offered; the game: {game}, the page at {shown}"
            ) from None
        if page.query_selector(".final"):
            return done
        if not done:
            # The bots' hint for a Poch decision: said in words, and marked on the table.
            page.click("[data-action=hint]")
            notice = page.wait_for_selector(".notice.hint", timeout=LONG_MS)
            assert notice.inner_text().startswith(("Hint: ", "Pista: ")), notice.inner_text()
            assert page.query_selector(".hinted") is not None
        version = page.get_attribute("#game", "data-version")
        done.append(decide(tab, rng))
        if len(done) == 1:
            tab.screenshot(f"web-poch-{tab.name}-first-decision.png")
        # The decision is taken: our turn ends (or the game moves on).
        page.wait_for_selector(
            f'#game:not([data-my-turn=yes]), #game:not([data-version="{version}"]), '
            "body:not(:has(#game))",
            state="attached",
            timeout=LONG_MS,
        )
    raise AssertionError(f"the game did not end in {minutes} minutes: {done}")


def test_a_whole_poch_game_against_two_bots(desktop: Tab, live_service: LiveService) -> None:  # noqa: F811
    poch_setup(desktop, live_service.url, players=3, deals=1)
    page = desktop.page
    # The table as dealt: the board with its eight plates and the pot, our French cards,
    # three seats, the trump suit.
    page.wait_for_selector(".hand .card-btn svg")
    plates = page.eval_on_selector_all("#board [data-plate]", "ps => ps.map(p => p.dataset.plate)")
    assert sorted(plates) == sorted([*PLATES, "pot"])
    assert len(page.query_selector_all(".poch-seat")) == 3
    assert page.query_selector(".poch-trump svg[aria-label]") is not None
    game_id = page.inner_text(".game-id").removeprefix("Game ")
    api = PochaClient(live_service.url)
    done = play_poch_to_the_end(desktop, api, game_id)
    # Every deal asks each seat still in the game for a bet (a seat that cannot pay the
    # ante leaves): one bet of ours at least.
    assert any(d.startswith("bet") for d in done), done

    view = api.view(game_id)
    # One deal: its motion at the page's pace costs most of this test's time.
    played = len(view["deal_results"])
    assert view["phase"] == "over" and played == 1, view["deal_results"]
    final = page.inner_text(".final")
    assert "win" in final.lower()
    # The title keeps the deal; the line under it says the game is over (once).
    assert page.inner_text(".hand-info strong") == "Deal 1 of 1"
    assert page.inner_text("#turn-line") == "Game over"
    ranking = page.query_selector_all(".ranking li")
    assert len(ranking) == 3
    # The page's chips at the end are the game's.
    totals = page.query_selector_all(".poch-sheet tfoot td")
    chips = [int(c.inner_text().rstrip(" ★")) for c in totals]
    assert chips == view["result"]["chips"]
    assert len(page.query_selector_all(".poch-sheet tbody tr")) == played
    desktop.screenshot("web-poch-desktop-final.png")
    page.click("[data-action=close]")
    desktop.screenshot("web-poch-desktop-table-after.png")
    assert "eventsource" in desktop.event_requests
    assert desktop.errors == []


def test_the_page_in_spanish_keeps_pochs_own_words(phone: Tab, live_service: LiveService) -> None:  # noqa: F811
    page = phone.page
    page.add_init_script("localStorage.setItem('pocha.lang', 'es')")
    # The form's help lines come from GET /api/v1/rules, in the page's language too.
    chips_help = "Fichas con las que empieza cada jugador."
    poch_setup(phone, live_service.url, players=3, deals=1, chips_help=chips_help)
    page.wait_for_selector(MY_DECISION, timeout=LONG_MS)
    text = page.inner_text("#game")
    # The page's own words in Spanish ...
    assert "Reparto 1 de 1" in text and "Fichas" in text, text
    # ... and the game's German ones: the plates, the pot, the calls.
    board = page.inner_text("#board")
    for word in ("Ass", "König", "Dame", "Bube", "Zehn", "Mariage", "Sequenz", "Poch", "Kasse"):
        assert word in board, word
    if page.query_selector("#game[data-my-turn=yes] [data-bet]"):
        # The calls offered (a bet only when we have more chips than the highest one).
        calls = page.inner_text(".poch-bets")
        assert "Passe" in calls and "pasar" in calls, calls
        if page.query_selector("[data-bet=amount]"):
            assert "Poche" in calls or "Erhöhe" in calls, calls
    assert "Pochen" in text or "Ausspielen" in text, text
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.screenshot("web-poch-phone-es.png")
    assert phone.errors == []


# Loads the Poch table's module into the page as `window.poch`, with `window.pochContext`:
# the context app.js gives it, for a view alone (no stream, no motion, nothing sent).
LOAD_POCH = """async () => {
    window.poch = await import('/static/poch.js');
    window.pochContext = (view, extra = {}) => {
        const state = { view, handledSeq: view.last_event, hint: null, notice: '',
                        noticeKind: 'info', finalClosed: false, sheetOpen: true };
        return {
            state, reduced: true,
            myTurn: () => view.turn === view.you.seat,
            nameOf: (s) => view.players[s].name,
            say: () => {}, render: () => {}, sleep: async () => {}, fly: async () => {},
            presence: () => '', levelBadge: () => '', badges: () => '',
            awayBar: () => '', gameTools: () => '',
            ...extra,
        };
    };
}"""


def load_poch(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("#setup")  # the page's catalogue is loaded
    page.evaluate(LOAD_POCH)


def test_a_poch_table_waits_for_a_person_and_starts_with_bots(
    desktop: Tab,  # noqa: F811
    live_service: LiveService,
) -> None:
    """A seat for a person makes a Poch table: its waiting room tells Poch's rules and
    offers Poch's bot levels to start with; started, the Poch table is dealt."""
    page = desktop.page
    page.goto(live_service.url)
    page.wait_for_selector("#setup")
    page.fill("input[name=name]", "Ana")
    page.select_option("select[name=game]", "poch")
    more_options(page)
    page.wait_for_selector("#setup fieldset.rules [name=chips]")
    page.select_option("select[name=players]", "3")
    page.select_option("select[name=seat-2]", "open")
    assert not page.is_checked("input[name=listed]")  # private unless listed
    page.click("#deal")
    page.wait_for_selector("#waiting")
    lead = page.inner_text("#waiting")
    assert "Poch" in lead and "3 players" in lead and "50 chips, ante 1" in lead, lead
    levels = page.eval_on_selector_all("#start-level option", "os => os.map(o => o.value)")
    assert levels == ["random", "heuristic", "easy", "medium", "hard"], levels
    page.select_option("#start-level", "heuristic")
    page.click("#start")
    page.wait_for_selector("#game[data-game=poch] .hand .card-btn svg", timeout=LONG_MS)
    assert page.inner_text(".poch-seat[data-seat='1'] .level") == "heuristic"
    assert desktop.errors == []


def seat_view(game: Game, seat: int, names: list[str], seq: int) -> dict[str, Any]:
    """The seat's view as the API sends it (the spec's envelope around the observation)."""
    obs = observe(game, seat).to_dict()
    you = {"seat": seat, "hand": obs.pop("hand"), "legal": obs.pop("legal_actions")}
    for key in ("format", "seat"):
        obs.pop(key)
    obs.update(
        id=f"poch-{seq}", version=seq, last_event=seq, seeded=True, table=None, deadline=None,
        seconds_left=None, you=you, players=[{"name": n} for n in names],
    )  # fmt: skip
    return obs


def test_the_table_draws_the_view_and_offers_what_the_engine_allows(
    desktop: Tab,  # noqa: F811
    live_service: LiveService,
) -> None:
    """Over random positions of every phase, the table drawn from a seat's view shows each
    plate's and the pot's chips, every seat's chips, the seat's hand, and as decisions
    exactly the engine's legal actions: the calls (hold only when legal, the amount's
    bounds those of the legal bets), the start cards, the suits."""
    rng = random.Random(11)
    cases: list[dict[str, Any]] = []
    for n in range(3, 9):
        for _ in range(3):
            names = [f"P{s}" for s in range(n)]
            game = Game.new(Rules(players=n, chips=30, deals=3), rng.randrange(1 << 30))
            steps = 0
            while not game.finished and steps < 400:
                seat = game.turn
                assert seat is not None
                if rng.random() < 0.25:
                    cases.append(seat_view(game, seat, names, len(cases) + 1))
                legal = game.legal_actions()
                game.apply(seat, rng.choice(legal))
                steps += 1
            cases.append(seat_view(game, 0, names, len(cases) + 1))
    phases = {c["phase"] for c in cases}
    assert phases == {"betting", "starting", "choosing", "over"}, phases

    page = desktop.page
    load_poch(page, live_service.url)
    got = page.evaluate(
        """(casesJson) => {
            const box = document.createElement('div');
            // Detached: each render is parsed as the page would, without laying out.
            return JSON.stringify(JSON.parse(casesJson).map((view) => {
                box.innerHTML = poch.tableHtml(view, pochContext(view));
                const all = (sel, f) => [...box.querySelectorAll(sel)].map(f);
                const amount = box.querySelector('#poch-amount');
                return {
                    plates: Object.fromEntries(all('#board [data-plate]',
                        (p) => [p.dataset.plate, Number(p.dataset.chips)])),
                    chips: all('.poch-seat .chips', (c) => Number(c.textContent)),
                    hand: all('.hand .card-btn', (b) => b.dataset.code),
                    starts: all('[data-start]', (b) => b.dataset.start),
                    suits: all('[data-suit]', (b) => b.dataset.suit),
                    calls: all('[data-bet]', (b) => b.dataset.bet),
                    amount: amount ? [Number(amount.min), Number(amount.max)] : null,
                    final: Boolean(box.querySelector('.final')),
                };
            }));
        }""",
        # Strings both ways: Playwright checks a structured argument's every element.
        json.dumps(cases),
    )
    got = json.loads(got)
    wrong = []
    for view, shown in zip(cases, got, strict=True):
        legal = view["you"]["legal"]
        numbers = [a for a in legal if isinstance(a, int)]
        expected = {
            "plates": {**view["plates"], "pot": view["pot"]},
            "chips": view["chips"],
            "hand": view["you"]["hand"],
            "starts": legal if view["phase"] == "starting" else [],
            "suits": legal if view["phase"] == "choosing" else [],
            "calls": (
                ["pass"] + (["hold"] if "hold" in legal else []) + (["amount"] if numbers else [])
                if view["phase"] == "betting"
                else []
            ),
            "amount": [min(numbers), max(numbers)] if numbers else None,
            "final": view["phase"] == "over",
        }
        if shown != expected:
            wrong.append({"view": view, "shown": shown, "expected": expected})
    assert not wrong, json.dumps(wrong[:2], indent=1)[:4000]
    assert desktop.errors == []


# What the page works out from the events, compared with the view read after them. Left
# out: what only the server knows (whose turn, what is legal) and what a finished game
# clears (the last deal's trump and hands).
FROM_EVENTS = ("deal", "dealer", "chips", "active", "plates", "pot", "bets", "showdown",
               "collected", "played", "starter", "direction", "suits_done",
               "deal_results")  # fmt: skip


def test_the_events_bring_the_table_to_the_next_view(
    desktop: Tab,  # noqa: F811
    live_service: LiveService,
) -> None:
    """From a seat's view at its turn, the page shows the events up to its next turn (its
    own decision's, the other seats', whole deals' with their ante, honours, showdown and
    runs) one by one on that view; the table it then holds is the view the server gives
    after them, every chip and card in place."""
    rng = random.Random(23)
    cases: list[dict[str, Any]] = []
    for n in (3, 4, 5, 8):
        for _ in range(3):
            names = [f"P{s}" for s in range(n)]
            game = Game.new(Rules(players=n, chips=20, deals=4), rng.randrange(1 << 30))
            seq = 0

            def pick() -> int:
                # Often the first legal action (a pass, while betting), so that whole
                # rounds pass too; else any.
                legal = game.legal_actions()  # noqa: B023 (this game, called at once)
                return legal[0] if rng.random() < 0.5 else rng.choice(legal)

            while not game.finished:
                if game.turn != 0:
                    seq += len(game.apply(game.turn, pick()))
                    continue
                before = seat_view(game, 0, names, seq)
                events: list[dict[str, Any]] = []
                while not events or (not game.finished and game.turn != 0):
                    assert game.turn is not None
                    for event in game.apply(game.turn, pick()):
                        seq += 1
                        events.append({**event, "seq": seq, "version": seq})
                after = seat_view(game, 0, names, seq)
                cases.append({"before": before, "events": events, "after": after})
    kinds = {e["type"] for c in cases for e in c["events"]}
    # Every kind of event of a Poch game comes by (leave too: 20 chips pay few antes).
    assert kinds >= {"ante", "deal", "collect", "pass", "bet", "hold", "raise", "no_bet",
                     "showdown", "take_pot", "start", "choose", "play", "deal_won", "leave",
                     "game_over"}, kinds  # fmt: skip

    page = desktop.page
    load_poch(page, live_service.url)
    got = page.evaluate(
        """async (casesJson) => {
            const cases = JSON.parse(casesJson);
            const box = document.createElement('div');
            // Detached: each render is parsed as the page would, without laying out.
            const results = [];
            for (const { before, events, after } of cases) {
                const ctx = pochContext(structuredClone(before), {
                    myTurn: () => false,
                    // The server's view while these events are shown: the one after them.
                    readView: async () => structuredClone(after),
                    render: () => { box.innerHTML = poch.tableHtml(ctx.state.view, ctx); },
                });
                const state = ctx.state;
                const left = [];
                for (const event of events) {
                    if (!(await poch.showEvent(event, ctx))) left.push(event.type);
                    state.handledSeq = event.seq;
                }
                results.push({ view: state.view, left });
            }
            return JSON.stringify(results);
        }""",
        # Strings both ways: Playwright checks a structured argument's every element.
        json.dumps(cases),
    )
    got = json.loads(got)
    wrong = []
    for case, shown in zip(cases, got, strict=True):
        after, view = case["after"], shown["view"]
        keys = list(FROM_EVENTS)
        if after["phase"] != "over":
            keys += ["trump", "hand_sizes"]
        else:
            keys.remove("dealer")  # the engine passes the deal on before it finds the end
        differ = {k: (view.get(k), after[k]) for k in keys if view.get(k) != after[k]}
        if after["phase"] != "over" and view["you"]["hand"] != after["you"]["hand"]:
            differ["hand"] = (view["you"]["hand"], after["you"]["hand"])
        # Only the game's end is left to app.js (it reads the final view).
        if set(shown["left"]) - {"game_over"}:
            differ["left"] = shown["left"]
        if differ:
            wrong.append({"differ": differ, "events": " ".join(e["type"] for e in case["events"])})
    assert not wrong, json.dumps(wrong[:3], indent=1)[:4000]
    assert desktop.errors == []


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=lambda s: f"{s['width']}x{s['height']}")
def test_a_poch_table_fits_the_screen(
    browser: Any,
    live_service: LiveService,
    size: dict[str, int],
) -> None:
    """Eight players mid-shedding: nothing wider than the screen."""
    rng = random.Random(5)
    names = [f"Player {s}" for s in range(8)]
    game = Game.new(Rules(players=8), 12)
    while game.phase != "choosing" or len(game.played) < 10:
        seat = game.turn
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_actions()))
    view = seat_view(game, game.turn or 0, names, 1)
    tab = Tab(browser, size, f"poch-{size['width']}")
    try:
        page = tab.page
        load_poch(page, live_service.url)
        page.evaluate(
            """(view) => {
                document.getElementById('app').innerHTML = poch.tableHtml(view, pochContext(view));
            }""",
            view,
        )
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        tab.screenshot(f"web-poch-{size['width']}-shedding.png")
        assert tab.errors == []
    finally:
        tab.close()


@pytest.mark.parametrize("count", [MIN_PLAYERS, 4, MAX_PLAYERS], ids=lambda n: f"{n}-players")
@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=lambda s: f"{s['width']}x{s['height']}")
def test_your_turn_shows_your_hand_and_the_calls(
    browser: Any,
    live_service: LiveService,
    size: dict[str, int],
    count: int,
) -> None:
    """On your turn your hand and the calls are on the screen, at every table size: on a
    laptop's 800 px without any scrolling (the board gives up height, the seats stay on one
    row), on a phone brought into view by the page."""
    api = PochaClient(live_service.url)
    bots = [{"name": f"Bot {i}", "bot": "random"} for i in range(1, count)]
    created = api.create_game([{"name": "Ana"}, *bots], game="poch", rules={"deals": 1})
    tab = Tab(browser, size, f"poch-turn-{size['width']}-{count}")
    page = tab.page
    try:
        saved = {"id": created["id"], "token": created["seats"][0]["token"],
                 "hostToken": created["host_token"], "seat": 0}  # fmt: skip
        open_seat(page, live_service.url, saved)
        page.wait_for_selector("#game[data-my-turn=yes] [data-bet]", timeout=LONG_MS)
        seen = (
            "() => [...document.querySelectorAll('#game .hand, #game .poch-bets')]"
            ".every((e) => { const r = e.getBoundingClientRect();"
            " return r.top >= 0 && r.bottom <= window.innerHeight + 1; })"
        )
        wait_until(page, seen)
        if size is LAPTOP:
            assert page.evaluate("window.scrollY") == 0
            tops = page.eval_on_selector_all(
                "#game .poch-seat", "seats => seats.map((s) => s.getBoundingClientRect().top)"
            )
            assert len(tops) == count and len(set(tops)) == 1, tops
        for part in ("#game .hand", "#game .poch-bets"):
            box = page.locator(part).bounding_box()
            assert box is not None, part
            assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"] + 1, (part, box)
        tab.screenshot(f"web-poch-turn-{size['width']}-{count}.png")
        assert tab.errors == []
    finally:
        tab.close()


def test_the_shown_sets_fit_a_small_phone(
    browser: Any,
    live_service: LiveService,
) -> None:
    """The sets shown at the showdown of eight seats with long names, on a 360x640 phone in
    Spanish: each seat's name sits over its own cards, overlapping none of them nor another
    set, and nothing is wider than the screen."""
    rng = random.Random(5)
    names = [f"Jugadora número {s}" for s in range(8)]
    for seed in range(100):
        game = Game.new(Rules(players=8), seed)
        while game.phase == "betting":
            seat = game.turn
            assert seat is not None
            game.apply(seat, rng.choice(game.legal_actions()))
        if len(game.showdown) >= 4 and not game.played:
            break
    else:
        raise AssertionError("no seed gave a showdown of four sets")
    view = seat_view(game, game.turn or 0, names, 1)
    size = {"width": 360, "height": 640}
    tab = Tab(browser, size, "poch-showdown-360")
    try:
        page = tab.page
        tab.context.add_cookies([{"name": "pocha_lang", "value": "es", "url": live_service.url}])
        # Measured where the cards rest, not while they are dealt in.
        page.emulate_media(reduced_motion="reduce")
        page.add_init_script("localStorage.setItem('pocha.lang', 'es')")
        load_poch(page, live_service.url)
        page.evaluate(
            """(view) => {
                document.getElementById('app').innerHTML = poch.tableHtml(view, pochContext(view));
            }""",
            view,
        )
        sync_api.expect(page.locator("#run.showdown")).to_contain_text("Los juegos enseñados")
        overlaps = page.evaluate(
            """() => {
                const boxes = [...document.querySelectorAll('.shown-set .by, .shown-set .card')]
                    .map((e) => [e, e.getBoundingClientRect()]);
                const found = [];
                for (const [a, ra] of boxes) for (const [b, rb] of boxes) {
                    if (a === b || a.contains(b) || b.contains(a)) continue;
                    if (!a.classList.contains('by')) continue;
                    const x = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
                    const y = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
                    if (x > 0.5 && y > 0.5) found.push(`${a.textContent} over ${b.className}`);
                }
                return found;
            }"""
        )
        tab.screenshot("web-poch-360-showdown.png")
        assert overlaps == []
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        assert tab.errors == []
    finally:
        tab.close()


def test_two_poch_seats_of_one_name_are_told_apart(desktop: Tab, live_service: LiveService) -> None:  # noqa: F811
    """Two people named Ana at a Poch table: the seats and the list of what happened say
    "Ana #1" and "Ana #2", as on Pocha's table and in the terminal."""
    api = PochaClient(live_service.url)
    created = api.create_game(["Ana", "Ana", "Bea"], game="poch", rules={"deals": 1})
    page = desktop.page
    saved = {"id": created["id"], "token": created["seats"][2]["token"],
             "hostToken": created["host_token"], "seat": 2}  # fmt: skip
    open_seat(page, live_service.url, saved)
    page.wait_for_selector("#game[data-game=poch] .poch-seat")
    names = page.eval_on_selector_all(".poch-seat .name", "ns => ns.map(n => n.textContent)")
    assert names == ["Ana #1", "Ana #2", "You"]
    view = api.view(created["id"])
    if view["turn"] == 2:  # Bea is Vorhand: she passes first, then an Ana bets
        api.seat(created, 2).poch_act(created["id"], "pass")
        view = api.view(created["id"])
    assert view["phase"] == "betting" and view["turn"] in (0, 1), view
    api.seat(created, view["turn"]).poch_act(created["id"], "pass")
    page.wait_for_selector(f".poch-log li:has-text('Ana #{view['turn'] + 1}')", timeout=LONG_MS)
    assert desktop.errors == []


def test_the_list_of_what_happened_is_there_after_a_reload(
    desktop: Tab,  # noqa: F811
    live_service: LiveService,
) -> None:
    """A Poch table opened (or reloaded) in the middle of a deal lists what happened in it
    so far, read from the game's events, with no event new since."""
    api = PochaClient(live_service.url)
    created = api.create_game(["Ana", "Bruno", "Bea"], game="poch", rules={"deals": 1})
    view = api.view(created["id"])
    # The seats before Bea's turn pass, so the deal has bets of people to list.
    while view["phase"] == "betting" and view["turn"] != 2:
        api.seat(created, view["turn"]).poch_act(created["id"], "pass")
        view = api.view(created["id"])
    betting = {b["seat"] for b in view["bets"]}
    passed = [name for seat, name in enumerate(["Ana", "Bruno"]) if seat in betting]
    page = desktop.page
    saved = {"id": created["id"], "token": created["seats"][2]["token"],
             "hostToken": created["host_token"], "seat": 2}  # fmt: skip
    open_seat(page, live_service.url, saved)
    page.wait_for_selector(".poch-log li")
    lines = page.eval_on_selector_all(".poch-log li", "ls => ls.map(l => l.textContent)")
    # The newest first: the bets, the trump, the ante that began the deal.
    assert lines[-1].startswith("Deal 1: everyone puts "), lines
    assert lines[-2].startswith("Trumpf: "), lines
    for name in passed:
        assert f"{name}: Passe (passes)." in lines, lines
    page.reload()
    page.wait_for_selector(".poch-log li")
    assert page.eval_on_selector_all(".poch-log li", "ls => ls.map(l => l.textContent)") == lines
    assert desktop.errors == []
