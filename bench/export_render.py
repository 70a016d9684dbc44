"""Readable exports: Markdown and HTML of the bench store, ours against the agent's renderers, same run.

Ours: ``GET /export?format=md`` (one Markdown document) and ``GET /export?format=html`` (one page) from
``hermes serve`` on a copy of the store, read over loopback, with the server's anonymous RSS sampled
(target: growth <= 64 MB). The agent's: what ``hermes sessions export`` does for the same sessions, in
batches so the baseline fits in memory (the agent itself holds the whole export at once, which is only
slower): ``SessionDB.export_session`` for each session, then ``render_sessions_export(fmt="markdown")``
and ``generate_multi_session_html_export`` over the batch. Throughput is messages per second (target:
ours >= 3x the agent's), as a ratio of wall time and of CPU time (the server's processes against the
agent's, which runs in this process). Each run does both formats, ours then the agent's, and the runs are
interleaved so a change in the machine's load hits both sides alike. Figures and ratios are printed, never
asserted.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.build_store import LARGE, SMALL, StoreSpec, copy_store
from bench.common import TOKEN, bench_home, print_figures, process_cpu_seconds, serve
from bench.lifecycle import RssSampler, _descendants

AGENT_BATCH = 500


def _ids(path: Path, limit: int | None) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        sql = "SELECT id FROM sessions ORDER BY id" + ("" if limit is None else f" LIMIT {int(limit)}")
        return [row[0] for row in conn.execute(sql)]
    finally:
        conn.close()


def agent_render(path: Path, ids: list[str], fmt: str) -> dict[str, float]:
    """The agent's loading and rendering of ``ids``: messages, bytes and seconds."""
    from hermes_cli.session_export import render_sessions_export
    from hermes_cli.session_export_html import generate_multi_session_html_export
    from hermes_state import SessionDB

    db = SessionDB(db_path=path)
    messages = size = 0
    cpu = time.process_time()
    started = time.perf_counter()
    for start in range(0, len(ids), AGENT_BATCH):
        batch = [s for s in (db.export_session(sid) for sid in ids[start : start + AGENT_BATCH]) if s]
        messages += sum(len(s["messages"]) for s in batch)
        if fmt == "md":
            text = render_sessions_export(batch, fmt="markdown")
        else:
            text = generate_multi_session_html_export(batch)
        size += len(text.encode())
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu
    db.close()
    return {"messages": messages, "bytes": size, "seconds": elapsed, "cpu_seconds": cpu}


def _server_cpu(pid: int) -> float:
    # The server and its children (render workers, if any are running).
    return sum(process_cpu_seconds(p) for p in (pid, *_descendants(pid)))


def server_render(base_url: str, pid: int, fmt: str) -> dict[str, float]:
    """``GET /export?format=fmt`` read to the end: bytes, seconds and the server's RSS growth."""
    size = 0
    with httpx.Client(timeout=None) as http, RssSampler(pid) as rss:
        cpu = _server_cpu(pid)
        started = time.perf_counter()
        with http.stream(
            "GET",
            f"{base_url}/export",
            params={"format": fmt},
            headers={"Authorization": f"Bearer {TOKEN}"},
        ) as resp:
            resp.raise_for_status()
            for chunk in resp.iter_raw(1 << 20):
                size += len(chunk)
        elapsed = time.perf_counter() - started
        cpu = _server_cpu(pid) - cpu
    return {
        "bytes": size,
        "seconds": elapsed,
        "cpu_seconds": cpu,
        "rss_growth_mb": (rss.peak_kib - rss.start_kib) / 1024,
        "rss_file_growth_mb": (rss.file_peak_kib - rss.file_start_kib) / 1024,
    }


def run(spec: StoreSpec, runs: int) -> list[tuple[str, dict[str, float]]]:
    """``runs`` rounds of both formats on ``spec``, ours then the agent's each time: figures and ratios."""
    results: list[tuple[str, dict[str, float]]] = []
    with bench_home() as home:
        path = copy_store(spec, home)
        ids = _ids(path, None)
        with sqlite3.connect(path) as conn:
            (total,) = conn.execute("SELECT COUNT(*) FROM messages WHERE active = 1").fetchone()
        with serve(home) as server:
            for round_no in range(1, runs + 1):
                for fmt in ("md", "html"):
                    ours = server_render(server.base_url, server.process.pid, fmt)
                    theirs = agent_render(path, ids, fmt)
                    ours_rate = total / ours["seconds"]
                    theirs_rate = theirs["messages"] / theirs["seconds"]
                    figures = {
                        "sessions": float(len(ids)),
                        "messages": float(total),
                        "load_average_1m": os.getloadavg()[0],
                        "ours_messages_per_s": ours_rate,
                        "ours_mb_per_s": ours["bytes"] / ours["seconds"] / 1e6,
                        "ours_seconds": ours["seconds"],
                        "ours_cpu_seconds": ours["cpu_seconds"],
                        "agent_messages_per_s": theirs_rate,
                        "agent_mb_per_s": theirs["bytes"] / theirs["seconds"] / 1e6,
                        "agent_seconds": theirs["seconds"],
                        "agent_cpu_seconds": theirs["cpu_seconds"],
                        "ratio_wall": ours_rate / theirs_rate,
                        "ratio_cpu": (theirs["cpu_seconds"] / theirs["messages"])
                        / (ours["cpu_seconds"] / total),
                        "rss_growth_mb": ours["rss_growth_mb"],
                        "rss_file_growth_mb": ours["rss_file_growth_mb"],
                    }
                    title = f"{fmt} export of {spec.name}, run {round_no}"
                    results.append((title, figures))
                    print_figures(f"{title} (target: ratio >= 3x, RSS growth <= 64 MB)", figures)
    return results


def main() -> None:
    """Run and print the figures, then each format's ratios over the runs."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--store", choices=[SMALL.name, LARGE.name], default=LARGE.name)
    parser.add_argument("--runs", type=int, default=3, help="interleaved rounds of both formats")
    args = parser.parse_args()
    spec = LARGE if args.store == LARGE.name else SMALL
    results = run(spec, args.runs)
    for fmt in ("md", "html"):
        rows = [figures for title, figures in results if title.startswith(fmt + " ")]
        summary = {
            "ratio_wall": ", ".join(f"{f['ratio_wall']:.2f}x" for f in rows),
            "ratio_cpu": ", ".join(f"{f['ratio_cpu']:.2f}x" for f in rows),
            "rss_growth_mb": ", ".join(f"{f['rss_growth_mb']:.0f}" for f in rows),
            "load_average_1m": ", ".join(f"{f['load_average_1m']:.1f}" for f in rows),
        }
        print_figures(f"{fmt} export of {spec.name}: every run", summary)


if __name__ == "__main__":
    main()
