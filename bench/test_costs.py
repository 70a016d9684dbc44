"""What the test suite pays again and again: an app started on a fresh home, and the processes it starts.

Each round, interleaved so load on the machine moves all of them alike:
- the app's lifespan on a new, empty ``HERMES_HOME`` (what the ``client`` fixture does for most tests),
  once with the home on disk (``--disk``, default the temp directory) and once in memory (``/dev/shm``,
  where ``tests/ram_tmp.py`` puts the suite's homes): wall time and this process's CPU;
- the CPU of a new interpreter importing what a live server (``app.main``) and an export render worker
  (``app.storage.sqlite.render_worker``) import, against ``python -c pass``.
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

from bench.common import TOKEN, median, print_figures

SHM = "/dev/shm"
IMPORTS = {
    "python -c pass": "pass",
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


def _import_cpu(code: str) -> float:
    before = _cpu(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).resolve().parents[1])
    return _cpu(resource.RUSAGE_CHILDREN) - before


def run(rounds: int, disk: Path) -> dict[str, float]:
    """The figures of one run (milliseconds, and ratios to the same run's baselines)."""
    starts: dict[str, list[tuple[float, float]]] = {"disk": [], "memory": []}
    imports: dict[str, list[float]] = {name: [] for name in IMPORTS}
    with tempfile.TemporaryDirectory(dir=disk) as on_disk, tempfile.TemporaryDirectory(dir=SHM) as in_ram:
        roots = {"disk": Path(on_disk), "memory": Path(in_ram)}
        _app_start(roots["memory"])  # imports and first-use caches, outside the figures
        for _ in range(rounds):
            for name, root in roots.items():
                starts[name].append(_app_start(root))
            for name, code in IMPORTS.items():
                imports[name].append(_import_cpu(code))
    figures: dict[str, float] = {}
    for name, values in starts.items():
        figures[f"app start on a fresh home, {name}: wall p50 ms"] = median([w for w, _ in values]) * 1000
        figures[f"app start on a fresh home, {name}: CPU p50 ms"] = median([c for _, c in values]) * 1000
    figures["app start wall, memory / disk"] = (
        figures["app start on a fresh home, memory: wall p50 ms"]
        / figures["app start on a fresh home, disk: wall p50 ms"]
    )
    floor = median(imports["python -c pass"])
    for name, values in imports.items():
        figures[f"{name}: CPU p50 ms"] = median(values) * 1000
        figures[f"{name}: CPU above python -c pass, ms"] = (median(values) - floor) * 1000
    figures["load average"] = os.getloadavg()[0]
    return figures


def main() -> None:
    """Run and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=15, help="rounds of each measurement, interleaved")
    parser.add_argument("--disk", type=Path, default=Path(tempfile.gettempdir()), help="a folder on disk")
    args = parser.parse_args()
    print_figures(f"Test suite costs, {args.rounds} rounds", run(args.rounds, args.disk))


if __name__ == "__main__":
    main()
