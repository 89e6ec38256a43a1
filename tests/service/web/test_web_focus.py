"""The keyboard's focus survives the page's redraws, in a real headless Chromium (the
browser and tabs of test_web_browser.py): a card of the hand reached with Tab keeps the
focus while the other seats' moves are shown, in Pocha and in Poch, without a focus event
(a screen reader would read the card out again at each move); a card played hands
it to the line saying whose turn it is, never to <body>; in the waiting room a host's
button keeps it while people sit down, and the table's link keeps the focus and what of it
was selected; the others' moves leave the table's elements in place (a click pressed as
they arrive is not lost) and are said once in the log for screen readers, in English and
Spanish; that log says only the table shown (not the setup form's lines, nor a game
left), and an error is said once, by the page's alert; and focus.js on its own keeps what
a person typed, not what the page set, a menu drawn again in other words shows the option
the drawing marks chosen, and a list drawn again is touched only where it changed.

Each game seats a person played from here through the API before the page's person: the
page stays still while Tab is pressed, then that person's move (and a bot's after it)
redraws the table.
"""

from __future__ import annotations

from typing import Any

import pytest

from client.api import OPEN, CreatedGame, PochaClient
from tests.live import LiveService
from tests.service.web.test_web_browser import (  # noqa: F401 (fixtures, used by name)
    Tab,
    desktop,
    more_options,
    open_seat,
    sync_api,
)
from tests.waiting import LONG, LONG_MS, wait_until

# The most Tab presses from the top of the page to any control of a table.
MOST_TABS = 40


def focused(page: Any) -> str:
    """The element that has the focus, for a failed assertion: its tag, id and data."""
    described: str = page.evaluate(
        "() => { const e = document.activeElement;"
        " return `${e.localName}#${e.id} ${JSON.stringify({ ...e.dataset })}`; }"
    )
    return described


def tab_to(page: Any, selector: str) -> None:
    """Press Tab, as a person would, until a control matching `selector` has the focus."""
    for _ in range(MOST_TABS):
        page.keyboard.press("Tab")
        if page.locator(f"{selector}:focus").count():
            return
    raise AssertionError(f"Tab never reached {selector}; the focus is on {focused(page)}")


# Counts the focus events from now on (`window.refocused`): a control kept in place through
# a redraw has none, so a screen reader does not read it out again.
COUNT_FOCUS = (
    "() => { window.refocused = 0;"
    " document.addEventListener('focusin', () => { window.refocused += 1; }); }"
)


def seated(created: CreatedGame, seat: int = 0) -> dict[str, Any]:
    """The seat as a deal leaves it in the page's localStorage."""
    return {"id": created["id"], "token": created["seats"][seat]["token"],
            "hostToken": created["host_token"], "seat": seat,
            "code": created["table_code"]}  # fmt: skip


def bea_first(api: PochaClient, game: str, rules: dict[str, Any]) -> CreatedGame:
    """A game of Ana (seat 0, the page's), Bea (seat 1, played through the API) and a bot,
    whose first turn is Bea's: Bea, then the bot, then Ana."""
    players = [{"name": "Ana"}, {"name": "Bea"}, {"name": "Bot", "bot": "random"}]
    for seed in range(200):
        created = api.create_game(players, rules, seed=seed, game=game)
        if api.view(created["id"])["turn"] == 1:
            return created
    raise AssertionError("no seed gave Bea the first turn")


def test_a_pocha_card_keeps_the_focus_while_the_others_bid(
    desktop: Tab,  # noqa: F811
    live_service: LiveService,
) -> None:
    api = PochaClient(live_service.url)
    created = bea_first(api, "pocha", {"schedule": [3]})
    game_id = created["id"]
    page = desktop.page
    open_seat(page, live_service.url, seated(created))
    version = api.view(game_id)["version"]
    page.wait_for_selector(f'#game[data-my-turn=no][data-version="{version}"] .hand .card-btn')
    tab_to(page, ".hand .card-btn")
    card = page.locator(":focus").get_attribute("data-card")
    page.evaluate(COUNT_FOCUS)

    bea = api.seat(created, 1)
    bea.bid(game_id, bea.view(game_id)["you"]["legal"][0])
    # Bea's bid and the bot's are shown, then the view read again: Ana's turn to bid.
    page.wait_for_selector(
        f'#game[data-my-turn=yes]:not([data-version="{version}"]) .bid-btn.legal',
        timeout=LONG_MS,
    )
    assert page.locator(f'.hand .card-btn[data-card="{card}"]:focus').count() == 1, focused(page)
    assert page.evaluate("window.refocused") == 0
    assert desktop.errors == []


def test_a_poch_card_keeps_the_focus_while_the_others_bet(
    desktop: Tab,  # noqa: F811
    live_service: LiveService,
) -> None:
    api = PochaClient(live_service.url)
    created = bea_first(api, "poch", {"deals": 1})
    game_id = created["id"]
    page = desktop.page
    open_seat(page, live_service.url, seated(created))
    version = api.view(game_id)["version"]
    page.wait_for_selector(
        f'#game[data-game=poch][data-my-turn=no][data-version="{version}"] .hand .card-btn'
    )
    tab_to(page, ".hand .card-btn")
    card = page.locator(":focus").get_attribute("data-code")
    page.evaluate(COUNT_FOCUS)

    # Bea bets, so the bot and then Ana must answer the bet.
    bea = api.seat(created, 1)
    legal = bea.view(game_id)["you"]["legal"]
    bea.bet(game_id, min(a for a in legal if isinstance(a, int)))
    page.wait_for_selector(
        f'#game[data-my-turn=yes]:not([data-version="{version}"]) [data-bet]', timeout=LONG_MS
    )
    assert page.locator(f'.hand .card-btn[data-code="{card}"]:focus').count() == 1, focused(page)
    assert page.evaluate("window.refocused") == 0
    assert desktop.errors == []


def test_a_card_played_hands_the_focus_to_the_turns_line(
    desktop: Tab,  # noqa: F811
    live_service: LiveService,
) -> None:
    """Ana leads the first trick from the keyboard: the card she played is gone, and the
    focus goes to the line that says whose turn it is, and stays there as the bots play."""
    api = PochaClient(live_service.url)
    players = [{"name": "Ana"}] + [{"name": f"Bot {i}", "bot": "random"} for i in (1, 2)]
    for seed in range(200):
        created = api.create_game(players, {"schedule": [3]}, seed=seed)
        if api.view(created["id"])["mano"] == 0:  # Ana bids first, and leads the trick
            break
    else:
        raise AssertionError("no seed gave Ana the first turn")
    page = desktop.page
    open_seat(page, live_service.url, seated(created))
    page.click("#game[data-my-turn=yes] .bid-btn.legal", timeout=LONG_MS)
    page.wait_for_selector("#game[data-my-turn=yes] .card-btn.playable", timeout=LONG_MS)
    tab_to(page, ".card-btn.playable")
    card = page.locator(":focus").get_attribute("data-card")

    page.keyboard.press("Enter")
    page.wait_for_selector(f'.hand [data-card="{card}"]', state="detached", timeout=LONG_MS)
    assert page.locator("#turn-line:focus").count() == 1, focused(page)
    # The bots' cards come, the trick is won and put aside: the focus stays on that line.
    page.wait_for_selector(".last-trick", timeout=LONG_MS)
    assert page.locator("#turn-line:focus").count() == 1, focused(page)
    assert desktop.errors == []


def test_a_game_opened_puts_the_focus_on_the_first_move_once(
    desktop: Tab,  # noqa: F811
    live_service: LiveService,
) -> None:
    """Opened (as after a reload), the game puts the focus on what Ana can do: her first
    legal bid, her first playable card; on whose turn it is when nothing; never on <body>.
    Put elsewhere by Ana, it stays there as her turn comes."""
    api = PochaClient(live_service.url)
    players = [{"name": "Ana"}, {"name": "Bea"}, {"name": "Bot", "bot": "random"}]
    for seed in range(200):
        created = api.create_game(players, {"schedule": [3]}, seed=seed)
        if api.view(created["id"])["turn"] == 0:  # Ana bids first
            break
    else:
        raise AssertionError("no seed gave Ana the first turn")
    game_id = created["id"]
    page = desktop.page
    expect = sync_api.expect
    open_seat(page, live_service.url, seated(created))
    expect(page.locator("#game[data-my-turn=yes] .bid-btn.legal").first).to_be_focused(
        timeout=LONG_MS
    )

    # Ana moves the focus to the score sheet; her bid and the others' redraw the table and
    # bring her turn to play: the focus stays where she put it.
    page.focus("[data-focus=sheet]")
    ana, bea = api.seat(created, 0), api.seat(created, 1)
    ana.bid(game_id, ana.view(game_id)["you"]["legal"][0])
    wait_until(lambda: bea.view(game_id)["turn"] == 1, LONG, "Bea's turn")
    bea.bid(game_id, bea.view(game_id)["you"]["legal"][0])
    expect(page.locator("#game[data-my-turn=yes] .card-btn.playable").first).to_be_visible(
        timeout=LONG_MS
    )
    expect(page.locator("[data-focus=sheet]")).to_be_focused()

    page.reload()
    expect(page.locator("#game[data-my-turn=yes] .card-btn.playable").first).to_be_focused(
        timeout=LONG_MS
    )
    # Not Ana's turn: the line that says whose it is.
    ana.play(game_id, ana.view(game_id)["you"]["legal"][0])
    wait_until(lambda: bea.view(game_id)["turn"] == 1, LONG, "Bea's turn")
    page.reload()
    expect(page.locator("#game[data-my-turn=no] #turn-line")).to_be_focused(timeout=LONG_MS)
    assert desktop.errors == []


def test_the_waiting_room_keeps_the_focus_as_people_sit_down(
    desktop: Tab,  # noqa: F811
    live_service: LiveService,
) -> None:
    api = PochaClient(live_service.url)
    created = api.create_game([{"name": "Ana"}, OPEN, OPEN, OPEN], {"schedule": [1]})
    code = created["table_code"]
    assert code is not None
    page = desktop.page
    open_seat(page, live_service.url, seated(created))
    page.wait_for_selector('#waiting[data-open-seats="3"]')
    give = '[data-action=seat-bot][data-seat="2"]'
    tab_to(page, give)

    api.join(code, "Bea")
    page.wait_for_selector('#waiting[data-open-seats="2"]', timeout=LONG_MS)
    assert page.locator(f"{give}:focus").count() == 1, focused(page)

    # The link's field, reached with Tab, its first four letters selected, while Carla sits.
    tab_to(page, "#table-link")
    page.eval_on_selector("#table-link", "e => e.setSelectionRange(0, 4)")
    api.join(code, "Carla")
    page.wait_for_selector('#waiting[data-open-seats="1"]', timeout=LONG_MS)
    assert page.locator("#table-link:focus").count() == 1, focused(page)
    selected = page.eval_on_selector("#table-link", "e => [e.selectionStart, e.selectionEnd]")
    assert selected == [0, 4]
    assert desktop.errors == []


# A box of the page's, drawn by focus.js's `redraw` at the test's request: two fields, a
# card and a line to fall back to. `window.draw(amount, name, card)` draws it again with
# the page's own values (the card left out when `card` is false, the name's field in a box
# of its own when `boxed`: the drawing around it changed).
DRAW = """async () => {
    const { redraw } = await import('/static/focus.js');
    const box = document.createElement('div');
    box.id = 'box';
    document.body.append(box);
    window.draw = ([amount, name, card, boxed]) => redraw(box, `
        <input id="amount" type="number" value="${amount}">
        ${boxed ? '<div>' : ''}<input id="who" value="${name}">${boxed ? '</div>' : ''}
        ${card ? '<button data-card="O1">O1</button>' : ''}
        <p id="home" tabindex="-1">home</p>`, ['#box [data-card]', '#home']);
    window.draw([2, 'Ana', true]);
}"""


def test_redraw_keeps_what_the_person_typed_and_no_more(
    desktop: Tab,  # noqa: F811
    live_service: LiveService,
) -> None:
    """focus.js on its own: a field keeps what the person typed and the caret, while a
    value the page set is the page's to change; a control gone hands the focus to the
    fallback; a focus outside what is redrawn is left alone."""
    page = desktop.page
    page.goto(live_service.url)
    page.wait_for_selector("#setup")
    page.evaluate(DRAW)

    page.click("#who")
    page.keyboard.press("End")
    page.keyboard.type("n")
    page.keyboard.press("ArrowLeft")
    page.evaluate("window.draw([2, 'Bea', true])")
    assert page.locator("#who:focus").count() == 1, focused(page)
    assert page.eval_on_selector("#who", "e => [e.value, e.selectionStart]") == ["Anan", 3]
    # Drawn in another shape, the field is a new one, focused, with the person's text and caret.
    page.evaluate("window.draw([2, 'Bea', true, true])")
    assert page.locator("#box div > #who:focus").count() == 1, focused(page)
    assert page.eval_on_selector("#who", "e => [e.value, e.selectionStart]") == ["Anan", 3]

    # The amount the page set, untouched by the person, is the page's to change.
    page.focus("#amount")
    page.evaluate("window.draw([3, 'Bea', true])")
    assert page.locator("#amount:focus").count() == 1, focused(page)
    assert page.input_value("#amount") == "3"
    page.keyboard.press("ArrowUp")  # the person's now
    page.evaluate("window.draw([5, 'Bea', true])")
    assert page.input_value("#amount") == "4"

    page.focus("#box [data-card=O1]")
    page.evaluate("window.draw([5, 'Bea', true])")
    assert page.locator("#box [data-card=O1]:focus").count() == 1, focused(page)
    page.evaluate("window.draw([5, 'Bea', false])")
    assert page.locator("#home:focus").count() == 1, focused(page)

    page.focus("#setup input[name=name]")
    page.evaluate("window.draw([5, 'Bea', true])")
    assert page.locator("#setup input[name=name]:focus").count() == 1, focused(page)
    assert desktop.errors == []


# A menu of focus.js's drawing, its options named in `words` (a language), `chosen`
# marked selected: `window.menu(words, chosen)` draws it again.
MENU = """async () => {
    const { redraw } = await import('/static/focus.js');
    const box = document.createElement('div');
    box.id = 'menu-box';
    document.body.append(box);
    window.menu = ([words, chosen]) => redraw(box, `<label>${words[0]} <select id="level">
        ${['easy', 'medium', 'hard'].map((l, i) =>
            `<option value="${l}"${l === chosen ? ' selected' : ''}>${words[i + 1]}</option>`)
        .join('')}</select></label>`);
    window.menu([['Level', 'Easy', 'Medium', 'Hard'], 'easy']);
}"""


def test_a_menu_redrawn_in_another_language_keeps_the_option_drawn_chosen(
    desktop: Tab,  # noqa: F811
    live_service: LiveService,
) -> None:
    """focus.js on its own: a focused menu drawn again with its options in other words
    keeps the focus and shows the option the drawing marks chosen (not the last one, as
    options moved out of the drawing's own menu one by one would)."""
    page = desktop.page
    page.goto(live_service.url)
    page.wait_for_selector("#setup")
    page.evaluate(MENU)
    page.focus("#level")
    page.select_option("#level", "medium")
    page.evaluate("window.menu([['Nivel', 'Fácil', 'Medio', 'Difícil'], 'medium'])")
    assert page.locator("#level:focus").count() == 1, focused(page)
    assert page.input_value("#level") == "medium"
    assert page.inner_text("#level option:checked") == "Medio"
    assert desktop.errors == []


# Marks the elements of the table that a move of another seat leaves standing (the cards of
# the hand, the table, the seats, the score sheet's title): `window.kept()` then says
# whether each is still the very element in the page.
MARK = """() => {
    const marked = [...document.querySelectorAll(
        '#game .hand .card-btn, #table, #game .seat, [data-focus=sheet]')];
    window.kept = () => marked.map((e) => e.isConnected);
    return marked.length;
}"""

# As Safari and Firefox on a Mac have it: a press of the mouse does not focus a button.
UNFOCUSED_PRESS = "() => document.addEventListener('mousedown', (e) => e.preventDefault(), true)"

#: What the log for screen readers says of a bid, and of this seat's turn to bid.
BIDS_SAID = {"en": ("{name} bids {n}.", "Your turn: bid"),
             "es": ("{name} apuesta {n}.", "Te toca: apuesta")}  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_others_moves_leave_the_table_in_place_and_are_said_once(
    desktop: Tab,  # noqa: F811
    live_service: LiveService,
    lang: str,
) -> None:
    """Ana presses the mouse on the score sheet's title as Bea's bid and the bot's arrive,
    and lets go once they are shown: the click is hers (the sheet closes), for the title
    pressed is the one released, as are the hand's cards, the table and the seats, each
    the same element as before the moves. The log for screen readers says each bid once,
    then that it is Ana's turn, in her language."""
    api = PochaClient(live_service.url)
    created = bea_first(api, "pocha", {"schedule": [3]})
    game_id = created["id"]
    page = desktop.page
    page.add_init_script(f"localStorage.setItem('pocha.lang', '{lang}')")
    open_seat(page, live_service.url, seated(created))
    version = api.view(game_id)["version"]
    page.wait_for_selector(f'#game[data-my-turn=no][data-version="{version}"] .hand .card-btn')
    assert page.evaluate(MARK) == 3 + 1 + 3 + 1
    page.evaluate(UNFOCUSED_PRESS)
    title = page.locator("[data-focus=sheet]").bounding_box()
    assert title is not None
    page.mouse.move(title["x"] + title["width"] / 2, title["y"] + title["height"] / 2)
    page.mouse.down()

    bea = api.seat(created, 1)
    bea.bid(game_id, bea.view(game_id)["you"]["legal"][0])
    expect = sync_api.expect
    expect(page.locator(f'#game[data-my-turn=yes]:not([data-version="{version}"])')).to_be_visible()
    page.mouse.up()
    expect(page.locator("details.sheet")).to_have_js_property("open", False)
    assert page.evaluate("window.kept()") == [True] * 8

    bids = api.view(game_id)["bids"]
    bid, turn = BIDS_SAID[lang]
    lines = [bid.format(name="Bea", n=bids[1]), bid.format(name="Bot", n=bids[2]), turn]
    expect(page.locator("#said p")).to_have_text(lines)
    assert desktop.errors == []


#: The setup form's refusal of card counts that are not numbers, and its line as it deals.
COUNTS_ERROR = "List the cards of each hand as whole numbers, such as 1,2,3."
DEALING = "Dealing…"


def test_the_log_for_screen_readers_says_the_game_shown_and_an_error_is_alerted_once(
    desktop: Tab,  # noqa: F811
    live_service: LiveService,
) -> None:
    """The log (#said) says what happens at the table shown: not the setup form's lines
    ("Dealing…"), nor the lines of a game left, once another screen opens. An error is
    said once, by the page's alert (#alert), not in the log as well; it goes with the
    notice it is."""
    page = desktop.page
    expect = sync_api.expect
    page.goto(live_service.url)
    page.wait_for_selector("#setup")
    more_options(page)
    page.select_option("select[name=all-levels]", "random")
    page.select_option("select[name=schedule]", "custom")
    page.fill("input[name=schedule-custom]", "one")
    page.click("#deal")
    expect(page.locator("#setup #notice")).to_have_text(COUNTS_ERROR)
    expect(page.locator("#alert[role=alert]")).to_have_text(COUNTS_ERROR)
    expect(page.locator("#said p")).to_have_count(0)

    page.fill("input[name=schedule-custom]", "1")
    page.click("#deal")
    page.wait_for_selector("#game")
    expect(page.locator("#alert")).to_be_empty()
    # The bots' bids, and this seat's turn, come in the log.
    expect(page.locator("#said p").first).to_be_attached()
    expect(page.locator("#said")).not_to_contain_text(DEALING)
    lines = page.locator("#said p").all_text_contents()

    page.once("dialog", lambda dialog: dialog.accept())
    page.click("[data-action=leave]")
    page.wait_for_selector("#setup")
    expect(page.locator("#said p")).to_have_count(0)
    assert lines

    # Back at the setup form for a reason (a game's link, not signed in): an error too.
    page.goto(f"{live_service.url}/play/NOSUCHGAME")
    notice = page.locator("#setup #notice.error")
    expect(notice).not_to_be_empty()
    expect(page.locator("#alert")).to_have_text(notice.text_content() or "")
    assert desktop.errors == []


# A list of focus.js's drawing, at the test's request: `window.list(label, banner)` draws
# it again with its button's label (and a line above it, when `banner`);
# `window.changes()` the mutations since the last call.
LIST = """async () => {
    const { redraw } = await import('/static/focus.js');
    const box = document.createElement('div');
    box.id = 'list-box';
    box.setAttribute('aria-live', 'polite');
    document.body.prepend(box);
    window.pressed = 0;
    window.list = (label, banner) => redraw(box, `
        ${banner ? '<p class="banner">Away</p>' : ''}
        <ul><li class="table" data-code="ABCD">Ana's table
        <button data-action="join" type="button">${label}</button></li>
        <li class="table">Bea's</li></ul>
        <p>2 tables</p>`);
    window.list('Join');
    box.querySelector('button').addEventListener('click', () => { window.pressed += 1; });
    let seen = [];
    const observer = new MutationObserver((records) => { seen.push(...records); });
    observer.observe(box,
        { subtree: true, childList: true, attributes: true, characterData: true });
    window.changes = () => {
        const changes = [...seen, ...observer.takeRecords()].map((r) => r.type);
        seen = [];
        return changes;
    };
}"""


def test_redraw_touches_only_what_changed(
    desktop: Tab,  # noqa: F811
    live_service: LiveService,
) -> None:
    """focus.js on its own: a list drawn again as it was is not touched at all (a live
    region is not read out again), drawn with one word changed has that word's text
    changed and nothing else, and a button pressed (without taking the focus, as on a Mac)
    while it is drawn again is the one released: the click is not lost."""
    page = desktop.page
    page.goto(live_service.url)
    page.wait_for_selector("#setup")
    page.evaluate(LIST)
    page.evaluate("window.list('Join')")
    assert page.evaluate("window.changes()") == []
    page.evaluate("window.list('Sit down')")
    assert page.evaluate("window.changes()") == ["characterData"]
    # A line drawn above the list comes in; the list is the same element still.
    page.evaluate("window.listed = document.querySelector('#list-box ul')")
    page.evaluate("window.list('Sit down', true)")
    assert page.evaluate("window.listed === document.querySelector('#list-box ul')")
    assert "attributes" not in page.evaluate("window.changes()")
    page.evaluate("window.list('Sit down')")
    assert page.evaluate("window.listed === document.querySelector('#list-box ul')")
    page.evaluate("window.changes()")

    page.evaluate(UNFOCUSED_PRESS)
    page.hover("#list-box button")
    page.mouse.down()
    page.evaluate("window.list('Join')")
    page.mouse.up()
    assert page.evaluate("window.pressed") == 1
    assert page.locator("#list-box button").inner_text() == "Join"
    assert desktop.errors == []
