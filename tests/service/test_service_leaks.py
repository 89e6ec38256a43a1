"""No response of any endpoint, with any seat's token or none, shows a card that another
seat still holds: views, events (JSON and stream), history, and error messages; and a
sweep of every operation of the OpenAPI document, as every caller (each seat, the host, no
token, the seat and host of another game), at many moments of a game.

Card codes are substrings of each other (O1, O12), so every response is searched for whole
codes and compared as parsed cards, never as substrings; ids and tokens are url-safe base64
and may hold `_O1-`, so `_` and `-` bound a code as letters and digits do.

Poch games get the same checks (the section at the end): every caller at every decision,
the event stream, and every operation of the document at each phase, with Poch's codes
(C7, D10, HA) and what docs/poch.md lets a seat see.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from typing import Any

import redis
from flask.testing import FlaskClient

from core.jobs.queues import Timing, connect
from core.store.store import GameStore
from engine.pocha.actions import action_to_wire
from engine.pocha.cards import card_code, codes
from engine.pocha.game import Game
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
    # hands of 3 and 2 turn one up. No clock: on a busy machine a turn may outlast one, and
    # its stand-in's card would part the served game from the replayed one.
    rules = {"schedule": [3, 10, 2], "turn_seconds": 0}
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
#: The game record's JSON Schema (`GET /api/v1/schemas/game-record.json`): the same document
#: for every caller at every moment, naming fields (`hands`) and no game's cards.
RECORD_SCHEMA = (
    "/api/v1/schemas/game-record.json",
    (COMMITTED.parent / "game-record.schema.json").read_bytes(),
)
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


def is_the_record_schema(path: str, response: Any) -> bool:
    """Whether `path` is the record's schema, which then answered the shipped file whole
    (so it holds nothing of any game, whoever asks whenever)."""
    if path != RECORD_SCHEMA[0]:
        return False
    assert response.status_code == 200 and response.data == RECORD_SCHEMA[1], response.status
    return True


@dataclass
class Caller:
    """Who sends the requests: a token (or none) and the seat of this game it opens."""

    name: str
    token: str | None
    seat: int | None
    #: The hint job this caller was given, if any: a job id is known only to its asker.
    job: str = "NoSuchJob"


def url_of(path: str, game_id: str, caller: Caller) -> str:
    """An operation's path with the swept game's id, the caller's job and no match."""
    url = path.replace("{game_id}", game_id).replace("{job_id}", caller.job)
    return url.replace("{match_id}", "NoSuchMatch")


def ask_hints(
    client: FlaskClient,
    game_id: str,
    callers: list[Caller],
    connection: redis.Redis,
    run_jobs: bool,
) -> None:
    """Each caller asks for a hint, before a scan: a seat on its turn gets a job (queued,
    or run by a worker with `run_jobs`), whose id it keeps; the others no job."""
    for caller in callers:
        response = client.post(
            f"/api/v1/games/{game_id}/hint", json={"level": "easy"}, headers=bearer(caller.token)
        )
        caller.job = json_of(response)["id"] if response.status_code == 202 else "NoSuchJob"
    if run_jobs:
        make_worker(connection, simple=True, timing=Timing()).work(
            burst=True, logging_level="WARNING"
        )


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
        url = url_of(path, self.game_id, caller)
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
        ask_hints(self.client, self.game_id, callers, self.connection, run_jobs)
        for caller in callers:
            hidden = hidden_from(self.game, caller.seat)
            for method, path in OPERATIONS:
                for kind, response, named in self.request(caller, method, path):
                    if is_the_record_schema(path, response):
                        checked += 1
                        continue
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
    # 4 players: the hand of 6 turns up a trump, the hand of 10 deals the whole deck. No
    # clock: a scan on a busy machine may outlast a turn's, and the hint jobs' worker would
    # run its stand-in, whose card the replayed game does not know.
    rules = {"schedule": [6, 10], "turn_seconds": 0}
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
    replay = replay_game({**rules, "players": 4}, 23)
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


# -- Poch: the same, for the second game -----------------------------------------------------------
# A Poch card code is a suit letter and a rank (C7, D10, HA), bounded as Pocha's codes are. What
# a seat may see (docs/poch.md, What each seat knows): its own cards, the honours shown while
# collecting and the sets shown at the showdown (public though still held), the cards played.
# Hidden: every other hand less those, and so the card that set trumps (the dealer's own).
# The true hands are read from the store (the stored game), as data.

POCH_CODE = re.compile(r"(?<![A-Za-z0-9_-])[CSHD](?:10|[789JQKA])(?![A-Za-z0-9_-])")
POCH_DECK = [s + r for s in "CSHD" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")]
# Keys of the stored game that no response may carry: the hands, and the card that set trumps.
POCH_SECRET_KEYS = ('"hands"', '"trump_card"')


def json_of(response: Any) -> Any:
    """A response's JSON (typed as what it is: any JSON)."""
    return response.json


def poch_cards_in(text: str) -> set[str]:
    return set(POCH_CODE.findall(text))


def poch_state(store: GameStore, game_id: str) -> dict[str, Any]:
    state: dict[str, Any] = store.load(game_id).game.to_dict()
    return state


def poch_hidden(state: dict[str, Any], seat: int | None) -> set[str]:
    """The cards `seat` (None: a spectator) must not see now."""
    if state["phase"] == "over":
        return set()
    shown = {c for e in state["collected"] for c in e["cards"]}
    shown |= {c for cs in state["showdown"].values() for c in cs}
    hidden: set[str] = set()
    for other, hand in enumerate(state["hands"]):
        if other != seat:
            hidden |= set(hand)
    return hidden - shown


def poch_current_deal(path: str, body: Any, over: bool) -> Any:
    """The part of a response about the deal being played: the events since its ante (the
    earlier deals showed and played the same 32 cards). Views hold this deal only."""
    if path == "events" and not over:
        antes = [i for i, e in enumerate(body) if e["type"] == "ante"]
        return body[antes[-1] :] if antes else body
    return body


def poch_leaks(text: str, hidden: set[str], named: set[str]) -> set[str]:
    for key in POCH_SECRET_KEYS:
        assert key not in text, (key, text[:300])
    return (poch_cards_in(text) & hidden) - named


def refused_suit(state: dict[str, Any]) -> str:
    """A suit no seat may choose now: one played already, or any before a suit is done (no
    choice is due then)."""
    done: list[str] = state["suits_done"]
    return done[0] if done else "C"


def poch_responses(
    client: FlaskClient, game_id: str, token: str | None, seat: int | None, state: dict[str, Any]
) -> list[tuple[str, set[str]]]:
    """Every kind of response this caller can get now (views, events, history and refused
    decisions), each with the cards the request itself named."""
    headers = bearer(token)
    url = f"/api/v1/games/{game_id}"
    over = state["phase"] == "over"
    found: list[tuple[str, set[str]]] = []
    pages = (("view", url), ("events", f"{url}/events"), ("history", f"{url}/history"))
    for path, address in pages:
        response = client.get(address, headers=headers)
        assert response.status_code == 200, response.json
        found.append((json.dumps(poch_current_deal(path, response.json, over)), set()))
    if token is not None and seat is not None and not over:
        held = set(state["hands"][seat])
        not_held = next(c for c in POCH_DECK if c not in held)
        probes: list[tuple[str, dict[str, Any], set[str]]] = [
            ("plays", {"card": not_held}, {not_held}),
            ("plays", {"card": "XX"}, set()),
            ("bets", {"bet": 99_999}, set()),
            ("suits", {"suit": refused_suit(state)}, set()),
            ("bids", {"bid": 1}, set()),
        ]
        for endpoint, body, named in probes:
            response = client.post(f"{url}/{endpoint}", json=body, headers=headers)
            assert 400 <= response.status_code < 500, (endpoint, body, response.json)
            found.append((response.get_data(as_text=True), named))
    return found


def poch_decision(view: dict[str, Any], rng: random.Random) -> tuple[str, dict[str, Any]]:
    """A legal decision of the seat whose view this is, as (endpoint, body): mostly passes
    and small bets, so that the game runs its deals."""
    legal = view["you"]["legal"]
    if view["phase"] == "betting":
        small = [a for a in legal if a == "hold" or (isinstance(a, int) and a <= 3)]
        action = rng.choice(small) if small and rng.random() < 0.4 else "pass"
        return "bets", {"bet": action}
    action = rng.choice(legal)
    if view["phase"] == "choosing":
        return "suits", {"suit": action}
    return "plays", {"card": action}


def poch_play_one(
    client: FlaskClient, game_id: str, tokens: list[str | None], rng: random.Random
) -> None:
    spectator = json_of(client.get(f"/api/v1/games/{game_id}"))
    seat = spectator["turn"]
    view = json_of(client.get(f"/api/v1/games/{game_id}", headers=bearer(tokens[seat])))
    endpoint, body = poch_decision(view, rng)
    response = client.post(
        f"/api/v1/games/{game_id}/{endpoint}", json=body, headers=bearer(tokens[seat])
    )
    assert response.status_code == 200, (body, response.json)


def create_poch(
    client: FlaskClient, players: list[dict[str, Any]], rules: dict[str, Any], seed: int
) -> dict[str, Any]:
    body = {"game": "poch", "players": players, "rules": rules, "seed": seed}
    response = client.post("/api/v1/games", json=body)
    assert response.status_code == 201, response.json
    created: dict[str, Any] = json_of(response)
    return created


def test_poch_no_response_leaks_a_hidden_card(client: FlaskClient, store: GameStore) -> None:
    # 5 players, one a bot: an uneven deal (7, 7, 6, 6, 6), showdowns, a bot deciding
    # between people. Every caller at every decision, to the end.
    players = [*humans(2), {"name": "Bot", "bot": "heuristic"}, *humans(2)]
    created = create_poch(client, players, {"deals": 3, "turn_seconds": 0}, seed=11)
    game_id, tokens = created["id"], tokens_of(created)
    rng = random.Random(5)
    checked = decisions = hidden_seen = 0
    while True:
        state = poch_state(store, game_id)
        for seat, token in [*enumerate(tokens), (None, None), (None, created["host_token"])]:
            if seat is not None and token is None:
                continue  # the bot's seat: no token opens it
            hidden = poch_hidden(state, seat)
            hidden_seen += len(hidden)
            for text, named in poch_responses(client, game_id, token, seat, state):
                leaked = poch_leaks(text, hidden, named)
                assert not leaked, (seat, leaked, text[:300])
                checked += 1
        if state["phase"] == "over":
            break
        poch_play_one(client, game_id, tokens, rng)
        decisions += 1
    assert decisions > 20
    assert checked > 500
    assert hidden_seen > 300


def test_poch_leak_check_finds_a_hand(client: FlaskClient, store: GameStore) -> None:
    """The check above can fail: a seat's own view, read as another seat, shows hidden cards."""
    created = create_poch(client, humans(3), {"turn_seconds": 0}, seed=4)
    game_id, tokens = created["id"], tokens_of(created)
    state = poch_state(store, game_id)
    own = client.get(f"/api/v1/games/{game_id}", headers=bearer(tokens[0])).get_data(as_text=True)
    shown = {c for e in state["collected"] for c in e["cards"]}
    assert poch_leaks(own, poch_hidden(state, 1), set()) == set(state["hands"][0]) - shown
    # The card that set trumps is the dealer's: hidden from the others unless shown.
    dealer = state["dealer"]
    if state["trump_card"] not in shown:
        for seat in (None, *(s for s in range(3) if s != dealer)):
            assert state["trump_card"] in poch_hidden(state, seat)


def test_poch_stream_shows_no_hidden_card(client: FlaskClient, store: GameStore) -> None:
    created = create_poch(client, humans(3), {"turn_seconds": 0}, seed=2)
    game_id = created["id"]
    state = poch_state(store, game_id)
    response = client.get(
        f"/api/v1/games/{game_id}/events",
        headers={"Accept": "text/event-stream"},
        buffered=False,
    )
    # The first chunks are the retry hint and the backlog (the first deal): the ante, the
    # deal (counts and the trump suit) and the honours collected, nothing else.
    backlog = len(json_of(client.get(f"/api/v1/games/{game_id}/events")))
    chunks: Any = iter(response.response)
    text = ""
    while text.count("\ndata: ") + text.startswith("data: ") < backlog:
        text += next(chunks).decode()
    response.close()
    data = [json.loads(line[6:]) for line in text.splitlines() if line.startswith("data: ")]
    assert [e["type"] for e in data[:2]] == ["ante", "deal"]
    assert {e["type"] for e in data[2:]} <= {"collect"}
    shown = {c for e in state["collected"] for c in e["cards"]}
    assert poch_cards_in(text) == shown
    assert state["trump_card"] not in poch_cards_in(text) - shown


class PochSweep:
    """The sweep of every operation as every caller, for a Poch game."""

    def __init__(
        self, client: FlaskClient, store: GameStore, game_id: str, connection: redis.Redis
    ) -> None:
        self.client, self.store, self.game_id, self.connection = client, store, game_id, connection
        self.hints_read = 0

    def request(
        self, caller: Caller, method: str, path: str, state: dict[str, Any]
    ) -> list[tuple[str, Any, set[str]]]:
        url = url_of(path, self.game_id, caller)
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
            body = {"bid": 3}
        elif (method, path) == ("POST", "/api/v1/games/{game_id}/bets"):
            body = {"bet": 99_999}
        elif (method, path) == ("POST", "/api/v1/games/{game_id}/suits"):
            body = {"suit": refused_suit(state)}
        elif (method, path) == ("POST", "/api/v1/games/{game_id}/plays"):
            held = set(state["hands"][caller.seat]) if caller.seat is not None else set()
            card = next(c for c in POCH_DECK if c not in held)
            body, named = {"card": card}, {card}
        elif (method, path) == ("POST", "/api/v1/games/{game_id}/hint"):
            body = {"level": "easy"}
        elif (method, path) == ("DELETE", "/api/v1/games/{game_id}") and caller.name == "host":
            return []  # the host would end the game being swept
        elif (method, path) == ("POST", "/api/v1/games"):
            body = {"game": "poch", "players": humans(3)}
        elif (method, path) == ("POST", "/api/v1/ai/move"):
            body = {"seat": 0}
        elif (method, path) == ("POST", "/api/v1/matches"):
            body = {"game": "poch", "seats": ["random"] * 3, "games": 0}
        response = self.client.open(url, method=method, headers=headers, json=body)
        assert response.status_code < 500, (method, path, response.get_data(as_text=True))
        if path == "/api/v1/jobs/{job_id}" and response.status_code == 200:
            self.hints_read += json_of(response)["status"] == "finished"
        return [(kind, response, named)]

    def scan(self, callers: list[Caller], run_jobs: bool) -> int:
        checked = 0
        ask_hints(self.client, self.game_id, callers, self.connection, run_jobs)
        version = self.store.load(self.game_id).version
        for caller in callers:
            state = poch_state(self.store, self.game_id)
            hidden = poch_hidden(state, caller.seat)
            over = state["phase"] == "over"
            for method, path in OPERATIONS:
                for kind, response, named in self.request(caller, method, path, state):
                    if is_the_record_schema(path, response):
                        checked += 1
                        continue
                    text = response.get_data(as_text=True)
                    if path.endswith("/record") and response.status_code != 404:
                        # A record shows every hand: given once the game is over, and
                        # refused before (docs/records.md).
                        assert response.status_code == (200 if over else 409), text[:300]
                        checked += 1
                        continue
                    if kind != "other" and response.status_code == 200:
                        text = json.dumps(poch_current_deal(kind, response.json, over))
                    leaked = poch_leaks(text, hidden, named)
                    assert not leaked, (caller.name, method, path, leaked, text[:300])
                    checked += 1
        # Refused requests and reads only: the game is where it was (once it is over, a
        # rematch asked for is written on it).
        if not over:
            assert self.store.load(self.game_id).version == version
        return checked


def test_poch_sweep_every_operation_as_every_caller(
    client: FlaskClient, store: GameStore, redis_url: str
) -> None:
    players = [*humans(3), {"name": "Bot", "bot": "random"}]
    created = create_poch(client, players, {"deals": 2, "turn_seconds": 0}, seed=23)
    other = create_poch(client, humans(3), {"turn_seconds": 0}, seed=24)
    game_id, tokens = created["id"], tokens_of(created)
    callers = [
        *(Caller(f"seat {i}", token, i) for i, token in enumerate(tokens) if token),
        Caller("host", created["host_token"], None),
        Caller("nobody", None, None),
        Caller("another game's seat", tokens_of(other)[0], None),
        Caller("another game's host", other["host_token"], None),
    ]
    sweep = PochSweep(client, store, game_id, connect(redis_url))
    rng = random.Random(9)
    checked = decisions = scans = 0
    phases: list[str] = []
    while True:
        state = poch_state(store, game_id)
        # Whenever the phase changes (each deal's betting, its start and its suits' choices),
        # and at the end: each scan is some 200 requests.
        if not phases or state["phase"] != phases[-1]:
            checked += sweep.scan(callers, run_jobs=scans % 6 == 0)
            phases.append(state["phase"])
            scans += 1
        if state["phase"] == "over":
            break
        poch_play_one(client, game_id, tokens, rng)
        decisions += 1
    assert {op for op in OPERATIONS} >= {
        ("POST", "/api/v1/games/{game_id}/bets"),
        ("POST", "/api/v1/games/{game_id}/suits"),
    }
    assert {"betting", "starting", "choosing", "over"} <= set(phases)
    assert checked > 800
    assert sweep.hints_read > 0
