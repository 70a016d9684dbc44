"""How long the ``hermes-sessions`` CLI takes to start and answer, against the bare interpreter's start-up.

Each round runs, one after the other: ``python -c pass`` (the floor any Python CLI pays), ``hermes-sessions
--version`` (start-up alone: no request) and ``hermes-sessions sessions list`` against a running server on
a store of ``--sessions`` sessions. Rounds interleave the commands, so load on the machine moves all of them
alike; the figures are wall-clock p50 and p90 over the rounds and each p50's ratio to the interpreter's.
Targets: ``--version`` p50 under 0.3 s, ``sessions list`` p50 under 0.5 s.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import TOKEN, bench_home, median, percentile, print_figures, serve

CLI = str(Path(sys.executable).with_name("hermes-sessions"))


def _timed(argv: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def run(rounds: int, sessions: int) -> dict[str, float]:
    """The figures of one run (milliseconds, and ratios to ``python -c pass``)."""
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "hermes-sessions --version": [CLI, "--version"],
        "hermes-sessions sessions list": [CLI, "sessions", "list"],
    }
    with bench_home() as home, serve(home) as server:
        with server.client() as http:
            for n in range(sessions):
                sid = http.post("/sessions", json={"source": "cli", "title": f"bench session {n}"}).json()[
                    "id"
                ]
                http.post(f"/sessions/{sid}/messages", json={"role": "user", "content": f"question {n}"})
        env = {
            **os.environ,
            "HERMES_HOME": str(home),
            "HERMES_URL": server.base_url,
            "HERMES_API_TOKEN": TOKEN,
        }
        times: dict[str, list[float]] = {name: [] for name in commands}
        for argv in commands.values():
            _timed(argv, env)  # warm the page cache and the server's first connection
        for _ in range(rounds):
            for name, argv in commands.items():
                times[name].append(_timed(argv, env))
    floor = median(times["python -c pass"])
    figures: dict[str, float] = {}
    for name, values in times.items():
        figures[f"{name} p50 ms"] = median(values) * 1000
        figures[f"{name} p90 ms"] = percentile(values, 90) * 1000
        figures[f"{name} p50 / python -c pass"] = median(values) / floor
    figures["load average"] = os.getloadavg()[0]
    return figures


def main() -> None:
    """Run and print the figures, with the targets met or not."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=20, help="runs of each command, interleaved")
    parser.add_argument("--sessions", type=int, default=200, help="sessions in the served store")
    args = parser.parse_args()
    figures = run(args.rounds, args.sessions)
    print_figures(f"CLI start-up, {args.rounds} rounds, {args.sessions} sessions served", figures)
    version = figures["hermes-sessions --version p50 ms"]
    listing = figures["hermes-sessions sessions list p50 ms"]
    print(f"  target --version p50 < 300 ms: {'yes' if version < 300 else 'NO'}")
    print(f"  target sessions list p50 < 500 ms: {'yes' if listing < 500 else 'NO'}")


if __name__ == "__main__":
    main()
