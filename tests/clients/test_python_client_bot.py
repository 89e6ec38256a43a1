"""An outside bot's whole path on the typed Python client (client/), as a newcomer takes it,
on a live service with real workers that may call loopback webhooks: accounts, a webhook
(registered, called, paused figures, resumed, removed), challenges (made, listed, found,
accepted on the account's event stream, declined, cancelled), a match with the bot's
account and a rated one, its records typed as the match's game's, the ratings, their
history and the bots' ladder; and examples/client_bot.py, clean under `mypy --strict` with
no cast, accepts a challenge of each game and plays it to the end as a process. Every
answer is held to the document by the tests' contract check, and every event of the
account's stream to its `BotEvent`."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

import pytest

from client.api import ApiError, PochaClient
from client.models import Challenge
from tests.clients.bots import account, played_out, plays_a_challenge
from tests.contract import Contract
from tests.live import LiveService
from tests.waiting import LONG, scaled, wait_until
from tools.embedded_redis import free_port

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "client_bot.py"
WEBHOOK_BOT = ROOT / "examples" / "webhook_bot.py"


@contextlib.contextmanager
def _webhook_bot(url: str, secret: str) -> Iterator[None]:
    """examples/webhook_bot.py listening at `url` (a loopback port), with `secret`."""
    port = int(url.rsplit(":", 1)[1].rstrip("/"))
    process = subprocess.Popen(
        [sys.executable, str(WEBHOOK_BOT), str(port)], env={**os.environ, "POCHA_SECRET": secret},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:

        def listening() -> bool:
            try:
                urllib.request.urlopen(url, timeout=1)
            except urllib.error.HTTPError:
                return True  # it answers (501: it takes POST only)
            except OSError:
                return False
            return True

        wait_until(listening, LONG, "the webhook bot to listen")
        yield
    finally:
        process.terminate()
        process.wait(timeout=scaled(10))


def test_a_webhook_bot_is_registered_called_and_removed_with_the_client(
    bot_service: LiveService,
) -> None:
    hook = account(bot_service.url, "Hook", "bot")
    me = hook.own_account()
    with pytest.raises(ApiError) as refused:
        hook.webhook(me["id"])
    assert (refused.value.status, refused.value.error) == (404, "no_webhook")
    with pytest.raises(ApiError) as refused:
        hook.set_webhook(me["id"], "ftp://bot.example.org/")
    assert (refused.value.status, refused.value.error) == (422, "webhook_refused")
    with pytest.raises(ApiError) as refused:
        PochaClient(bot_service.url).set_webhook(me["id"], "http://127.0.0.1:9/")
    assert (refused.value.status, refused.value.error) == (401, "account_required")

    # Registered before it listens: the secret, which it checks calls with, is in the
    # answer only (registering again makes a new one).
    url = f"http://127.0.0.1:{free_port()}/"
    registered = hook.set_webhook(me["id"], url)
    assert registered["secret"].startswith("whsec_") and not registered["paused"]
    with _webhook_bot(url, registered["secret"]):
        made = hook.create_game(
            ["Hook", {"name": "E", "bot": "easy"}, {"name": "R", "bot": "random"}],
            rules={"schedule": [1, 2]},
        )
        assert played_out(made["id"], PochaClient(bot_service.url))["phase"] == "finished"
        status = hook.webhook(me["id"])
        # 2 bids and 3 cards at least (a tied game has tiebreak hands).
        assert status["decisions"] >= 5 and status["failures"] == 0, status
        assert status["url"] == url and hook.resume_webhook(me["id"])["url"] == url
        shown = hook.account(me["id"]).get("webhook")
        assert shown is not None and shown["decisions"] == status["decisions"]
    hook.delete_webhook(me["id"])
    with pytest.raises(ApiError) as refused:
        hook.webhook(me["id"])
    assert refused.value.error == "no_webhook"


def test_a_bot_answers_challenges_with_the_client(bot_service: LiveService) -> None:
    ana, bot = account(bot_service.url, "Ana", "person"), account(bot_service.url, "Robo", "bot")
    me = bot.own_account()
    with pytest.raises(ApiError) as refused:
        ana.challenge([{"bot": "hard"}])
    assert (refused.value.status, refused.value.error) == (422, "validation_error")

    declined = ana.challenge([{"account": me["name"]}, {"bot": "easy"}])
    assert bot.decline_challenge(declined["id"])["status"] == "declined"
    cancelled = ana.challenge([{"account": me["id"]}, {"bot": "easy"}], game="poch")
    assert ana.cancel_challenge(cancelled["id"])["status"] == "cancelled"
    with pytest.raises(ApiError) as refused:
        bot.accept_challenge(cancelled["id"])
    assert (refused.value.status, refused.value.error) == (409, "challenge_closed")
    listed = [c["id"] for c in bot.challenges()["challenges"]]
    assert listed == [declined["id"], cancelled["id"]]

    made = ana.challenge(
        [{"account": me["name"]}, {"bot": "easy"}], {"schedule": [1, 2]}, rated=True
    )
    accepted: list[Challenge] = []
    for event in bot.bot_events(timeout=scaled(LONG)):
        assert Contract.load().component_problems("BotEvent", event) == [], event
        if event["type"] == "challenge" and event["challenge"]["status"] == "open":
            accepted.append(bot.accept_challenge(event["challenge"]["id"]))
            break
    (challenge,) = accepted
    assert challenge["id"] == made["id"] and challenge["status"] == "accepted"
    game_id = challenge["game_id"]
    assert game_id is not None and ana.find_challenge(made["id"])["game_id"] == game_id
    assert played_out(game_id, ana, bot)["phase"] == "finished"

    # The rated game moved both ratings (counted by the move that ended it, just after the
    # game is seen finished), and the history and the ladders say so.
    wait_until(lambda: bot.account(me["id"])["ratings"] != [], LONG, "the rating")
    (rating,) = bot.account(me["id"])["ratings"]
    assert rating["game"] == "pocha" and rating["games"] == 1
    (entry,) = bot.rating_history(me["id"])["entries"]
    assert entry["game_id"] == game_id and entry["counted"]
    assert me["id"] in [e["id"] for e in bot.ladder(kind="bot", limit=100)["entries"]]
    assert bot.rating_history(me["id"], "poch")["entries"] == []
    assert ana.ladder("pocha", "person")["kind"] == "person"


def test_a_bot_plays_matches_with_the_client(bot_service: LiveService) -> None:
    hook = account(bot_service.url, "Matched", "bot")
    me = hook.own_account()
    seat = f"account:{me['id']}"
    url = f"http://127.0.0.1:{free_port()}/"
    with _webhook_bot(url, hook.set_webhook(me["id"], url)["secret"]):
        match = hook.create_match([seat, "easy", "random"], 2, rules={"schedule": [1, 2]})
        done = hook.wait_match(match["id"], scaled(LONG))
        assert done["done"] == 2 and done["stand_in_decisions"] == {seat: 0}, done
        records = hook.match_records(match["id"], "pocha")
        assert [r["seats"][0] for r in records] == [seat, seat]
        assert all(len(r["scores"]) == 3 for r in records)
        with pytest.raises(ValueError, match="not a game of poch"):
            hook.match_records(match["id"], "poch")

        rated = hook.create_match([seat, "easy", "easy"], 2, rules={"schedule": [1]}, rated=True)
        assert rated["rated"] and "seed" not in rated
        hook.wait_match(rated["id"], scaled(LONG))
    # Each of its 2 games counted once, as its last move ended it.
    wait_until(lambda: len(hook.rating_history(me["id"])["entries"]) == 2, LONG, "2 ratings")
    entries = hook.rating_history(me["id"])["entries"]
    assert {e.get("match_id") for e in entries} == {rated["id"]}

    # Opened to matches, it may be seated by anyone's unrated match.
    assert hook.open_to_matches(me["id"])["open_to_matches"]
    anyone = PochaClient(bot_service.url).create_match(
        [seat, "random", "random"], 2, rules={"schedule": [1]}
    )
    PochaClient(bot_service.url).cancel_match(anyone["id"])
    assert not hook.open_to_matches(me["id"], False)["open_to_matches"]


def test_the_example_bot_is_clean_under_mypy_strict(tmp_path: Path) -> None:
    source = EXAMPLE.read_text()
    assert not re.search(r"\bcast\(|type:\s*ignore|\bAny\b", source)
    mypy = [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "c")]
    checked = subprocess.run([*mypy, str(EXAMPLE)], cwd=ROOT, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout


@pytest.mark.parametrize(
    ("game", "rules"), [("pocha", {"schedule": [1, 2]}), ("poch", {"deals": 1})]
)
def test_the_example_bot_accepts_a_challenge_and_plays_it(
    bot_service: LiveService, game: Literal["pocha", "poch"], rules: dict[str, object]
) -> None:
    command = [sys.executable, str(EXAMPLE), bot_service.url]
    said = plays_a_challenge(bot_service.url, command, {"PYTHONPATH": str(ROOT)}, game, rules)
    assert "Traceback" not in said, said
