"""What this process exposes at `GET /metrics`, in the Prometheus text format (`prometheus-client`).

Every series carries a `process` label (`<hostname>:<pid>`): each server process keeps and serves its own series,
so with several processes Prometheus scrapes each one (`WODI_METRICS_PORT` gives each its own port) and sums or
maxes across `process`. Counters count what this process did; the figures read from the database at scrape time
(live matches, pending timers, the webhook queue) are the same in every process — aggregate those with `max`.
Counting is a dictionary lookup and an add: the per-request cost is measured by `tools/metrics_overhead.py`.
"""

from __future__ import annotations

import os
import socket
from bisect import bisect_left
from collections.abc import Iterator
from typing import Any

from prometheus_client import REGISTRY, Counter, disable_created_metrics, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily
from prometheus_client.registry import Collector

from app.db import figures
from app.db.database import Database
from app.protocol import registry

disable_created_metrics()  # no `_created` twin of every counter: half the scrape, nothing a dashboard reads
PROCESS = f"{socket.gethostname()}:{os.getpid()}"
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

FINISHED = Counter("wodi_matches_finished", "Matches this process ended (finished or aborted), by game",
                   ["process", "game", "status"])
_WEBHOOK_FAILURES = Counter("wodi_webhook_deliveries_failed", "Webhook delivery attempts that failed",
                            ["process"])
_CACHE = Counter("wodi_cache_lookups", "Cache lookups by cache and result; hit rate = hit / (hit + miss)",
                 ["process", "cache", "result"])
_CHECKOUTS = Counter("wodi_db_pool_checkouts", "Connections taken from the database pool", ["process"])

WEBHOOK_FAILED = _WEBHOOK_FAILURES.labels(PROCESS)
MATCH_CACHE_HIT, MATCH_CACHE_MISS = _CACHE.labels(PROCESS, "match", "hit"), _CACHE.labels(PROCESS, "match", "miss")
KEY_CACHE_HIT, KEY_CACHE_MISS = _CACHE.labels(PROCESS, "key", "hit"), _CACHE.labels(PROCESS, "key", "miss")
DB_CHECKOUTS = _CHECKOUTS.labels(PROCESS)


class _Requests(Collector):
    """Requests by (route, method, status): a count, a sum of seconds and a count per latency bucket, kept in plain
    lists (the event loop is the only writer) and rendered as Prometheus families when scraped. About a third of
    what prometheus-client's locked `Counter` plus `Histogram` cost per request (`tools/metrics_overhead.py`)."""

    def __init__(self) -> None:
        self.series: dict[tuple[str, str, int], list[Any]] = {}  # key → [count, seconds, [per-bucket counts]]

    def observe(self, route: str, method: str, status: int, seconds: float) -> None:
        key = (route, method, status)
        series = self.series.get(key)
        if series is None:
            series = self.series[key] = [0, 0.0, [0] * (len(BUCKETS) + 1)]
        series[0] += 1
        series[1] += seconds
        series[2][bisect_left(BUCKETS, seconds)] += 1  # the first bound ≥ seconds: Prometheus' `le`

    def collect(self) -> Iterator[CounterMetricFamily | HistogramMetricFamily]:
        requests = CounterMetricFamily("wodi_http_requests", "HTTP requests answered, by route template, method "
                                       "and status", labels=["process", "route", "method", "status"])
        by_route: dict[tuple[str, str], list[Any]] = {}
        for (route, method, status), (count, seconds, buckets) in list(self.series.items()):
            requests.add_metric([PROCESS, route, method, str(status)], count)
            total = by_route.setdefault((route, method), [0.0, [0] * len(buckets)])
            total[0] += seconds
            total[1] = [a + b for a, b in zip(total[1], buckets, strict=True)]
        yield requests
        latency = HistogramMetricFamily("wodi_http_request_duration_seconds", "Time to answer, by route template "
                                        "(long-polls and streams last as long as they wait)",
                                        labels=["process", "route", "method"])
        for (route, method), (seconds, buckets) in by_route.items():
            cumulative, running = [], 0
            for bound, count in zip([*map(str, BUCKETS), "+Inf"], buckets, strict=True):
                running += count
                cumulative.append((bound, running))
            latency.add_metric([PROCESS, route, method], cumulative, seconds)
        yield latency


REQUESTS = _Requests()
REGISTRY.register(REQUESTS)
observe = REQUESTS.observe


def match_ended(game: str, status: str) -> None:
    FINISHED.labels(PROCESS, game, status).inc()


class _Live(Collector):
    """The gauges read when scraped: what the process holds now, and the database's figures of the last refresh."""

    def __init__(self) -> None:
        self.runtime: Any = None  # the `Runtime` serving now (duck-typed: `app.runtime` imports this module)
        self.figures = figures.Figures()

    def collect(self) -> Iterator[GaugeMetricFamily]:
        runtime = self.runtime
        yield _gauge("wodi_matches_live", "Matches waiting or in progress (database), by game and status",
                     ["game", "status"], {(game, status): self.figures.live.get((game, status), 0)
                                          for game in registry.names() for status in figures.LIVE})
        yield _gauge("wodi_timers_pending", "Matches with an armed deadline (database)", [], {(): self.figures.timers})
        yield _gauge("wodi_webhook_queue_depth", "Webhook deliveries waiting to be sent (database)", [],
                     {(): self.figures.webhook_queue})
        if runtime is None:
            return
        yield _gauge("wodi_longpolls_held", "Long-polls waiting in this process", [], {(): runtime.notifier.waiting()})
        yield _gauge("wodi_streams_held", "Event streams open in this process", [], {(): runtime.streams.held()})
        pool = runtime.db.engine.pool
        yield _gauge("wodi_db_pool_connections", "The read pool's connections: its size and how many are in use",
                     ["state"], {("size",): pool.size(), ("in_use",): pool.checkedout()})
        bots = runtime.bots
        size, idle = (bots.pool_size(), bots.idle_count()) if bots is not None else (0, 0)
        yield _gauge("wodi_bot_pool", "Official bot agents registered by this process, and how many are idle",
                     ["state"], {("size",): size, ("idle",): idle})


def _gauge(name: str, documentation: str, labels: list[str], values: dict[tuple[str, ...], float]) -> GaugeMetricFamily:
    family = GaugeMetricFamily(name, documentation, labels=["process", *labels])
    for label_values, value in values.items():
        family.add_metric([PROCESS, *label_values], value)
    return family


LIVE = _Live()
REGISTRY.register(LIVE)


def watch(runtime: Any) -> None:
    """`runtime` is the one whose pieces the gauges read from now on (the last started)."""
    LIVE.runtime = runtime


def unwatch(runtime: Any) -> None:
    if LIVE.runtime is runtime:
        LIVE.runtime = None


async def exposition(db: Database) -> bytes:
    """Read the database's figures, then render every series."""
    async with db.reader() as session:
        LIVE.figures = await figures.read(session)
    return generate_latest(REGISTRY)
