"""Before and after: two builds of the server on copies of one store, measured in interleaved rounds.

The baseline (default ``04c0fd3``, the last commit before issue 14's refactor) is extracted with
``git archive`` into ``bench/data/builds/<sha>/`` and runs with this tree's virtualenv, its own source first
on ``PYTHONPATH`` (the runtime dependencies are the same). The store is built once by the baseline's own
``bench/build_store.py``, so it stops at the baseline's migration head; each build's server gets a private
copy of that one file, and the newer build migrates its copy forward when it starts (and the benchmark waits
for its list-search backlog, as every benchmark here does).

Both servers run for the whole comparison. Each round measures, for each build in turn (the order alternates
between rounds, and the reads alternate in slices within a round, so drift in the machine's load falls on
both alike):

- ``GET /sessions?limit=20``, repeated on an unchanged file and after another connection's commit;
- ``GET /search`` discover calls, the queries of ``bench/search.py``: median across queries;
- single-message appends from 16 keep-alive clients (``bench/append.py``'s load);
- ``GET /export.jsonl?session_id=...`` of the store's mid-sized sessions, in turn.

With ``--postgresql`` both builds run on PostgreSQL instead (a throwaway server, ``tests/pg_cluster.py``),
each on an empty database of its own, loaded by that build's own ``hermes sessions sync`` of a copy of the
store; the listing after a commit is left out there (PostgreSQL keeps no listing memo to invalidate).

The primary figure is the server process's CPU time per request (``/proc``: per-thread ``schedstat``
nanoseconds), which other processes' load moves far less than wall time; wall-clock medians come second.
Figures and the after/before ratio are printed for every round, then the median of each across rounds.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tarfile
import time
from collections.abc import Awaitable, Callable
from contextlib import ExitStack, suppress
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import append, search
from bench.build_store import LARGE, SMALL, StoreSpec
from bench.common import (
    ROOT,
    LeanClient,
    Server,
    bench_home,
    commit_ticker,
    cpu_reading,
    cpu_seconds_between,
    median,
    serve,
    wait_until_indexed,
)
from bench.corpus import CACHE, DATA_DIR
from bench.sync import _sync, _wait_until_indexed
from tests.pg_cluster import Cluster, start_cluster

BASELINE = "04c0fd3"
PHASES = ("list", "list_after_write", "search", "append", "export")
EXPORTED_SESSIONS = 10
SETTLE_S = 1.0
BUILDS_DIR = DATA_DIR / "builds"
WORKTREE = "worktree"


@dataclass(frozen=True)
class Build:
    """One build of the server: a label and the source tree it runs from."""

    label: str
    source: Path


@dataclass
class Sample:
    """One measurement: CPU seconds per request and wall-clock seconds (median) per request."""

    cpu_s: float
    wall_s: float
    extra: dict[str, float] = field(default_factory=dict)


def checkout(ref: str) -> Build:
    """The source tree of ``ref`` (this worktree as it is for ``worktree``), extracted once and kept."""
    if ref == WORKTREE:
        return Build(WORKTREE, ROOT)
    sha = subprocess.run(
        ["git", "rev-parse", "--verify", f"{ref}^{{commit}}"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    dest = BUILDS_DIR / sha[:12]
    done = dest / ".extracted"
    if not done.exists():
        if dest.exists():
            shutil.rmtree(dest)
        dest.mkdir(parents=True)
        archive = subprocess.run(["git", "archive", sha], cwd=ROOT, check=True, capture_output=True).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(dest, filter="data")
        done.touch()
    return Build(f"{ref} ({sha[:7]})", dest)


def build_store(build: Build, spec: StoreSpec) -> Path:
    """``spec``'s store as ``build``'s own ``bench/build_store.py`` makes it (cached in its tree)."""
    data = build.source / "bench" / "data"
    data.mkdir(parents=True, exist_ok=True)
    if CACHE.exists() and not (data / CACHE.name).exists():
        shutil.copyfile(CACHE, data / CACHE.name)  # the same harvested corpus, without harvesting again
    env = {**os.environ, "PYTHONPATH": str(build.source)}
    subprocess.run([sys.executable, "bench/build_store.py", spec.name], cwd=build.source, env=env, check=True)
    return data / spec.name / "state.db"


async def _timed_calls(
    server: Server, path: str, calls: int, before_each: Callable[[], None] | None
) -> Sample:
    """``calls`` sequential GETs of ``path`` after a warm-up; the server's CPU over the timed calls."""
    client = await LeanClient(server.port).connect()
    try:
        for _ in range(search.WARMUP):
            await _expect_ok(client, path)
        walls = []
        start = cpu_reading(server.process.pid)
        for _ in range(calls):
            if before_each is not None:
                before_each()
            t0 = time.perf_counter()
            await _expect_ok(client, path)
            walls.append(time.perf_counter() - t0)
        cpu = cpu_seconds_between(start, cpu_reading(server.process.pid))
    finally:
        client.close()
    return Sample(cpu / calls, median(walls))


async def _expect_ok(client: LeanClient, path: str) -> None:
    status, body = await client.request("GET", path)
    if status != 200:
        raise RuntimeError(f"GET {path} answered {status}: {body[:300]!r}")


async def measure_list(server: Server, calls: int, touch: Callable[[], None] | None) -> Sample:
    """``GET /sessions?limit=20``: on an unchanged file (``touch`` None; the page memo may answer), or each
    call after ``touch`` commits to the server's file from another connection."""
    return await _timed_calls(server, "/sessions?limit=20", calls, touch)


async def measure_search(server: Server, calls: int) -> Sample:
    """Discover calls for every query of ``bench/search.py``: medians across the queries of the per-query
    CPU per call and the per-query wall median."""
    cpus: list[float] = []
    walls: list[float] = []
    per_query: dict[str, float] = {}
    for q in search.QUERIES:
        path = "/search?" + urlencode({"q": q, "limit": 3, "window": 5})
        sample = await _timed_calls(server, path, calls, None)
        cpus.append(sample.cpu_s)
        walls.append(sample.wall_s)
        per_query[f"cpu_ms {q}"] = sample.cpu_s * 1000
    return Sample(median(cpus), median(walls), per_query)


async def measure_appends(server: Server, duration: float) -> Sample:
    """16 clients appending one message per request for ``duration`` seconds after a one-second warm-up."""
    counted, elapsed, latencies, cpu = await append._single_append_load(
        [server.port], [server.process.pid], duration, warmup=1.0
    )
    return Sample(cpu / counted, median(latencies), {"msgs_per_s": counted / elapsed})


def children_cpu_ns(pid: int) -> dict[int, int]:
    """CPU nanoseconds so far of each live child process of ``pid`` (the SQLite export's render workers),
    summed over its threads' ``schedstat``."""
    out: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with suppress(OSError, IndexError):
            if int((entry / "stat").read_text().rpartition(")")[2].split()[1]) != pid:
                continue
            out[int(entry.name)] = sum(
                int((task / "schedstat").read_text().split()[0]) for task in (entry / "task").iterdir()
            )
    return out


async def measure_export(server: Server, calls: int, session_ids: list[str]) -> Sample:
    """``GET /export.jsonl`` of one session per call, going round ``session_ids``; ``workers_cpu_ms``: the
    CPU per call of the server's render workers (child processes), apart from the server's own."""
    client = await LeanClient(server.port).connect()
    paths = ["/export.jsonl?" + urlencode({"session_id": sid}) for sid in session_ids]
    try:
        for path in paths:
            await _expect_ok(client, path)
        walls = []
        workers = children_cpu_ns(server.process.pid)
        start = cpu_reading(server.process.pid)
        for index in range(calls):
            t0 = time.perf_counter()
            await _expect_ok(client, paths[index % len(paths)])
            walls.append(time.perf_counter() - t0)
        cpu = cpu_seconds_between(start, cpu_reading(server.process.pid))
        after = children_cpu_ns(server.process.pid)
        # A worker that started or ended in the window: its whole life so far, or nothing, counts.
        workers_ns = sum(ns - workers.get(child, 0) for child, ns in after.items())
    finally:
        client.close()
    return Sample(cpu / calls, median(walls), {"workers_cpu_ms": workers_ns / 1e6 / calls})


def exported_sessions(store: Path) -> list[str]:
    """The store's sessions nearest its median message count: what one session's export usually costs."""
    conn = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        return [
            row[0]
            for row in conn.execute(
                "SELECT id FROM sessions WHERE message_count > 0 ORDER BY message_count, id"
                " LIMIT ? OFFSET (SELECT COUNT(*) / 2 FROM sessions WHERE message_count > 0)",
                (EXPORTED_SESSIONS,),
            )
        ]
    finally:
        conn.close()


def _start(
    stack: ExitStack, build: Build, store: Path, cluster: Cluster | None
) -> tuple[Server, Callable[[], None] | None, Path | None]:
    """``build``'s server on its own copy of ``store`` (SQLite), or on an empty database of ``cluster``
    loaded by the build's own sync of a copy of the file; with what commits from another connection (None
    on PostgreSQL) and the SQLite file (None on PostgreSQL)."""
    home = stack.enter_context(bench_home())
    if cluster is None:
        shutil.copyfile(store, home / "state.db")
        server = stack.enter_context(serve(home, build.source))
        return server, commit_ticker(home / "state.db"), home / "state.db"
    server = stack.enter_context(serve(home, build.source, database_url=cluster.create_database("cmp")))
    agent = home / "agent" / "state.db"
    agent.parent.mkdir()
    shutil.copyfile(store, agent)
    _sync(agent, server.base_url, agent.parent, build.source)
    with server.client() as http:
        _wait_until_indexed(http)
    return server, None, None


def _print_pair(name: str, unit_scale: float, unit: str, a: float, b: float) -> None:
    print(
        f"    {name:<28} {a * unit_scale:9.3f} {unit:<3} {b * unit_scale:9.3f} {unit:<3} ratio {b / a:6.3f}"
    )


def run(
    baseline_ref: str,
    after_ref: str,
    spec: StoreSpec,
    rounds: int,
    calls: int,
    duration: float,
    postgresql: bool = False,
    only: tuple[str, ...] = (),
    export_calls: int = 0,
) -> None:
    """Build, start both servers, measure ``rounds`` interleaved rounds, print each figure and the summary."""
    before, after = checkout(baseline_ref), checkout(after_ref)
    store = build_store(before, spec)
    exported = exported_sessions(store)
    print(f"before: {before.label} from {before.source}\nafter:  {after.label} from {after.source}")
    print(
        f"store:  {spec.name} ({spec.sessions:,} sessions, {spec.messages:,} messages) built by the baseline"
    )
    print(f"backend: {'PostgreSQL' if postgresql else 'SQLite'}")
    with ExitStack() as stack:
        cluster = start_cluster() if postgresql else None
        if cluster is not None:
            stack.callback(cluster.stop)
        servers: dict[str, Server] = {}
        touches: dict[str, Callable[[], None]] = {}
        stores: list[Path] = []
        for build in (before, after):
            started = time.perf_counter()
            server, touch, path = _start(stack, build, store, cluster)
            servers[build.label] = server
            print(f"{build.label}: ready in {time.perf_counter() - started:.1f} s")
            if touch is not None and path is not None:
                touches[build.label] = touch
                stores.append(path)
        results: dict[str, dict[str, list[Sample]]] = {}
        for index in range(rounds):
            order = (before, after) if index % 2 == 0 else (after, before)
            print(f"\n== round {index + 1}/{rounds} (order: {', '.join(b.label for b in order)})")
            # (measure one slice, slices): the reads alternate builds slice by slice within a round too, so a
            # burst of load elsewhere on the machine lands on both builds rather than on one.
            phases: dict[str, tuple[Callable[[str], Awaitable[Sample]], int]] = {
                "list": (lambda b: measure_list(servers[b], calls, None), 5),
                "list_after_write": (lambda b: measure_list(servers[b], calls // 2, touches[b]), 4),
                "search": (lambda b: measure_search(servers[b], calls // 4), 4),
                "append": (lambda b: measure_appends(servers[b], duration), 2),
                "export": (lambda b: measure_export(servers[b], export_calls or calls // 2, exported), 4),
            }
            if not touches:
                del phases["list_after_write"]
            for phase, (measure, slices) in phases.items():
                if only and phase not in only:
                    continue
                # Appends leave work for a build's background indexers (list search, FTS): let it finish
                # before each phase, so it is not counted against the next phase's requests.
                for path in stores:
                    wait_until_indexed(path)
                    wait_until_indexed(path, backlog="hs_fts_backlog")
                time.sleep(SETTLE_S)
                got: dict[str, list[Sample]] = {before.label: [], after.label: []}
                for piece in range(slices):
                    for build in order if piece % 2 == 0 else order[::-1]:
                        got[build.label].append(_run(measure(build.label)))
                a, b = _merged(got[before.label]), _merged(got[after.label])
                results.setdefault(phase, {}).setdefault(before.label, []).append(a)
                results[phase].setdefault(after.label, []).append(b)
                _print_round(phase, a, b)
        _print_summary(results, before.label, after.label, rounds)
    print(f"\n(1-minute load average at the end {os.getloadavg()[0]:.1f})")


def _merged(samples: list[Sample]) -> Sample:
    """Equal slices of one measurement as one: mean CPU per request (the slices have the same number of
    requests), median of the slices' wall medians, mean of each extra figure."""
    extra = {key: statistics.fmean(s.extra[key] for s in samples) for key in samples[0].extra}
    return Sample(statistics.fmean(s.cpu_s for s in samples), median([s.wall_s for s in samples]), extra)


def _print_round(phase: str, a: Sample, b: Sample) -> None:
    unit = "msg" if phase == "append" else "req"
    print(f"  {phase}: before / after")
    _print_pair(f"server CPU per {unit}", 1000, "ms", a.cpu_s, b.cpu_s)
    _print_pair("wall median", 1000, "ms", a.wall_s, b.wall_s)
    if "msgs_per_s" in a.extra:
        _print_pair("msgs/s", 1, "", a.extra["msgs_per_s"], b.extra["msgs_per_s"])
    if a.extra.get("workers_cpu_ms") and b.extra.get("workers_cpu_ms"):
        _print_pair(
            "render workers CPU per req", 1, "ms", a.extra["workers_cpu_ms"], b.extra["workers_cpu_ms"]
        )
        _print_pair(
            "server + workers CPU per req",
            1,
            "ms",
            a.cpu_s * 1000 + a.extra["workers_cpu_ms"],
            b.cpu_s * 1000 + b.extra["workers_cpu_ms"],
        )


def _print_summary(results: dict[str, dict[str, list[Sample]]], before: str, after: str, rounds: int) -> None:
    print(
        f"\n== summary: medians over {rounds} rounds (ratio = after / before; median of the per-round ratios)"
    )
    print(f"  {'figure':<40} {'before':>10} {'after':>10} {'ratio':>7} {'per-round ratios'}")
    for phase, by_build in results.items():
        a, b = by_build[before], by_build[after]
        picks: list[tuple[str, Callable[[Sample], float]]] = [
            ("CPU ms", lambda s: s.cpu_s * 1000),
            ("wall median ms", lambda s: s.wall_s * 1000),
        ]
        if phase == "export" and all(s.extra["workers_cpu_ms"] for s in (*a, *b)):
            picks.append(("+ workers CPU ms", lambda s: s.cpu_s * 1000 + s.extra["workers_cpu_ms"]))
        for name, pick in picks:
            ratios = [pick(y) / pick(x) for x, y in zip(a, b, strict=True)]
            shown = " ".join(f"{r:.3f}" for r in ratios)
            print(
                f"  {phase + ' ' + name:<40} {median([pick(x) for x in a]):10.3f}"
                f" {median([pick(y) for y in b]):10.3f} {median(ratios):7.3f}  {shown}"
            )
    if "search" not in results:
        return
    searches_a, searches_b = results["search"][before], results["search"][after]
    print("  search CPU ms per call, per query (medians over rounds):")
    for key in searches_a[0].extra:
        x = median([s.extra[key] for s in searches_a])
        y = median([s.extra[key] for s in searches_b])
        print(f"    {key[7:]!r:<24} {x:8.3f} {y:8.3f} ratio {y / x:6.3f}")


def _run(coro: Awaitable[Sample]) -> Sample:
    try:
        import uvloop

        return uvloop.run(coro)  # type: ignore[arg-type]
    except ImportError:
        return asyncio.run(coro)  # type: ignore[arg-type]


def main() -> None:
    """Command line: ``python bench/compare_builds.py [--baseline REF] [--after REF|worktree] ...``."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--baseline", default=BASELINE, help="the older build (a git ref)")
    parser.add_argument(
        "--after", default=WORKTREE, help="the newer build: a git ref, or this worktree as is"
    )
    parser.add_argument("--store", default=LARGE.name, choices=[SMALL.name, LARGE.name])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--calls",
        type=int,
        default=40,
        help="calls per search query and round; listing: 5x, after a write: 2x",
    )
    parser.add_argument("--duration", type=float, default=4.0, help="seconds per append slice (2 a round)")
    parser.add_argument(
        "--postgresql", action="store_true", help="both builds on PostgreSQL (a throwaway server)"
    )
    parser.add_argument(
        "--phases",
        default="",
        help=f"comma-separated phases to run (default all): {', '.join(PHASES)}",
    )
    parser.add_argument(
        "--export-calls", type=int, default=0, help="exports per slice (4 a round; default calls / 2)"
    )
    args = parser.parse_args()
    spec = {SMALL.name: SMALL, LARGE.name: LARGE}[args.store]
    only = tuple(p for p in args.phases.split(",") if p)
    unknown = set(only) - set(PHASES)
    if unknown:
        parser.error(f"unknown phases: {', '.join(sorted(unknown))}")
    run(
        args.baseline,
        args.after,
        spec,
        args.rounds,
        args.calls,
        args.duration,
        args.postgresql,
        only,
        args.export_calls,
    )


if __name__ == "__main__":
    main()
