"""Each process keeps the games it parsed last (`GameStore._parsed_state`). Two apps on one
Redis stand for two API processes: moves alternate between them, so each one's kept copy
keeps going out of date, and every view must still be the engine's. A refused move, which
takes the kept game to change it, must leave nothing changed behind."""

from __future__ import annotations

import random
from pathlib import Path

import redis
from flask.testing import FlaskClient

from engine.pocha.actions import action_from_wire, action_to_wire
from service import create_app
from service.context import EXTENSION
from tests.service.helpers import (
    bearer,
    create_game,
    engine_view,
    humans,
    move,
    replay_game,
    strip_view,
    tokens_of,
)
from tests.waiting import LONG, scaled
from tools.embedded_redis import RedisServer


def _app_client(redis_url: str) -> FlaskClient:
    app = create_app({"REDIS_URL": redis_url, "TESTING": True, "BOT_RUNNER": "inline"})
    return app.test_client()


class _Table:
    """An all-human game made through `client`, and its engine replica."""

    def __init__(
        self, client: FlaskClient, seed: int, players: int = 3, schedule: tuple[int, ...] = (4,)
    ) -> None:
        rules = {"players": players, "schedule": list(schedule)}
        created = create_game(client, humans(players), rules, seed=seed)
        self.client, self.game_id, self.tokens = client, created["id"], tokens_of(created)
        self.replica = replay_game(rules, seed)

    def play(self, moves: int) -> None:
        """Make `moves` legal moves, each answered with the engine's view of its seat."""
        for _ in range(moves):
            seat = self.replica.turn
            assert seat is not None
            action = self.replica.legal_actions()[0]
            token = self.tokens[seat]
            assert token is not None
            response = move(self.client, self.game_id, token, action_to_wire(action))
            assert response.status_code == 200, response.json
            self.replica.apply(seat, action)
            assert strip_view(response.json) == engine_view(self.replica, seat)


def test_two_processes_alternating_moves_always_see_the_stored_game(redis_url: str) -> None:
    first, second = _app_client(redis_url), _app_client(redis_url)
    table = _Table(first, seed=11, players=4, schedule=(3, 4, 2))
    game_id, tokens, replica = table.game_id, table.tokens, table.replica
    rng = random.Random(5)
    step = 0
    while not replica.finished:
        seat = replica.turn
        assert seat is not None
        action = rng.choice(replica.legal_actions())
        # Mostly alternating, sometimes the same process twice in a row.
        client = (first, second)[(step + (rng.random() < 0.25)) % 2]
        response = move(client, game_id, tokens[seat], action_to_wire(action))
        assert response.status_code == 200, response.json
        replica.apply(seat, action)
        for reader in (first, second):
            view = reader.get(f"/api/v1/games/{game_id}", headers=bearer(tokens[seat])).json
            assert strip_view(view) == engine_view(replica, seat)
        step += 1


def test_a_refused_move_leaves_the_kept_game_as_it_was(redis_url: str) -> None:
    client = _app_client(redis_url)
    table = _Table(client, seed=4, schedule=(3,))
    game_id, tokens, replica = table.game_id, table.tokens, table.replica
    while replica.phase == "bidding":
        seat = replica.turn
        assert seat is not None
        bid = replica.legal_actions()[0]
        assert move(client, game_id, tokens[seat], action_to_wire(bid)).status_code == 200
        replica.apply(seat, bid)
    seat = replica.turn
    assert seat is not None
    hand = [c for c in engine_view(replica, seat)["you"]["hand"]]
    illegal = [c for c in hand if action_from_wire(c) not in replica.legal_actions()]
    refused = [
        move(client, game_id, tokens[(seat + 1) % 3], hand[0]),  # not that seat's turn
        move(client, game_id, tokens[seat], 9),  # a bid while playing
    ]
    if illegal:
        refused.append(move(client, game_id, tokens[seat], illegal[0]))
    assert all(400 <= r.status_code < 500 for r in refused)
    view = client.get(f"/api/v1/games/{game_id}", headers=bearer(tokens[seat])).json
    assert strip_view(view) == engine_view(replica, seat)
    card = replica.legal_actions()[0]
    assert move(client, game_id, tokens[seat], action_to_wire(card)).status_code == 200
    replica.apply(seat, card)
    view = client.get(f"/api/v1/games/{game_id}", headers=bearer(tokens[seat])).json
    assert strip_view(view) == engine_view(replica, seat)


def _scripts_and_reads(redis_url: str) -> int:
    """Scripts run and games read so far by the session's Redis (its command statistics;
    with the limits off, a game is read by HMGET outside any script)."""
    stats = redis.Redis.from_url(redis_url).info("commandstats")
    return sum(
        int(stats.get(f"cmdstat_{name}", {}).get("calls", 0))
        for name in ("evalsha", "eval", "hmget")
    )


def test_a_move_on_the_game_this_process_kept_is_one_round_trip(tmp_path: Path) -> None:
    # A Redis of its own: the session's counts the commands of every test's workers too.
    server = RedisServer(tmp_path / "redis")
    server.start(timeout=scaled(LONG))
    try:
        _count_round_trips(server.url)
    finally:
        server.stop()


def _count_round_trips(redis_url: str) -> None:
    client = _app_client(redis_url)
    # Redis learns each script at its first use (a NOSCRIPT, a SCRIPT LOAD, the call again):
    # a game played first, so that only the moves' own calls are counted.
    _Table(client, seed=9).play(3)
    table = _Table(client, seed=8)
    game_id, tokens, replica = table.game_id, table.tokens, table.replica
    costs = []
    while not replica.finished:
        seat = replica.turn
        assert seat is not None
        action = replica.legal_actions()[-1]
        before = _scripts_and_reads(redis_url)
        assert move(client, game_id, tokens[seat], action_to_wire(action)).status_code == 200
        costs.append(_scripts_and_reads(redis_url) - before)
        replica.apply(seat, action)
    # The first move reads the game, then writes; every later one finds the game this
    # process wrote last, and writes in the same call that checks it is still current.
    assert costs[0] >= 2, costs
    assert set(costs[1:]) == {1}, costs


def test_a_move_on_an_out_of_date_kept_game_is_counted_once(redis_url: str) -> None:
    settings = {"REDIS_URL": redis_url, "TESTING": True, "BOT_RUNNER": "inline"}
    # A day's window: the move counters' windows are aligned to the clock, and a minute's
    # edge could fall among these moves.
    limited = {**settings, "RATE_LIMITS": "on", "RATE_LIMIT_MOVES": "3/day"}
    first = create_app(limited).test_client()
    second = create_app(limited).test_client()
    table = _Table(first, seed=9)
    game_id, tokens, replica = table.game_id, table.tokens, table.replica
    statuses = []
    for client in (first, second, first, second):
        seat = replica.turn
        assert seat is not None
        action = replica.legal_actions()[0]
        response = move(client, game_id, tokens[seat], action_to_wire(action))
        statuses.append(response.status_code)
        if response.status_code == 200:
            replica.apply(seat, action)
    # The third move finds `first`'s kept game out of date (`second` moved since): it is
    # decided again on the stored game that came back, and counted once, so the fourth is
    # the one over the limit.
    assert statuses == [200, 200, 200, 429]
    view = second.get(f"/api/v1/games/{game_id}").json
    assert view["version"] == 4


def test_moves_go_on_when_redis_forgets_its_scripts(redis_url: str) -> None:
    # The scripts are sent by their hash; a restarted or flushed Redis no longer knows
    # them, and the move must load them again rather than fail.
    table = _Table(_app_client(redis_url), seed=12)
    table.play(1)
    redis.Redis.from_url(redis_url).script_flush()
    table.play(3)


def test_moves_go_on_when_redis_closes_the_connection(redis_url: str) -> None:
    app = create_app({"REDIS_URL": redis_url, "TESTING": True, "BOT_RUNNER": "inline"})
    table = _Table(app.test_client(), seed=13)
    table.play(1)
    # The test client serves every request on this thread: its store connection is the
    # one the moves use. Redis drops it (as on a restart or an idle timeout).
    store = app.extensions[EXTENSION].store
    redis.Redis.from_url(redis_url).client_kill_filter(_id=store._connection().client_id())
    table.play(3)
