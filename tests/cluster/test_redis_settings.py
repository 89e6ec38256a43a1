"""How the Redis settings name the store and the queues (`core.store.redises`): cluster, Sentinel
and plain URLs, and the settings that cannot work, refused at start with a sentence."""

from __future__ import annotations

import pytest

from core.store.redises import (
    RedisSetupError,
    cluster_nodes,
    connect,
    is_cluster,
    is_cluster_url,
    queue_urls_of,
)
from tools.embedded_redis import RedisServer


def test_cluster_urls_name_their_nodes() -> None:
    url = "redis+cluster://user:secret@node1:6379,node2:7000,node3"
    assert is_cluster_url(url) and not is_cluster_url("redis://node1:6379/0")
    assert [(n.host, n.port) for n in cluster_nodes(url)] == [
        ("node1", 6379), ("node2", 7000), ("node3", 6379),
    ]  # fmt: skip
    assert [(n.host, n.port) for n in cluster_nodes("redis://one:6380/0")] == [("one", 6380)]
    with pytest.raises(RedisSetupError, match="not a host:port"):
        cluster_nodes("redis+cluster://node1:6379,,node2")


def test_queue_urls_are_separated_by_spaces() -> None:
    assert queue_urls_of({"QUEUE_REDIS_URL": ""}) == []
    assert queue_urls_of({"QUEUE_REDIS_URL": " redis://a/0  redis://b/0 "}) == [
        "redis://a/0", "redis://b/0",
    ]  # fmt: skip


def test_settings_that_cannot_work_are_refused_with_a_sentence(
    redis_cluster_url: str, redis_server: RedisServer
) -> None:
    with pytest.raises(RedisSetupError, match="set POCHA_QUEUE_REDIS_URL"):
        connect({"REDIS_URL": redis_cluster_url, "QUEUE_REDIS_URL": ""})
    with pytest.raises(RedisSetupError, match="must be a plain Redis"):
        connect({"REDIS_URL": redis_server.url, "QUEUE_REDIS_URL": redis_cluster_url})
    with pytest.raises(RedisSetupError, match="no service name"):
        connect({"REDIS_URL": "redis+sentinel://127.0.0.1:26379", "QUEUE_REDIS_URL": ""})


def test_one_url_serves_both_roles_and_a_cluster_gets_the_cluster_client(
    redis_cluster_url: str, redis_server: RedisServer
) -> None:
    single = connect({"REDIS_URL": redis_server.url, "QUEUE_REDIS_URL": ""})
    assert single.store is single.queues and not single.clustered
    assert single.groups == (single.queues,)
    both = connect({"REDIS_URL": redis_cluster_url, "QUEUE_REDIS_URL": redis_server.url})
    assert is_cluster(both.store) and both.clustered and not is_cluster(both.queues)
    assert both.store.ping() and both.queues.ping()
    # A redis:// URL of one node, with POCHA_REDIS_CLUSTER on, is the same cluster.
    node = redis_cluster_url.split("://", 1)[1].split(",", 1)[0]
    settings = {"REDIS_URL": f"redis://{node}/0", "REDIS_CLUSTER": "on"}
    flagged = connect({**settings, "QUEUE_REDIS_URL": redis_server.url})
    assert flagged.clustered
    assert len(flagged.store.get_primaries()) == 3  # type: ignore[attr-defined]
