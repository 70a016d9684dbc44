"""Prometheus instrumentation: a pure-ASGI wrapper counting requests, and a collector read at scrape time.

The wrapper does two dictionary look-ups and two metric updates per request, so it stays off the append hot
path's budget; everything that needs I/O (file sizes, writer state) is computed only when /metrics is scraped.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.storage.database import Database
from app.storage.files import file_size

# Latency buckets around the append target (p99 <= 25 ms) with room for slow exports.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
# Paths that matched no route share one label value, so scanners cannot blow up the label cardinality.
UNMATCHED_ROUTE = "unmatched"


class HttpMetrics:
    """The per-app HTTP metrics, registered in the app's own registry (several apps may share a process)."""

    def __init__(self, registry: CollectorRegistry) -> None:
        self.requests = Counter(
            "hermes_http_requests",
            "HTTP requests answered, by route template, method and status.",
            ("route", "method", "status"),
            registry=registry,
        )
        self.latency = Histogram(
            "hermes_http_request_duration_seconds",
            "Time from request start to the end of the response body, by route template and method.",
            ("route", "method"),
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )


class MetricsMiddleware:
    """Times every HTTP request and labels it with the matched route's path template."""

    def __init__(self, app: ASGIApp, *, metrics: HttpMetrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def send_recording_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_recording_status)
        finally:
            # The router stores the matched route in the (shared) scope dict while dispatching.
            route: Any = scope.get("route")
            template = getattr(route, "path", None) or UNMATCHED_ROUTE
            method = scope["method"]
            self.metrics.requests.labels(template, method, str(status)).inc()
            self.metrics.latency.labels(template, method).observe(time.perf_counter() - started)


class StorageCollector(Collector):
    """Writer and file figures, read when Prometheus scrapes (cheap: counters and two ``stat`` calls)."""

    def __init__(self, database: Callable[[], Database | None]) -> None:
        self._database = database

    def collect(self) -> Iterator[Any]:
        """Yield the current writer and file metrics; nothing while the database is closed."""
        db = self._database()
        if db is None:
            return
        writer = db.writer
        if writer is not None:
            yield GaugeMetricFamily(
                "hermes_writer_queue_depth",
                "Write jobs waiting for the next group commit.",
                writer.queue_depth(),
            )
            yield CounterMetricFamily(
                "hermes_writer_commits", "Group commits (transactions) made by the writer.", writer.commits
            )
            yield CounterMetricFamily(
                "hermes_writer_jobs_committed",
                "Write jobs committed (one request may be one job).",
                writer.jobs_committed,
            )
            yield GaugeMetricFamily(
                "hermes_writer_alive", "1 while the writer thread runs.", int(writer.alive)
            )
        yield GaugeMetricFamily("hermes_database_bytes", "Size of state.db.", file_size(db.path))
        wal = db.wal_path
        yield GaugeMetricFamily(
            "hermes_wal_bytes", "Size of the write-ahead log state.db-wal.", file_size(wal)
        )
