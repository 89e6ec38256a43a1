"""Accounts, the ladder, an account's page and a replay through the web page, in real
headless Chromium (as test_web_tables.py), against a live service of their own (so that
the ladder holds only these tests' accounts and sign-ups are not limited to five an hour).

Two people, each in a browser context of their own, sign up on the page (the key shown
once, kept in localStorage), one opens a rated table with an open seat and a bot, the
other takes the seat through the link, and they play it out. Then the ladder lists them
with its chart drawn by the vendored uPlot, Ana's page shows her curve, her exact bids and
her game, and the game's replay is stepped through forwards and backwards, by the buttons
and the arrow keys. At a laptop's size in English and at a phone's in Spanish. A seat
whose token opens nothing once its account's key is replaced goes on with the new key. A
game left is opened again from the account's page, which lists its games in play, and a
table's link opens the seat the account holds there. The replay page opens a match's
records from a file (played by the service's worker): it lists their games, even two
matches' in one file, and replays the one chosen hand by hand; an arena's records (`pocha
arena --records`, `pocha arena-poch --records`) the same, their games numbered by line; a
broken file is refused in a sentence of the page's language. Ticking "Rated table" gives
the bots distinct levels, so Play deals at once; each name box stops where the API does.
"""

from __future__ import annotations

import json
import re
import secrets
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from click.testing import CliRunner

from cli.main import pocha
from client.api import PochaClient
from core.play.tables import parse_code
from core.store import account_turns, webhooks
from tests.live import LiveService
from tests.service.web.conftest import accounts_service
from tests.service.web.test_web_browser import LAPTOP, MISFITS, PHONE, more_options, sync_api
from tests.service.web.test_web_tables import Person, play
from tests.waiting import LONG, LONG_MS, scaled, wait_until
from tools.embedded_redis import RedisServer

#: This module's own logical DB on the session's Redis.
LADDER_DB = 12

WORDS = {
    "en": {"account": "Your account", "ladder": "Ladder", "replay": "Replay", "locale": "en-GB"},
    "es": {
        "account": "Tu cuenta", "ladder": "Clasificación", "replay": "Repetición",
        "locale": "es-ES",
    },
}  # fmt: skip


@pytest.fixture(scope="module")
def ladder_service(
    redis_server: RedisServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveService]:
    with accounts_service(redis_server, tmp_path_factory, LADDER_DB, "ladder") as service:
        yield service


def person(browser: Any, size: dict[str, int], name: str, lang: str) -> Person:
    one = Person(browser, size, name, locale=WORDS[lang]["locale"])
    one.context.add_init_script(f"localStorage.setItem('pocha.lang', '{lang}')")
    one.open_tab()
    return one


def sign_up(one: Person, url: str, name: str, lang: str) -> dict[str, str]:
    """Sign up from the lobby's panel: the key is shown once, then kept by the page."""
    page = one.page
    page.goto(url)
    page.wait_for_selector("#signup")
    assert page.inner_text("#account-panel h2") == WORDS[lang]["account"]
    page.fill("#signup input[name=name]", name)
    page.click("#signup-go")
    page.wait_for_selector("#account-key")
    key = page.inner_text("#account-key")
    assert key and page.locator("#key-warning").is_visible()
    one.screenshot(f"ladder-signup-key-{lang}.png")
    page.click("#key-kept")
    page.wait_for_selector("#account-link")
    kept = page.evaluate("JSON.parse(localStorage.getItem('pocha.account'))")
    assert kept["key"] == key and kept["name"] == name
    # Shown once: the page that comes back names the account, never its key again.
    assert key not in page.content()
    return kept  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("size", "lang"), [(LAPTOP, "en"), (PHONE, "es")], ids=["laptop-en", "phone-es"]
)
def test_a_rated_table_of_two_signed_up_people_then_the_ladder_an_account_and_a_replay(
    browser: Any,
    ladder_service: LiveService,
    size: dict[str, int],
    lang: str,
) -> None:
    url = ladder_service.url
    tag = secrets.token_hex(3)
    ana, bea = person(browser, size, "ana", lang), person(browser, size, "bea", lang)
    try:
        ana_account = sign_up(ana, url, f"Ana{tag}", lang)
        bea_account = sign_up(bea, url, f"Bea{tag}", lang)

        # Ana's rated table: her seat, one open for a person, a bot.
        page = ana.page
        page.wait_for_selector("#setup #rated")
        page.set_checked("#rated", True)
        more_options(page)
        page.select_option("select[name=players]", "3")
        page.select_option("select[name=schedule]", "custom")
        page.fill("input[name=schedule-custom]", "1")
        page.select_option("select[name=seat-2]", "open")
        page.select_option("select[name=seat-3]", "random")
        page.click("#deal")
        page.wait_for_selector("#waiting", timeout=LONG_MS)
        link = page.input_value("#table-link")

        # Bea, signed in, takes the open seat through the link: her account sits there.
        bea.page.goto(link)
        bea.page.wait_for_selector("#join")
        bea.page.click("#take-seat")
        for one in (ana, bea):
            one.page.wait_for_selector("#game", timeout=LONG_MS)
        play([ana, bea], until=lambda: ana.finished() and bea.finished())
        game_id = ana.page.inner_text(".game-id").split()[-1]
        history = PochaClient(url).history(game_id)
        assert history["finished"]

        # The ratings are counted just after the move that ended the game (maybe the bot's,
        # on the worker), which the pages may have shown first.
        def counted() -> bool:
            address = f"{url}/api/v1/ladder?game=pocha&kind=person"
            with urllib.request.urlopen(address, timeout=scaled(60)) as answer:
                ladder = json.load(answer)
            listed = {e["id"] for e in ladder["entries"]}
            return {ana_account["id"], bea_account["id"]} <= listed

        wait_until(counted, LONG, "the rated game to be counted")
        # The ladder of people: both, ranked, and the chart of their curves drawn.
        bea.page.goto(f"{url}/ladder/pocha?kind=person")
        bea.page.wait_for_selector("#ladder-chart[data-drawn]", timeout=LONG_MS)
        assert bea.page.inner_text("h2") == WORDS[lang]["ladder"]
        ranked = bea.page.eval_on_selector_all(
            "#ladder-table tbody tr", "rows => rows.map(r => r.dataset.account)"
        )
        assert {ana_account["id"], bea_account["id"]} <= set(ranked)
        # Each has been rated against two opponents only: marked provisional.
        for account in (ana_account, bea_account):
            row = f"#ladder-table tr[data-account='{account['id']}']"
            assert bea.page.locator(f"{row} .provisional").count() == 1
        assert bea.page.get_attribute("#ladder-chart", "data-drawn") == str(min(5, len(ranked)))
        # The rating's heading says what a rating is in the words of the line under the title.
        help_line = bea.page.inner_text("#ladder-help")
        assert bea.page.get_attribute("#ladder-table th[title]", "title") == help_line
        assert bea.page.locator("#ladder-chart canvas").count() == 1
        misfits = bea.page.evaluate(MISFITS)
        assert misfits == [], f"the ladder: {misfits}"
        bea.screenshot(f"ladder-people-{lang}-{size['width']}.png")
        bea.page.click("#ladder-kind-bot")
        bea.page.wait_for_selector("#ladder-table tr[data-account=level-random]")
        assert (
            bea.page.locator("#ladder-table tr[data-account=level-random] .provisional").count()
            == 0
        )

        # Ana's page, from the ladder: her curve, exact bids and the game, linked to its replay.
        ana.page.goto(f"{url}/ladder/pocha?kind=person")
        ana.page.click(f"#ladder-table tr[data-account='{ana_account['id']}'] a")
        ana.page.wait_for_selector("#chart-pocha[data-drawn='1']", timeout=LONG_MS)
        assert ana.page.inner_text("#account-name") == ana_account["name"]
        assert ana.page.locator("#exact-pocha").count() == 1
        assert ana.page.locator("section[data-game='pocha'] .provisional").count() == 1
        assert ana.page.locator("#bot-facts").count() == 0  # a person's document has no `bot`
        assert ana.page.evaluate(MISFITS) == [], "an account's page"
        ana.screenshot(f"ladder-account-{lang}-{size['width']}.png")

        # The replay: every hand dealt at the first step, then trick by trick and back.
        ana.page.click(f"#recent-pocha a[href='/replay/{game_id}']")
        ana.page.wait_for_selector("#replay-step[data-step='0']", timeout=LONG_MS)
        assert ana.page.inner_text("#replay h2") == WORDS[lang]["replay"]
        record = ana.page.evaluate(f"fetch('/api/v1/games/{game_id}/record').then(r => r.json())")
        steps = sum(len(deal["tricks"]) + 1 for deal in record["deals"])
        dealt = sum(len(hand) for hand in record["deals"][0]["hands"])
        cards = "#replay-position .replay-hand .mini-card"
        assert ana.page.locator(cards).count() == dealt
        assert ana.page.is_disabled("#replay-prev")
        ana.page.click("#replay-next")
        ana.page.wait_for_selector("#replay-step[data-step='1']")
        # One trick played: each seat's card has left its hand.
        assert ana.page.locator(cards).count() == dealt - len(record["players"])
        ana.screenshot(f"ladder-replay-{lang}-{size['width']}.png")
        for _ in range(steps):
            ana.page.keyboard.press("ArrowRight")
        ana.page.wait_for_selector(f"#replay-step[data-step='{steps - 1}']")
        assert ana.page.is_disabled("#replay-next")
        ana.page.keyboard.press("ArrowLeft")
        ana.page.wait_for_selector(f"#replay-step[data-step='{steps - 2}']")
        if steps > 2:  # a game of one trick has two steps, and the first has no previous
            ana.page.click("#replay-prev")
            ana.page.wait_for_selector(f"#replay-step[data-step='{steps - 3}']")
        misfits = ana.page.evaluate(MISFITS)
        assert misfits == [], f"a replay: {misfits}"

        # A level's advice beside each decision, asked for on the page: the bids of the
        # first deal, then the first trick's cards, each with what `easy` would have done.
        weigh(ana, "easy")
        for _ in range(steps):
            ana.page.keyboard.press("ArrowLeft")
        ana.page.wait_for_selector("#replay-step[data-step='0']")
        players = len(record["players"])
        assert ana.page.locator("#replay-advice li").count() == players
        ana.page.keyboard.press("ArrowRight")
        ana.page.wait_for_selector("#replay-step[data-step='1']")
        assert ana.page.locator("#replay-advice li").count() == players
        ana.screenshot(f"ladder-replay-advice-{lang}-{size['width']}.png")
        assert ana.page.evaluate(MISFITS) == [], "a replay with advice"
        assert ana.errors == [] and bea.errors == []
    finally:
        ana.context.close()
        bea.context.close()


def weigh(one: Person, level: str) -> None:
    """Ask for `level`'s advice on the replay page and wait until it is shown."""
    one.page.select_option("#replay-level", level)
    one.page.click("#replay-weigh")
    one.page.wait_for_selector(f"#replay[data-advice='{level}']", timeout=LONG_MS)


def finished_record(url: str, body: dict[str, Any]) -> dict[str, Any]:
    """The record of a game of bots made with `body`, once they have played it out."""
    asked = urllib.request.Request(
        f"{url}/api/v1/games", json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(asked, timeout=scaled(60)) as answer:
        game_id = json.load(answer)["id"]

    def record_of() -> dict[str, Any] | None:
        try:
            with urllib.request.urlopen(
                f"{url}/api/v1/games/{game_id}/record", timeout=scaled(60)
            ) as answer:
                found: dict[str, Any] = json.load(answer)
                return found
        except urllib.error.HTTPError:
            return None  # not over yet

    wait_until(lambda: record_of() is not None, LONG, "the bots' game to end")
    record = record_of()
    assert record is not None
    return record


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "a rating is a cautious guess at skill"),
     ("es", "la puntuación es una estimación prudente de la habilidad")],
)  # fmt: skip
def test_the_ladder_says_what_a_rating_is_in_plain_words(
    browser: Any,
    ladder_service: LiveService,
    lang: str,
    words: str,
) -> None:
    """Beside the formula (μ − 3σ) ± σ, a newcomer reads what a rating is, in their
    language, without the Greek."""
    one = person(browser, PHONE, "Ana", lang)
    try:
        one.page.goto(f"{ladder_service.url}/ladder/pocha?kind=person")
        one.page.wait_for_selector("#ladder-help")
        said = one.page.inner_text("#ladder-help")
        assert words in said and not re.search("[μσ]", said), said
        assert one.page.evaluate(MISFITS) == [], "the ladder's lines"
        assert one.errors == []
    finally:
        one.context.close()


def test_a_pocha_replay_shows_the_bots_own_advice(
    browser: Any,
    ladder_service: LiveService,
    tmp_path: Any,
) -> None:
    url = ladder_service.url
    levels = ["easy", "hard", "random"]
    bots = [{"name": f"Bot {s}", "bot": level} for s, level in enumerate(levels)]
    record = finished_record(url, {"players": bots, "rules": {"schedule": [2]}})
    deal = record["deals"][0]
    bids = len(deal["bids"])
    by_number = {a["number"]: a for a in record["advice"]}
    one = person(browser, LAPTOP, "ana", "en")
    try:
        page = one.page
        page.goto(f"{url}/replay/{record['id']}")
        page.wait_for_selector("#replay-step[data-step='0']", timeout=LONG_MS)
        numbers = "items => items.map((i) => Number(i.dataset.number))"
        # The deal: the bids' advice, each the bot's own; then the first trick's cards'.
        shown = page.eval_on_selector_all("#replay-recorded li", numbers)
        assert shown == [n for n in sorted(by_number) if n <= bids] and shown
        shown_bids = shown
        assert len(shown) >= 2, shown
        shown_first, shown_second = shown[0], shown[1]
        first = by_number[shown[0]]
        text = page.inner_text(f"#replay-recorded li[data-number='{shown[0]}']")
        assert f"Bot {first['seat']} ({first['level']}) chose" in text, text
        assert "expecting" in text
        page.keyboard.press("ArrowRight")
        page.wait_for_selector("#replay-step[data-step='1']")
        shown = page.eval_on_selector_all("#replay-recorded li", numbers)
        assert shown == [n for n in sorted(by_number) if bids < n <= bids + 3]
        assert all(by_number[n]["seat"] in (0, 1) for n in shown)
        assert page.evaluate(MISFITS) == [], "a replay with the bots' advice"
        one.screenshot("replay-recorded-advice-en.png")

        # A record from a file is anyone's: its advice is shown as text, and an entry of
        # another shape is left out.
        hostile = json.loads(json.dumps(record))
        seat = by_number[shown_first]["seat"]
        del hostile["players"][seat]["level"]  # a person's seat, played by the stand-in
        hostile["players"][seat]["name"] = "Ana"
        other = next(s for s in range(len(levels)) if s != seat)
        hostile["players"][other]["level"] = '<b id="pwned3">y</b>'
        hostile["scores"][other] = '<b id="pwned6">7</b>'
        at = {a["number"]: a for a in hostile["advice"]}
        at[shown_first]["level"] = '<b id="pwned">x</b>'
        at[shown_second]["options"] = "<b id='pwned2'>"
        saved = tmp_path / "hostile.json"
        saved.write_text(json.dumps(hostile))
        page.goto(f"{url}/replay")
        page.wait_for_selector("#replay-file")
        page.set_input_files("#replay-file", str(saved))
        page.wait_for_selector("#replay-step[data-step='0']", timeout=LONG_MS)
        first_text = page.inner_text(f"#replay-recorded li[data-number='{shown_first}']")
        assert '<b id="pwned">x</b>' in first_text, first_text
        assert page.locator("#pwned, #pwned2, #pwned3").count() == 0
        named = page.inner_text(f"#replay-position tr[data-seat='{other}'] th")
        assert '<b id="pwned3">y</b>' in named, named
        assert page.locator("#pwned6").count() == 0
        assert '<b id="pwned6">7</b>' in page.inner_text("#replay-final")
        numbers_now = page.eval_on_selector_all("#replay-recorded li", numbers)
        assert numbers_now == [n for n in shown_bids if n != shown_second], numbers_now
        assert one.errors == []
    finally:
        one.context.close()


POCH_FIRST_STEP = "#replay[data-game='poch'] #replay-step[data-step='0']"


def poch_steps(record: dict[str, Any]) -> int:
    """The replay page's positions of a Poch record: the deal, the betting, the showdown,
    each run of the shedding (opened by a start or a choice) and the payout, per deal."""
    steps = 0
    for deal in record["deals"]:
        starts = [i for i, e in enumerate(deal["shedding"]) if i > 0 and e["type"] != "play"]
        steps += 4 + len(starts) + (1 if deal["shedding"] else 0)
    return steps


@pytest.mark.parametrize(
    ("size", "lang"), [(LAPTOP, "en"), (PHONE, "es")], ids=["laptop-en", "phone-es"]
)
def test_a_poch_replay_with_advice_and_a_record_opened_from_a_file(
    browser: Any,
    ladder_service: LiveService,
    size: dict[str, int],
    lang: str,
    tmp_path: Any,
) -> None:
    url = ladder_service.url
    bots = [{"name": f"Bot {s}", "bot": "easy"} for s in range(3)]
    record = finished_record(url, {"game": "poch", "players": bots, "rules": {"deals": 1}})
    game_id = record["id"]
    one = person(browser, size, "ana", lang)
    try:
        page = one.page
        page.goto(f"{url}/replay/{game_id}")
        page.wait_for_selector(POCH_FIRST_STEP, timeout=LONG_MS)
        deal = record["deals"][0]
        cards = "#replay-position .replay-hand .mini-card"
        assert page.locator(cards).count() == sum(len(hand) for hand in deal["hands"])
        assert page.get_attribute("#replay-step", "data-part") == "dealt"
        # The bots' own advice, as they played, beside each call of the betting (the deal's
        # first decisions), with no button pressed; none beside the deal itself.
        assert page.locator("#replay-recorded").count() == 0
        assert page.is_visible("#replay-recorded-about")
        page.click("#replay-next")
        page.wait_for_selector("#replay-step[data-part='betting']")
        betting = [a for a in record["advice"] if a["number"] <= len(deal["betting"])]
        shown = page.eval_on_selector_all(
            "#replay-recorded li", "items => items.map((i) => Number(i.dataset.number))"
        )
        assert shown == [a["number"] for a in betting] and betting
        page.click("#replay-prev")
        page.wait_for_selector("#replay-step[data-step='0']")
        steps = poch_steps(record)
        for _ in range(steps):
            page.keyboard.press("ArrowRight")
        page.wait_for_selector(f"#replay-step[data-step='{steps - 1}']")
        assert page.get_attribute("#replay-step", "data-part") == "paid"
        assert page.is_disabled("#replay-next")
        # Every card shed by the end: the hands left hold only what was never played.
        shed = sum(1 for e in deal["shedding"] if e["type"] == "play")
        assert page.locator(cards).count() == sum(len(h) for h in deal["hands"]) - shed
        # Back to the betting, with `easy`'s advice on each call.
        weigh(one, "easy")
        page.click("#replay-prev")
        for _ in range(steps):
            page.keyboard.press("ArrowLeft")
        page.wait_for_selector("#replay-step[data-step='0']")
        page.click("#replay-next")
        page.wait_for_selector("#replay-step[data-part='betting']")
        assert page.locator("#replay-advice li").count() == len(deal["betting"])
        assert page.locator("#replay-recorded li").count() == len(betting)
        assert page.evaluate(MISFITS) == [], "a Poch replay"
        one.screenshot(f"replay-poch-{lang}-{size['width']}.png")

        # The same record opened from a file, as a person would after saving it.
        saved = tmp_path / "poch-record.json"
        saved.write_text(json.dumps(record))
        page.goto(f"{url}/replay")
        page.wait_for_selector("#replay-file")
        page.set_input_files("#replay-file", str(saved))
        page.wait_for_selector(POCH_FIRST_STEP, timeout=LONG_MS)
        assert page.locator(cards).count() == sum(len(hand) for hand in deal["hands"])
        # A file is anyone's: what stands where a card should, in a hand or among a bot's
        # options, is shown as text, never drawn into the page's markup.
        hostile = json.loads(json.dumps(record))
        hostile["deals"][0]["hands"][0][0] = 'S<img id="pwned4" src="x">'
        hostile["deals"][0]["ante"] = '<b id="pwned6">1</b>'
        first_call = min(hostile["advice"], key=lambda a: a["number"])
        first_call["options"][0]["action"] = 'S<img id="pwned5" src="x">'
        saved.write_text(json.dumps(hostile))
        page.goto(f"{url}/replay")
        page.wait_for_selector("#replay-file")
        page.set_input_files("#replay-file", str(saved))
        page.wait_for_selector(POCH_FIRST_STEP, timeout=LONG_MS)
        assert page.locator("#pwned4, #pwned6").count() == 0
        assert '<b id="pwned6">1</b>' in page.inner_text("#replay-part")
        assert page.locator(cards).count() == sum(len(hand) for hand in deal["hands"]) - 1
        page.click("#replay-next")
        page.wait_for_selector("#replay-step[data-part='betting']")
        assert page.locator("#pwned5").count() == 0
        assert '<img id="pwned5" src="x">' in page.inner_text("#replay-recorded")
        # A file that is no record is refused in a sentence.
        wrong = tmp_path / "not-a-record.json"
        wrong.write_text('{"hello": 1}')
        page.goto(f"{url}/replay")
        page.wait_for_selector("#replay-file")
        page.set_input_files("#replay-file", str(wrong))
        page.wait_for_selector("#replay-error:not([hidden])")
        assert one.errors == []
    finally:
        one.context.close()


def match_records(url: str, game: str, seats: list[str], rules: dict[str, Any]) -> str:
    """The records of a match of two games of bots, played out by the service's worker, as
    `GET /api/v1/matches/{id}/records` gives them: JSON lines, a game a line."""
    client = PochaClient(url)
    match = client.create_match(seats, games=2, rules=rules, seed=3, game=game)
    client.wait_match(match["id"], timeout=scaled(LONG))
    address = f"{url}/api/v1/matches/{match['id']}/records"
    with urllib.request.urlopen(address, timeout=scaled(60)) as answer:
        text: str = answer.read().decode()
    return text


@pytest.fixture(scope="module")
def matches(ladder_service: LiveService) -> dict[str, str]:
    """A match of Pocha (two games of three bots, of a one-card hand and a two-card one) and
    one of Poch (two one-deal games), each its records' JSON lines."""
    url = ladder_service.url
    return {
        "pocha": match_records(
            url, "pocha", ["random", "heuristic", "random"], {"schedule": [1, 2]}
        ),
        "poch": match_records(url, "poch", ["heuristic", "random", "heuristic"], {"chips": 20}),
    }  # fmt: skip


#: What the page says of a match's files, by language.
MATCH_WORDS = {
    "en": {
        "next": "Next hand", "back": "Back to the file's games", "line": "Line",
        "item": "Item", "choose": "Replay game 1 (line 2)",
    },
    "es": {
        "next": "Mano siguiente", "back": "Volver a las partidas del archivo", "line": "Línea",
        "item": "Elemento", "choose": "Ver la partida 1 (línea 2)",
    },
}  # fmt: skip


def open_file(page: Any, url: str, path: Any) -> None:
    page.goto(f"{url}/replay")
    page.wait_for_selector("#replay-file")
    page.set_input_files("#replay-file", str(path))


def shown_row(page: Any, seat: int) -> list[str]:
    """The cells after a seat's name in the position's table."""
    cells: list[str] = page.locator(f"#replay-position tr[data-seat='{seat}'] td").all_inner_texts()
    return cells


@pytest.mark.parametrize(
    ("size", "lang"), [(LAPTOP, "en"), (PHONE, "es")], ids=["laptop-en", "phone-es"]
)
def test_a_matchs_records_list_their_games_and_replay_the_one_chosen(
    browser: Any,
    ladder_service: LiveService,
    matches: dict[str, str],
    size: dict[str, int],
    lang: str,
    tmp_path: Any,
) -> None:
    """A match's records (two games of Pocha, as the API gives them) opened from a file: the
    page lists both games, the second is chosen by keyboard and told hand by hand (each
    hand's bids, tricks and points, the running scores), then back to the list, the focus on
    the game left."""
    url = ladder_service.url
    words = MATCH_WORDS[lang]
    saved = tmp_path / "records.jsonl"
    saved.write_text(matches["pocha"])
    records = [json.loads(line) for line in matches["pocha"].splitlines()]
    one = person(browser, size, "ana", lang)
    expect = sync_api.expect
    try:
        page = one.page
        open_file(page, url, saved)
        listed = page.locator("#replay-games")
        expect(listed).to_have_attribute("data-games", "2", timeout=LONG_MS)
        assert listed.get_attribute("data-matches") == "1"
        assert page.inner_text("#replay-games h2") == WORDS[lang]["replay"]
        expect(page.locator("#replay-games thead th").first).to_have_text(words["line"])
        rows = page.locator("#replay-games tbody tr")
        expect(rows).to_have_count(2)
        for i, record in enumerate(records):
            cells = rows.nth(i).locator("td").all_inner_texts()
            assert cells[:3] == [str(i + 1), str(record["game"]), "Pocha"], cells
            scores = [int(n) for n in re.findall(r"-?\d+(?= ★| ·|$)", cells[3])]
            assert scores == record["scores"], (cells[3], record["scores"])
        assert page.evaluate(MISFITS) == [], "a match's games"
        one.screenshot(f"replay-match-list-{lang}-{size['width']}.png")

        # The second game, chosen by keyboard: its button is named for screen readers.
        second = page.locator("#replay-games [data-focus='game-1']")
        assert second.get_attribute("aria-label") == words["choose"]
        second.focus()
        page.keyboard.press("Enter")
        expect(page.locator("#replay[data-match-game='1']")).to_be_visible()
        expect(page.locator("#replay-next")).to_have_text(words["next"])
        record = records[1]
        running = [0] * len(record["seats"])
        for number, hand in enumerate(record["hands"], start=1):
            expect(page.locator("#replay-step")).to_have_attribute("data-hand", str(number))
            for seat in range(len(record["seats"])):
                running[seat] += hand["points"][seat]
                expected = [hand["bids"][seat], hand["tricks"][seat], hand["points"][seat]]
                assert shown_row(page, seat) == [str(v) for v in [*expected, running[seat]]]
            if number < len(record["hands"]):
                page.keyboard.press("ArrowRight")
        assert running == record["scores"]
        assert page.is_disabled("#replay-next")
        assert page.evaluate(MISFITS) == [], "a match's game"
        one.screenshot(f"replay-match-game-{lang}-{size['width']}.png")
        page.click("#replay-prev")
        expect(page.locator("#replay-step")).to_have_attribute("data-hand", "1")

        # Back to the list, by keyboard: the focus on the game just left.
        back = page.locator("#replay-back")
        expect(back).to_have_text(words["back"])
        back.focus()
        page.keyboard.press("Enter")
        expect(page.locator("#replay-games")).to_be_visible()
        expect(second).to_be_focused()
        assert one.errors == []
    finally:
        one.context.close()


def test_a_file_of_two_matches_records_and_an_array_of_one(
    browser: Any,
    ladder_service: LiveService,
    matches: dict[str, str],
    tmp_path: Any,
) -> None:
    """Two matches' records in one file of JSON lines (one of Pocha, one of Poch, each with
    its games 0 and 1): the page tells the matches apart and replays a game of Poch from it;
    a match's records as `?format=json`'s array are listed by item."""
    url = ladder_service.url
    expect = sync_api.expect
    both = tmp_path / "two-matches.jsonl"
    both.write_text(matches["pocha"] + matches["poch"])
    poch = [json.loads(line) for line in matches["poch"].splitlines()]
    one = person(browser, LAPTOP, "ana", "en")
    try:
        page = one.page
        open_file(page, url, both)
        listed = page.locator("#replay-games")
        expect(listed).to_have_attribute("data-games", "4", timeout=LONG_MS)
        assert listed.get_attribute("data-matches") == "2"
        rows = page.locator("#replay-games tbody tr")
        # Line, match, game number, which game.
        shown = [rows.nth(i).locator("td").all_inner_texts()[:4] for i in range(4)]
        assert shown == [
            ["1", "1", "0", "Pocha"], ["2", "1", "1", "Pocha"],
            ["3", "2", "0", "Poch"], ["4", "2", "1", "Poch"],
        ], shown  # fmt: skip
        page.click("#replay-games [data-focus='game-3']")
        expect(page.locator("#replay[data-game='poch'][data-match-game='1']")).to_be_visible()
        record = poch[1]
        for seat, chips in enumerate(record["chips"]):
            assert shown_row(page, seat) == [str(chips)]
        out = (
            "nobody"
            if record["winner"] is None
            else ["heuristic #0", "random", "heuristic #2"][record["winner"]]
        )
        expect(page.locator("#replay-part")).to_have_text(f"Out of cards first: {out}.")
        assert page.is_disabled("#replay-next") and page.is_disabled("#replay-prev")
        # Spanish picked in the header: the same game drawn again in it, then its list.
        page.select_option("#lang", "es")
        expect(page.locator("#replay-back")).to_have_text("Volver a las partidas del archivo")
        assert page.get_attribute("#replay", "data-match-game") == "1"
        page.click("#replay-back")
        expect(page.locator("#replay-games [data-focus='game-3']")).to_be_focused()
        expect(page.locator("#replay-games thead th").first).to_have_text("Línea")
        page.select_option("#lang", "en")

        # `?format=json`'s array of one match's records: listed by item, the same games.
        array = tmp_path / "records.json"
        array.write_text(json.dumps(poch))
        open_file(page, url, array)
        expect(page.locator("#replay-games")).to_have_attribute("data-games", "2", timeout=LONG_MS)
        expect(page.locator("#replay-games thead th").first).to_have_text("Item")
        assert one.errors == []
    finally:
        one.context.close()


@pytest.fixture(scope="module")
def arenas(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The records `pocha arena --records` and `pocha arena-poch --records` write for two
    deals of three bots of two kinds (each deal in the line-up's three rotations: six games),
    each the file's text."""
    folder = tmp_path_factory.mktemp("arenas")
    written = {}
    for game, command, more in (
        ("pocha", "arena", ["--games", "2", "--rules", '{"schedule": [1, 2]}']),
        ("poch", "arena-poch", ["--deals", "2", "--rules", '{"chips": 20}']),
    ):
        path = folder / f"{game}.jsonl"
        played = CliRunner().invoke(
            pocha,
            [command, "--players", "3", "--bots", "heuristic,random", "--processes", "1",
             "--json", "--records", str(path), *more],
        )  # fmt: skip
        assert played.exit_code == 0, played.output
        written[game] = path.read_text()
        assert len(written[game].splitlines()) == 6
    return written


#: What the page says of an arena's files, by language.
ARENA_WORDS = {
    "en": {
        "deal": "Deal", "choose": "Replay the game on line 5",
        "about": "Pocha · an arena's game, line 5 of the file · seed {seed} · deal {deal}",
        "kept": "An arena's record keeps no card or decision, only the results.",
    },
    "es": {
        "deal": "Reparto", "choose": "Ver la partida de la línea 5",
        "about": "Pocha · partida de una arena, línea 5 del archivo · semilla {seed} · reparto "
                 "{deal}",
        "kept": "El registro de una arena no guarda cartas ni decisiones, solo los resultados.",
    },
}  # fmt: skip


def seat_names(seats: list[str]) -> list[str]:
    """Each seat's name as the page shows a bot game's: its bot, with its seat where two
    seats have the same one."""
    return [f"{b} #{s}" if seats.count(b) > 1 else b for s, b in enumerate(seats)]


@pytest.mark.parametrize(
    ("size", "lang"), [(LAPTOP, "en"), (PHONE, "es")], ids=["laptop-en", "phone-es"]
)
def test_an_arenas_records_list_their_games_by_line_and_replay_the_one_chosen(
    browser: Any,
    ladder_service: LiveService,
    arenas: dict[str, str],
    size: dict[str, int],
    lang: str,
    tmp_path: Any,
) -> None:
    """`pocha arena --records`'s file (six games of Pocha, no `game` in its lines) opened
    as a match's is: the page lists its games by line, with each one's deal, and tells the
    one chosen by keyboard hand by hand, then goes back to the list."""
    url = ladder_service.url
    words = ARENA_WORDS[lang]
    saved = tmp_path / "arena.jsonl"
    saved.write_text(arenas["pocha"])
    records = [json.loads(line) for line in arenas["pocha"].splitlines()]
    one = person(browser, size, "ana", lang)
    expect = sync_api.expect
    try:
        page = one.page
        open_file(page, url, saved)
        listed = page.locator("#replay-games")
        expect(listed).to_have_attribute("data-games", "6", timeout=LONG_MS)
        assert listed.get_attribute("data-arena") == "true"
        assert listed.get_attribute("data-matches") == "0"
        heads = page.locator("#replay-games thead th").all_inner_texts()
        assert heads[:2] == [MATCH_WORDS[lang]["line"], words["deal"]], heads
        rows = page.locator("#replay-games tbody tr")
        expect(rows).to_have_count(6)
        for i, record in enumerate(records):
            cells = rows.nth(i).locator("td").all_inner_texts()
            assert cells[:3] == [str(i + 1), str(record["deal"]), "Pocha"], cells
            scores = [int(n) for n in re.findall(r"-?\d+(?= ★| ·|$)", cells[3])]
            assert scores == record["scores"], (cells[3], record["scores"])
        assert page.evaluate(MISFITS) == [], "an arena's games"
        one.screenshot(f"replay-arena-list-{lang}-{size['width']}.png")

        fifth = page.locator("#replay-games [data-focus='game-4']")
        assert fifth.get_attribute("aria-label") == words["choose"]
        fifth.focus()
        page.keyboard.press("Enter")
        expect(page.locator("#replay[data-arena-game='5']")).to_be_visible()
        record = records[4]
        about = words["about"].format(seed=record["seed"], deal=record["deal"])
        expect(page.locator("#replay-about")).to_have_text(about)
        expect(page.locator("#replay-no-cards")).to_have_text(words["kept"])
        # Each seat's decisions, after its bot's name in the page's language.
        made = re.findall(r"\d+(?= ·|$)", page.inner_text("#replay-decisions"))
        assert made == [str(d) for d in record["decisions"]], made
        running = [0] * len(record["seats"])
        for number, hand in enumerate(record["hands"], start=1):
            expect(page.locator("#replay-step")).to_have_attribute("data-hand", str(number))
            for seat in range(len(record["seats"])):
                running[seat] += hand["points"][seat]
                expected = [hand["bids"][seat], hand["tricks"][seat], hand["points"][seat]]
                assert shown_row(page, seat) == [str(v) for v in [*expected, running[seat]]]
            if number < len(record["hands"]):
                page.keyboard.press("ArrowRight")
        assert running == record["scores"]
        assert page.is_disabled("#replay-next")
        assert page.evaluate(MISFITS) == [], "an arena's game"
        one.screenshot(f"replay-arena-game-{lang}-{size['width']}.png")

        back = page.locator("#replay-back")
        back.focus()
        page.keyboard.press("Enter")
        expect(page.locator("#replay-games")).to_be_visible()
        expect(fifth).to_be_focused()
        assert one.errors == []
    finally:
        one.context.close()


def test_a_poch_arenas_records_and_one_line_of_them(
    browser: Any,
    ladder_service: LiveService,
    arenas: dict[str, str],
    tmp_path: Any,
) -> None:
    """`pocha arena-poch --records`'s file (its lines name their game, `poch`): listed by
    line, and a deal told as a match's deal of Poch is, the chips each seat won and who
    went out first, as the arena keeps it; a line alone is told at once, in Spanish too."""
    url = ladder_service.url
    expect = sync_api.expect
    saved = tmp_path / "arena-poch.jsonl"
    saved.write_text(arenas["poch"])
    records = [json.loads(line) for line in arenas["poch"].splitlines()]
    one = person(browser, LAPTOP, "ana", "en")
    try:
        page = one.page
        open_file(page, url, saved)
        expect(page.locator("#replay-games")).to_have_attribute("data-games", "6", timeout=LONG_MS)
        rows = page.locator("#replay-games tbody tr")
        shown = [rows.nth(i).locator("td").all_inner_texts()[:3] for i in range(6)]
        assert shown == [[str(i + 1), str(r["deal"]), "Poch"] for i, r in enumerate(records)]
        page.click("#replay-games [data-focus='game-2']")
        expect(page.locator("#replay[data-game='poch'][data-arena-game='3']")).to_be_visible()
        record = records[2]
        for seat, chips in enumerate(record["chips"]):
            assert shown_row(page, seat) == [str(chips)]
        names = seat_names(record["seats"])
        out = "nobody" if record["winner"] is None else names[record["winner"]]
        expect(page.locator("#replay-part")).to_have_text(f"Out of cards first: {out}.")
        expect(page.locator("#replay-step")).to_have_text(
            "The deal, as the arena keeps it: the chips each seat won."
        )
        assert page.inner_text("#replay-about").startswith(
            f"Poch · an arena's game, line 3 of the file · seed {record['seed']}"
        )

        # One line alone: its game at once, said again in Spanish picked in the header.
        alone = tmp_path / "one.jsonl"
        alone.write_text(arenas["poch"].splitlines()[2] + "\n")
        open_file(page, url, alone)
        expect(page.locator("#replay[data-arena-game='1']")).to_be_visible(timeout=LONG_MS)
        expect(page.locator("#replay-another")).to_be_visible()
        page.select_option("#lang", "es")
        expect(page.locator("#replay-step")).to_have_text(
            "El reparto, tal como lo guarda la arena: las fichas que ganó cada asiento."
        )
        assert page.inner_text("#replay-about").startswith(
            "Poch · partida de una arena, línea 1 del archivo"
        )
        page.select_option("#lang", "en")
        assert one.errors == []
    finally:
        one.context.close()


@pytest.mark.parametrize(
    ("size", "lang"), [(LAPTOP, "en"), (PHONE, "es")], ids=["laptop-en", "phone-es"]
)
def test_an_arenas_many_games_are_listed_a_page_at_a_time(
    browser: Any,
    ladder_service: LiveService,
    arenas: dict[str, str],
    size: dict[str, int],
    lang: str,
    tmp_path: Any,
) -> None:
    """An arena's records of 250 games (its six lines again and again): the page lists
    the first hundred, and turns to the next page and to the last by keyboard, the focus
    staying on the buttons; the last game opens from there, and going back shows its page
    with the focus on it; a language picked draws the same page again in it."""
    url = ladder_service.url
    expect = sync_api.expect
    lines = arenas["pocha"].splitlines()
    saved = tmp_path / "arena-250.jsonl"
    saved.write_text("".join(f"{lines[i % len(lines)]}\n" for i in range(250)))
    one = person(browser, size, "ana", lang)
    try:
        page = one.page
        open_file(page, url, saved)
        listed = page.locator("#replay-games")
        expect(listed).to_have_attribute("data-games", "250", timeout=LONG_MS)
        rows = page.locator("#replay-games tbody tr")
        where = page.locator("#replay-page")
        expect(rows).to_have_count(100)
        assert (where.get_attribute("data-page"), where.get_attribute("data-pages")) == ("1", "3")
        assert rows.first.locator("td").first.inner_text() == "1"
        assert page.is_disabled("#replay-page-first") and page.is_disabled("#replay-page-previous")
        assert page.evaluate(MISFITS) == [], "a page of an arena's games"
        one.screenshot(f"replay-arena-pages-{lang}-{size['width']}.png")

        # The next page, by keyboard: the focus stays on the button.
        page.locator("#replay-page-next").focus()
        page.keyboard.press("Enter")
        expect(where).to_have_attribute("data-page", "2")
        expect(page.locator("#replay-page-next")).to_be_focused()
        assert rows.first.locator("td").first.inner_text() == "101"
        # The last page: its buttons onwards are disabled, the focus goes back a page's.
        page.keyboard.press("Tab")
        expect(page.locator("#replay-page-last")).to_be_focused()
        page.keyboard.press("Enter")
        expect(where).to_have_attribute("data-page", "3")
        expect(rows).to_have_count(50)
        assert page.is_disabled("#replay-page-last") and page.is_disabled("#replay-page-next")
        expect(page.locator("#replay-page-previous")).to_be_focused()

        # The last game, and back to its page with the focus on it.
        last = page.locator("#replay-games [data-focus='game-249']")
        last.focus()
        page.keyboard.press("Enter")
        expect(page.locator("#replay[data-arena-game='250']")).to_be_visible()
        page.locator("#replay-back").focus()
        page.keyboard.press("Enter")
        expect(where).to_have_attribute("data-page", "3")
        expect(last).to_be_focused()

        # Another language picked: the same page, said in it.
        other = "es" if lang == "en" else "en"
        page.select_option("#lang", other)
        expect(where).to_have_text(PAGES[other])
        expect(rows).to_have_count(50)
        page.select_option("#lang", lang)
        expect(where).to_have_text(PAGES[lang])
        assert one.errors == []
    finally:
        one.context.close()


#: Where the list of 250 games is on its last page, by language.
PAGES = {
    "en": "Games 201–250 of 250 · page 3 of 3",
    "es": "Partidas 201–250 de 250 · página 3 de 3",
}


#: A file that is no game record nor a match's or an arena's records, and what the page
#: says of it.
BROKEN = {
    "en": {
        "line": "Line 2 of this file is not valid JSON.",
        "json": (
            "This file is not JSON: the page opens a game record, or a match's or an arena's "
            "records (JSON lines)."
        ),
        "game": "Line 2 of this file is not the record of a game of a match or of an arena.",
        "arena-line": "Line 3 of this file is not valid JSON.",
        "mixed": (
            "Line 2 of this file is a game of another kind than those before it (an arena's "
            "among a match's, or a match's among an arena's): open each kind in a file of its "
            "own."
        ),
        "arena-game": (
            "Line 2 of this file is a match's or an arena's record of a game with fields "
            "missing or of the wrong type."
        ),
        "record": "This game record has fields missing or of the wrong type.",
        "points": (
            "Line 2 of this file gives a hand points that are not whole numbers: they cannot "
            "be added up."
        ),
    },
    "es": {
        "line": "La línea 2 de este archivo no es JSON válido.",
        "json": (
            "Este archivo no es JSON: la página abre un registro de partida o los registros "
            "de una serie de partidas o de una arena (líneas JSON)."
        ),
        "game": (
            "La línea 2 de este archivo no es el registro de una partida de una serie ni de "
            "una arena."
        ),
        "arena-line": "La línea 3 de este archivo no es JSON válido.",
        "mixed": (
            "La línea 2 de este archivo es una partida de otro tipo que las anteriores (de una "
            "arena entre las de una serie, o de una serie entre las de una arena): abre cada "
            "tipo en su propio archivo."
        ),
        "arena-game": (
            "La línea 2 de este archivo es el registro de una partida de una serie o de una "
            "arena al que le faltan campos o los tiene de otro tipo."
        ),
        "record": "A este registro de partida le faltan campos o los tiene de otro tipo.",
        "points": (
            "La línea 2 de este archivo da a una mano puntos que no son números enteros: no se "
            "pueden sumar."
        ),
    },
}  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_broken_file_is_refused_in_a_sentence_of_the_visitors_language(
    browser: Any,
    ladder_service: LiveService,
    matches: dict[str, str],
    arenas: dict[str, str],
    lang: str,
    tmp_path: Any,
) -> None:
    """A match's records with a line cut short, a file that is no JSON at all, JSON lines of
    which one is no game of a match nor of an arena, an arena's records with a line cut
    short, a match's game followed by an arena's, an arena's game of Poch without its chips,
    a match's game whose points are text, and a game record with its deal's fields missing:
    each refused in a sentence, never a script's error; the sentence is said again in the
    language picked in the header."""
    url = ladder_service.url
    expect = sync_api.expect
    first, second = matches["pocha"].splitlines()
    arena = arenas["poch"].splitlines()
    chipless = {k: v for k, v in json.loads(arena[1]).items() if k != "chips"}
    # A game of no hands, and one of 60,000 seats (whose names, each matched against all the
    # others, held the page for half a minute): refused as games with fields missing.
    no_hands = {**json.loads(second), "hands": []}
    wide = {**json.loads(second), "seats": ["random"] * 60_000, "scores": [0] * 60_000}
    wide["hands"] = [{"bids": [0] * 60_000, "tricks": [0] * 60_000, "points": [0] * 60_000}]
    # Points of a hand given as text, which the running scores would add up to NaN.
    texts = json.loads(second)
    texts["hands"][-1]["points"][1] = str(texts["hands"][-1]["points"][1])
    files = {
        "no_hands": f"{first}\n{json.dumps(no_hands)}\n",
        "wide": f"{first}\n{json.dumps(wide)}\n",
        "line": f"{first}\n{second[: len(second) // 2]}\n",
        "json": "these are not the records you are looking for",
        "game": f'{first}\n{{"hello": 1}}\n',
        "arena-line": f"{arena[0]}\n{arena[1]}\n{arena[2][:30]}\n{arena[3]}\n",
        "mixed": f"{first}\n{arena[0]}\n",
        "arena-game": f"{arena[0]}\n{json.dumps(chipless)}\n",
        "points": f"{first}\n{json.dumps(texts)}\n",
        "record": json.dumps({"format": 1, "game": "pocha", "players": [], "deals": [{}]}),
    }
    one = person(browser, LAPTOP, "ana", lang)
    try:
        page = one.page
        error = page.locator("#replay-error")
        for name, text in files.items():
            path = tmp_path / f"{name}.jsonl"
            path.write_text(text)
            open_file(page, url, path)
            said = BROKEN[lang]["arena-game" if name in ("no_hands", "wide") else name]
            expect(error).to_have_text(said, timeout=LONG_MS)
            assert error.get_attribute("role") == "alert"
        # The last one said again in the other language, picked in the header.
        other = "es" if lang == "en" else "en"
        page.select_option("#lang", other)
        expect(error).to_have_text(BROKEN[other]["record"], timeout=LONG_MS)
        assert one.errors == []
    finally:
        one.context.close()


def test_a_bots_page_shows_its_time_per_decision_and_failures(
    browser: Any,
    ladder_service: LiveService,
) -> None:
    url = ladder_service.url
    made = urllib.request.Request(
        f"{url}/api/v1/accounts", json.dumps({"name": "Streamer", "kind": "bot"}).encode(),
        {"Content-Type": "application/json"}, method="POST",
    )  # fmt: skip
    with urllib.request.urlopen(made, timeout=scaled(30)) as answer:
        bot = json.load(answer)
    # Its timed turns, as the API counts them when it moves and the workers when its clock
    # runs out: two moves of 100 and 300 ms, one clock run out.
    store = redis.Redis.from_url(ladder_service.redis_url)
    account_turns.count_move(store, bot["id"], 100.0)
    account_turns.count_move(store, bot["id"], 300.0)
    account_turns.count_clock_ran_out(store, bot["id"])
    # And a webhook, called once in 50 ms and failed once: a bot may play both ways.
    webhooks.register(store, bot["id"], "https://bots.example/hook")
    webhooks.count(store, bot["id"], ok=True, milliseconds=50.0)
    webhooks.count(store, bot["id"], ok=False, reason="timeout")
    with urllib.request.urlopen(f"{url}/api/v1/accounts/{bot['id']}", timeout=scaled(30)) as got:
        shown = json.load(got)
    assert shown["turns"] == {"decisions": 2, "mean_decision_ms": 200.0, "clocks_ran_out": 1}
    assert shown["webhook"]["failures"] == 1
    one = person(browser, PHONE, "ana", "es")
    try:
        one.page.goto(f"{url}/accounts/{bot['id']}")
        one.page.wait_for_selector("#bot-facts", timeout=LONG_MS)
        labels = one.page.locator("#bot-facts dt").all_inner_texts()
        values = one.page.locator("#bot-facts dd").all_inner_texts()
        facts = dict(zip(labels, values, strict=True))
        # Each figure under a label of its own.
        assert len(facts) == len(labels) == 5, labels
        assert facts == {
            "Tiempo por llamada al webhook": "50 ms", "Llamadas al webhook fallidas": "1",
            "En pausa": "no", "Tiempo por turno cronometrado": "200 ms",
            "Relojes agotados": "1",
        }, facts  # fmt: skip
        assert one.page.evaluate(MISFITS) == [], "a bot's page"
        one.screenshot("ladder-bot-account-es.png")
    finally:
        one.context.close()


@pytest.mark.parametrize(("size", "lang"), [(LAPTOP, "en"), (PHONE, "es")], ids=["en", "es"])
def test_a_new_key_from_the_accounts_own_page(
    browser: Any,
    ladder_service: LiveService,
    size: dict[str, int],
    lang: str,
) -> None:
    url = ladder_service.url
    tag = secrets.token_hex(3)
    ana = person(browser, size, "ana", lang)
    try:
        kept = sign_up(ana, url, f"Ana{tag}", lang)
        other = PochaClient(url).create_account(f"Bea{tag}", "person")
        page = ana.page
        # Another account's page offers nothing of the kind.
        page.goto(f"{url}/accounts/{other['id']}")
        page.wait_for_selector("#account-name")
        assert page.locator("#new-key").count() == 0

        page.goto(f"{url}/accounts/{kept['id']}")
        page.click("#new-key")  # the confirmation is accepted (Person)
        page.wait_for_selector("#account-key")
        key = page.inner_text("#account-key")
        assert key.startswith("pa_") and key != kept["key"]
        assert page.locator("#key-warning").is_visible()
        stored = page.evaluate("JSON.parse(localStorage.getItem('pocha.account'))")
        assert stored == {**kept, "key": key}
        assert page.evaluate(MISFITS) == [], "a new key shown"
        ana.screenshot(f"account-new-key-{lang}-{size['width']}.png")
        page.click("#key-kept")
        page.wait_for_selector("#key-replaced")
        assert key not in page.content()
        # The key before opens nothing; the new one is the account's.
        for sent, status in ((kept["key"], 401), (key, 200)):
            asked = urllib.request.Request(
                f"{url}/api/v1/accounts/{kept['id']}/key", b"", {"X-Pocha-Account": sent}
            )
            try:
                with urllib.request.urlopen(asked, timeout=scaled(60)) as answer:
                    got = answer.status
            except urllib.error.HTTPError as refused:
                got = refused.code
            assert got == status
        assert ana.errors == []
    finally:
        ana.context.close()


def test_a_seat_whose_token_opens_nothing_after_a_new_key_goes_on_with_the_key(
    browser: Any,
    ladder_service: LiveService,
) -> None:
    """The page keeps each seat's token; once the account's key is replaced (here on its own
    page) the token opens nothing, and the page goes on with the account's new key: the
    game comes back on reload and takes moves, with no error shown."""
    url = ladder_service.url
    ana = person(browser, LAPTOP, "ana", "en")
    try:
        kept = sign_up(ana, url, f"Ana{secrets.token_hex(3)}", "en")
        page = ana.page
        more_options(page)
        page.select_option("select[name=players]", "3")
        page.select_option("select[name=schedule]", "custom")
        page.fill("input[name=schedule-custom]", "3")
        page.select_option("select[name=seat-2]", "random")
        page.select_option("select[name=seat-3]", "random")
        page.click("#deal")
        page.wait_for_selector("#game", timeout=LONG_MS)
        saved = page.evaluate("JSON.parse(localStorage.getItem('pocha.game'))")
        assert saved["token"]
        play([ana], until=lambda: ana.moves >= 1)

        page.goto(f"{url}/accounts/{kept['id']}")
        page.click("#new-key")  # the confirmation is accepted (Person)
        page.wait_for_selector("#account-key")
        page.click("#key-kept")
        page.wait_for_selector("#key-replaced")
        game = f"{url}/api/v1/games/{saved['id']}"
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(
                urllib.request.Request(game, headers={"Authorization": f"Bearer {saved['token']}"}),
                timeout=scaled(60),
            )
        assert refused.value.code == 401

        # Back to the game: the page reads it with the key, keeps the seat without its
        # token, and Ana plays on.
        page.goto(url)
        page.wait_for_selector("#game", timeout=LONG_MS)
        wait_until(
            lambda: page.evaluate("JSON.parse(localStorage.getItem('pocha.game')).token") is None,
            LONG, "the seat kept without its token",
        )  # fmt: skip
        moved = ana.moves
        play([ana], until=lambda: ana.moves > moved or ana.finished())
        assert page.locator("#notice.error").count() == 0
        # The one refusal the browser logs itself (the token's 401) is all: no page error.
        assert [e for e in ana.errors if "status of 401" not in e] == []
    finally:
        ana.context.close()


#: What the account's page says of a game in play whose turn is the account's.
YOUR_TURN = {"en": "your turn", "es": "te toca"}


@pytest.mark.parametrize(("size", "lang"), [(LAPTOP, "en"), (PHONE, "es")], ids=["en", "es"])
def test_a_game_left_is_opened_again_from_the_accounts_page(
    browser: Any,
    ladder_service: LiveService,
    size: dict[str, int],
    lang: str,
) -> None:
    """Ana deals a game against bots on the page and makes a move, and a game of Poch is
    made with her key elsewhere (as `pocha play` makes one). Then she leaves the game for
    her account's page, in a browser that holds her account but no seat (another one, or
    this one once it forgot them): the page lists both games in play, the latest first,
    hers to move in; the link of the first game opens its seat with her key, and she plays
    on."""
    url = ladder_service.url
    ana = person(browser, size, "ana", lang)
    try:
        kept = sign_up(ana, url, f"Ana{secrets.token_hex(3)}", lang)
        page = ana.page
        more_options(page)
        page.select_option("select[name=players]", "3")
        page.select_option("select[name=schedule]", "custom")
        page.fill("input[name=schedule-custom]", "2")
        page.select_option("select[name=seat-2]", "random")
        page.select_option("select[name=seat-3]", "random")
        page.click("#deal")
        page.wait_for_selector("#game", timeout=LONG_MS)
        dealt = page.evaluate("JSON.parse(localStorage.getItem('pocha.game'))")
        play([ana], until=lambda: ana.moves >= 1)
        bots = [{"name": "B1", "bot": "random"}, {"name": "B2", "bot": "random"}]
        elsewhere = PochaClient(url, account_key=kept["key"]).create_game(
            [{"name": "Ana"}, *bots], game="poch"
        )

        wait_until(
            lambda: PochaClient(url).view(dealt["id"])["turn"] == 0, LONG, "Ana's turn again"
        )  # fmt: skip

        page.evaluate(
            "localStorage.removeItem('pocha.game'); localStorage.removeItem('pocha.seats')"
        )
        page.goto(f"{url}/accounts/{kept['id']}")
        page.wait_for_selector("#in-play-list li", timeout=LONG_MS)
        lines = page.locator("#in-play-list li")
        assert [lines.nth(i).get_attribute("data-game") for i in range(lines.count())] == [
            elsewhere["id"], dealt["id"],
        ]  # fmt: skip
        assert YOUR_TURN[lang] in page.inner_text(f"li[data-game='{dealt['id']}']")
        assert page.evaluate(MISFITS) == [], "the games in play"
        ana.screenshot(f"account-games-in-play-{lang}-{size['width']}.png")

        page.click(f"li[data-game='{dealt['id']}'] a.in-play-link")
        page.wait_for_selector("#game", timeout=LONG_MS)
        assert page.url == f"{url}/play/{dealt['id']}"
        held = page.evaluate("JSON.parse(localStorage.getItem('pocha.game'))")
        assert (held["id"], held["token"], held["seat"]) == (dealt["id"], None, 0)
        moved = ana.moves
        play([ana], until=lambda: ana.moves > moved or ana.finished())
        # A reload opens it again, from the seat now kept without its token.
        page.reload()
        page.wait_for_selector("#game", timeout=LONG_MS)
        assert page.locator("#notice.error").count() == 0
        assert ana.errors == []
    finally:
        ana.context.close()


def test_a_table_game_opened_from_the_accounts_page_goes_on_at_the_tables_address(
    browser: Any,
    ladder_service: LiveService,
) -> None:
    """Ana takes a seat at a table with her key (as `pocha lobby` takes one) and the game
    starts with two bots. From her account's page, in a browser that holds no seat, the
    game's link (`/play/ID`) opens her seat and the address becomes the table's own
    (`/t/CODE`), where the browser now keeps the seat: she plays on, and a reload opens the
    table's game again."""
    url = ladder_service.url
    ana = person(browser, LAPTOP, "ana", "en")
    try:
        kept = sign_up(ana, url, f"Ana{secrets.token_hex(3)}", "en")
        page = ana.page
        bots = [{"name": "B1", "bot": "random"}, {"name": "B2", "bot": "random"}]
        host = PochaClient(url)
        made = host.create_game([{"open": True}, *bots], rules={"schedule": [2]})
        taken = PochaClient(url, account_key=kept["key"]).join(made["table_code"], "Ana")
        assert taken["seat"] == 0
        if host.view(made["id"])["table"]["waiting"]:
            host.host(made).start(made["id"])
        wait_until(
            lambda: host.view(made["id"])["turn"] == 0, LONG, "Ana's turn at the table"
        )  # fmt: skip

        page.evaluate(
            "localStorage.removeItem('pocha.game'); localStorage.removeItem('pocha.seats')"
        )
        page.goto(f"{url}/accounts/{kept['id']}")
        page.wait_for_selector(f"li[data-game='{made['id']}'] a.in-play-link", timeout=LONG_MS)
        page.click(f"li[data-game='{made['id']}'] a.in-play-link")
        page.wait_for_selector("#game", timeout=LONG_MS)

        wait_until(lambda: "/t/" in page.url, LONG, "the table's address")
        assert page.url.startswith(f"{url}/t/")
        assert parse_code(page.url.rsplit("/", 1)[1]) == parse_code(made["table_code"])
        held = page.evaluate("JSON.parse(localStorage.getItem('pocha.game'))")
        assert (held["id"], held["token"], held["seat"]) == (made["id"], None, 0)
        assert parse_code(held["code"]) == parse_code(made["table_code"])
        moved = ana.moves
        play([ana], until=lambda: ana.moves > moved or ana.finished())
        # A reload at the table's address opens the seat the browser keeps by its code.
        page.reload()
        page.wait_for_selector("#game", timeout=LONG_MS)
        assert page.url.startswith(f"{url}/t/")
        assert page.locator("#notice.error").count() == 0
        assert ana.errors == []
    finally:
        ana.context.close()


def test_a_tables_link_opens_the_seat_the_account_holds_there(
    browser: Any,
    ladder_service: LiveService,
) -> None:
    """An account sits once at a table (its key opens one seat). Ana took a seat with her
    key elsewhere (as `pocha lobby` takes one): the table's link, in a browser signed in
    as her that holds no seat there, opens that seat rather than offering another. And
    when she takes her seat elsewhere while the link's page already shows its name field,
    taking a seat there opens the one she holds."""
    url = ladder_service.url
    ana = person(browser, LAPTOP, "ana", "en")
    try:
        kept = sign_up(ana, url, f"Ana{secrets.token_hex(3)}", "en")
        page = ana.page
        host = PochaClient(url)
        elsewhere = PochaClient(url, account_key=kept["key"])
        tables = [
            host.create_game([{"open": True}, {"open": True}, {"name": "B", "bot": "random"}])
            for _table in range(2)
        ]

        first = tables[0]
        assert elsewhere.join(first["table_code"], "Ana")["seat"] == 0
        page.goto(f"{url}/t/{first['table_code']}")
        page.wait_for_selector("#waiting", timeout=LONG_MS)
        held = page.evaluate("JSON.parse(localStorage.getItem('pocha.game'))")
        assert (held["id"], held["token"], held["seat"]) == (first["id"], None, 0)
        assert page.get_attribute("#waiting", "data-open-seats") == "1"

        second = tables[1]
        page.goto(f"{url}/t/{second['table_code']}")
        page.wait_for_selector("#take-seat", timeout=LONG_MS)
        assert elsewhere.join(second["table_code"], "Ana")["seat"] == 0
        page.click("#take-seat")
        page.wait_for_selector("#waiting", timeout=LONG_MS)
        held = page.evaluate("JSON.parse(localStorage.getItem('pocha.game'))")
        assert (held["id"], held["token"], held["seat"]) == (second["id"], None, 0)
        assert page.get_attribute("#waiting", "data-open-seats") == "1"
        assert host.view(second["id"])["players"][1]["open"] is True
        assert page.locator("#notice.error").count() == 0
        # The one refusal the browser logs itself (the second seat's 409) is all.
        assert [e for e in ana.errors if "status of 409" not in e] == []
    finally:
        ana.context.close()


def test_each_name_box_takes_no_more_than_the_api_does(
    browser: Any,
    ladder_service: LiveService,
) -> None:
    """A name typed to its box's end is one the API takes: an account's name box stopped at
    40 letters where the API takes 32, and a 33-letter name was refused in the API's own
    words ("name: Longer than maximum length 32.")."""
    with urllib.request.urlopen(f"{ladder_service.url}/api/openapi.json") as answer:
        schemas = json.load(answer)["components"]["schemas"]
    longest = {
        name: schemas[name]["properties"]["name"]["maxLength"] for name in ("NewAccount", "Player")
    }
    one = Person(browser, LAPTOP, "boxes")
    try:
        page = one.page
        page.goto(ladder_service.url)
        page.wait_for_selector("#signup")
        assert (
            int(page.get_attribute("#signup input[name=name]", "maxlength"))
            == longest["NewAccount"]
        )
        assert int(page.get_attribute("#setup input[name=name]", "maxlength")) == longest["Player"]
    finally:
        one.context.close()


def test_ticking_rated_gives_the_bots_distinct_levels_so_play_deals_at_once(
    browser: Any,
    ladder_service: LiveService,
) -> None:
    """A rated table seats each bot level once. The form's bots are all "medium" until told
    otherwise, so ticking "Rated table" and pressing Play would be refused ("The bot level
    medium would have more than one seat in this game"); ticking it gives each repeated level
    the nearest one free, and Play deals."""
    one = person(browser, LAPTOP, "rated", "en")
    try:
        sign_up(one, ladder_service.url, f"Rated {secrets.token_hex(3)}", "en")
        page = one.page
        page.wait_for_selector("#rated-toggle:not([hidden])")
        page.check("#rated")
        levels = page.eval_on_selector_all("select.level", "ss => ss.map(s => s.value)")
        assert levels == ["medium", "hard", "easy"], levels
        # Seated anew (five players), still distinct.
        more_options(page)
        page.select_option("select[name=players]", "5")
        levels = page.eval_on_selector_all("select.level", "ss => ss.map(s => s.value)")
        assert levels == ["medium", "hard", "easy", "expert"], levels
        page.click("#deal")
        page.wait_for_selector("#game", timeout=LONG_MS)
        game_id = page.inner_text(".game-id").removeprefix("Game ")
        view = PochaClient(ladder_service.url).view(game_id)
        assert view["table"]["rated"] is True, view["table"]
        assert [p["bot"] for p in view["players"][1:]] == levels
        assert one.errors == []
    finally:
        one.context.close()
