"""The agent dashboard's listing: our ``GET /api/sessions?limit=20`` against our ``GET /sessions?limit=20``
and against the agent's own 0.19.0 dashboard app (``hermes_cli.web_server`` under uvicorn), same store.

Each server runs in its own process on its own copy of the cached 50,000-session store and is asked over one
keep-alive connection by the same lean client; each figure is the median of many sequential calls after a
warm-up. Targets: ``/api/sessions`` within 1.5x of ``/sessions``, and faster than the agent's dashboard. Two
variants, as in ``list_sessions.py``:

- ``repeat``: the same call again and again on an unchanged file (ours may answer from its page memo);
- ``after-write``: before every timed call another connection commits a one-row write to the file being
  served, so nothing cached can be reused. Every server gets the same writes.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.build_store import LARGE, StoreSpec, copy_store
from bench.common import (
    TOKEN,
    bench_home,
    calls_main,
    commit_ticker,
    free_port,
    latency_ms,
    print_figures,
    serve,
    timed_gets,
    wait_until_ready,
)

PAGE = "limit=20"


@contextmanager
def agent_dashboard(home: Path) -> Iterator[int]:
    """The agent's dashboard app on ``home`` under uvicorn, with our bench token as its session token."""
    port = free_port()
    env = {**os.environ, "HERMES_HOME": str(home), "HERMES_DASHBOARD_SESSION_TOKEN": TOKEN}
    log = (home / "dashboard.log").open("wb")
    command = [sys.executable, "-m", "uvicorn", "hermes_cli.web_server:app", "--port", str(port)]
    process = subprocess.Popen([*command, "--log-level", "warning"], env=env, stdout=log, stderr=log)
    try:
        wait_until_ready(
            "the agent's dashboard",
            process,
            f"http://127.0.0.1:{port}/api/status",
            home / "dashboard.log",
            timeout_s=120,
            poll_s=0.2,
        )
        yield port
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()


def _variants(port: int, path: str, calls: int, touch: Callable[[], None]) -> dict[str, list[float]]:
    return {
        name: asyncio.run(timed_gets(port, path, calls, t))
        for name, t in (("repeat", None), ("after_write", touch))
    }


def run(calls: int = 200, spec: StoreSpec = LARGE) -> dict[str, float]:
    """Measure the three listings on copies of one store, print and return the figures."""
    timings: dict[str, dict[str, list[float]]] = {}
    with bench_home() as base:
        ours_home, agent_home = base / "ours", base / "agent"
        path = copy_store(spec, ours_home)
        agent_path = copy_store(spec, agent_home)
        with serve(ours_home) as server:
            touch = commit_ticker(path)
            timings["sessions"] = _variants(server.port, f"/sessions?{PAGE}", calls, touch)
            timings["api_sessions"] = _variants(server.port, f"/api/sessions?{PAGE}", calls, touch)
        with agent_dashboard(agent_home) as port:
            timings["agent_api_sessions"] = _variants(
                port, f"/api/sessions?{PAGE}", calls, commit_ticker(agent_path)
            )
    results: dict[str, float] = {}
    for variant in ("repeat", "after_write"):
        figures: dict[str, float] = {}
        for name, runs in timings.items():
            figures.update(latency_ms(name, runs[variant]))
        figures["api_over_sessions"] = figures["api_sessions_median_ms"] / figures["sessions_median_ms"]
        figures["agent_over_api"] = (
            figures["agent_api_sessions_median_ms"] / figures["api_sessions_median_ms"]
        )
        print_figures(
            f"dashboard listing ({PAGE}), {spec.sessions:,} sessions, {calls} calls, {variant}", figures
        )
        results.update({f"{variant}_{key}": value for key, value in figures.items()})
    return results


if __name__ == "__main__":
    calls_main(__doc__, run, 200)
