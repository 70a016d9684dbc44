"""Two builds' cost per request measured in process: export on SQLite, single appends on PostgreSQL.

``bench/compare_builds.py`` times real servers; on a loaded 2-core machine a 5 % difference can drown in
its rounds' spread (the appends' grouping, for one, follows the timing). Here each build's app runs in a
probe process of its own (``bench/request_probe.py``) and is called straight over ASGI, with no client
process and no sockets, in interleaved slices (the order alternating), and the figures include two that
load cannot move: Python function calls per request (``cProfile`` on every thread) and SQL statements per
request. The CPU time per request is still printed, as the median of the slices' after/before ratios.

``--phase export``: ``GET /export.jsonl?session_id=...`` of the store's mid-sized sessions (as
compare_builds), SQLite (render workers on, as served; their CPU is shown apart). ``--phase append``:
single-message appends from ``--clients`` concurrent callers, PostgreSQL (``--sqlite`` for SQLite).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.append import turns
from bench.build_store import LARGE, SMALL
from bench.common import bench_home, wait_until_indexed
from bench.compare_builds import BASELINE, WORKTREE, Build, build_store, checkout, exported_sessions
from tests.pg_cluster import start_cluster

PROBE = Path(__file__).resolve().with_name("request_probe.py")


class Probe:
    """One build's app in a probe process."""

    def __init__(self, build: Build, config: dict[str, Any], home: Path) -> None:
        self.build = build
        path = home / "probe.json"
        path.write_text(json.dumps(config))
        env = {**os.environ, "PYTHONPATH": str(build.source)}
        self.log = (home / "probe.log").open("wb")
        self.process = subprocess.Popen(
            [sys.executable, str(PROBE), str(path)],
            env=env,
            cwd=build.source,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
        )
        self.home = home
        self._answer()

    def _answer(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"{self.build.label} probe died: see {self.home / 'probe.log'}")
        return cast(dict[str, Any], json.loads(line))

    def ask(self, **command: Any) -> dict[str, Any]:
        """Run one slice in the probe and return what it measured."""
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()
        return self._answer()

    def close(self) -> None:
        """End the probe (its app's lifespan ends with its stdin)."""
        if self.process.stdin is not None and not self.process.stdin.closed:
            self.process.stdin.close()
        self.process.wait(timeout=60)
        self.log.close()


def _ratio_line(name: str, a: float, b: float, scale: float = 1.0, unit: str = "") -> str:
    ratio = b / a if a else float("nan")
    return f"  {name:<34} {a * scale:12.3f} {b * scale:12.3f} {unit:<4} ratio {ratio:6.3f}"


def run(args: argparse.Namespace) -> None:
    """Start both probes, run the slices, print the figures and the summary."""
    before, after = checkout(args.baseline), checkout(args.after)
    spec = {SMALL.name: SMALL, LARGE.name: LARGE}[args.store]
    postgresql = args.phase == "append" and not args.sqlite
    print(f"before: {before.label}\nafter:  {after.label}")
    print(f"phase: {args.phase} on {'PostgreSQL' if postgresql else 'SQLite'}; load {os.getloadavg()}")
    store = build_store(before, spec)
    base_config: dict[str, Any] = {}
    if args.phase == "export":
        base_config["export_sessions"] = exported_sessions(store)
        command: dict[str, Any] = {"op": "export", "calls": args.calls}
    else:
        base_config["bodies"] = [json.dumps(t) for t in turns(4000, seed=23)]
        command = {"op": "append", "calls": args.calls, "clients": args.clients}
    with ExitStack() as stack:
        cluster = start_cluster() if postgresql else None
        if cluster is not None:
            stack.callback(cluster.stop)

        def start(build: Build, profile: bool) -> Probe:
            home = stack.enter_context(bench_home())
            config = {**base_config, "home": str(home), "profile": profile}
            if cluster is not None:
                config["database_url"] = cluster.create_database("probe")
            else:
                shutil.copyfile(store, home / "state.db")
            probe = Probe(build, config, home)
            stack.callback(probe.close)
            if cluster is None:
                wait_until_indexed(home / "state.db")
            # Warm-up: caches, prepared statements, the render workers' start.
            probe.ask(**{**command, "calls": max(command.get("clients", 1), args.calls // 4)})
            return probe

        probes = [start(build, profile=False) for build in (before, after)]
        samples: dict[str, list[dict[str, Any]]] = {p.build.label: [] for p in probes}
        for index in range(args.slices):
            order = probes if index % 2 == 0 else probes[::-1]
            for probe in order:
                samples[probe.build.label].append(probe.ask(**command))
            a, b = (samples[p.build.label][-1] for p in probes)
            print(
                f"slice {index + 1:3}: CPU ms/req {a['cpu_s'] * 1000:8.3f} {b['cpu_s'] * 1000:8.3f}"
                f" ratio {b['cpu_s'] / a['cpu_s']:6.3f}   load {os.getloadavg()[0]:.1f}",
                flush=True,
            )
        for probe in probes:
            probe.close()
        # Counting calls slows every thread down: separate probes, one slice each.
        profiled = [start(build, profile=True).ask(**command) for build in (before, after)]
    a_runs, b_runs = (samples[p.build.label] for p in probes)
    ratios = [y["cpu_s"] / x["cpu_s"] for x, y in zip(a_runs, b_runs, strict=True)]
    print(f"\n== summary over {args.slices} slices of {args.calls} requests (before, after)")
    for key, scale, unit in (
        ("cpu_s", 1000, "ms"),
        ("children_cpu_s", 1000, "ms"),
        ("wall_s", 1000, "ms"),
        ("statements", 1, ""),
        ("bytes", 1, "B"),
        ("gc_s", 1e6, "us"),
        ("gc_full_runs", 1, ""),
        ("gc_oldest_objects", 1, ""),
    ):
        x = statistics.median(s[key] for s in a_runs)
        y = statistics.median(s[key] for s in b_runs)
        if x or y:
            print(_ratio_line(f"{key} (median)", x, y, scale, unit))
    print(
        f"  CPU ratio, median of slices' ratios  {statistics.median(ratios):.3f}"
        f"  (quartiles {' '.join(f'{q:.3f}' for q in statistics.quantiles(ratios, n=4))})"
    )
    pa, pb = profiled
    print(_ratio_line("Python calls per request (profiled)", pa["calls"], pb["calls"]))
    print(_ratio_line("statements per request (profiled)", pa["statements"], pb["statements"]))
    if args.top:
        sql_a, sql_b = profiled[0]["sql"], profiled[1]["sql"]
        print("\n  SQL statements per request that differ (before, after):")
        for text in sorted(set(sql_a) | set(sql_b)):
            if sql_a.get(text) != sql_b.get(text):
                print(f"    {sql_a.get(text, 0):6.2f} {sql_b.get(text, 0):6.2f}  {text[:200]}")
        fa, fb = profiled[0]["functions"], profiled[1]["functions"]
        for pairs in (False, True):
            names = [n for n in set(fa) | set(fb) if (" -> " in n) == pairs]
            moved = sorted(names, key=lambda n: abs(fb.get(n, 0) - fa.get(n, 0)), reverse=True)
            print(
                f"\n  Python calls per request that differ most, {'by caller' if pairs else 'by function'}:"
            )
            for name in moved[: args.top]:
                print(f"    {fa.get(name, 0):9.2f} {fb.get(name, 0):9.2f}  {name}")
    print(f"\n(1-minute load average at the end {os.getloadavg()[0]:.1f})")


def main() -> None:
    """Command line."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--phase", choices=["export", "append"], required=True)
    parser.add_argument("--baseline", default=BASELINE, help="the older build (a git ref)")
    parser.add_argument("--after", default=WORKTREE, help="the newer build: a git ref, or this worktree")
    parser.add_argument("--store", default=SMALL.name, choices=[SMALL.name, LARGE.name])
    parser.add_argument("--slices", type=int, default=10)
    parser.add_argument("--calls", type=int, default=200, help="requests per slice")
    parser.add_argument("--clients", type=int, default=16, help="concurrent appends")
    parser.add_argument("--sqlite", action="store_true", help="appends on SQLite instead of PostgreSQL")
    parser.add_argument("--top", type=int, default=0, help="print the N most called functions per build")
    run(parser.parse_args())


if __name__ == "__main__":
    main()
