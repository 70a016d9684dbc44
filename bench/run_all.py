"""Run every benchmark and print one table of figures, baselines and ratios against the targets.

Each script measures its baseline in the same run (the agent's ``SessionDB`` or raw ``sqlite3`` on a copy of
the same store), so the ratios hold on any machine even when the absolute numbers do not.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import append, list_sessions
from bench.build_store import LARGE, SMALL, ensure


def _row(name: str, ours: str, baseline: str, ratio: float, target: str, met: bool) -> str:
    return f"| {name} | {ours} | {baseline} | {ratio:.2f}x | {target} | {'yes' if met else 'NO'} |"


def main() -> None:
    """Build the stores if needed, run the benchmarks, print the Markdown summary table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--duration", type=float, default=8.0, help="seconds of load per server run")
    args = parser.parse_args()
    started = time.perf_counter()
    for spec in (SMALL, LARGE):
        ensure(spec)
    a = append.run(args.duration)
    ls = list_sessions.run()
    load = os.getloadavg()[0]
    rows = [
        "| benchmark | hermes-sessions | baseline (same run) | ratio | target | met |",
        "|---|---|---|---|---|---|",
        _row(
            f"single appends, 16 clients, {LARGE.messages:,} stored",
            f"{a['server_msgs_per_s']:,.0f} msg/s ({a['server_cpu_ms_per_msg']:.2f} ms CPU/msg)",
            f"{a['agent_steady_msgs_per_s']:,.0f} msg/s steady, {a['agent_msgs_per_s']:,.0f} with its FTS "
            f"optimize ({a['agent_steady_cpu_ms_per_msg']:.2f} / {a['agent_cpu_ms_per_msg']:.2f} ms CPU/msg)",
            a["server_vs_agent_measured"],
            f">= 10x (measured rate; {a['server_vs_agent']:.2f}x between its optimizes)",
            a["server_vs_agent_measured"] >= 10,
        ),
        _row(
            "single append p99",
            f"{a['server_p99_ms']:.1f} ms (p50 {a['server_p50_ms']:.1f} ms)",
            f"{a['agent_p99_ms']:.1f} ms (agent, 1 caller); raw sqlite3 16-message transaction "
            f"p99 {a['floor_txn_p99_ms']:.1f} ms (p50 {a['floor_txn_p50_ms']:.1f})",
            a["server_p99_ms"] / 25,
            "<= 25 ms",
            a["server_p99_ms"] <= 25,
        ),
        _row(
            f"p99 at {LARGE.messages:,} vs {SMALL.messages:,} stored",
            f"{a['server_p99_ms']:.1f} ms",
            f"{a['small_p99_ms']:.1f} ms",
            a["p99_large_over_small"],
            "<= 2x",
            a["p99_large_over_small"] <= 2,
        ),
        _row(
            "batch append, 1000 per request",
            f"{a['batch_msgs_per_s']:,.0f} msg/s",
            f"{a['raw_msgs_per_s']:,.0f} msg/s (raw executemany)",
            a["batch_vs_raw"],
            ">= 0.5x",
            a["batch_vs_raw"] >= 0.5,
        ),
        _row(
            f"GET /sessions?limit=20, {LARGE.sessions:,} sessions, repeated (median)",
            f"{ls['repeat_http_median_ms']:.2f} ms",
            f"{ls['repeat_agent_median_ms']:.2f} ms (list_sessions_rich)",
            ls["repeat_http_over_agent"],
            "<= 2x",
            ls["repeat_http_over_agent"] <= 2,
        ),
        _row(
            "same, each call after another connection's commit (median)",
            f"{ls['after_write_http_median_ms']:.2f} ms",
            f"{ls['after_write_agent_median_ms']:.2f} ms (list_sessions_rich)",
            ls["after_write_http_over_agent"],
            "<= 2x",
            ls["after_write_http_over_agent"] <= 2,
        ),
    ]
    print("\n" + "\n".join(rows))
    print(f"\n(total {time.perf_counter() - started:.0f} s; 1-minute load average at the end {load:.1f})")


if __name__ == "__main__":
    main()
