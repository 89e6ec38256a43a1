"""No response of any endpoint, with any seat's token or none, shows a card that another
seat still holds: views, events (JSON and stream), history, and error messages.

Card codes are substrings of each other (O1, O12), so every response is searched for whole
codes and compared as parsed cards, never as substrings.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from flask.testing import FlaskClient

from engine.cards import card_code, codes
from engine.game import Game
from service.store import GameStore
from tests.service.helpers import bearer, create_game, humans, move, replay_game, tokens_of

CODE = re.compile(r"(?<![A-Za-z0-9])[OCEB](?:1[0-2]|[1-7])(?![0-9])")


def cards_in(text: str) -> set[str]:
    return set(CODE.findall(text))


def hidden_from(game: Game, seat: int | None) -> set[str]:
    """The cards `seat` (None: a spectator) must not see: other seats' unplayed cards,
    except the trump card the dealer holds face up when the whole deck was dealt."""
    if game.finished:
        return set()
    hidden: set[str] = set()
    for other in range(game.players):
        if other != seat:
            hidden |= set(codes(game.hand_of(other)))
    if game.trump_holder is not None:
        hidden.discard(card_code(game.trump_card))
    return hidden


def current_hand_part(path: str, body: Any, game: Game) -> Any:
    """The part of a response that is about the hand being played: a view less a
    `last_trick` left from the previous hand, the events since this hand was dealt, a
    score sheet less its finished hands (checked against the engine's, where every card
    was played). Past hands reuse the same cards, so they must not be scanned."""
    if path == "view":
        if len(body.get("plays", [])) < game.players:
            body = {k: v for k, v in body.items() if k != "last_trick"}
        return body
    if path == "events":
        dealt = [i for i, e in enumerate(body) if e["type"] == "hand_dealt"]
        return body[dealt[-1] :] if dealt and not game.finished else body
    if path == "history":
        assert body["hands"] == game.history
        return {k: v for k, v in body.items() if k != "hands"}
    return body


def responses_for(
    client: FlaskClient, game_id: str, token: str | None, seat: int | None, game: Game
) -> list[tuple[str, set[str]]]:
    """Every kind of response this caller can get now, as the text to scan, each with the
    cards the request itself named (an error may echo them: that is no leak)."""
    headers = bearer(token)
    url = f"/api/v1/games/{game_id}"
    found: list[tuple[str, set[str]]] = []
    for path, address in (
        ("view", url),
        ("events", f"{url}/events"),
        ("history", f"{url}/history"),
    ):
        body = client.get(address, headers=headers).json
        found.append((json.dumps(current_hand_part(path, body, game)), set()))
    if token is not None and seat is not None and not game.finished:
        # Errors: a card the seat does not hold (or a move out of turn), a bid out of
        # range, a card code that is no card. None of these may change the game.
        held = set(codes(game.hand_of(seat)))
        not_held = next(c for c in codes(game.rules.deck) if c not in held)
        # The message for a code that is no card is fixed text with examples (O1, B12).
        for probe, named in ((not_held, {not_held}), (99, set()), ("XX", {"O1", "B12"})):
            response = move(client, game_id, token, probe)
            assert 400 <= response.status_code < 500
            found.append((response.get_data(as_text=True), named))
    return found


def test_no_response_leaks_a_hidden_card(client: FlaskClient, store: GameStore) -> None:
    # 4 players: a hand of 10 deals the whole deck (the dealer holds the trump card); the
    # hands of 3 and 2 turn one up.
    rules = {"schedule": [3, 10, 2]}
    created = create_game(client, humans(4), rules, seed=11)
    game_id, tokens = created["id"], tokens_of(created)
    replay = replay_game({**rules, "players": 4}, 11)
    rng = random.Random(5)
    checked = 0
    while True:
        for seat, token in [*enumerate(tokens), (None, None)]:
            hidden = hidden_from(replay, seat)
            for text, named in responses_for(client, game_id, token, seat, replay):
                leaked = (cards_in(text) & hidden) - named
                assert not leaked, (seat, leaked, text[:300])
                checked += 1
        if replay.finished:
            break
        seat = replay.turn
        assert seat is not None
        action = rng.choice(list(replay.legal_actions()))
        replay.apply(seat, action)
        assert move(client, game_id, tokens[seat], action).status_code == 200
    assert store.load(game_id).game.to_dict() == replay.to_dict()
    assert checked > 1000


def test_stream_shows_no_hidden_card(client: FlaskClient) -> None:
    created = create_game(client, humans(3), {"schedule": [12]}, seed=2)
    game_id = created["id"]
    record_cards = client.get(
        f"/api/v1/games/{game_id}", headers=bearer(tokens_of(created)[0])
    ).json["you"]["hand"]
    response = client.get(
        f"/api/v1/games/{game_id}/events",
        headers={"Accept": "text/event-stream"},
        buffered=False,
    )
    # The first chunks are the retry hint and the backlog (the deal); nothing is hidden there.
    chunks = iter(response.response)
    text = b"".join(next(chunks) for _ in range(2)).decode()
    response.close()
    data = [json.loads(line[6:]) for line in text.splitlines() if line.startswith("data: ")]
    assert data and data[0]["type"] == "hand_dealt"
    trump = data[0]["trump"]
    assert cards_in(text) - {trump["card"]} == set()
    assert not (cards_in(text) & set(record_cards)) or trump["holder"] == 0
