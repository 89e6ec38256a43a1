"""`pocha migrate-keys`: a Redis written under the old key names (no hash tags) is renamed
in place, and games, their owed tasks and clocks, and matches are found again."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from click.testing import CliRunner

from cli.main import pocha
from core.play.turns import clock_key, owed_work, turn_key
from core.store.keys import TASKS_DUE, game_key, task_key
from core.store.store import GameStore
from engine.pocha.game import Game
from engine.pocha.rules import Rules
from tools.migrate_keys import migrate, new_name, new_task


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("pocha:game:abc", "pocha:game:{abc}"),
        ("pocha:game:abc:events", "pocha:game:{abc}:events"),
        ("pocha:game:a-b_c:once:1:ff", "pocha:game:{a-b_c}:once:1:ff"),
        ("pocha:match:m1:game:3", "pocha:match:{m1}:game:3"),
        ("pocha:task:turn:abc:5", "pocha:task:turn:{abc}:5"),
        ("pocha:task:clock:abc:7", "pocha:task:clock:{abc}:7"),
        ("pocha:task:match:m1:0", "pocha:task:match:{m1}:0"),
    ],
)
def test_old_names_get_their_hash_tags(old: str, new: str) -> None:
    assert new_name(old) == new
    assert new_name(new) is None  # nothing to do twice


def test_other_keys_are_left_alone() -> None:
    kept = ("pocha:lobby", "pocha:table:ABCD2345", "pocha:tasks", "rq:job:x",
            "pocha:limit:moves:60:0:{1.2.3.4}")  # fmt: skip
    for key in kept:
        assert new_name(key) is None
    assert new_task("turn:{abc}:5") is None


def _downgrade(connection: redis.Redis) -> None:
    """Write what the previous version wrote: the same data under the untagged names."""
    for raw in dict.fromkeys(connection.scan_iter(match="pocha:*")):  # each once
        key = raw.decode()
        old = key.replace("{", "").replace("}", "")
        if old != key and not key.startswith(("pocha:tasks", "pocha:limit")):
            connection.rename(key, old)
            condition = connection.hget(old, "only_if") if old.startswith("pocha:task:") else None
            if condition:
                hash_key, name, value = json.loads(condition)
                untagged = hash_key.replace("{", "").replace("}", "")
                connection.hset(old, "only_if", json.dumps([untagged, name, value]))
    for raw, score in list(connection.zscan_iter(TASKS_DUE)):
        member = raw.decode()
        connection.zrem(TASKS_DUE, member)
        connection.zadd(TASKS_DUE, {member.replace("{", "").replace("}", ""): score})


def test_a_store_of_the_old_names_is_found_again(redis_url: str) -> None:
    connection = redis.Redis.from_url(redis_url)
    store = GameStore(connection, finished_ttl=600, idle_ttl=600)
    rules = Rules.from_dict({"players": 3, "schedule": [2], "turn_seconds": 30})
    # Games whose first turn is a bot's (its turn owed) or a person's on the clock.
    games = [
        store.create(Game.new(rules, seed), seats, owed_task=owed_work).record
        for seed in range(4)
        for seats in ([("Bot", "easy"), ("Ana", None), ("Bea", None)],
                      [("Ana", None), ("Bea", None), ("Cid", None)])
    ]  # fmt: skip
    before = {key: connection.type(key) for key in connection.scan_iter(match="pocha:*")}
    due = connection.zrange(TASKS_DUE, 0, -1, withscores=True)
    kinds = {member.decode().split(":")[0] for member, _score in due}
    assert kinds == {"turn", "clock"}  # both kinds of owed task are there to migrate
    _downgrade(connection)
    assert not any(connection.exists(game_key(game.id)) for game in games)

    done = migrate(connection)
    assert done.keys == len(before) - 1  # all but the due set, which keeps its name
    assert done.tasks == len(due)
    assert {key: connection.type(key) for key in connection.scan_iter(match="pocha:*")} == before
    assert connection.zrange(TASKS_DUE, 0, -1, withscores=True) == due
    for game in games:
        assert store.load(game.id).version == game.version
        assert 0 < connection.ttl(game_key(game.id)) <= 600
        clock = task_key(clock_key(game.id, 1))
        if connection.exists(clock):
            condition = json.loads(connection.hget(clock, "only_if") or "")
            assert condition == [game_key(game.id), "version", "1"]
        else:
            assert connection.exists(task_key(turn_key(game.id, 1)))
    assert migrate(connection).keys == 0  # a second run finds nothing to do


class ScanTwice(redis.Redis):
    """A Redis whose SCAN returns every key twice, as Redis may when it resizes its table
    during a scan (SCAN promises each key at least once, not once)."""

    def scan_iter(self, *args: Any, **kwargs: Any) -> Iterator[Any]:
        for key in list(super().scan_iter(*args, **kwargs)):
            yield key
            yield key

    #: Due members taken (as a worker takes its task) between a member's two returns.
    taken_between: tuple[str, ...] = ()

    def zscan_iter(self, *args: Any, **kwargs: Any) -> Iterator[Any]:
        for member in list(super().zscan_iter(*args, **kwargs)):
            yield member
            if self.taken_between:
                self.zrem(TASKS_DUE, *self.taken_between)
            yield member


def test_a_key_the_scan_returns_twice_is_renamed_once(redis_url: str) -> None:
    connection = redis.Redis.from_url(redis_url)
    store = GameStore(connection, finished_ttl=600, idle_ttl=600)
    rules = Rules.from_dict({"players": 3, "schedule": [2]})
    seats = [("Bot", "easy"), ("Ana", None), ("Bea", None)]
    game = store.create(Game.new(rules, 0), seats, owed_task=owed_work).record
    before = {key: connection.type(key) for key in connection.scan_iter(match="pocha:*")}
    due = connection.zrange(TASKS_DUE, 0, -1, withscores=True)
    _downgrade(connection)

    done = migrate(ScanTwice(connection_pool=connection.connection_pool))
    assert done.keys == len(before) - 1  # all but the due set, each once
    assert done.tasks == len(due) == 1
    assert connection.zrange(TASKS_DUE, 0, -1, withscores=True) == due
    assert store.load(game.id).version == game.version


def test_a_due_task_taken_before_the_scan_returns_it_again_is_not_added_back(
    redis_url: str,
) -> None:
    connection = redis.Redis.from_url(redis_url)
    store = GameStore(connection, finished_ttl=600, idle_ttl=600)
    rules = Rules.from_dict({"players": 3, "schedule": [2]})
    seats = [("Bot", "easy"), ("Ana", None), ("Bea", None)]
    store.create(Game.new(rules, 0), seats, owed_task=owed_work)
    [(task, _score)] = connection.zrange(TASKS_DUE, 0, -1, withscores=True)
    _downgrade(connection)

    scanning = ScanTwice(connection_pool=connection.connection_pool)
    scanning.taken_between = (task.decode(),)
    assert migrate(scanning).tasks == 1
    assert connection.zcard(TASKS_DUE) == 0  # taken, and not due again


def _play(store: GameStore, game_id: str, moves: int) -> None:
    """Make `moves` legal moves as a person's move makes them: on the game read without
    its score sheet."""
    for _ in range(moves):
        record = store.load(game_id, history=False, consume=True)
        seat = record.game.turn
        assert seat is not None
        store.apply_action(game_id, seat, record.game.legal_actions()[0], record=record)


def test_a_game_whose_score_sheet_was_kept_in_its_state_keeps_it(redis_url: str) -> None:
    """Before the score sheet was stored apart (its own `history` field), a game's state
    held it; such a store also has the old key names, so it comes through the migration."""
    connection = redis.Redis.from_url(redis_url)
    store = GameStore(connection, finished_ttl=600, idle_ttl=600)
    rules = Rules.from_dict({"players": 3, "schedule": [1, 1, 1, 1, 1]})
    people = [("Ana", None), ("Bea", None), ("Cid", None)]
    game_id = store.create(Game.new(rules, 3), people).record.id
    _play(store, game_id, 2 * 3 * 2)  # two one-card hands: three bids and three cards each
    sheet = store.load(game_id).game.history
    assert [hand["hand_number"] for hand in sheet] == [1, 2]
    # As the earlier version stored it: the whole game, sheet and all, in its state.
    whole = store.load(game_id).game.to_dict()
    connection.hset(game_key(game_id), "state", json.dumps(whole))
    connection.hdel(game_key(game_id), "history")
    _downgrade(connection)

    # As `pocha serve` runs it on start, or the operator does.
    migrated = CliRunner().invoke(pocha, ["migrate-keys", "--redis-url", redis_url])
    assert migrated.exit_code == 0, migrated.output
    assert migrated.output.splitlines()[1:] == ["took the score sheet of 1 game out of its state"]
    assert store.load(game_id).game.history == sheet
    _play(store, game_id, 3 * 2)  # the next move, and the end of the next hand
    assert [hand["hand_number"] for hand in store.load(game_id).game.history] == [1, 2, 3]
    assert store.load(game_id, history=False).game.history == []
    assert migrate(connection).sheets == 0  # a second run finds nothing to do
