"""The views the Python client holds (`PochaClient.view`) against the real service: while
a turn's clock runs, a view answered 304 comes back with its clock as it is now (counted
down by the monotonic clock since its body came, in tenths, never below 0), and as it came
under a strong tag; a view held in one language is never asked for, nor answered with, in
another; the last `HELD_VIEWS` games read are held, the least lately read dropped first;
and one client read from many threads at once answers each its own game's view.

Which reads were conditional is seen through `Watched`, a client that notes, of each
read of a view, whether it sent an ETag and what status came back."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from client.api import HELD_VIEWS, PochaClient, _HeldView
from client.models import Rules
from tests.live import LiveService
from tests.waiting import LONG, scaled

#: Three people and no clock: a view's tag is strong.
CLOCKLESS: Rules = {"schedule": [1, 2], "turn_seconds": 0}
#: Three people and a long clock: a view's tag is weak, and the clock never runs out here.
TIMED: Rules = {"schedule": [1, 2], "turn_seconds": 600}


class Watched(PochaClient):
    """A client of the real service that notes each read of a game's view: the game, and
    whether it was asked for with an ETag (If-None-Match) and the status answered; then
    calls `answered` (when set), before the client does anything with the answer."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.reads: list[tuple[str, bool, int]] = []
        self.answered: Callable[[], None] | None = None

    def _request(
        self,
        method: str,
        path: str,
        body: Any = None,
        version: int | None = None,
        timeout: float | None = None,
        headers: Mapping[str, str] | None = None,
        answered: dict[str, str] | None = None,
    ) -> tuple[int, str]:
        status, text = super()._request(method, path, body, version, timeout, headers, answered)
        if method == "GET" and path.startswith("/api/v1/games/"):
            game_id = path.removeprefix("/api/v1/games/")
            self.reads.append((game_id, "If-None-Match" in (headers or {}), status))
            if self.answered is not None:
                self.answered()
        return status, text


def new_game(url: str, rules: Rules, seed: int = 3) -> dict[str, Any]:
    created: dict[str, Any] = dict(
        PochaClient(url).create_game(["Ana", "Bea", "Eva"], rules=rules, seed=seed)
    )
    return created


@pytest.fixture(scope="module")
def games(live_service: LiveService) -> list[str]:
    """More games than a client holds, none ever read by a seat: nobody comes or goes, so
    a spectator's view of each stands (it is answered 304) for as long as the tests run."""
    return [new_game(live_service.url, CLOCKLESS)["id"] for _ in range(HELD_VIEWS + 2)]


def test_a_running_clock_held_is_counted_down_to_now(live_service: LiveService) -> None:
    game_id = new_game(live_service.url, TIMED)["id"]
    spectator = Watched(live_service.url)
    got_from = time.monotonic()
    first = spectator.view(game_id)
    got_by = time.monotonic()
    assert spectator.reads[-1] == (game_id, False, 200)
    left = first["seconds_left"]
    assert left is not None and left > 1
    time.sleep(0.35)  # however much longer it takes, the bounds below hold
    asked_from = time.monotonic()
    again = spectator.view(game_id)
    asked_by = time.monotonic()
    assert spectator.reads[-1] == (game_id, True, 304)
    counted = again["seconds_left"]
    assert counted is not None
    # The body came between got_from and got_by; the answer was made between asked_from
    # and asked_by: the time counted down lies between the least and the most that can
    # have passed from one to the other.
    least, most = asked_from - got_by, asked_by - got_from
    assert round(left - most, 1) <= counted <= round(left - least, 1)
    assert counted < left
    assert counted == round(counted, 1), "seconds_left comes in tenths, as the service's"
    assert {**again, "seconds_left": None} == {**first, "seconds_left": None}


def test_a_clock_held_stops_at_zero_and_a_strong_tags_view_is_as_it_came() -> None:
    """What a 304 gives from the view held (`_HeldView.now`): a live clock cannot be held
    past its end (the stand-in plays, and the game moves on), so it is built here."""
    long_ago = time.monotonic() - 5.0
    view: Any = {"id": "g", "version": 7, "deadline": 1.0, "seconds_left": 2.3}
    running = _HeldView('W/"7-0123456789abcdef"', None, view, long_ago)
    assert running.now()["seconds_left"] == 0.0
    unrounded: Any = {**view, "seconds_left": 59.99}
    got = time.monotonic()
    counted = _HeldView('W/"7-0123456789abcdef"', None, unrounded, got).now()["seconds_left"]
    # However long a loaded machine takes between the two: in tenths, and counted down.
    since = time.monotonic() - got
    assert counted == round(counted, 1)
    assert round(59.99 - since, 1) <= counted <= 60.0
    strong = _HeldView('"7-0123456789abcdef"', None, view, long_ago)
    assert strong.now() == view
    held = strong.now()
    held["seconds_left"] = None
    assert strong.now() == view, "a copy comes back: the view held is never changed"


def test_a_view_held_in_one_language_is_not_the_answer_in_another(
    live_service: LiveService,
) -> None:
    """The dealer's view at its bid says in words (`you.refused`) why the bid that would
    make the bids add up is refused: in the language asked."""
    url = live_service.url
    created = new_game(url, CLOCKLESS)
    game_id = created["id"]
    seats = [PochaClient(url).seat(created, i) for i in range(3)]
    for _ in range(3):  # the two before the dealer bid 0
        turn = PochaClient(url).view(game_id)["turn"]
        mine = seats[turn].view(game_id)
        if mine["you"].get("refused"):
            break
        seats[turn].bid(game_id, 0)
    else:
        raise AssertionError("no seat's view said a refused bid")
    dealer = Watched(url, created["seats"][turn]["token"], language="en")
    english = dealer.view(game_id)["you"]["refused"]
    dealer.language = "es"
    spanish = dealer.view(game_id)["you"]["refused"]
    assert dealer.reads[-1] == (game_id, False, 200), "asked afresh in another language"
    assert spanish != english
    afresh = PochaClient(url, seats[turn].token, language="es").view(game_id)
    assert spanish == afresh["you"]["refused"]
    assert dealer.view(game_id)["you"]["refused"] == spanish
    assert dealer.reads[-1][:2] == (game_id, True), "the same language: asked with its tag"
    dealer.language = "en"
    assert dealer.view(game_id)["you"]["refused"] == english
    assert dealer.reads[-1] == (game_id, False, 200)


def test_the_least_lately_read_game_is_dropped_first(
    live_service: LiveService, games: list[str]
) -> None:
    spectator = Watched(live_service.url)
    held, first, second, newest = games[:HELD_VIEWS], games[0], games[1], games[HELD_VIEWS]
    for game_id in held:
        spectator.view(game_id)
    assert spectator.reads == [(g, False, 200) for g in held]
    # Read again, the first is no longer the least lately read: the second is.
    spectator.view(first)
    assert spectator.reads[-1] == (first, True, 304)
    spectator.view(newest)
    assert spectator.reads[-1] == (newest, False, 200)
    spectator.view(first)
    assert spectator.reads[-1] == (first, True, 304), "a game read lately was dropped"
    spectator.view(second)
    assert spectator.reads[-1] == (second, False, 200), "more than HELD_VIEWS games held"
    # That dropped the third; the others from before the newest are still held.
    spectator.view(games[HELD_VIEWS - 1])
    assert spectator.reads[-1] == (games[HELD_VIEWS - 1], True, 304)


@pytest.mark.parametrize("held", [True, False], ids=["answered 304", "answered 200"])
def test_the_views_held_are_changed_by_one_thread_at_a_time(
    live_service: LiveService, games: list[str], held: bool
) -> None:
    """A read answered by the service leaves the views held alone while another thread
    has them (the client's lock): moving a view read again to the newest, or keeping a new
    one and dropping the oldest, is never cut into halfway (an OrderedDict changed by two
    threads at once may lose a view between a check and a move, and raise)."""
    shared = Watched(live_service.url)
    game_id = games[0]
    if held:
        shared.view(game_id)
    came, go = threading.Event(), threading.Event()

    def pause() -> None:
        came.set()
        go.wait(scaled(LONG))

    shared.answered = pause
    got: list[Any] = []
    reader = threading.Thread(target=lambda: got.append(shared.view(game_id)))
    reader.start()
    assert came.wait(scaled(LONG)), "the service did not answer"
    assert shared.reads[-1] == (game_id, held, 304 if held else 200)
    with shared._held_lock:
        go.set()
        reader.join(timeout=1.0)
        assert reader.is_alive(), "the views held were changed while another thread had them"
    reader.join(timeout=scaled(LONG))
    assert not reader.is_alive()
    assert got[0]["id"] == game_id


def test_one_client_read_from_many_threads(live_service: LiveService, games: list[str]) -> None:
    """Threads sharing one client read more games than it holds, each in its own order:
    every read answers its own game's view, none fails, and the client goes on holding
    the last HELD_VIEWS games read."""
    shared = Watched(live_service.url)
    failures: list[BaseException] = []
    wrong: list[tuple[str, Any]] = []
    threads, each = 4, 60

    def reader(seed: int) -> None:
        order = random.Random(seed).choices(games, k=each)
        try:
            for game_id in order:
                view = shared.view(game_id)
                if view["id"] != game_id or view["seconds_left"] is not None:
                    wrong.append((game_id, view["id"]))
        except BaseException as failure:  # reported below, with the rest
            failures.append(failure)

    readers = [threading.Thread(target=reader, args=(seed,)) for seed in range(threads)]
    for thread in readers:
        thread.start()
    for thread in readers:
        thread.join(timeout=scaled(LONG))
    assert not any(thread.is_alive() for thread in readers)
    assert not failures, failures
    assert not wrong, wrong
    assert len(shared.reads) == threads * each
    assert any(sent and status == 304 for _, sent, status in shared.reads)
    # Quiet again: the last HELD_VIEWS games read are the ones held.
    shared.reads.clear()
    for game_id in games[:HELD_VIEWS]:
        shared.view(game_id)
    for game_id in reversed(games[:HELD_VIEWS]):
        shared.view(game_id)
    assert [sent for _, sent, _ in shared.reads[HELD_VIEWS:]] == [True] * HELD_VIEWS
