"""Whole Poch games over HTTP, people and bots mixed, checked at every step by the
independent referee (tests/poch_referee.py, written from the rule book).

For 3 to 8 players: the test plays the people's seats with random legal decisions taken
from their own views (`you.legal`: mostly passes and small bets, so that games last), the
bots play inline as the service runs them, and after each decision the new events are fed
to the referee and every seat's view and the spectator's are compared with what it worked
out. The referee needs the hands as dealt: a person's comes from their view (the hand now
and what they have played in the deal); a bot's seat has no token, so its hand is read from
the store, as data only (the rules are the referee's own). Now and then a person first
tries a decision that is not theirs to make (out of turn, not listed, in the wrong phase,
the other game's endpoint): it must be refused with a 4xx and leave the game as it was.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask.testing import FlaskClient

from core.store.store import GameStore
from tests.poch_referee import SUITS, PochReferee
from tests.service.helpers import bearer

# (players, who sits where: "person" or a Poch bot level, the rules): every count of players,
# each with people and bots; small deal counts keep the whole file fast.
LINEUPS: list[tuple[list[str], dict[str, int]]] = [
    (["person", "heuristic", "person"], {"deals": 6}),
    (["random", "person", "person", "heuristic"], {"deals": 5, "chips": 30}),
    (["person", "easy", "person", "random", "person"], {"deals": 4}),
    (["heuristic", "person", "random", "person", "heuristic", "person"], {"deals": 4}),
    (["person", "random", "random", "person", "heuristic", "easy", "person"], {"deals": 3}),
    (["person", "heuristic", "person", "random", "person", "random", "heuristic", "person"],
     {"deals": 3, "chips": 20, "ante": 2}),
]  # fmt: skip


class Table:
    """One Poch game over HTTP: its seats' tokens, the referee and what it has been fed."""

    def __init__(
        self,
        client: FlaskClient,
        store: GameStore,
        created: dict[str, Any],
        tokens: list[str | None],
        rules: dict[str, int],
    ) -> None:
        self.client, self.store = client, store
        self.id: str = created["id"]
        self.tokens = tokens
        self.people = [s for s, token in enumerate(tokens) if token]
        self.referee = PochReferee({"players": len(tokens), **rules})
        self.seq = 0
        self.version = created["version"]
        self.views: dict[int | None, dict[str, Any]] = {}
        self.illegal_tried = 0

    @classmethod
    def create(
        cls,
        client: FlaskClient,
        store: GameStore,
        lineup: list[str],
        rules: dict[str, int],
        seed: int,
    ) -> Table:
        """A game made with its seats given: people where `lineup` says "person"."""
        players = [
            {"name": f"P{i}"} if who == "person" else {"name": f"Bot {i}", "bot": who}
            for i, who in enumerate(lineup)
        ]
        # No clock: the test's people think as long as they like.
        body = {
            "game": "poch",
            "players": players,
            "rules": {**rules, "turn_seconds": 0},
            "seed": seed,
        }
        response = client.post("/api/v1/games", json=body)
        assert response.status_code == 201, response.json
        created = body_of(response)
        tokens: list[str | None] = [s.get("token") for s in created["seats"]]
        assert [bool(t) for t in tokens] == [who == "person" for who in lineup]
        return cls(client, store, created, tokens, rules)

    def play_to_the_end(self, rng: random.Random) -> None:
        for _ in range(2_000):
            self.sync()
            if self.referee.expect == "over":
                return
            self.decide(rng)
        raise AssertionError("the game did not end")

    def view(self, seat: int | None) -> dict[str, Any]:
        token = None if seat is None else self.tokens[seat]
        response = self.client.get(f"/api/v1/games/{self.id}", headers=bearer(token))
        assert response.status_code == 200, response.json
        found: dict[str, Any] = body_of(response)
        assert found["game"] == "poch"
        return found

    def dealt(self) -> dict[int, list[str]]:
        """Each seat's hand as dealt in the current deal: a person's from their view, a bot's
        from the stored game (it has no token), each with what it has played since."""
        spectator = self.views[None]
        played = spectator["played"]
        hands: dict[int, list[str]] = {}
        stored = self.store.load(self.id).game.to_dict()
        for seat, active in enumerate(spectator["active"]):
            if not active:
                continue
            if seat in self.people:
                hand = list(self.views[seat]["you"]["hand"])
            else:
                hand = list(stored["hands"][seat])
            hands[seat] = hand + [c for s, c in played if s == seat]
        return hands

    def sync(self) -> None:
        """Read every view, give the referee the current deal's hands, then feed it the new
        events and hold every view to what it worked out."""
        for seat in [None, *range(len(self.tokens))]:
            if seat is None or self.tokens[seat]:
                self.views[seat] = self.view(seat)
        spectator = self.views[None]
        if spectator["phase"] != "over":
            self.referee.deal_hands(spectator["deal"], self.dealt())
        response = self.client.get(f"/api/v1/games/{self.id}/events?after={self.seq}")
        assert response.status_code == 200
        events = body_of(response)
        assert [e["seq"] for e in events] == list(range(self.seq + 1, self.seq + 1 + len(events)))
        for event in events:
            self.referee.event(event)
            assert event["version"] <= spectator["version"]
        if events:
            self.seq = events[-1]["seq"]
            assert events[-1]["version"] == spectator["version"]
        for seat, view in self.views.items():
            assert view["version"] == spectator["version"]
            self.referee.check_view(view, seat)

    def decide(self, rng: random.Random) -> None:
        """The person whose turn it is makes a random legal decision (sometimes after an
        illegal one)."""
        seat = self.referee.turn
        assert seat is not None and seat in self.people, (seat, self.people)
        view = self.views[seat]
        legal = view["you"]["legal"]
        assert legal
        if rng.random() < 0.3:
            self.try_illegal(seat, legal, rng)
        action = choose(view, legal, rng)
        response = self.post(seat, action)
        assert response.status_code == 200, (action, response.json)
        assert response.json["version"] > self.version
        self.version = response.json["version"]

    def post(self, seat: int | None, action: Any, endpoint: str | None = None) -> Any:
        token = None if seat is None else self.tokens[seat]
        if endpoint is None:
            if action in ("pass", "hold") or isinstance(action, int):
                endpoint = "bets"
            elif isinstance(action, str) and action in SUITS:
                endpoint = "suits"
            else:
                endpoint = "plays"
        key = {"bets": "bet", "suits": "suit", "plays": "card", "bids": "bid"}[endpoint]
        return self.client.post(
            f"/api/v1/games/{self.id}/{endpoint}", json={key: action}, headers=bearer(token)
        )

    def try_illegal(self, seat: int, legal: list[Any], rng: random.Random) -> None:
        """A decision that is refused with a 4xx, and changes nothing."""
        others = [s for s in self.people if s != seat]
        view = self.views[seat]
        hand = view["you"]["hand"]
        chips = view["chips"][seat]
        candidates: list[tuple[int | None, Any, str | None]] = [
            (seat, chips + 1, None),  # more than it holds
            (seat, "hold", None),  # nothing to hold, or more than it holds
            (seat, view["pot"] and 1, "bets"),  # not above the highest, once someone paid
            (seat, "pass", "suits"),  # not a suit
            (seat, "C", None),  # a suit, out of its phase or played already
            *((seat, s, "suits") for s in view["suits_done"][:1]),  # played already
            (seat, "C7", None),  # held or not, in or out of the starting phase
            (seat, "HA", None),
            (seat, "X9", "plays"),  # no card
            (seat, 0, "bets"),  # no bet
            (seat, "pass", "bids"),  # Pocha's endpoint: wrong_game
            (None, "pass", None),  # no token
            *((s, legal[0], None) for s in others[:1]),  # out of turn
            *((seat, c, None) for c in hand[:2]),  # a card that may not start
        ]
        seat_of, action, endpoint = rng.choice(candidates)
        if seat_of == seat and endpoint is None and action in legal:
            return
        before = self.client.get(f"/api/v1/games/{self.id}").json
        response = self.post(seat_of, action, endpoint)
        assert 400 <= response.status_code < 500, (action, endpoint, response.json)
        assert "error" in response.json
        after = self.client.get(f"/api/v1/games/{self.id}").json
        assert after == before
        events = self.client.get(f"/api/v1/games/{self.id}/events?after={self.seq}").json
        assert events == []
        self.illegal_tried += 1


def body_of(response: Any) -> Any:
    """A response's JSON (typed as what it is: any JSON)."""
    return response.json


def choose(view: dict[str, Any], legal: list[Any], rng: random.Random) -> Any:
    """Mostly passes and small bets while betting (so that people stay in); any legal start
    card or suit."""
    if view["phase"] != "betting":
        return rng.choice(legal)
    roll = rng.random()
    if roll < 0.6 or legal == ["pass"]:
        return "pass"
    if roll < 0.75 and "hold" in legal and view["pot"] <= 6:
        return "hold"
    amounts = [a for a in legal if isinstance(a, int)]
    return rng.choice(amounts[:3]) if amounts else "pass"


@pytest.mark.parametrize(
    ("lineup", "rules", "seed"),
    [
        pytest.param(lineup, rules, seed, id=f"{len(lineup)}-players-{seed}")
        for lineup, rules in LINEUPS
        # A second game for 3 and 5 players (uneven deals) and for 8 (the most).
        for seed in ([1, 2] if len(lineup) in (3, 5, 8) else [1])
    ],
)
def test_whole_poch_game_people_and_bots(
    client: FlaskClient, store: GameStore, lineup: list[str], rules: dict[str, int], seed: int
) -> None:
    table = Table.create(client, store, lineup, rules, seed)
    table.play_to_the_end(random.Random(seed))
    referee = table.referee
    assert referee.deals_checked >= 1
    # Deals the bots played alone after every person had left are checked blind.
    assert referee.blind_deals <= referee.deals_checked // 2
    final = table.views[None]
    assert final["phase"] == "over" and final["turn"] is None
    assert final["result"] == referee.result
    history = body_of(client.get(f"/api/v1/games/{table.id}/history"))
    assert history["game"] == "poch" and history["finished"] is True
    assert history["deals"] == referee.deal_results
    assert history["chips"] == referee.chips
    assert history["result"] == referee.result


def test_an_unseeded_poch_game_keeps_its_seed(client: FlaskClient, store: GameStore) -> None:
    """Without a seed the game draws one of 128 bits (no search from one's own cards finds
    it); it is stored, and never shown: not in views, events or the history."""
    players = [{"name": "Ana"}, {"name": "Bot", "bot": "heuristic"}, {"name": "Bea"}]
    response = client.post("/api/v1/games", json={"game": "poch", "players": players})
    assert response.status_code == 201, response.json
    created = body_of(response)
    game_id = created["id"]
    seed = int(store.load(game_id).game.to_dict()["seed"])
    assert seed.bit_length() > 100
    token = created["seats"][0]["token"]
    url = f"/api/v1/games/{game_id}"
    texts = [
        client.get(url).get_data(as_text=True),
        client.get(url, headers=bearer(token)).get_data(as_text=True),
        client.get(f"{url}/events").get_data(as_text=True),
        client.get(f"{url}/history").get_data(as_text=True),
    ]
    assert body_of(client.get(url))["seeded"] is False
    for text in texts:
        assert str(seed) not in text and '"seed"' not in text


def test_a_poch_table_joined_given_a_bot_and_left_midway(
    client: FlaskClient, store: GameStore
) -> None:
    """A game gathered at a table: two people join by its code, the host puts a bot in the
    last open seat (which starts the game), and a person leaves in the second deal, the
    stand-in playing their seat from then on. The table's events fall among the deal's and
    the referee checks the game through them."""
    players = [{"name": "Ana"}, {"open": True}, {"name": "Bot", "bot": "random"}]
    players += [{"open": True}, {"open": True}]
    rules = {"deals": 4}
    body = {"game": "poch", "players": players, "rules": {**rules, "turn_seconds": 0}, "seed": 12}
    response = client.post("/api/v1/games", json=body)
    assert response.status_code == 201, response.json
    created = body_of(response)
    tokens: list[str | None] = [s.get("token") for s in created["seats"]]
    for name in ("Bea", "Cid"):
        joined = client.post(f"/api/v1/tables/{created['table_code']}/seats", json={"name": name})
        assert joined.status_code == 201, joined.json
        tokens[body_of(joined)["seat"]] = body_of(joined)["token"]
    waiting = body_of(client.get(f"/api/v1/games/{created['id']}"))
    assert waiting["phase"] == "waiting" and waiting["turn"] is None
    open_seat = tokens.index(None, 3) if None in tokens[3:] else tokens.index(None)
    started = client.post(
        f"/api/v1/games/{created['id']}/seats/{open_seat}/bot",
        json={"level": "heuristic"},
        headers=bearer(created["host_token"]),
    )
    assert started.status_code == 200, started.json
    table = Table(client, store, created, tokens, rules)
    rng = random.Random(12)
    leaver = next(s for s in table.people if s != 0)
    while table.referee.expect != "over":
        table.sync()
        if table.referee.deal_no == 2 and leaver in table.people:
            left = client.post(
                f"/api/v1/games/{table.id}/seats/{leaver}/leave", headers=bearer(tokens[leaver])
            )
            assert left.status_code == 200, left.json
            table.people.remove(leaver)
            continue
        if table.referee.expect != "over":
            table.decide(rng)
    kinds = {e["type"] for e in body_of(client.get(f"/api/v1/games/{table.id}/events"))}
    assert {"seat_taken", "seat_bot", "seat_left"} <= kinds
    assert table.referee.deals_checked >= 2
    assert table.referee.blind_deals <= 1
