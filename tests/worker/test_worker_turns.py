"""Bot turns on RQ: one job per (game, version), played from the bot's own view, handed on
from bot to bot; a person plays against three bots to the end, a game of bots plays itself,
and a turn is never played twice."""

from __future__ import annotations

import redis
from flask.testing import FlaskClient
from rq.job import Job

from ai.bot import Budget
from ai.pocha.kind import KIND
from ai.pocha.levels import LEVELS
from core.jobs.queues import (
    MARGIN_SECONDS,
    SERIALIZER,
    SLOW_ITERATIONS_PER_SECOND,
    TURN_TIMEOUT,
    TURNS,
    queue,
    thinking_seconds,
)
from core.jobs.tasks import resubmit
from core.play.bots import bot_seed
from core.play.turns import schedule_turn, store_for, turn_key
from core.store.keys import TASKS_DUE
from engine.pocha.actions import action_to_wire
from engine.pocha.observation import observe
from tests.service.helpers import bearer, create_game, move
from tests.worker.conftest import Drain, jobs_named

BOTS = [
    {"name": "Easy", "bot": "easy"},
    {"name": "Heuristic", "bot": "heuristic"},
    {"name": "Random", "bot": "random"},
]


def turn_jobs(connection: redis.Redis, game_id: str) -> list[Job]:
    """The finished bot-turn jobs of a game, by version."""
    return sorted(jobs_named(connection, f"pocha-turn-{game_id}-*"), key=lambda j: j.args[1])


def test_a_person_against_three_bots_to_the_end(
    client: FlaskClient, connection: redis.Redis, drain: Drain
) -> None:
    created = create_game(client, [{"name": "Ana"}, *BOTS], {"schedule": [1, 3]}, seed=11)
    game_id, token = created["id"], created["seats"][0]["token"]
    moves = 0
    while True:
        drain()  # the bots before Ana play
        view = client.get(f"/api/v1/games/{game_id}", headers=bearer(token)).json
        if view["phase"] == "finished":
            break
        # The API never thinks: whenever Ana looks, bots have played up to her turn.
        assert view["turn"] == 0
        response = move(client, game_id, token, view["you"]["legal"][-1])
        assert response.status_code == 200, response.json
        moves += 1
    assert moves == 2 + 1 + 3
    events = client.get(f"/api/v1/games/{game_id}/events").json
    assert events[-1]["type"] == "game_over"
    bot_moves = [e for e in events if e["type"] in ("bid", "card_played") and e["seat"] != 0]
    assert len(bot_moves) == 3 * moves
    # One job per run of bot turns (the bots between two of Ana's moves), each named
    # after the game and the version it began at; together they played every bot move once.
    jobs = turn_jobs(connection, game_id)
    assert 1 <= len(jobs) <= len(bot_moves)
    assert all(j.id == f"pocha-turn-{game_id}-{j.args[1]}" for j in jobs)
    assert all(j.return_value()["played"] for j in jobs)
    assert sum(j.return_value()["turns"] for j in jobs) == len(bot_moves)
    assert connection.zcard(TASKS_DUE) == 0  # no turn is left pending


def test_a_game_of_bots_plays_itself_to_the_end_reproducibly(
    client: FlaskClient, connection: redis.Redis, drain: Drain
) -> None:
    players = [{"name": f"B{i}", "bot": lv} for i, lv in enumerate(["easy", "heuristic"] * 2)]
    created = create_game(client, players, {"schedule": [2, 3]}, seed=5)
    assert created["version"] == 1  # nothing was played in the request
    drain()
    view = client.get(f"/api/v1/games/{created['id']}").json
    assert view["phase"] == "finished"
    # Decisions are seeded from the game's seed and version: the same game again.
    again = create_game(client, players, {"schedule": [2, 3]}, seed=5)
    drain()
    events = client.get(f"/api/v1/games/{created['id']}/events").json
    assert events == client.get(f"/api/v1/games/{again['id']}/events").json


def test_each_bot_decides_from_its_own_view_at_its_level(
    client: FlaskClient, connection: redis.Redis, drain: Drain
) -> None:
    created = create_game(client, [{"name": "Ana"}, *BOTS], {"schedule": [3]}, seed=2)
    game_id = created["id"]
    store = store_for(connection)
    before = store.load(game_id)
    seat = before.bot_to_move
    assert seat is not None
    level = before.seats[seat].bot
    assert level is not None
    seed = bot_seed(before.game.seed, before.version)
    expected = KIND.decide(observe(before.game, seat), level, seed=seed).action
    drain()
    first_bot_move = client.get(f"/api/v1/games/{game_id}/events?after=1").json[0]
    assert first_bot_move["seat"] == seat
    assert first_bot_move.get("bid", first_bot_move.get("card")) == action_to_wire(expected)


def test_a_turn_is_handed_over_once_and_a_stale_turn_does_nothing(
    client: FlaskClient, connection: redis.Redis, drain: Drain
) -> None:
    players = [{"name": f"B{i}", "bot": "heuristic"} for i in range(4)]
    created = create_game(client, players, {"schedule": [1]}, seed=3)
    game_id = created["id"]
    # The API handed version 1 over; handing it over again is refused.
    assert not schedule_turn(connection, game_id, 1)
    assert queue(connection, TURNS).count == 1
    drain()
    final = store_for(connection).load(game_id)
    assert final.finished
    # A late job for an old version (a retry, a duplicate) finds the game moved on.
    assert schedule_turn(connection, game_id, 2)
    drain()
    late = Job.fetch(f"pocha-turn-{game_id}-2", connection=connection, serializer=SERIALIZER)
    assert late.return_value() == {
        "game": game_id,
        "version": 2,
        "played": False,
        "turns": 0,
        "fallback": False,
        "now": final.version,
    }
    assert store_for(connection).load(game_id).version == final.version


def test_a_turn_rescued_twice_is_played_by_the_fallback_bot(
    client: FlaskClient, connection: redis.Redis, drain: Drain
) -> None:
    created = create_game(client, [{"name": "Ana"}, *BOTS], {"schedule": [3]}, seed=2)
    game_id = created["id"]
    record = store_for(connection).load(game_id)
    seat, version = record.bot_to_move, record.version
    assert seat is not None
    # The watchdog queued the turn again twice (its workers kept dying): the third job
    # plays the quick fallback bot rather than think again.
    key = turn_key(game_id, version)
    first = f"pocha-turn-{game_id}-{version}"
    second = resubmit(connection, key, first, recovery=True)
    assert second == f"{first}-2"
    third = resubmit(connection, key, second, recovery=True)
    assert third == f"{first}-3"
    assert resubmit(connection, key, first, recovery=True) is None  # not its job any more
    for lost in (first, second):  # those two jobs died with their workers
        Job.fetch(lost, connection=connection, serializer=SERIALIZER).delete()
    drain()
    job = Job.fetch(third, connection=connection, serializer=SERIALIZER)
    assert job.kwargs["recovery"] == 2
    result = job.return_value()
    assert result["played"] and result["fallback"]
    seed = bot_seed(record.game.seed, version)
    heuristic = KIND.decide(observe(record.game, seat), "heuristic", seed=seed).action
    event = client.get(f"/api/v1/games/{game_id}/events?after=1").json[0]
    assert event.get("bid", event.get("card")) == action_to_wire(heuristic)


def test_a_turn_may_think_its_whole_budget_before_it_times_out() -> None:
    for level in LEVELS.values():
        assert thinking_seconds(level.budget) + MARGIN_SECONDS <= TURN_TIMEOUT
    iterations_only = Budget(iterations=2000)
    assert thinking_seconds(iterations_only) == 2000 / SLOW_ITERATIONS_PER_SECOND
    assert thinking_seconds(Budget(iterations=2000, milliseconds=300)) == 0.3
    assert thinking_seconds(Budget()) == 0
