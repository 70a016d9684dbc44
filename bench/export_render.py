"""Readable exports: Markdown and HTML of the bench store, ours against the agent's renderers, same run.

Ours: ``GET /export?format=md`` (one Markdown document) and ``GET /export?format=html`` (one page) from
``hermes serve`` on a copy of the store, read over loopback, with the server's anonymous RSS sampled
(target: growth <= 64 MB). The agent's: what ``hermes sessions export`` does for the same sessions, in
batches so the baseline fits in memory (the agent itself holds the whole export at once, which is only
slower): ``SessionDB.export_session`` for each session, then ``render_sessions_export(fmt="markdown")``
and ``generate_multi_session_html_export`` over the batch. Throughput is messages per second (target:
ours >= 3x the agent's). Figures and ratios are printed, never asserted; run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.build_store import LARGE, SMALL, StoreSpec, copy_store
from bench.common import TOKEN, bench_home, print_figures, serve
from bench.lifecycle import RssSampler

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
    db.close()
    return {"messages": messages, "bytes": size, "seconds": elapsed}


def server_render(base_url: str, pid: int, fmt: str) -> dict[str, float]:
    """``GET /export?format=fmt`` read to the end: bytes, seconds and the server's RSS growth."""
    size = 0
    with httpx.Client(timeout=None) as http, RssSampler(pid) as rss:
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
    return {
        "bytes": size,
        "seconds": elapsed,
        "rss_growth_mb": (rss.peak_kib - rss.start_kib) / 1024,
        "rss_file_growth_mb": (rss.file_peak_kib - rss.file_start_kib) / 1024,
    }


def run(spec: StoreSpec) -> dict[str, dict[str, float]]:
    """Both formats on ``spec``: ours and the agent's, with ratios."""
    results: dict[str, dict[str, float]] = {}
    with bench_home() as home:
        path = copy_store(spec, home)
        ids = _ids(path, None)
        with sqlite3.connect(path) as conn:
            (total,) = conn.execute("SELECT COUNT(*) FROM messages WHERE active = 1").fetchone()
        with serve(home) as server:
            for fmt in ("md", "html"):
                ours = server_render(server.base_url, server.process.pid, fmt)
                theirs = agent_render(path, ids, fmt)
                ours_rate = total / ours["seconds"]
                theirs_rate = theirs["messages"] / theirs["seconds"]
                results[fmt] = {
                    "sessions": float(len(ids)),
                    "messages": float(total),
                    "ours_messages_per_s": ours_rate,
                    "ours_mb_per_s": ours["bytes"] / ours["seconds"] / 1e6,
                    "ours_seconds": ours["seconds"],
                    "agent_messages_per_s": theirs_rate,
                    "agent_mb_per_s": theirs["bytes"] / theirs["seconds"] / 1e6,
                    "agent_seconds": theirs["seconds"],
                    "ratio": ours_rate / theirs_rate,
                    "rss_growth_mb": ours["rss_growth_mb"],
                    "rss_file_growth_mb": ours["rss_file_growth_mb"],
                }
    return results


def main() -> None:
    """Run and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--store", choices=[SMALL.name, LARGE.name], default=LARGE.name)
    args = parser.parse_args()
    spec = LARGE if args.store == LARGE.name else SMALL
    for fmt, figures in run(spec).items():
        print_figures(f"{fmt} export of {spec.name} (target: ratio >= 3x, RSS growth <= 64 MB)", figures)


if __name__ == "__main__":
    main()
