"""``hermes sessions sync``: a 500,000-message agent file into an empty server, then 1,000 new messages.

Figures (targets: full sync >= 10,000 messages/s; incremental sync of 1,000 messages < 2 s, measured as the
whole ``hermes sessions sync`` process, Python start-up included). Baselines in the same run, on the same
data: ``POST /import`` of the file's JSONL export into another empty server (what a one-off copy costs
through the API), and a plain copy of the file. The full sync's CPU time per message is printed too, the
client's and ``hermes serve``'s (not the database server's), which a loaded machine disturbs less than its
wall time.

The full sync acknowledges batches before their messages are in the search indexes (batches over 1,000
messages go to the background indexer, on both backends); the time until that backlog drains is printed
too (on PostgreSQL read from ``GET /stats``).

With ``--postgresql`` the same file is synced into an empty PostgreSQL database as well (a throwaway server,
``tests/pg_cluster.py``, or ``--url``), the SQLite server's figures of the same run being its baseline
(targets for PostgreSQL: the same two). ``--baseline DIR`` (a checkout of another build, e.g. ``git worktree
add DIR <rev>``) runs that build's server and client on the same file too, into another empty server on
SQLite and, with ``--postgresql``, on another empty database of the throwaway server. ``--also-parallel N``
measures this build's sync with ``--parallel N`` too, on both backends (against the default lanes).
``--store`` picks a smaller file than the 500,000-message default.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.build_store import LARGE, STORES, StoreSpec, copy_store, ensure
from bench.common import (
    ROOT,
    TOKEN,
    bench_home,
    print_figures,
    process_cpu_seconds,
    serve,
    wait_until_indexed,
)
from tests.pg_cluster import start_cluster

SYNC = [sys.executable, "-m", "app.cli.main", "sessions", "sync"]


def _children_cpu_s() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _sync(agent: Path, url: str, home: Path, source: Path = ROOT, parallel: int | None = None) -> float:
    """Run one ``hermes sessions sync`` of ``source``'s build (``--parallel`` when given) to completion; its
    wall time (its CPU time is what :func:`_children_cpu_s` gains)."""
    env = {**os.environ, "HERMES_HOME": str(home), "HERMES_API_TOKEN": TOKEN}
    if source != ROOT:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(source), env.get("PYTHONPATH"))))
    lanes = ["--parallel", str(parallel)] if parallel is not None else []
    started = time.perf_counter()
    done = subprocess.run(
        [*SYNC, "--from", str(agent), "--to", url, "--home", "bench", *lanes],
        cwd=source,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"sync failed ({done.returncode}): {done.stderr[-2000:]}")
    print(done.stdout.strip(), file=sys.stderr)
    return elapsed


def _append(agent: Path, count: int) -> None:
    """``count`` new messages in the newest sessions of the agent file, counters updated as the agent does."""
    conn = sqlite3.connect(agent)
    try:
        with conn:
            sids = [r[0] for r in conn.execute("SELECT id FROM sessions ORDER BY started_at DESC LIMIT 20")]
            now = time.time()
            conn.executemany(
                "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)",
                [
                    (sids[i % len(sids)], ("user", "assistant")[i % 2], f"new message {i}", now + i)
                    for i in range(count)
                ],
            )
            for sid in sids:
                conn.execute(
                    "UPDATE sessions SET message_count = (SELECT COUNT(*) FROM messages WHERE session_id = ?)"
                    " WHERE id = ?",
                    (sid, sid),
                )
    finally:
        conn.close()


def _messages(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        (count,) = conn.execute("SELECT COUNT(*) FROM messages").fetchone()
    return int(count)


def _import_baseline(agent: Path, work: Path) -> float:
    """Seconds of ``POST /import`` of the agent file's JSONL export into an empty server."""
    export = work / "export.jsonl"
    source_home = work / "export-source"
    source_home.mkdir()
    shutil.copyfile(agent, source_home / "state.db")
    with (
        serve(source_home) as server,
        server.client() as http,
        export.open("wb") as sink,
        http.stream("GET", "/export.jsonl", timeout=None) as response,
    ):
        for chunk in response.iter_bytes(1 << 20):
            sink.write(chunk)
    target = work / "import-target"
    target.mkdir()
    os.environ["HERMES_MAX_BODY_BYTES"] = str(4 << 30)  # the whole file in one request
    try:
        with serve(target) as server, server.client() as http, export.open("rb") as body:
            started = time.perf_counter()
            answer = http.post(
                "/import", content=body, headers={"Content-Type": "application/jsonl"}, timeout=None
            )
            elapsed = time.perf_counter() - started
    finally:
        os.environ.pop("HERMES_MAX_BODY_BYTES", None)
    if answer.status_code != 200:
        raise RuntimeError(f"import failed: {answer.status_code} {answer.text[:500]}")
    return elapsed


def _wait_until_indexed(http: httpx.Client, timeout_s: float = 1800.0) -> float:
    """Seconds until the server reports no message waiting for its search indexer (``GET /stats``; a build
    that indexes every row as it writes it reports none)."""
    started = time.perf_counter()
    while http.get("/stats").json().get("indexing", {}).get("pending_messages", 0):
        if time.perf_counter() - started > timeout_s:
            raise RuntimeError("the search backlog did not drain in time")
        time.sleep(0.2)
    return time.perf_counter() - started


def _measure(
    spec: StoreSpec,
    incremental: int,
    work: Path,
    database_url: str | None,
    source: Path = ROOT,
    tag: str | None = None,
    parallel: int | None = None,
) -> dict[str, float]:
    """A full sync of a private copy of ``spec`` into an empty server (``source``'s build, server and
    client, on ``database_url``'s PostgreSQL, else SQLite), then ``incremental`` new messages, then a sync
    with nothing new."""
    tag = tag or ("postgresql" if database_url else "sqlite")
    agent = copy_store(spec, work / f"agent-{tag}")
    total = _messages(agent)
    server_home = work / f"server-{tag}"
    server_home.mkdir()
    with serve(server_home, source=source, database_url=database_url) as server:
        client_cpu, server_cpu = _children_cpu_s(), process_cpu_seconds(server.process.pid)
        full_s = _sync(agent, server.base_url, agent.parent, source, parallel)
        client_cpu = _children_cpu_s() - client_cpu
        server_cpu = process_cpu_seconds(server.process.pid) - server_cpu
        with server.client() as http:
            if database_url:
                indexed_s = _wait_until_indexed(http)
            else:
                indexed_s = wait_until_indexed(server_home / "state.db", 1800.0, backlog="hs_fts_backlog")
            held = http.get("/stats").json()["messages"]
        if held != total:
            raise RuntimeError(f"the server holds {held} messages, the file {total}")
        _append(agent, incremental)
        incremental_s = _sync(agent, server.base_url, agent.parent, source, parallel)
        nothing_s = _sync(agent, server.base_url, agent.parent, source, parallel)
    return {
        "messages": total,
        "full sync s": full_s,
        "full sync messages/s": total / full_s,
        "full sync: client CPU us/msg": client_cpu / total * 1e6,
        "full sync: hermes serve CPU us/msg (not the database's)": server_cpu / total * 1e6,
        "FTS backlog drained after s": indexed_s,
        f"incremental sync of {incremental} messages s": incremental_s,
        "sync with nothing new s": nothing_s,
    }


def run(
    spec: StoreSpec,
    incremental: int,
    with_import: bool,
    postgresql: bool,
    url: str | None,
    baseline: Path | None = None,
    also_parallel: int | None = None,
) -> None:
    """Measure a full and an incremental sync of ``spec`` into an empty SQLite server and the baselines;
    with ``postgresql``, the same into an empty PostgreSQL database (``url``, or a throwaway server's), the
    SQLite figures of the same run being its baseline; with ``baseline``, that build on each backend too;
    with ``also_parallel``, this build's sync with that many lanes on both backends too."""
    ensure(spec)  # built (or found cached) before anything is timed
    with bench_home() as work, ExitStack() as stack:
        started = time.perf_counter()
        copy_store(spec, work / "copy")
        copy_s = time.perf_counter() - started
        sqlite = _measure(spec, incremental, work, None)
        print_figures(f"sync into SQLite ({spec.messages:,} messages into an empty server)", sqlite)
        if baseline is not None:
            _compare_builds(
                sqlite, _measure(spec, incremental, work, None, baseline, "baseline-sqlite"), "SQLite"
            )
        if also_parallel is not None:
            _compare_lanes(
                sqlite,
                _measure(spec, incremental, work, None, tag="sqlite-lanes", parallel=also_parallel),
                "SQLite",
                also_parallel,
            )
        print_figures("baseline: a copy of the file", {"file copy s": copy_s})
        if with_import:
            import_s = _import_baseline(work / "copy" / "state.db", work)
            print_figures(
                "baseline: POST /import of the file's JSONL export",
                {
                    "POST /import s": import_s,
                    "POST /import messages/s": sqlite["messages"] / import_s,
                    "ratio full sync / import (time)": sqlite["full sync s"] / import_s,
                },
            )
        if postgresql:
            cluster = None
            if url is None:
                cluster = start_cluster()
                stack.callback(cluster.stop)
                url = cluster.create_database("bench")
            pg = _measure(spec, incremental, work, url)
            print_figures(f"sync into PostgreSQL ({spec.messages:,} messages into an empty database)", pg)
            if also_parallel is not None:
                if cluster is None:
                    raise SystemExit("--also-parallel needs the throwaway server (no --url)")
                lanes_url = cluster.create_database("lanes")
                lanes = _measure(
                    spec, incremental, work, lanes_url, tag="postgresql-lanes", parallel=also_parallel
                )
                _compare_lanes(pg, lanes, "PostgreSQL", also_parallel)
            if baseline is not None:
                if cluster is None:
                    raise SystemExit("--baseline needs the throwaway server (no --url)")
                before = _measure(
                    spec, incremental, work, cluster.create_database("baseline"), baseline, "baseline"
                )
                _compare_builds(pg, before, "PostgreSQL")
            print_figures(
                "PostgreSQL over SQLite, same run",
                {
                    "full sync messages/s ratio": pg["full sync messages/s"] / sqlite["full sync messages/s"],
                    "incremental s ratio": pg[f"incremental sync of {incremental} messages s"]
                    / sqlite[f"incremental sync of {incremental} messages s"],
                },
            )


def _compare_builds(this: dict[str, float], before: dict[str, float], backend: str) -> None:
    print_figures(f"the baseline build on {backend}, same run", before)
    ratio = this["full sync messages/s"] / before["full sync messages/s"]
    cpu = [f"full sync: {side} CPU us/msg" for side in ("client", "hermes serve")]
    cpu[1] += " (not the database's)"
    print_figures(
        f"this build over the baseline build on {backend}",
        {
            "full sync messages/s ratio": ratio,
            "client CPU per message ratio": this[cpu[0]] / before[cpu[0]],
            "hermes serve CPU per message ratio": this[cpu[1]] / before[cpu[1]],
        },
    )


def _compare_lanes(default: dict[str, float], other: dict[str, float], backend: str, lanes: int) -> None:
    print_figures(f"the same sync into {backend} with --parallel {lanes}, same run", other)
    print_figures(
        f"{backend}: default --parallel over --parallel {lanes}",
        {"full sync messages/s ratio": default["full sync messages/s"] / other["full sync messages/s"]},
    )


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--incremental", type=int, default=1000)
    parser.add_argument("--no-import", action="store_true", help="skip the POST /import baseline")
    parser.add_argument("--postgresql", action="store_true", help="sync into PostgreSQL too (same run)")
    parser.add_argument("--url", help="an empty PostgreSQL database to use instead of a throwaway server")
    parser.add_argument("--store", choices=sorted(STORES), default=LARGE.name)
    parser.add_argument("--baseline", type=Path, help="another build's checkout, on each backend too")
    parser.add_argument(
        "--also-parallel", type=int, help="this build's sync with this many lanes too, on both backends"
    )
    args = parser.parse_args()
    postgresql = args.postgresql or args.url is not None
    run(
        STORES[args.store],
        args.incremental,
        not args.no_import,
        postgresql,
        args.url,
        args.baseline,
        args.also_parallel,
    )


if __name__ == "__main__":
    main()
