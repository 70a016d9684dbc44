"""``hermes sessions sync``: a 500,000-message agent file into an empty server, then 1,000 new messages.

Figures (targets: full sync >= 10,000 messages/s; incremental sync of 1,000 messages < 2 s, measured as the
whole ``hermes sessions sync`` process, Python start-up included). Baselines in the same run, on the same
data: ``POST /import`` of the file's JSONL export into another empty server (what a one-off copy costs
through the API), and a plain copy of the file.

The full sync acknowledges batches before their messages are in the FTS indexes (batches over 1,000
messages go to the background indexer, as a big import does); the time until that backlog drains is
printed too.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.build_store import LARGE, StoreSpec, copy_store
from bench.common import ROOT, TOKEN, bench_home, print_figures, serve, wait_until_indexed

SYNC = [sys.executable, "-m", "app.cli.main", "sessions", "sync"]


def _sync(agent: Path, url: str, home: Path) -> float:
    """Run one ``hermes sessions sync`` to completion; its wall time."""
    env = {**os.environ, "HERMES_HOME": str(home), "HERMES_API_TOKEN": TOKEN}
    started = time.perf_counter()
    done = subprocess.run(
        [*SYNC, "--from", str(agent), "--to", url, "--home", "bench"],
        cwd=ROOT,
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


def run(spec: StoreSpec, incremental: int, with_import: bool) -> dict[str, object]:
    """Measure a full and an incremental sync of ``spec`` into an empty server, and the baselines."""
    with bench_home() as work:
        started = time.perf_counter()
        agent = copy_store(spec, work / "agent")
        copy_s = time.perf_counter() - started
        total = _messages(agent)
        server_home = work / "server"
        server_home.mkdir()
        with serve(server_home) as server:
            full_s = _sync(agent, server.base_url, work / "agent")
            indexed_s = wait_until_indexed(server_home / "state.db", 1800.0, backlog="hs_fts_backlog")
            with server.client() as http:
                held = http.get("/stats").json()["messages"]
            if held != total:
                raise RuntimeError(f"the server holds {held} messages, the file {total}")
            _append(agent, incremental)
            incremental_s = _sync(agent, server.base_url, work / "agent")
            nothing_s = _sync(agent, server.base_url, work / "agent")
        figures: dict[str, object] = {
            "messages": total,
            "full sync s": round(full_s, 2),
            "full sync messages/s": round(total / full_s),
            "FTS backlog drained after s": round(indexed_s, 2),
            f"incremental sync of {incremental} messages s": round(incremental_s, 2),
            "sync with nothing new s": round(nothing_s, 2),
            "baseline: file copy s": round(copy_s, 2),
        }
        if with_import:
            import_s = _import_baseline(agent, work)
            figures["baseline: POST /import s"] = round(import_s, 2)
            figures["baseline: POST /import messages/s"] = round(total / import_s)
            figures["ratio full sync / import (time)"] = round(full_s / import_s, 2)
        return figures


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--incremental", type=int, default=1000)
    parser.add_argument("--no-import", action="store_true", help="skip the POST /import baseline")
    args = parser.parse_args()
    figures = run(LARGE, args.incremental, not args.no_import)
    print_figures("sync (500,000 messages into an empty server)", figures)


if __name__ == "__main__":
    main()
