"""Several queue Redises, each with its own group of workers (`POCHA_QUEUE_REDIS_URL` with
two URLs, `pocha worker --queue-group 0` and `1`), with the games on the session's cluster:
each game's bot turns go to the group its id falls in, its jobs to that group's Redis
only, and every game is played to its end by the two groups together.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import redis

from core.play.turns import turn_key
from core.store.keys import queue_group
from core.store.redises import RedisSetupError, connect
from service import create_app
from tests.redis_server import fresh_db_url
from tests.service.helpers import create_game
from tests.waiting import LONG, wait_until
from tests.worker.conftest import WorkerProcesses
from tools.embedded_redis import RedisServer

GAMES = 8
LEVELS = ["heuristic", "easy", "random"]
BOTS = [{"name": f"Bot {i}", "bot": level} for i, level in enumerate(LEVELS)]


def test_each_game_is_played_by_the_group_its_id_falls_in(
    redis_cluster_url: str,
    redis_server: RedisServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    queue_urls = [fresh_db_url(redis_server, db) for db in (10, 11)]
    monkeypatch.setenv("POCHA_QUEUE_REDIS_URL", " ".join(queue_urls))
    client = create_app(
        {"REDIS_URL": redis_cluster_url, "TESTING": True, "BOT_RUNNER": "rq"}
    ).test_client()
    workers = WorkerProcesses(redis_cluster_url, tmp_path)
    started = [workers.start("--queue-group", str(group)) for group in (0, 1)]
    try:
        rules = {"schedule": [1, 2]}
        # Ids are random, so a few games may all fall in one group: create until each
        # group has some (a game per group is a coin toss, so this ends quickly).
        groups: dict[str, int] = {}
        seed = 0
        while len(groups) < GAMES or set(groups.values()) != {0, 1}:
            game = create_game(client, BOTS, rules, seed=seed)["id"]
            groups[game] = queue_group(turn_key(game, 1), 2)
            seed += 1
            assert seed < 100, "100 random ids all in one group"
        games = list(groups)

        def all_over() -> bool:
            views = [client.get(f"/api/v1/games/{game}").json for game in games]
            return all(view["phase"] == "finished" for view in views)

        wait_until(all_over, LONG, "every game to be played to its end")
        for index, url in enumerate(queue_urls):
            jobs = [key.decode() for key in redis.Redis.from_url(url).keys("rq:job:pocha-turn-*")]
            mine = {game for game, group in groups.items() if group == index}
            assert jobs and all(any(f"-{game}-" in job for game in mine) for job in jobs)
        assert all(process.poll() is None for process in started)
        status = client.get("/readyz").json
        assert status["workers"] == 2
    finally:
        workers.stop_all()


def test_a_worker_of_a_group_that_does_not_exist_is_refused(redis_server: RedisServer) -> None:
    url = fresh_db_url(redis_server, 10)
    with pytest.raises(RedisSetupError, match="POCHA_QUEUE_GROUP 2"):
        connect({"REDIS_URL": url, "QUEUE_REDIS_URL": f"{url} {url}", "QUEUE_GROUP": 2})
