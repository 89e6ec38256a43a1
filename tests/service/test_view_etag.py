"""`GET /api/v1/games/{id}` as a conditional GET: each caller's view has an ETag of its own
(the version, then a digest of the seat, the language, who is present and the table's
link), If-None-Match with it is answered 304 without a body while the view stands, and
the tag, which a move's If-Match also takes, tells nobody anything about the cards."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from engine.pocha.actions import action_to_wire
from service import create_app
from tests.service.helpers import bearer, create_game, humans, move, replay_game, tokens_of
from tests.service.test_service_leaks import cards_in, hidden_from

#: A view's ETag: weak only while a turn's clock runs.
TAG = re.compile(r'(W/)?"([0-9]+)-[0-9a-f]{16}"')
#: Three people and no clock: every view's tag is a strong one.
CLOCKLESS = {"schedule": [3, 2], "turn_seconds": 0}


def view(client: FlaskClient, game_id: str, token: str | None = None, **headers: str) -> Any:
    return client.get(f"/api/v1/games/{game_id}", headers={**bearer(token), **headers})


def vary(response: Any) -> set[str]:
    return {v.strip().lower() for v in response.headers.get("Vary", "").split(",")}


def test_the_same_view_again_is_not_modified(client: FlaskClient) -> None:
    created = create_game(client, humans(3), CLOCKLESS)
    game_id, token = created["id"], tokens_of(created)[0]
    first = view(client, game_id, token)
    assert first.status_code == 200
    tag = first.headers["ETag"]
    matched = TAG.fullmatch(tag)
    assert matched and matched[1] is None and int(matched[2]) == first.json["version"]
    assert first.headers["Cache-Control"] == "no-cache"
    assert {"authorization", "accept-language"} <= vary(first)

    again = view(client, game_id, token, **{"If-None-Match": tag})
    assert again.status_code == 304
    assert again.data == b""
    assert again.headers["ETag"] == tag
    assert again.headers["Cache-Control"] == "no-cache"
    assert {"authorization", "accept-language"} <= vary(again)
    assert "Content-Length" not in again.headers or again.headers["Content-Length"] == "0"
    # The same with no If-None-Match: the same view, the same tag.
    assert view(client, game_id, token).headers["ETag"] == tag


def test_a_move_makes_a_new_tag(client: FlaskClient) -> None:
    created = create_game(client, humans(3), CLOCKLESS)
    game_id, tokens = created["id"], tokens_of(created)
    before = view(client, game_id).headers["ETag"]
    seat = view(client, game_id).json["turn"]
    assert move(client, game_id, tokens[seat], 0).status_code == 200
    after = view(client, game_id, **{"If-None-Match": before})
    assert after.status_code == 200
    assert after.headers["ETag"] != before
    assert TAG.fullmatch(after.headers["ETag"])
    assert view(client, game_id, **{"If-None-Match": after.headers["ETag"]}).status_code == 304


def test_each_seat_and_language_has_a_tag_of_its_own(client: FlaskClient) -> None:
    created = create_game(client, humans(3), CLOCKLESS)
    game_id, tokens = created["id"], tokens_of(created)
    callers = [None, *tokens]
    for token in callers:
        view(client, game_id, token)  # everyone here, so presence holds still below
    tags = {view(client, game_id, token).headers["ETag"] for token in callers}
    assert len(tags) == len(callers)
    english = view(client, game_id, tokens[0], **{"Accept-Language": "en"})
    spanish = view(client, game_id, tokens[0], **{"Accept-Language": "es"})
    by_query = client.get(f"/api/v1/games/{game_id}?lang=es", headers=bearer(tokens[0]))
    assert spanish.headers["Content-Language"] == "es"
    assert english.headers["ETag"] != spanish.headers["ETag"] == by_query.headers["ETag"]
    # One caller's tag is no other's: another seat, the spectator, another language.
    for token, language in ((tokens[1], "en"), (None, "en"), (tokens[0], "es")):
        other = view(
            client,
            game_id,
            token,
            **{"If-None-Match": english.headers["ETag"], "Accept-Language": language},
        )
        assert other.status_code == 200 and other.json["version"] == english.json["version"]
    # The host's token sees what a spectator sees, tag and all.
    host = view(client, game_id, created["host_token"])
    assert host.headers["ETag"] == view(client, game_id).headers["ETag"]


def test_someone_arriving_makes_a_new_tag(client: FlaskClient) -> None:
    """Presence changes no version, yet it is in the view: it is in the tag."""
    created = create_game(client, humans(3), CLOCKLESS)
    game_id, tokens = created["id"], tokens_of(created)
    first = view(client, game_id, tokens[0])
    if first.json["players"][2]["present"]:
        pytest.skip("the third seat counts as here from the start")
    arrived = view(client, game_id, tokens[2])
    assert arrived.json["version"] == first.json["version"]
    seen = view(client, game_id, tokens[0], **{"If-None-Match": first.headers["ETag"]})
    assert seen.status_code == 200
    assert seen.json["players"][2]["present"]
    assert seen.headers["ETag"] != first.headers["ETag"]


@pytest.mark.parametrize(
    "sent",
    [
        "garbage",
        '"garbage"',
        '"1-0000000000000000"',
        "W/",
        ",,,",
        '"unterminated',
        "W/garbage",
        "x" * 5000,
        "\u00e9t\u00e9",
    ],
)
def test_a_tag_that_is_not_the_views_gets_the_view(client: FlaskClient, sent: str) -> None:
    created = create_game(client, humans(3), CLOCKLESS)
    answer = view(client, created["id"], tokens_of(created)[0], **{"If-None-Match": sent})
    assert answer.status_code == 200
    assert answer.json["id"] == created["id"]


def test_weak_lists_and_star_compare(client: FlaskClient) -> None:
    created = create_game(client, humans(3), CLOCKLESS)
    game_id, token = created["id"], tokens_of(created)[0]
    tag = view(client, game_id, token).headers["ETag"]
    for sent in (f"W/{tag}", f'"nope", {tag}', f'W/"nope",W/{tag}', "*"):
        answer = view(client, game_id, token, **{"If-None-Match": sent})
        assert answer.status_code == 304, sent
        assert answer.data == b"" and answer.headers["ETag"] == tag


def test_while_a_clock_runs_the_tag_is_weak_and_no_cache_may_keep_the_view(
    client: FlaskClient,
) -> None:
    """`seconds_left` moves on under one tag: the tag says so by being weak, and a weak
    tag sent back (weak or not) is the view's. No HTTP cache may keep such a view (a
    browser's would revalidate by itself and, on the 304, give back its stored body with
    the clock as it was): `no-store`, yet a program's own If-None-Match still gets 304."""
    created = create_game(client, humans(3), {"schedule": [3, 2], "turn_seconds": 600})
    game_id, token = created["id"], tokens_of(created)[0]
    first = view(client, game_id, token)
    assert first.json["seconds_left"] is not None
    tag = first.headers["ETag"]
    assert tag.startswith('W/"')
    assert first.headers["Cache-Control"] == "no-store"
    assert {"authorization", "accept-language"} <= vary(first)
    for sent in (tag, tag.removeprefix("W/")):
        answer = view(client, game_id, token, **{"If-None-Match": sent})
        assert answer.status_code == 304, sent
        assert answer.headers["ETag"] == tag
        assert answer.headers["Cache-Control"] == "no-store"
        assert {"authorization", "accept-language"} <= vary(answer)
    # The spectator's view runs the same clock.
    assert view(client, game_id).headers["Cache-Control"] == "no-store"


def test_a_view_stops_being_stored_when_its_clock_starts(client: FlaskClient) -> None:
    """A table waiting for people has no clock (`no-cache`, a strong tag); once the host
    starts it, a turn's clock runs and the same caller's view is `no-store`."""
    made = client.post(
        "/api/v1/games",
        json={"players": [{"name": "Ana"}, {"name": "Bea"}, {"open": True}]},
    )
    assert made.status_code == 201, made.json
    game_id, token = made.json["id"], tokens_of(made.json)[0]
    waiting = view(client, game_id, token)
    assert waiting.json["seconds_left"] is None
    assert waiting.headers["Cache-Control"] == "no-cache"
    assert not waiting.headers["ETag"].startswith("W/")
    started = client.post(
        f"/api/v1/games/{game_id}/start",
        json={"bots": "random"},
        headers=bearer(made.json["host_token"]),
    )
    assert started.status_code == 200, started.json
    running = view(client, game_id, token, **{"If-None-Match": waiting.headers["ETag"]})
    assert running.status_code == 200
    assert running.json["seconds_left"] is not None
    assert running.headers["ETag"].startswith('W/"')
    assert running.headers["Cache-Control"] == "no-store"


def test_a_views_tag_is_an_if_match(client: FlaskClient) -> None:
    created = create_game(client, humans(3), CLOCKLESS)
    game_id, tokens = created["id"], tokens_of(created)
    seat = view(client, game_id).json["turn"]
    stale = view(client, game_id, tokens[seat]).headers["ETag"]
    moved = move(client, game_id, tokens[seat], 0, **{"If-Match": stale})
    assert moved.status_code == 200, moved.json
    seat = moved.json["turn"]
    refused = move(client, game_id, tokens[seat], 0, **{"If-Match": stale})
    assert refused.status_code == 412
    assert refused.json["error"] == "stale_version"
    fresh = view(client, game_id, tokens[seat]).headers["ETag"]
    assert move(client, game_id, tokens[seat], 0, **{"If-Match": f"W/{fresh}"}).status_code in (
        200,
        422,  # the dealer may not bid 0 when it would make the bids add up
    )


def test_a_tables_link_is_in_the_tag(client: FlaskClient) -> None:
    """A seat's view of a table shows its link, made at the address asked: each address
    its own tag."""
    made = client.post(
        "/api/v1/games", json={"players": [{"name": "Ana"}, {"open": True}, {"open": True}]}
    )
    assert made.status_code == 201, made.json
    game_id, token = made.json["id"], tokens_of(made.json)[0]
    url = f"/api/v1/games/{game_id}"
    here = client.get(url, headers=bearer(token), base_url="http://one.example")
    there = client.get(url, headers=bearer(token), base_url="http://two.example")
    assert here.json["table"]["link"] != there.json["table"]["link"]
    assert here.headers["ETag"] != there.headers["ETag"]
    same = client.get(
        url,
        headers={**bearer(token), "If-None-Match": here.headers["ETag"]},
        base_url="http://one.example",
    )
    assert same.status_code == 304


def test_no_tag_tells_a_hidden_card(client: FlaskClient) -> None:
    """Every caller's answers, 200 and 304, at every turn of a game: no header names a card
    the caller may not see (the tag is the version and a digest of what the caller sees
    anyway, never of a hand)."""
    created = create_game(client, humans(3), CLOCKLESS, seed=11)
    game_id, tokens = created["id"], tokens_of(created)
    replay = replay_game({**CLOCKLESS, "players": 3}, 11)
    rng = random.Random(3)
    checked = 0
    while True:
        for seat, token in [*enumerate(tokens), (None, None)]:
            hidden = hidden_from(replay, seat)
            full = view(client, game_id, token)
            short = view(client, game_id, token, **{"If-None-Match": full.headers["ETag"]})
            assert short.status_code == 304
            for answer in (full, short):
                assert TAG.fullmatch(answer.headers["ETag"])
                said = "\n".join(f"{k}: {v}" for k, v in answer.headers.items())
                assert not cards_in(said) & hidden, (seat, said)
                checked += 1
        if replay.finished:
            break
        seat = replay.turn
        assert seat is not None
        action = rng.choice(list(replay.legal_actions()))
        replay.apply(seat, action)
        assert move(client, game_id, tokens[seat], action_to_wire(action)).status_code == 200
    assert checked > 50


def test_a_page_elsewhere_may_send_if_none_match(redis_url: str) -> None:
    """A front end on another origin (CORS) may send If-None-Match and read the ETag."""
    front = "https://cards.example"
    client = create_app(
        {"REDIS_URL": redis_url, "TESTING": True, "BOT_RUNNER": "inline", "CORS_ORIGINS": front}
    ).test_client()
    created = create_game(client, humans(3), CLOCKLESS)
    url = f"/api/v1/games/{created['id']}"
    asked = client.options(
        url,
        headers={
            "Origin": front,
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "authorization, if-none-match",
        },
    )
    allowed = {h.strip().lower() for h in asked.headers["Access-Control-Allow-Headers"].split(",")}
    assert "if-none-match" in allowed
    token = tokens_of(created)[0]
    tag = view(client, created["id"], token, Origin=front).headers["ETag"]
    again = view(client, created["id"], token, Origin=front, **{"If-None-Match": tag})
    assert again.status_code == 304
    assert again.headers["Access-Control-Allow-Origin"] == front
    assert "ETag" in again.headers["Access-Control-Expose-Headers"]
