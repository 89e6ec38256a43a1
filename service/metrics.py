"""`GET /metrics`: what operators graph and alert on, in Prometheus' text format.
How it works: docs/internals.md, `service.metrics`.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from typing import Any

import redis
from flask import Blueprint, Flask, Response, current_app
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    disable_created_metrics,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector

from core.jobs.admission import queued_seconds
from core.jobs.status import work_status
from core.play.bot_metrics import read_histograms
from core.store.redises import Redises
from service.context import services

log = logging.getLogger(__name__)

# A `_created` timestamp beside every series doubles a scrape, and nothing here graphs it.
disable_created_metrics()

#: Latency buckets (seconds): a move takes a few milliseconds; event streams and job
#: long-polls hold a request for up to a minute.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)

#: The route label of a request that matched no route (a 404 or 405 for any path).
UNMATCHED = "unmatched"
#: Every label comes from a closed set, so that no client can grow the metrics (and each
#: scrape) by inventing methods or statuses: the methods HTTP defines, the URL rules, and
#: the statuses a server answers with; anything else counts as `other`.
METHODS = frozenset(("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"))
OTHER = "other"
#: Key names one process labels its counts with at most (an operator makes keys one by one,
#: so this bounds only a process that lives through many made and revoked); the rest count
#: as `OTHER_KEYS`, which no key's name can be (`core.store.api_keys.NAME`).
MAX_KEY_LABELS = 200
OTHER_KEYS = "_other"


def method_label(method: str) -> str:
    return method if method in METHODS else OTHER


def status_label(status: int) -> str:
    return str(status) if 100 <= status <= 599 else OTHER


def multiprocess_dir() -> str | None:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


class ProcessMetrics:
    """This app's own metrics, in a registry of its own (so that many apps in one process,
    as in the tests, count apart)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter(
            "pocha_http_requests",
            "HTTP requests answered, by method, route (URL rule) and status.",
            ["method", "route", "status"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "pocha_http_request_duration_seconds",
            "Time to answer an HTTP request (until the body starts, for streams), by "
            "method, route and status.",
            ["method", "route", "status"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.moves = Counter(
            "pocha_moves_applied",
            "Bids and cards played by people and applied (bots' moves: "
            "pocha_bot_moves_applied_total).",
            ["action"],
            registry=self.registry,
        )

        self.key_requests = Counter(
            "pocha_key_requests",
            "Requests made with an integrator's key (X-Pocha-Key), by key name and status.",
            ["key", "status"],
            registry=self.registry,
        )
        self.unknown_keys = Counter(
            "pocha_key_refused",
            "Requests refused 401 unknown_key: an X-Pocha-Key never made, or revoked.",
            registry=self.registry,
        )
        self._key_labels: set[str] = set()
        #: (method, route, status) -> its request counter and latency histogram, looked up
        #: once: `labels` checks and locks at every call, and every request counts here.
        #: Each label comes from a closed set, so this stays small.
        self._by_labels: dict[tuple[str, str, str], tuple[Any, Any]] = {}
        #: Each action's child of `moves`, looked up once, for the same reason.
        self._moves_by_action: dict[str, Any] = {}

    def key_label(self, name: str) -> str:
        """The label of key `name`: its name, for the first `MAX_KEY_LABELS` keys this
        process counts; `OTHER_KEYS` after that. Only names of keys found are counted,
        so no client can add a label."""
        if name in self._key_labels:
            return name
        if len(self._key_labels) < MAX_KEY_LABELS:
            self._key_labels.add(name)
            return name
        return OTHER_KEYS

    def observe(self, method: str, route: str, status: int, seconds: float) -> None:
        """Count one request; `route` is a URL rule or UNMATCHED, never a raw path."""
        labels = (method_label(method), route, status_label(status))
        found = self._by_labels.get(labels)
        if found is None:
            found = self._by_labels[labels] = (
                self.requests.labels(*labels),
                self.latency.labels(*labels),
            )
        found[0].inc()
        found[1].observe(seconds)

    def count_move(self, action: str) -> None:
        """Count one person's move applied; `action` is one of a closed set (bid, card)."""
        found = self._moves_by_action.get(action)
        if found is None:
            found = self._moves_by_action[action] = self.moves.labels(action)
        found.inc()


class RedisCollector(Collector):
    """The cluster's figures, read from Redis at each scrape."""

    def __init__(self, redises: Redises) -> None:
        self.redises = redises

    def collect(self) -> Iterator[Metric]:
        up = GaugeMetricFamily("pocha_redis_up", "1 if Redis answered this scrape, else 0.")
        try:
            status = work_status(self.redises)
            histograms = read_histograms(self.redises.store)
            on_demand = queued_seconds(self.redises.queues)
        except redis.RedisError as exc:
            log.warning("metrics: Redis does not answer: %s", type(exc).__name__)
            up.add_metric([], 0)
            yield up
            return
        up.add_metric([], 1)
        yield up
        yield GaugeMetricFamily(
            "pocha_workers_alive",
            "Bot workers alive (a heartbeat within their RQ worker TTL).",
            value=status.workers_alive,
        )
        depth = GaugeMetricFamily(
            "pocha_queue_depth", "Jobs waiting in each RQ queue.", labels=["queue"]
        )
        failed = GaugeMetricFamily(
            "pocha_jobs_failed",
            "Jobs in each RQ queue's failed registry (kept a day).",
            labels=["queue"],
        )
        for name, count in status.queued.items():
            depth.add_metric([name], count)
        for name, count in status.failed.items():
            failed.add_metric([name], count)
        yield depth
        yield failed
        yield GaugeMetricFamily(
            "pocha_ai_queued_seconds",
            "Estimated thinking queued for hints and AI moves (seconds); new ones are refused "
            "(503 busy) when it would keep them waiting too long.",
            value=on_demand,
        )
        think = HistogramMetricFamily(
            "pocha_bot_think_seconds",
            "Time a bot thought for one decision, by kind (turn, hint, ai_move) and level; "
            "cluster-wide, recorded by the workers.",
            labels=["kind", "level"],
        )
        moves = CounterMetricFamily(
            "pocha_bot_moves_applied",
            "Bot moves applied in games, by level; cluster-wide.",
            labels=["level"],
        )
        for h in histograms:
            think.add_metric(
                [h.kind, h.level],
                buckets=[(_le(bound), count) for bound, count in h.buckets],
                sum_value=h.sum,
            )
            if h.kind == "turn":
                moves.add_metric([h.level], h.moves)
        yield think
        yield moves


def _le(bound: float) -> str:
    return "+Inf" if bound == float("inf") else repr(bound)


EXTENSION = "pocha_metrics"


def install(app: Flask) -> ProcessMetrics:
    """Give `app` its process metrics (recorded by `service.telemetry`)."""
    metrics = ProcessMetrics()
    app.extensions[EXTENSION] = metrics
    return metrics


def process_metrics() -> ProcessMetrics:
    found: ProcessMetrics = current_app.extensions[EXTENSION]
    return found


def exposition(metrics: ProcessMetrics, redises: Redises) -> bytes:
    """The text of a scrape: this server's process figures, then the cluster's."""
    registry = CollectorRegistry()
    directory = multiprocess_dir()
    if directory is not None:
        multiprocess.MultiProcessCollector(registry, path=directory)
        process = generate_latest(registry)
    else:
        process = generate_latest(metrics.registry)
    cluster = CollectorRegistry()
    cluster.register(RedisCollector(redises))
    return process + generate_latest(cluster)


# A plain Flask blueprint, kept out of the OpenAPI document like the page at `/`: it is
# for operators' scrapers (Prometheus' format is its contract), not for front ends.
blp = Blueprint("metrics", __name__)


@blp.get("/metrics")
def metrics_view() -> Response:
    """The scrape: answers even when Redis does not (`pocha_redis_up 0`)."""
    body = exposition(process_metrics(), services().redises)
    return Response(body, content_type=CONTENT_TYPE_LATEST)
