"""What the test suite pays again and again: an app started on a fresh home, and the processes it starts.

Each round, interleaved so load on the machine moves all of them alike:
- the app's lifespan on a new, empty ``HERMES_HOME`` (what the ``client`` fixture does for most tests),
  once with the home on disk (``--disk``, default the temp directory) and once in memory (``/dev/shm``,
  where ``tests/ram_tmp.py`` puts the suite's homes): wall time and this process's CPU;
- the CPU and wall time of a new interpreter importing what a live server (``app.main``) and an export render
  worker (``app.storage.sqlite.render_worker``) import, against ``python -c pass``; with ``--baseline REF``,
  the same imports from that commit's tree too (extracted as ``bench/compare_builds.py`` does, run with this
  virtualenv), the two builds' order alternating between rounds.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import ROOT, TOKEN, median, print_figures
from bench.compare_builds import Build, checkout

SHM = "/dev/shm"
BARE = "python -c pass"
IMPORTS = {
    "import app.main": "import app.main",
    "import render_worker": "import app.storage.sqlite.render_worker",
}


def _cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def _app_start(parent: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one lifespan (start and stop) on a new home under ``parent``."""
    from app.main import create_app
    from app.settings import Settings

    home = Path(tempfile.mkdtemp(dir=parent))
    app = create_app(Settings(home=home, api_token=TOKEN, titles_auto=False))

    async def cycle() -> None:
        async with app.router.lifespan_context(app):
            pass

    wall, cpu = time.perf_counter(), _cpu(resource.RUSAGE_SELF)
    asyncio.run(cycle())
    return time.perf_counter() - wall, _cpu(resource.RUSAGE_SELF) - cpu


def _import_cost(code: str, source: Path) -> tuple[float, float]:
    """Wall and CPU seconds of a new interpreter running ``code`` on ``source``'s tree."""
    env = {**os.environ, "PYTHONPATH": str(source)}
    wall, before = time.perf_counter(), _cpu(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", code], check=True, cwd=source, env=env)
    return time.perf_counter() - wall, _cpu(resource.RUSAGE_CHILDREN) - before


def _measured(builds: list[Build]) -> list[tuple[str, str, Build]]:
    """(figure name, code, build) of each import measured: the bare interpreter once, the rest per build."""
    return [(BARE, "pass", builds[0])] + [
        (f"{name}, {build.label}" if build.label else name, code, build)
        for build in builds
        for name, code in IMPORTS.items()
    ]


def run(rounds: int, disk: Path, baseline: Build | None) -> dict[str, float]:
    """The figures of one run (milliseconds, and ratios to the same run's baselines)."""
    starts: dict[str, list[tuple[float, float]]] = {"disk": [], "memory": []}
    builds = [Build("", ROOT)] if baseline is None else [Build("", ROOT), baseline]
    imports: dict[str, list[tuple[float, float]]] = {name: [] for name, _, _ in _measured(builds)}
    with tempfile.TemporaryDirectory(dir=disk) as on_disk, tempfile.TemporaryDirectory(dir=SHM) as in_ram:
        roots = {"disk": Path(on_disk), "memory": Path(in_ram)}
        _app_start(roots["memory"])  # imports and first-use caches, outside the figures
        for round_ in range(rounds):
            for name, root in roots.items():
                starts[name].append(_app_start(root))
            measured = _measured(builds if round_ % 2 == 0 else builds[::-1])
            for name, code, build in measured:
                imports[name].append(_import_cost(code, build.source))
    figures: dict[str, float] = {}
    for name, values in starts.items():
        figures[f"app start on a fresh home, {name}: wall p50 ms"] = median([w for w, _ in values]) * 1000
        figures[f"app start on a fresh home, {name}: CPU p50 ms"] = median([c for _, c in values]) * 1000
    figures["app start wall, memory / disk"] = (
        figures["app start on a fresh home, memory: wall p50 ms"]
        / figures["app start on a fresh home, disk: wall p50 ms"]
    )
    floor = median([c for _, c in imports[BARE]])
    for name, values in imports.items():
        figures[f"{name}: wall p50 ms"] = median([w for w, _ in values]) * 1000
        figures[f"{name}: CPU p50 ms"] = median([c for _, c in values]) * 1000
        figures[f"{name}: CPU above python -c pass, ms"] = figures[f"{name}: CPU p50 ms"] - floor * 1000
    figures["load average"] = os.getloadavg()[0]
    return figures


def main() -> None:
    """Run and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=15, help="rounds of each measurement, interleaved")
    parser.add_argument("--disk", type=Path, default=Path(tempfile.gettempdir()), help="a folder on disk")
    parser.add_argument("--baseline", help="a git ref whose imports are measured too, in the same rounds")
    args = parser.parse_args()
    baseline = None if args.baseline is None else checkout(args.baseline)
    print_figures(f"Test suite costs, {args.rounds} rounds", run(args.rounds, args.disk, baseline))


if __name__ == "__main__":
    main()
