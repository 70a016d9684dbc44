"""Observability: a pure-ASGI wrapper counting, timing and logging requests, and a scrape-time collector.

The wrapper does two dictionary look-ups, two metric updates and one log line per request, so it stays off
the append hot path's budget; everything that needs I/O (file sizes, writer state) is computed only when
/metrics is scraped.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from typing import Any

import orjson
from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily
from prometheus_client.registry import Collector
from prometheus_client.utils import floatToGoString
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.storage.database import Database
from app.storage.files import file_size

# Latency buckets around the append target (p99 <= 25 ms) with room for slow exports.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
# Jobs per group commit: one, a handful of concurrent appends, up to the default write_batch_max.
BATCH_BUCKETS = (1, 2, 4, 8, 16, 32, 64, 128, 256)
# Paths that matched no route share one label value, so scanners cannot blow up the label cardinality.
UNMATCHED_ROUTE = "unmatched"
# The status recorded for a request whose client left before any response (nginx's convention).
CLIENT_CLOSED = 499
ACCESS_LOGGER = "hermes.access"
access_log = logging.getLogger(ACCESS_LOGGER)


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

    def record(
        self,
        method: str,
        route: str,
        status: int,
        seconds: float,
        sent: int,
        request_id: str | None,
    ) -> None:
        """Count and time one answered request and write its access-log line."""
        self.requests.labels(route, method, str(status)).inc()
        self.latency.labels(route, method).observe(seconds)
        if access_log.isEnabledFor(logging.INFO):
            line = {
                "ts": round(time.time(), 3),
                "request_id": request_id,
                "method": method,
                "route": route,
                "status": status,
                "duration_ms": round(seconds * 1000, 3),
                "bytes": sent,
            }
            access_log.info(orjson.dumps(line).decode())


class MetricsMiddleware:
    """Times every HTTP request, labels it with the matched route's path template, and logs it.

    The log is one JSON line per request on the ``hermes.access`` logger, carrying the request id that
    the edge middleware (inside this one) put in the scope, the ``X-Request-ID`` header and every problem
    body. A request that ends without a response (the client went away) is recorded as 499.
    """

    def __init__(self, app: ASGIApp, *, metrics: HttpMetrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 0
        sent = 0

        async def send_recording_status(message: Message) -> None:
            nonlocal status, sent
            if message["type"] == "http.response.start":
                status = message["status"]
            else:
                sent += len(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, receive, send_recording_status)
        except BaseException:
            status = status or 500
            raise
        finally:
            # The router stores the matched route in the (shared) scope dict while dispatching.
            route: Any = scope.get("route")
            state: Any = scope.get("state") or {}
            self.metrics.record(
                scope["method"],
                getattr(route, "path", None) or UNMATCHED_ROUTE,
                status or CLIENT_CLOSED,
                time.perf_counter() - started,
                sent,
                state.get("request_id"),
            )


class StorageCollector(Collector):
    """Writer, event-log and file figures, read when Prometheus scrapes (counters and two ``stat`` calls)."""

    def __init__(
        self, database: Callable[[], Database | None], events_dropped: Callable[[], int | None]
    ) -> None:
        self._database = database
        self._events_dropped = events_dropped

    def collect(self) -> Iterator[Any]:
        """Yield the current writer and file metrics; nothing while the database is closed."""
        dropped = self._events_dropped()
        if dropped is not None:
            yield CounterMetricFamily(
                "hermes_events_dropped",
                "Events deleted from the event log by retention (age or row cap), read or not.",
                dropped,
            )
        db = self._database()
        if db is None:
            return
        writer = db.writer
        if writer is not None:
            yield _batch_histogram(dict(writer.batch_sizes))
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
        if getattr(db, "backend", "sqlite") != "sqlite":
            return  # no file to measure
        yield GaugeMetricFamily("hermes_database_bytes", "Size of state.db.", file_size(db.path))
        wal = db.wal_path
        yield GaugeMetricFamily(
            "hermes_wal_bytes", "Size of the write-ahead log state.db-wal.", file_size(wal)
        )


def _batch_histogram(sizes: dict[int, int]) -> HistogramMetricFamily:
    """Group-commit sizes (jobs per transaction) as a Prometheus histogram.

    The writer keeps an exact count per size (at most ``write_batch_max`` keys); buckets are cumulative.
    """
    buckets: list[tuple[str, float]] = []
    for bound in BATCH_BUCKETS:
        buckets.append((floatToGoString(bound), sum(n for size, n in sizes.items() if size <= bound)))
    buckets.append(("+Inf", sum(sizes.values())))
    return HistogramMetricFamily(
        "hermes_writer_batch_size",
        "Write jobs per group commit.",
        buckets=buckets,
        sum_value=sum(size * n for size, n in sizes.items()),
    )
