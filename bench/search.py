"""Search: HTTP ``GET /search`` (discover: limit 3, window 5, bookends 3) against the agent's in-process
``SessionDB.search_messages(q, limit=50)`` on the same file.

The store is the cached 500,000-message multilingual store (``bench/build_store.py``); both programs read
the same copy in the same run. Each figure is the median of sequential calls after a warm-up. Targets
(issue 3): our median across the queries no slower than the agent's; no query over 2x the agent's time for
it; two-character CJK terms at least 10x faster; a term in more than 10% of all messages under 5x the time
of the rare-term query. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.build_store import LARGE, StoreSpec, copy_store
from bench.common import LeanClient, bench_home, median, print_figures, serve

RARE = "docker"
COMMON = "the"
QUERIES = (
    RARE,
    COMMON,
    "python",
    "memory",
    "configuration",
    '"pull request"',
    "deploy*",
    "api OR http",
    "python install",
    "python NOT install",
    "文件",  # two-character Chinese: no FTS5 index can serve it
    "光标",
    "屏幕文本",  # four-character Chinese: trigram index
    "可以使用",
)
TWO_CHAR_CJK = ("文件", "光标")
WARMUP = 2


def match_counts(path: Path) -> dict[str, int]:
    """Messages each query matches (FTS5 count, or substring count for the CJK terms)."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    counts = {}
    for q in QUERIES:
        if any("\u4e00" <= ch <= "\u9fff" for ch in q):
            sql = "SELECT COUNT(*) FROM messages WHERE instr(content, ?)"
        else:
            sql = "SELECT COUNT(*) FROM messages_fts WHERE messages_fts MATCH ?"
        counts[q] = int(conn.execute(sql, (q,)).fetchone()[0])
    conn.close()
    return counts


def agent_times(path: Path, calls: int) -> dict[str, float]:
    """Median seconds per ``search_messages(q, limit=50)`` call, in this process."""
    from hermes_state import SessionDB

    db = SessionDB(db_path=path)
    times: dict[str, float] = {}
    try:
        for q in QUERIES:
            samples = []
            for i in range(WARMUP + calls):
                started = time.perf_counter()
                db.search_messages(q, limit=50)
                if i >= WARMUP:
                    samples.append(time.perf_counter() - started)
            times[q] = median(samples)
    finally:
        db.close()
    return times


async def http_times(port: int, calls: int) -> tuple[dict[str, float], dict[str, int]]:
    """Median seconds per discover call over HTTP, and the sessions each call returned."""
    client = await LeanClient(port).connect()
    times: dict[str, float] = {}
    found: dict[str, int] = {}
    try:
        for q in QUERIES:
            path = "/search?" + urlencode({"q": q, "limit": 3, "window": 5})
            samples = []
            for i in range(WARMUP + calls):
                started = time.perf_counter()
                status, body = await client.request("GET", path)
                if i >= WARMUP:
                    samples.append(time.perf_counter() - started)
                if status != 200:
                    raise RuntimeError(f"{q!r}: HTTP {status}: {body[:200]!r}")
                found[q] = body.count(b'"match_message_id"')
            times[q] = median(samples)
    finally:
        client.close()
    return times, found


def run(calls: int = 10, spec: StoreSpec = LARGE) -> dict[str, float]:
    """Measure every query both ways on one copy of the store; print and return the figures."""
    with bench_home() as home:
        path = copy_store(spec, home)
        counts = match_counts(path)
        agent = agent_times(path, calls)
        with serve(home) as server:
            ours, found = asyncio.run(http_times(server.port, calls))
    total = spec.messages
    for q in QUERIES:
        print_figures(
            f"discover {q!r}: {counts[q]:,} matching messages ({counts[q] / total:.1%})",
            {
                "http_ms": ours[q] * 1000,
                "agent_ms": agent[q] * 1000,
                "http_over_agent": ours[q] / agent[q],
                "sessions_returned": found[q],
            },
        )
    summary = {
        "http_median_ms": median(list(ours.values())) * 1000,
        "agent_median_ms": median(list(agent.values())) * 1000,
        "worst_http_over_agent": max(ours[q] / agent[q] for q in QUERIES),
        "two_char_cjk_min_speedup": min(agent[q] / ours[q] for q in TWO_CHAR_CJK),
        "common_over_rare": ours[COMMON] / ours[RARE],
    }
    summary["median_http_over_agent"] = summary["http_median_ms"] / summary["agent_median_ms"]
    print_figures(f"search summary ({total:,} messages, {len(QUERIES)} queries, {calls} calls each)", summary)
    print(
        "  targets: median_http_over_agent <= 1, worst_http_over_agent <= 2,"
        " two_char_cjk_min_speedup >= 10, common_over_rare < 5"
    )
    return summary


def main() -> None:
    """Command line: ``python bench/search.py [--calls N] [--store s10k|s500k]``."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--calls", type=int, default=10)
    parser.add_argument("--store", default=LARGE.name, help="cached store name (s500k is the 200k+ store)")
    args = parser.parse_args()
    from bench.build_store import SMALL

    spec = {SMALL.name: SMALL, LARGE.name: LARGE}[args.store]
    run(args.calls, spec)


if __name__ == "__main__":
    main()
