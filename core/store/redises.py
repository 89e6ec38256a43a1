"""The service's two Redis roles, the store and the queues, and the connections to them.
How it works: docs/internals.md, `core.store.redises`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeAlias, cast
from urllib.parse import urlsplit

import redis
from redis.backoff import ExponentialWithJitterBackoff, NoBackoff
from redis.cluster import ClusterNode, RedisCluster
from redis.retry import Retry
from redis.sentinel import Sentinel

from core.config import is_on, load_config
from core.store.keys import due_key, due_keys, queue_group, sweep_lock
from engine.i18n import Message, _

CLUSTER_SCHEME = "redis+cluster"
SENTINEL_SCHEME = "redis+sentinel"
#: Tries of a cluster command whose node does not answer (see `connect_store`).
CLUSTER_RETRIES = 8


class RedisSetupError(ValueError):
    """The Redis settings cannot work (said at start, before anything is served): `message`
    says why, in English as `str(error)` and in the operator's language through the
    catalogues."""

    def __init__(self, message: Message) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Redises:
    #: Games, tables, tasks, matches, counters: a `redis.Redis` or a `RedisCluster` (typed
    #: as the former: the commands we use are the same).
    store: redis.Redis
    #: RQ: always a plain Redis; a worker's own group's, the first group's for the API.
    queues: redis.Redis
    #: Every queue Redis, one per group of workers (`queues` alone when empty).
    groups: tuple[redis.Redis, ...] = ()
    #: Which of them `queues` is.
    group: int = 0

    def __post_init__(self) -> None:
        if not self.groups:
            object.__setattr__(self, "groups", (self.queues,))

    @property
    def clustered(self) -> bool:
        return is_cluster(self.store)

    def due_key(self, task: str) -> str:
        """The due set that lists `task` (`core.store.keys.due_key`)."""
        return due_key(task, self.clustered, len(self.groups))

    def due_keys(self) -> list[str]:
        """The due sets this process's group sweeps."""
        return due_keys(self.clustered, len(self.groups), self.group)

    def sweep_lock(self) -> str:
        return sweep_lock(len(self.groups), self.group)

    def group_of(self, task: str) -> int:
        """The queue group that does `task` (a task key of `core.jobs.tasks`)."""
        return 0 if len(self.groups) == 1 else queue_group(task, len(self.groups))

    def queues_for(self, task: str) -> redis.Redis:
        """The queue Redis of the group that does `task`."""
        return self.groups[self.group_of(task)]


#: What takes both roles: a `Redises`, or one plain Redis serving both.
Connections: TypeAlias = "Redises | redis.Redis"


def redises_of(connections: Connections) -> Redises:
    """Both roles of `connections` (one Redis serves both)."""
    if isinstance(connections, Redises):
        return connections
    return Redises(connections, connections)


def is_cluster(client: Any) -> bool:
    return isinstance(client, RedisCluster)


def is_cluster_url(url: str) -> bool:
    return url.startswith(CLUSTER_SCHEME + "://")


def cluster_nodes(url: str) -> list[ClusterNode]:
    """The startup nodes of `redis+cluster://host:port,host:port` (or a `redis://` URL)."""
    rest = url.split("://", 1)[1] if "://" in url else url
    netlocs = rest.split("/", 1)[0].rsplit("@", 1)[-1]
    nodes = []
    for netloc in netlocs.split(","):
        parts = urlsplit(f"redis://{netloc}")
        if not parts.hostname:
            raise RedisSetupError(
                _("not a host:port in the cluster URL: {netloc}", netloc=repr(netloc))
            )
        nodes.append(ClusterNode(parts.hostname, parts.port or 6379))
    return nodes


def _credentials(url: str) -> dict[str, Any]:
    rest = url.split("://", 1)[1] if "://" in url else ""
    head = rest.split("/", 1)[0]
    if "@" not in head:
        return {}
    user, _colon, password = head.rsplit("@", 1)[0].partition(":")
    found: dict[str, Any] = {"password": password or user}
    if password:
        found["username"] = user
    return found


def connect_plain(url: str, **options: Any) -> redis.Redis:
    """A plain Redis at `url`, or the primary of a Sentinel service
    (`redis+sentinel://host:port,host:port/service/db`)."""
    if not url.startswith(SENTINEL_SCHEME + "://"):
        return redis.Redis.from_url(url, **options)
    path = url.split("://", 1)[1].split("/", 1)[1] if "/" in url.split("://", 1)[1] else ""
    service, _slash, db = path.partition("/")
    if not service:
        raise RedisSetupError(_("no service name in the Sentinel URL: {url}", url=repr(url)))
    sentinels = [(node.host, node.port) for node in cluster_nodes(url)]
    timeouts: dict[str, Any] = {
        k: options[k] for k in ("socket_timeout", "socket_connect_timeout") if k in options
    }
    sentinel = Sentinel(sentinels, sentinel_kwargs=timeouts, **_credentials(url))
    client: redis.Redis = sentinel.master_for(service, db=int(db or 0), **options)
    return client


def connect_store(url: str, *, cluster: bool = False, **options: Any) -> redis.Redis:
    """The store at `url`: a cluster client for a cluster URL (or `cluster`), else a plain
    one. `options`: redis-py connection options (timeouts, retry, pool size)."""
    if cluster or is_cluster_url(url):
        client = RedisCluster(
            startup_nodes=cluster_nodes(url),
            # A command whose node is gone is tried again on the slot's owner as the
            # cluster tells it, for about three seconds: a failover quicker than that is
            # not seen by players; a longer one becomes 503s until the replica takes over.
            retry=Retry(ExponentialWithJitterBackoff(base=0.05, cap=0.5), CLUSTER_RETRIES),
            **_credentials(url),
            **{k: v for k, v in options.items() if k not in ("max_connections", "retry")},
            max_connections=options.get("max_connections", 2**31),
        )
        return cast(redis.Redis, client)
    return connect_plain(url, **options)


def connect(settings: dict[str, Any] | None = None, **options: Any) -> Redises:
    """Both roles as the settings (`core.config`) name them, with `options` for both."""
    settings = settings or load_config()
    url = str(settings["REDIS_URL"])
    clustered = is_on(settings.get("REDIS_CLUSTER", "off")) or is_cluster_url(url)
    queue_urls = queue_urls_of(settings)
    if clustered and not queue_urls:
        raise RedisSetupError(
            _(
                "REDIS_URL names a Redis Cluster, and RQ cannot run on one: set "
                "POCHA_QUEUE_REDIS_URL to a plain Redis for the queues"
            )
        )
    if any(is_cluster_url(queue_url) for queue_url in queue_urls):
        raise RedisSetupError(_("POCHA_QUEUE_REDIS_URL must be a plain Redis, not a cluster"))
    group = int(settings.get("QUEUE_GROUP") or 0)
    if not 0 <= group < max(1, len(queue_urls)):
        if len(queue_urls) <= 1:
            raise RedisSetupError(
                _(
                    "POCHA_QUEUE_GROUP {group}: there is one queue Redis "
                    "(POCHA_QUEUE_REDIS_URL), numbered 0",
                    group=group,
                )
            )
        raise RedisSetupError(
            _(
                "POCHA_QUEUE_GROUP {group}: there are {count} queue Redises "
                "(POCHA_QUEUE_REDIS_URL), numbered from 0",
                group=group,
                count=len(queue_urls),
            )
        )
    store = connect_store(url, cluster=clustered, **options)
    if clustered:
        # The due sets' hash-tag table, made now (a fraction of a second), not in the
        # first request that owes a bot turn.
        due_keys(True)
    if not queue_urls or queue_urls == [url]:
        return Redises(store, store)
    groups = tuple(connect_plain(queue_url, **options) for queue_url in queue_urls)
    return Redises(store, groups[group], groups, group)


def queue_urls_of(settings: dict[str, Any]) -> list[str]:
    """The queue Redises' URLs the settings name (none: the store's own)."""
    return str(settings.get("QUEUE_REDIS_URL") or "").split()


def worker_options() -> dict[str, Any]:
    """Connection options of a worker process. It connects once and runs bot turns on
    those connections, but the forked horse of a hint or an AI move opens new ones: RESP2
    and no CLIENT SETINFO make each one a TCP connect and nothing more, where redis-py's
    defaults add a HELLO and three CLIENT commands (145 us of Redis CPU a connection
    against 59, on Redis 6.2)."""
    return {
        "socket_connect_timeout": 5,
        "health_check_interval": 30,
        "retry": Retry(NoBackoff(), 1, supported_errors=(redis.ConnectionError,)),
        "protocol": 2,
        "driver_info": None,
    }


_current: Redises | None = None


def use(redises: Redises) -> None:
    """Make `redises` this process's (a worker's, for its jobs)."""
    global _current
    _current = redises


def store_for_jobs(connection: redis.Redis) -> Redises:
    """The Redises of a job whose RQ connection (the queue Redis) is `connection`: the
    worker's (`use`), or, in a process that set none, that one Redis serving both."""
    return _current if _current is not None else redises_of(connection)
