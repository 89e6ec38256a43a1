"""Run a private Redis Cluster of `redis-server` child processes, for tests and trials.
How it works: docs/development.md, `tools.embedded_cluster`.
"""

from __future__ import annotations

import contextlib
import random
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

import redis
from redis.cluster import ClusterNode, RedisCluster
from redis.crc import key_slot

from tools.embedded_redis import RedisServer, RedisServerError, port_is_free
from tools.processes import stop_processes

__all__ = ["CLUSTER_SLOTS", "EmbeddedCluster", "EmbeddedClusterError"]

CLUSTER_SLOTS = 16384

_LOCALHOST = "127.0.0.1"

# Redis 6.2 always puts a node's cluster bus on its port + 10000 (`cluster-port` is Redis 7),
# so both must be free and below 65536. Ports are drawn from below Linux's usual ephemeral
# range (32768 and up), where outgoing connections do not come and take them.
_BUS_PORT_OFFSET = 10000
_PORT_RANGE = (12000, 22767)

_ADDSLOTS_CHUNK = 1000
_POLL_SECONDS = 0.05
_NODE_START_ATTEMPTS = 3


class EmbeddedClusterError(RuntimeError):
    """The cluster did not form, settle or fail over in time."""


@dataclass(frozen=True)
class _Line:
    """One line of CLUSTER NODES: a node as some node of the cluster sees it."""

    node_id: str
    port: int
    flags: frozenset[str]
    master_id: str | None
    slots: tuple[tuple[int, int], ...] = field(default=())

    @property
    def is_replica(self) -> bool:
        return "slave" in self.flags

    @property
    def failing(self) -> bool:
        return bool(self.flags & {"fail", "fail?", "handshake", "noaddr"})


def _parse_cluster_nodes(text: str) -> list[_Line]:
    lines = []
    for raw in text.splitlines():
        parts = raw.split()
        if len(parts) < 8:
            continue
        address = parts[1].split("@", 1)[0]
        port_text = address.rsplit(":", 1)[-1]
        slots = []
        for item in parts[8:]:
            if item.startswith("["):  # a slot being migrated or imported: not served yet
                continue
            first, _, last = item.partition("-")
            slots.append((int(first), int(last or first)))
        lines.append(
            _Line(
                node_id=parts[0],
                port=int(port_text) if port_text.isdigit() else 0,
                flags=frozenset(parts[2].split(",")),
                master_id=None if parts[3] == "-" else parts[3],
                slots=tuple(slots),
            )
        )
    return lines


def _cluster_port(taken: set[int]) -> int:
    """A port that, with its bus port, was free a moment ago and is not in `taken`."""
    for _ in range(200):
        port = random.randint(*_PORT_RANGE)
        pair = {port, port + _BUS_PORT_OFFSET}
        if not pair & taken and all(port_is_free(p) for p in pair):
            return port
    raise EmbeddedClusterError("found no free pair of ports for a cluster node")


class EmbeddedCluster:
    """A Redis Cluster of `primaries` primaries with `replicas` replicas each, data in
    `data_dir/node-N`, every node a `RedisServer` on 127.0.0.1 with the append-only file on.

    `node_timeout_ms` is short by default so that a failover takes a couple of seconds.
    Like `RedisServer`, the nodes die with the thread that started them: call `start()` and
    `restart()` from the main thread.
    """

    def __init__(
        self,
        data_dir: str | Path,
        primaries: int = 3,
        replicas: int = 1,
        node_timeout_ms: int = 1000,
    ) -> None:
        if primaries < 1 or replicas < 0:
            raise ValueError("a cluster needs at least one primary and no negative replicas")
        self.data_dir = Path(data_dir)
        self.primary_count = primaries
        self.replica_count = replicas
        self.node_timeout_ms = node_timeout_ms
        self._nodes: list[RedisServer] = []
        self._ids: dict[str, RedisServer] = {}
        self._admin: dict[int, redis.Redis] = {}
        self._start_primaries: list[RedisServer] = []

    # -- addresses ---------------------------------------------------------------------

    @property
    def url(self) -> str:
        """`redis+cluster://` URL of the primaries as started (the form REDIS_URL takes)."""
        if not self._start_primaries:
            raise EmbeddedClusterError("cluster is not started")
        hosts = ",".join(f"{n.host}:{n.port}" for n in self._start_primaries)
        return f"redis+cluster://{hosts}"

    @property
    def startup_nodes(self) -> list[tuple[str, int]]:
        """(host, port) of every node, primaries first as started."""
        return [(n.host, n.port) for n in self._nodes]

    @property
    def nodes(self) -> list[RedisServer]:
        """Every node, running or not, primaries first as started."""
        return list(self._nodes)

    def client(self, **kwargs: Any) -> RedisCluster:
        """A new cluster client (the caller closes it); `kwargs` go to `RedisCluster`."""
        startup = [ClusterNode(host, port) for host, port in self.startup_nodes]
        return RedisCluster(startup_nodes=startup, **kwargs)

    def node_id(self, node: RedisServer) -> str:
        """The cluster's id for `node` (kept in its nodes.conf, so it survives restarts)."""
        for node_id, known in self._ids.items():
            if known is node:
                return node_id
        raise EmbeddedClusterError(f"{node!r} is not a node of this cluster")

    # -- the cluster as it is now ----------------------------------------------------------

    def primaries(self) -> list[RedisServer]:
        """Running nodes that serve slots now, in the order of their first slot."""
        serving = []
        for node in self._running():
            me = self._myself(node)
            if me is not None and not me.is_replica and me.slots:
                serving.append((min(first for first, _ in me.slots), node))
        return [node for _, node in sorted(serving, key=lambda pair: pair[0])]

    def replicas(self) -> list[RedisServer]:
        """Running nodes that are replicas now."""
        return [
            node
            for node in self._running()
            if (me := self._myself(node)) is not None and me.is_replica
        ]

    def primary_for(self, key: str) -> RedisServer:
        """The running node that serves `key`'s slot now."""
        slot = key_slot(key.encode())
        for node in self._running():
            me = self._myself(node)
            slots = me.slots if me is not None and not me.is_replica else ()
            if any(first <= slot <= last for first, last in slots):
                return node
        raise EmbeddedClusterError(f"no running node serves slot {slot} (key {key!r})")

    def replica_of(self, primary: RedisServer) -> RedisServer:
        """A running replica of `primary` now."""
        primary_id = self.node_id(primary)
        for node in self._running():
            me = self._myself(node)
            if me is not None and me.is_replica and me.master_id == primary_id:
                return node
        raise EmbeddedClusterError(f"{primary!r} has no running replica")

    # -- lifecycle ---------------------------------------------------------------------

    def start(self, timeout: float = 30.0) -> EmbeddedCluster:
        """Start the nodes, form the cluster and return once it is settled (see `_settled`)."""
        if self._nodes:
            raise EmbeddedClusterError("cluster already started")
        try:
            self._form(timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def kill(self, node: RedisServer) -> None:
        """SIGKILL `node`: no goodbye to the cluster, no last fsync, as in a machine crash."""
        if node.running:
            node.process.kill()
            node.process.wait()
        self._drop_admin(node)

    def wait_for_failover(self, dead_node: RedisServer, timeout: float = 30.0) -> None:
        """Wait until the slots `dead_node` served are served by a running node (a promoted
        replica) in the view of every running node, all of which say `cluster_state:ok`."""
        if dead_node.running:
            raise EmbeddedClusterError(f"{dead_node!r} is running: kill it first")
        self._wait(self._settled, timeout, f"the slots of {dead_node!r} to fail over")

    def restart(self, node: RedisServer, timeout: float = 30.0) -> None:
        """Start `node` again on its port and data dir, and wait until the cluster is settled:
        a node whose slots were taken over is back as a replica with its link up."""
        node.start(timeout=timeout)
        self._wait(self._settled, timeout, f"{node!r} to rejoin the cluster")

    def flush(self) -> None:
        """FLUSHALL on every primary (replicas follow): an empty cluster."""
        for node in self.primaries():
            self._admin_client(node).flushall()

    def stop(self, timeout: float = 10.0) -> None:
        """Stop every node (SIGTERM side by side, then SIGKILL after `timeout`). Idempotent."""
        for client in self._admin.values():
            client.close()
        self._admin.clear()
        stop_processes([n.process for n in self._nodes if n.running], timeout)
        for node in self._nodes:
            node.stop(timeout)

    def __enter__(self) -> EmbeddedCluster:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def __repr__(self) -> str:
        ports = ",".join(str(n.port) for n in self._nodes) or "not started"
        return f"<EmbeddedCluster {ports} dir={self.data_dir}>"

    # -- forming the cluster -------------------------------------------------------------

    def _form(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        total = self.primary_count * (1 + self.replica_count)
        taken: set[int] = set()
        for index in range(total):
            node = self._start_node(self.data_dir / f"node-{index}", taken, timeout)
            taken |= {node.port, node.port + _BUS_PORT_OFFSET}
            self._nodes.append(node)
        self._start_primaries = self._nodes[: self.primary_count]
        for node in self._nodes:
            self._ids[self._admin_client(node).execute_command("CLUSTER MYID")] = node

        # Slots and distinct config epochs before the nodes meet, as redis-cli does: with
        # distinct epochs the nodes need not settle epoch collisions among themselves.
        bounds = [i * CLUSTER_SLOTS // self.primary_count for i in range(self.primary_count + 1)]
        for index, node in enumerate(self._start_primaries):
            slots = list(range(bounds[index], bounds[index + 1]))
            for at in range(0, len(slots), _ADDSLOTS_CHUNK):
                self._admin_client(node).cluster("ADDSLOTS", *slots[at : at + _ADDSLOTS_CHUNK])
        for epoch, node in enumerate(self._nodes, start=1):
            self._admin_client(node).cluster("SET-CONFIG-EPOCH", epoch)

        first = self._nodes[0]
        for node in self._nodes[1:]:
            self._admin_client(first).cluster("MEET", node.host, node.port)
        # A replica can only follow a primary it already knows.
        self._wait(self._all_met, deadline - time.monotonic(), "the nodes to meet")
        for index, node in enumerate(self._nodes[self.primary_count :]):
            primary = self._start_primaries[index % self.primary_count]
            self._admin_client(node).cluster("REPLICATE", self.node_id(primary))
        self._wait(self._settled, deadline - time.monotonic(), "the cluster to settle")

    def _start_node(self, data_dir: Path, taken: set[int], timeout: float) -> RedisServer:
        # The port is fixed at construction (a restart must come back on the same one), so a
        # port taken in the meantime means a new RedisServer on another port.
        for attempt in range(1, _NODE_START_ATTEMPTS + 1):
            shutil.rmtree(data_dir, ignore_errors=True)  # a failed try may leave nodes.conf
            node = RedisServer(
                data_dir,
                port=_cluster_port(taken),
                appendonly=True,
                extra_args=self._cluster_args(),
            )
            try:
                return node.start(timeout=timeout)
            except RedisServerError:
                if attempt == _NODE_START_ATTEMPTS:
                    raise
        raise AssertionError("unreachable")

    def _cluster_args(self) -> list[str]:
        return [
            "--cluster-enabled", "yes",
            "--cluster-config-file", "nodes.conf",
            "--cluster-node-timeout", str(self.node_timeout_ms),
            # The default, spelt out: while any slot has no live primary the whole cluster
            # refuses queries, as production does, and `cluster_state:ok` (which every wait
            # here relies on) then means that every slot is served.
            "--cluster-require-full-coverage", "yes",
            # Replicas sync straight from the primary's memory, without the delay that waits
            # for more replicas to share one transfer: a restarted node catches up at once.
            "--repl-diskless-sync", "yes",
            "--repl-diskless-sync-delay", "0",
        ]  # fmt: skip

    # -- watching the cluster ----------------------------------------------------------

    def _running(self) -> list[RedisServer]:
        return [n for n in self._nodes if n.running]

    def _admin_client(self, node: RedisServer) -> redis.Redis:
        client = self._admin.get(node.port)
        if client is None:
            client = redis.Redis(
                host=node.host,
                port=node.port,
                decode_responses=True,
                socket_connect_timeout=1.0,
                socket_timeout=2.0,
            )
            self._admin[node.port] = client
        return client

    def _drop_admin(self, node: RedisServer) -> None:
        client = self._admin.pop(node.port, None)
        if client is not None:
            client.close()

    def _view(self, node: RedisServer) -> list[_Line] | None:
        """CLUSTER NODES as `node` sees it; None if it does not answer."""
        try:
            text = self._admin_client(node).execute_command("CLUSTER", "NODES")
        except (redis.RedisError, OSError):
            return None
        return _parse_cluster_nodes(str(text))

    def _myself(self, node: RedisServer) -> _Line | None:
        view = self._view(node)
        return next((line for line in view or () if "myself" in line.flags), None)

    def _all_met(self) -> str | None:
        for node in self._nodes:
            view = self._view(node)
            if view is None:
                return f"{node!r} does not answer"
            known = {line.node_id for line in view if not line.failing}
            if known != set(self._ids):
                return f"{node!r} knows {len(known)} of {len(self._ids)} nodes"
        return None

    def _settled(self) -> str | None:
        """None once the running nodes agree and work; else what is still missing.

        Settled: every running node says `cluster_state:ok`, knows every node, sees no
        running node as failing, and has the same view as the others of which running node
        serves which slot and which running node replicates which; every slot is served by
        a running node; and every running replica's link to its primary is up.
        """
        running = self._running()
        running_ids = {self.node_id(n) for n in running}
        agreed: tuple[object, ...] | None = None
        for node in running:
            try:
                info = self._admin_client(node).cluster("INFO")
            except (redis.RedisError, OSError) as error:
                return f"{node!r} does not answer CLUSTER INFO: {error}"
            state = info.get("cluster_state") if isinstance(info, dict) else None
            if state != "ok":
                return f"{node!r} says cluster_state:{state}"
            view = self._view(node)
            if view is None:
                return f"{node!r} does not answer CLUSTER NODES"
            if {line.node_id for line in view} != set(self._ids):
                return f"{node!r} does not know every node"
            lines = [line for line in view if line.node_id in running_ids]
            if any(line.failing for line in lines):
                return f"{node!r} sees a running node as failing"
            owners: dict[int, str] = {}
            for line in view:
                for first, last in line.slots:
                    owners.update(dict.fromkeys(range(first, last + 1), line.node_id))
            if len(owners) != CLUSTER_SLOTS or not set(owners.values()) <= running_ids:
                return f"{node!r} does not see every slot served by a running node"
            roles = sorted((line.node_id, line.is_replica, line.master_id) for line in lines)
            layout = (tuple(sorted(owners.items())), tuple(roles))
            if agreed is None:
                agreed = layout
            elif layout != agreed:
                return f"{node!r} sees another layout than {running[0]!r}"
            me = next(line for line in view if "myself" in line.flags)
            if me.is_replica:
                if me.master_id not in running_ids:
                    return f"{node!r} replicates a node that is down"
                try:
                    link = self._admin_client(node).info("replication").get("master_link_status")
                except (redis.RedisError, OSError) as error:
                    return f"{node!r} does not answer INFO: {error}"
                if link != "up":
                    return f"{node!r} has master_link_status:{link}"
        return None

    def _wait(self, missing: Callable[[], str | None], timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while True:
            problem = missing()
            if problem is None:
                return
            if time.monotonic() > deadline:
                raise EmbeddedClusterError(
                    f"timed out after {timeout:.1f} s waiting for {what}: {problem}\n"
                    + self._log_tails()
                )
            time.sleep(_POLL_SECONDS)

    def _log_tails(self, lines: int = 8) -> str:
        parts = []
        for node in self._nodes:
            text = "(no log)"
            with contextlib.suppress(OSError):
                text = "\n".join(node.log_path.read_text(errors="replace").splitlines()[-lines:])
            parts.append(f"--- {node!r}\n{text}")
        return "\n".join(parts)
