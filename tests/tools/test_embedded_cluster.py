"""The embedded Redis Cluster is a real one: keys spread over its primaries by slot, the
servers refuse scripts across slots, and a crashed primary fails over to its replica without
losing acknowledged writes, then comes back as a replica."""

from __future__ import annotations

from pathlib import Path

import pytest
import redis
from redis.crc import key_slot
from redis.exceptions import ClusterCrossSlotError

from tests.redis_server import private_cluster
from tests.waiting import LONG, scaled
from tools.embedded_cluster import EmbeddedCluster

# Swaps two keys, which must share a slot: as a game's keys do under its {game_id} tag.
_SWAP = """
local first = redis.call('GET', KEYS[1])
redis.call('SET', KEYS[1], redis.call('GET', KEYS[2]))
redis.call('SET', KEYS[2], first)
return first
"""


def test_keys_land_on_every_primary(redis_cluster: EmbeddedCluster, redis_cluster_url: str) -> None:
    primaries = redis_cluster.primaries()
    assert len(primaries) == 3
    assert len(redis_cluster.replicas()) == 3
    hosts = ",".join(f"127.0.0.1:{p.port}" for p in primaries)
    assert redis_cluster_url == f"redis+cluster://{hosts}"

    client = redis_cluster.client(decode_responses=True)
    try:
        keys = [f"pocha:probe:{i}" for i in range(60)]
        for key in keys:
            client.set(key, key)
        for key in keys:
            assert client.get(key) == key
    finally:
        client.close()
    for primary in primaries:
        direct = primary.client()
        try:
            assert direct.dbsize() > 0
        finally:
            direct.close()
    # Each key sits on the node the slot map names, which answers for it without MOVED.
    owner = redis_cluster.primary_for(keys[0])
    direct = redis.Redis(host=owner.host, port=owner.port, decode_responses=True)
    try:
        assert direct.get(keys[0]) == keys[0]
    finally:
        direct.close()


def test_each_test_gets_an_empty_cluster(
    redis_cluster: EmbeddedCluster, redis_cluster_url: str
) -> None:
    # Runs after test_keys_land_on_every_primary wrote keys: flush() must have cleared them.
    for primary in redis_cluster.primaries():
        direct = primary.client()
        try:
            assert direct.dbsize() == 0
        finally:
            direct.close()


def test_scripts_run_within_one_hash_tag_and_are_refused_across_slots(
    redis_cluster: EmbeddedCluster, redis_cluster_url: str
) -> None:
    client = redis_cluster.client(decode_responses=True)
    try:
        client.set("game:{g1}:north", "1")
        client.set("game:{g1}:south", "2")
        assert client.eval(_SWAP, 2, "game:{g1}:north", "game:{g1}:south") == "1"
        assert client.get("game:{g1}:north") == "2"
    finally:
        client.close()

    # Straight to the node that owns the first key, so that the server (not redis-py's
    # own check) judges the keys.
    first, second = "game:{g1}:north", "game:{g2}:north"
    assert key_slot(first.encode()) != key_slot(second.encode())
    owner = redis_cluster.primary_for(first)
    direct = redis.Redis(host=owner.host, port=owner.port)
    try:
        # redis-py turns the server's CROSSSLOT error into this class.
        with pytest.raises(ClusterCrossSlotError, match="same slot"):
            direct.eval(_SWAP, 2, first, second)
    finally:
        direct.close()


def test_a_killed_primary_fails_over_without_losing_acknowledged_writes(tmp_path: Path) -> None:
    # A cluster of its own: the session's must stay whole for the other tests.
    with private_cluster(tmp_path / "cluster") as cluster:
        keys = [f"game:{{g7}}:{i}" for i in range(20)]
        victim = cluster.primary_for(keys[0])
        heir = cluster.replica_of(victim)
        # One connection for the writes and WAIT: WAIT counts the replicas that have
        # everything this connection wrote, and answers as soon as the replica has it.
        direct = redis.Redis(host=victim.host, port=victim.port, single_connection_client=True)
        try:
            for index, key in enumerate(keys):
                direct.set(key, str(index))
            assert direct.wait(1, int(scaled(LONG) * 1000)) == 1
        finally:
            direct.close()

        cluster.kill(victim)
        assert not victim.running
        cluster.wait_for_failover(victim, timeout=scaled(LONG))
        assert cluster.primary_for(keys[0]) is heir
        assert victim not in cluster.primaries()
        assert len(cluster.primaries()) == 3

        # A fresh client, though the dead node is among its startup nodes.
        client = cluster.client(decode_responses=True)
        try:
            assert [client.get(key) for key in keys] == [str(i) for i in range(len(keys))]
            client.set(keys[0], "after the failover")
            assert client.get(keys[0]) == "after the failover"
        finally:
            client.close()

        cluster.restart(victim, timeout=scaled(LONG))
        assert victim in cluster.replicas()
        assert cluster.replica_of(heir) is victim
        # It has caught up with the write made while it was down.
        replica = redis.Redis(host=victim.host, port=victim.port, decode_responses=True)
        try:
            replica.execute_command("READONLY")
            assert replica.get(keys[0]) == "after the failover"
        finally:
            replica.close()
