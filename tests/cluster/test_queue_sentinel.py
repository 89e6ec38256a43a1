"""The queue Redis made highly available with a replica and Sentinel, as the README says.

A primary, its replica and one sentinel watching them (all from the session's redis-server
binary); the API and a real `pocha worker` name the queues by the sentinel
(`redis+sentinel://.../pocha-queues/0`). Bots play their turns; the primary is killed with
SIGKILL; the sentinel promotes the replica; the worker and the API find the new primary by
themselves and the bots play on.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from redis.sentinel import Sentinel

from service import create_app
from tests.redis_server import fresh_db_url
from tests.service.helpers import bearer, create_game, move
from tests.waiting import LONG, scaled, wait_until
from tests.worker.conftest import WorkerProcesses
from tools.embedded_redis import RedisServer, free_port

SERVICE = "pocha-queues"

#: How long the primary goes unanswering before the sentinel fails it over: a primary paused
#: for a second on a busy machine is not dead, and a failover it did not need would move the
#: queues before the test kills it.
DOWN_AFTER_MS = 5000


class SentinelServer(RedisServer):
    """A redis-server in sentinel mode, watching the primary at `primary_port`."""

    def __init__(self, data_dir: Path, primary_port: int) -> None:
        super().__init__(data_dir, port=free_port())
        self.primary_port = primary_port

    def command_line(self, executable: str) -> list[str]:
        conf = self.data_dir / "sentinel.conf"
        conf.write_text(
            f"port {self.port}\nbind {self.host}\ndir {self.data_dir}\n"
            f"sentinel monitor {SERVICE} 127.0.0.1 {self.primary_port} 1\n"
            f"sentinel down-after-milliseconds {SERVICE} {DOWN_AFTER_MS}\n"
            f"sentinel failover-timeout {SERVICE} 5000\n"
        )
        return [executable, str(conf), "--sentinel"]


@pytest.fixture
def queues(tmp_path: Path) -> Iterator[tuple[RedisServer, RedisServer, SentinelServer]]:
    for name in ("primary", "replica", "sentinel"):
        (tmp_path / name).mkdir()
    primary = RedisServer(tmp_path / "primary", appendonly=True).start(timeout=scaled(LONG))
    replica = RedisServer(
        tmp_path / "replica", appendonly=True,
        extra_args=["--replicaof", "127.0.0.1", str(primary.port)],
    ).start(timeout=scaled(LONG))  # fmt: skip
    sentinel = SentinelServer(tmp_path / "sentinel", primary.port).start(timeout=scaled(LONG))
    try:
        wait_until(lambda: _replicas_up(primary) == 1, LONG, "the replica to be in sync")
        wait_until(lambda: _primary_port(sentinel) == primary.port, LONG, "the sentinel to watch")
        yield primary, replica, sentinel  # type: ignore[misc]
    finally:
        for server in (sentinel, replica, primary):
            server.stop()


def _replicas_up(primary: RedisServer) -> int:
    try:
        return int(primary.client().info("replication").get("connected_slaves", 0))
    except redis.RedisError:
        return 0


def _primary_port(sentinel: SentinelServer) -> int:
    """The port of the primary the sentinel names now (0 while it names none)."""
    try:
        return int(Sentinel([("127.0.0.1", sentinel.port)]).discover_master(SERVICE)[1])
    except redis.sentinel.MasterNotFoundError:
        return 0


def test_the_queues_survive_their_primary_through_sentinel(
    queues: tuple[RedisServer, RedisServer, SentinelServer],
    redis_server: RedisServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    primary, replica, sentinel = queues
    store_url = fresh_db_url(redis_server, 8)
    # Where the API and the worker process (which inherits the environment) read it.
    monkeypatch.setenv(
        "POCHA_QUEUE_REDIS_URL", f"redis+sentinel://127.0.0.1:{sentinel.port}/{SERVICE}/0"
    )
    client = create_app({"REDIS_URL": store_url, "TESTING": True, "BOT_RUNNER": "rq"}).test_client()
    workers = WorkerProcesses(store_url, tmp_path)
    worker = workers.start()
    try:
        players = [{"name": "Bot 1", "bot": "heuristic"}, {"name": "Bot 2", "bot": "easy"},
                   {"name": "Ana"}]  # fmt: skip
        created = create_game(client, players, {"schedule": [3, 3]}, seed=4)
        game_id, token = created["id"], created["seats"][2]["token"]

        def ana_to_move() -> bool:
            view = client.get(f"/api/v1/games/{game_id}", headers=bearer(token)).json
            return bool(view["turn"] == 2)

        wait_until(ana_to_move, LONG, "the bots' turns before Ana's")
        primary.process.kill()
        primary.process.wait()
        wait_until(lambda: _primary_port(sentinel) == replica.port, LONG, "the failover")
        # Ana plays on: each of her moves hands the bots their turns, on the new primary.
        for _ in range(4):
            view = client.get(f"/api/v1/games/{game_id}", headers=bearer(token)).json
            response = move(client, game_id, token, view["you"]["legal"][0])
            assert response.status_code == 200, response.json
            wait_until(ana_to_move, LONG, "the bots' turns after the failover")
        assert worker.poll() is None, workers.log(0)
        assert redis.Redis(port=replica.port).keys("rq:job:pocha-turn-*")
    finally:
        workers.stop_all()
