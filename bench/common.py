"""Shared pieces of the benchmarks: percentiles, a live ``hermes serve`` process, and a lean HTTP client.

The load generator shares two cores with the server, so it must cost far less per request than the server:
``LeanClient`` speaks HTTP/1.1 keep-alive over a raw asyncio stream (no httpx, no header objects) and only
parses the status line and ``content-length``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import orjson

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "bench-token"
# `hermes serve` through its module: the agent package installs a `hermes` script of its own, and whichever
# was installed last owns the name in the venv.
HERMES_SERVE = [sys.executable, "-m", "app.cli.main", "serve"]
# Calls before the timed ones of a listing loop (``timed_gets``).
WARMUP = 20


def percentile(values: list[float], pct: float) -> float:
    """Nearest-rank percentile of ``values`` (``pct`` in 0..100)."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = max(0, min(len(ordered) - 1, round(pct / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]


def median(values: list[float]) -> float:
    """The median, NaN for no values."""
    return statistics.median(values) if values else float("nan")


def latency_ms(name: str, timings: list[float]) -> dict[str, float]:
    """The median and 99th percentile of ``timings`` (seconds) in milliseconds, as ``{name}_median_ms`` and
    ``{name}_p99_ms``."""
    return {f"{name}_median_ms": median(timings) * 1000, f"{name}_p99_ms": percentile(timings, 99) * 1000}


def process_cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far (Linux ``/proc``), threads included."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class CpuReading:
    """A process's CPU time at one instant, for differences over a window (see ``cpu_seconds_between``)."""

    threads: frozenset[str]
    threads_ns: int
    process_s: float


def cpu_reading(pid: int) -> CpuReading:
    """The CPU time of ``pid`` now: per thread from ``schedstat`` (nanoseconds) and in total from ``stat``."""
    tasks = Path(f"/proc/{pid}/task")
    threads = frozenset(p.name for p in tasks.iterdir())
    total = 0
    for tid in threads:
        # A thread may end between the listing and the read; the set comparison notices.
        with suppress(FileNotFoundError, ProcessLookupError):
            total += int((tasks / tid / "schedstat").read_text().split()[0])
    return CpuReading(threads, total, process_cpu_seconds(pid))


def cpu_seconds_between(before: CpuReading, after: CpuReading) -> float:
    """CPU seconds spent between two readings: the nanosecond per-thread sum when the same threads lived
    through the window, else the clock-tick total (which keeps the time of threads that ended)."""
    if before.threads == after.threads:
        return (after.threads_ns - before.threads_ns) / 1e9
    return after.process_s - before.process_s


def free_port() -> int:
    """An unused loopback port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def bench_home() -> Iterator[Path]:
    """A throw-away HERMES_HOME (next to the cached stores, so copies stay on the same disk)."""
    base = ROOT / "bench" / "data"
    base.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=base, prefix="run-") as tmp:
        yield Path(tmp)


@dataclass
class Server:
    """A running ``hermes serve`` on loopback."""

    port: int
    process: subprocess.Popen[bytes]
    indexed_after_s: float = 0.0

    @property
    def base_url(self) -> str:
        """Where it listens."""
        return f"http://127.0.0.1:{self.port}"

    def client(self) -> httpx.Client:
        """A convenience client for set-up calls (not for timed loops)."""
        return httpx.Client(base_url=self.base_url, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=60)


def wait_until_indexed(path: Path, timeout_s: float = 600.0, backlog: str = "hs_list_search_dirty") -> float:
    """Seconds until a backlog table of the server is empty: by default the list-search index's (0 for a
    build without that table); ``hs_fts_backlog`` for the FTS indexer's."""
    conn = sqlite3.connect(path, timeout=10)
    started = time.perf_counter()
    try:
        while time.perf_counter() - started < timeout_s:
            try:
                (dirty,) = conn.execute(f"SELECT COUNT(*) FROM {backlog}").fetchone()
            except sqlite3.OperationalError:
                return 0.0
            if dirty == 0:
                return time.perf_counter() - started
            time.sleep(0.2)
    finally:
        conn.close()
    raise RuntimeError(f"{backlog} did not drain in time")


@contextmanager
def serve(
    home: Path, source: Path = ROOT, database_url: str | None = None, pythonpath: Sequence[Path] = ()
) -> Iterator[Server]:
    """Start ``hermes serve`` on ``home`` (a real uvicorn process) and stop it with SIGTERM afterwards.

    ``source`` is the source tree whose ``app`` package runs (another build's checkout, for comparisons);
    it goes first on ``PYTHONPATH``, ahead of this tree's editable install. With ``database_url`` the server
    runs on that PostgreSQL database instead of ``home``'s ``state.db``. ``pythonpath`` goes before both
    (a shim module, say).
    """
    port = free_port()
    env = {**os.environ, "HERMES_HOME": str(home), "HERMES_PORT": str(port), "HERMES_API_TOKEN": TOKEN}
    env.pop("HERMES_HOST", None)
    env.pop("HERMES_DATABASE_URL", None)
    if database_url is not None:
        env["HERMES_DATABASE_URL"] = database_url
    first = [*map(str, pythonpath), *([str(source)] if source != ROOT else [])]
    if first:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, (*first, env.get("PYTHONPATH"))))
    log = (home / "server.log").open("wb")
    process = subprocess.Popen(HERMES_SERVE, env=env, cwd=source, stdout=log, stderr=log)
    server = Server(port, process)
    try:
        # Migrations on a big store may take a while on a busy machine.
        wait_until_ready(
            "hermes serve",
            process,
            f"{server.base_url}/readyz",
            home / "server.log",
            timeout_s=300,
            poll_s=0.1,
        )
        # Adopting a copy queues every session for the list-search index; measure the steady state, not
        # the background build competing with the load.
        if database_url is None:
            server.indexed_after_s = wait_until_indexed(home / "state.db")
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def wait_until_ready(
    name: str, process: subprocess.Popen[bytes], url: str, log: Path, *, timeout_s: float, poll_s: float
) -> None:
    """Poll ``url`` until it answers 200; raise with the tail of ``log`` when ``process`` exits or
    ``timeout_s`` passes first."""
    deadline = time.monotonic() + timeout_s
    while True:
        if process.poll() is not None:
            tail = log.read_text(errors="replace")[-2000:]
            raise RuntimeError(f"{name} exited with {process.returncode}:\n{tail}")
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            tail = log.read_text(errors="replace")[-2000:]
            raise RuntimeError(f"{name} did not become ready:\n{tail}")
        time.sleep(poll_s)


def commit_ticker(path: Path) -> Callable[[], None]:
    """A commit from another connection (bumps ``PRAGMA data_version`` for every other connection)."""
    conn = sqlite3.connect(path, isolation_level=None, timeout=10)
    counter = iter(range(10**9))

    def touch() -> None:
        conn.execute(
            "INSERT OR REPLACE INTO state_meta (key, value) VALUES ('bench_tick', ?)", (str(next(counter)),)
        )

    return touch


async def timed_gets(port: int, path: str, calls: int, touch: Callable[[], None] | None) -> list[float]:
    """Seconds per ``GET path`` over one keep-alive connection, ``calls`` sequential calls after
    ``WARMUP`` untimed ones; ``touch`` (a commit, say) runs before each, outside the timing."""
    client = await LeanClient(port).connect()
    timings = []
    for i in range(WARMUP + calls):
        if touch is not None:
            touch()
        t0 = time.perf_counter()
        status, body = await client.request("GET", path)
        if status != 200:
            raise RuntimeError(f"GET {path} answered {status}: {body[:300]!r}")
        if i >= WARMUP:
            timings.append(time.perf_counter() - t0)
    client.close()
    return timings


def calls_main(doc: str | None, run: Callable[[int], object], calls: int) -> None:
    """A bench's command line that takes ``--calls N`` (default ``calls``) and runs ``run(N)``."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=calls)
    run(parser.parse_args().calls)


class LeanClient:
    """One keep-alive HTTP/1.1 connection; ``request`` returns (status, body)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._auth = f"Authorization: Bearer {TOKEN}\r\n".encode()

    async def connect(self) -> LeanClient:
        """Open the connection."""
        self._reader, self._writer = await asyncio.open_connection("127.0.0.1", self.port)
        return self

    async def request(
        self, method: str, path: str, body: bytes = b"", headers: bytes = b""
    ) -> tuple[int, bytes]:
        """Send one request (``headers``: extra header lines, each ending in CRLF) and read the whole
        response."""
        assert self._reader is not None and self._writer is not None
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n"
        ).encode()
        self._writer.write(head + self._auth + headers + b"\r\n" + body)
        raw = await self._reader.readuntil(b"\r\n\r\n")
        status = int(raw[9:12])
        length = 0
        for line in raw.split(b"\r\n")[1:]:
            if line[:15].lower() == b"content-length:":
                length = int(line[15:])
                break
            if line.lower() == b"transfer-encoding: chunked":
                return status, await self._chunks()
        payload = await self._reader.readexactly(length) if length else b""
        return status, payload

    async def _chunks(self) -> bytes:
        """A chunked body (a streamed export, say) read to its last, empty chunk."""
        assert self._reader is not None
        parts = []
        while True:
            size = int((await self._reader.readuntil(b"\r\n")).split(b";")[0], 16)
            parts.append(await self._reader.readexactly(size + 2))
            if size == 0:
                return b"".join(part[:-2] for part in parts)

    def close(self) -> None:
        """Close the connection."""
        if self._writer is not None:
            self._writer.close()


def json_body(value: Any) -> bytes:
    """Compact UTF-8 JSON."""
    return orjson.dumps(value)


def print_figures(title: str, figures: dict[str, Any]) -> None:
    """One block of ``name: value`` lines, so each script's output reads on its own."""
    print(f"\n== {title}")
    width = max(map(len, figures))
    for name, value in figures.items():
        shown = f"{value:,.2f}" if isinstance(value, float) else str(value)
        print(f"  {name.ljust(width)}  {shown}")
