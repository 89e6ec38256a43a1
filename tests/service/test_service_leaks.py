"""No response of any endpoint, with any seat's token or none, shows a card that another
seat still holds: views, events (JSON and stream), history, and error messages; and a
sweep of every operation of the OpenAPI document, as every caller (each seat, the host, no
token, the seat and host of another game), at many moments of a game.

Card codes are substrings of each other (O1, O12), so every response is searched for whole
codes and compared as parsed cards, never as substrings; ids and tokens are url-safe base64
and may hold `_O1-`, so `_` and `-` bound a code as letters and digits do.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from typing import Any

import redis
from flask.testing import FlaskClient

from core.queues import Timing, connect
from core.store import GameStore
from engine.actions import action_to_wire
from engine.cards import card_code, codes
from engine.game import Game
from engine.rules import DEFAULT_TURN_SECONDS
from service.openapi import COMMITTED
from tests.service.helpers import bearer, create_game, humans, move, replay_game, tokens_of
from worker.process import make_worker

CODE = re.compile(r"(?<![A-Za-z0-9_-])[OCEB](?:1[0-2]|[1-7])(?![A-Za-z0-9_-])")


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


def play_a_random_move(
    client: FlaskClient,
    game_id: str,
    tokens: Any,
    replay: Game,
    rng: random.Random,
) -> None:
    """A random legal move of the seat to play, in the replica and over the API."""
    seat = replay.turn
    assert seat is not None
    action = rng.choice(list(replay.legal_actions()))
    replay.apply(seat, action)
    assert move(client, game_id, tokens[seat], action_to_wire(action)).status_code == 200


def test_no_response_leaks_a_hidden_card(client: FlaskClient, store: GameStore) -> None:
    # 4 players: a hand of 10 deals the whole deck (the dealer holds the trump card); the
    # hands of 3 and 2 turn one up.
    rules = {"schedule": [3, 10, 2]}
    created = create_game(client, humans(4), rules, seed=11)
    game_id, tokens = created["id"], tokens_of(created)
    replay = replay_game({**rules, "players": 4, "turn_seconds": DEFAULT_TURN_SECONDS}, 11)
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
        play_a_random_move(client, game_id, tokens, replay, rng)
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


# -- the sweep: every operation of the document, every caller ------------------------------------

DOCUMENT = json.loads(COMMITTED.read_text())
OPERATIONS = sorted(
    [
        (method.upper(), path)
        for path, item in DOCUMENT["paths"].items()
        for method in item
        if method in ("get", "post", "put", "patch", "delete")
    ]
    # Kept out of the document, answered all the same.
    + [("GET", "/metrics")]
)


@dataclass
class Caller:
    """Who sends the requests: a token (or none) and the seat of this game it opens."""

    name: str
    token: str | None
    seat: int | None
    #: The hint job this caller was given, if any: a job id is known only to its asker.
    job: str = "NoSuchJob"


@dataclass
class Sweep:
    client: FlaskClient
    game_id: str
    game: Game
    connection: redis.Redis
    #: Hint results read back (each lists the asking seat's cards, and no other's).
    hints_read: int = 0

    def request(self, caller: Caller, method: str, path: str) -> list[tuple[str, Any, set[str]]]:
        """The requests for one operation as this caller: (kind of body, response, cards
        the request itself named)."""
        url = path.replace("{game_id}", self.game_id).replace("{job_id}", caller.job)
        url = url.replace("{match_id}", "NoSuchMatch")
        headers = bearer(caller.token)
        named: set[str] = set()
        body: Any = None
        kind = "other"
        if (method, path) == ("GET", "/api/v1/games/{game_id}"):
            kind = "view"
        elif (method, path) == ("GET", "/api/v1/games/{game_id}/events"):
            kind, url = "events", f"{url}?after=0"
        elif (method, path) == ("GET", "/api/v1/games/{game_id}/history"):
            kind = "history"
        elif (method, path) == ("POST", "/api/v1/games/{game_id}/bids"):
            body = {"bid": 99}
        elif (method, path) == ("POST", "/api/v1/games/{game_id}/plays"):
            held = set(codes(self.game.hand_of(caller.seat))) if caller.seat is not None else set()
            card = next(c for c in codes(self.game.rules.deck) if c not in held)
            body, named = {"card": card}, {card}
        elif (method, path) == ("POST", "/api/v1/games/{game_id}/hint"):
            body = {"level": "easy"}
        elif (method, path) == ("DELETE", "/api/v1/games/{game_id}") and caller.name == "host":
            return []  # the host would end the game being swept: its DELETE is tested apart
        elif (method, path) == ("POST", "/api/v1/games"):
            body = {"players": humans(3)}
        elif (method, path) == ("POST", "/api/v1/ai/move"):
            body = {"seat": 0}
        elif (method, path) == ("POST", "/api/v1/matches"):
            # Refused (no games): a match's records are other games' cards, not this one's.
            body = {"seats": ["random"] * 3, "games": 0}
        response = self.client.open(url, method=method, headers=headers, json=body)
        assert response.status_code < 500, (method, path, response.get_data(as_text=True))
        if path == "/api/v1/jobs/{job_id}" and response.status_code == 200:
            self.hints_read += response.json["status"] == "finished"
        found = [(kind, response, named)]
        if (method, path) == ("POST", "/api/v1/games/{game_id}/plays") and caller.seat is not None:
            # A card the seat holds, decided on an old version: refused with 412 or 409.
            held_cards = codes(self.game.hand_of(caller.seat))
            if held_cards:
                stale = self.client.post(
                    url, json={"card": held_cards[0]}, headers={**headers, "If-Match": '"0"'}
                )
                assert stale.status_code in (401, 409, 412, 422), stale.json
                found.append(("other", stale, {held_cards[0]}))
        return found

    def scan(self, callers: list[Caller], run_jobs: bool) -> int:
        """Every operation as every caller now; how many responses were checked. With
        `run_jobs`, a worker runs the hint jobs first, so their results are read too (an
        in-process RQ worker takes half a second to stop, hence not at every scan)."""
        checked = 0
        # Hints first: a seat on its turn gets a job (queued, or run with `run_jobs`).
        for caller in callers:
            response = self.client.post(
                f"/api/v1/games/{self.game_id}/hint",
                json={"level": "easy"},
                headers=bearer(caller.token),
            )
            caller.job = response.json["id"] if response.status_code == 202 else "NoSuchJob"
        if run_jobs:
            make_worker(self.connection, simple=True, timing=Timing()).work(
                burst=True, logging_level="WARNING"
            )
        for caller in callers:
            hidden = hidden_from(self.game, caller.seat)
            for method, path in OPERATIONS:
                for kind, response, named in self.request(caller, method, path):
                    text = response.get_data(as_text=True)
                    if kind != "other" and response.status_code == 200:
                        text = json.dumps(current_hand_part(kind, response.json, self.game))
                    leaked = (cards_in(text) & hidden) - named
                    assert not leaked, (caller.name, method, path, leaked, text[:300])
                    checked += 1
        return checked


def test_sweep_every_operation_as_every_caller(
    client: FlaskClient, store: GameStore, redis_url: str
) -> None:
    # 4 players: the hand of 6 turns up a trump, the hand of 10 deals the whole deck.
    rules = {"schedule": [6, 10]}
    created = create_game(client, humans(4), rules, seed=23)
    other = create_game(client, humans(3), seed=24)
    game_id, tokens = created["id"], tokens_of(created)
    callers = [
        *(Caller(f"seat {i}", token, i) for i, token in enumerate(tokens)),
        Caller("host", created["host_token"], None),
        Caller("nobody", None, None),
        Caller("another game's seat", tokens_of(other)[0], None),
        Caller("another game's host", other["host_token"], None),
    ]
    replay = replay_game({**rules, "players": 4, "turn_seconds": DEFAULT_TURN_SECONDS}, 23)
    sweep = Sweep(client, game_id, replay, connect(redis_url))
    rng = random.Random(9)
    checked = moves = scans = 0
    while True:
        # Every third move, and the first moves of each hand (trump just turned, nothing
        # played), and the end.
        if moves % 3 == 0 or replay.finished or replay.phase == "bidding":
            checked += sweep.scan(callers, run_jobs=scans % 5 == 0)
            scans += 1
        if replay.finished:
            break
        play_a_random_move(client, game_id, tokens, replay, rng)
        moves += 1
    # The sweep changed nothing: the game is exactly the one replayed.
    assert store.load(game_id).game.to_dict() == replay.to_dict()
    assert {op for op in OPERATIONS} >= {("GET", "/api/v1/jobs/{job_id}"), ("GET", "/metrics")}
    assert checked > 4000
    assert sweep.hints_read > 3
