"""The bundled SQLite (``pysqlite3``) against the interpreter's own, on the append, search and export benches.

The server runs on the SQLite bundled in ``pysqlite3`` because every release before 3.51.3 has the WAL-reset
bug. This bench measures what that costs or saves: the same server, the same store copy and the same load,
once on the bundled library and once on the system one (a shim package named ``pysqlite3`` that hands out
the standard ``sqlite3`` module, first on the server's ``PYTHONPATH``), interleaved over ``--rounds``.

Per library: single-message appends from 16 clients (msgs/s, p50/p99, server CPU per message), the search
bench's discover queries (median ms), and a Markdown export of the whole store (messages/s, CPU seconds).
With ``--baseline DIR`` (another build's checkout) that build is measured on both libraries in the same
rounds, and the summary adds this build over the baseline build, per library.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.append import _run, _single_append_load
from bench.build_store import LARGE, STORES, StoreSpec, copy_store
from bench.common import ROOT, bench_home, median, percentile, print_figures, serve
from bench.export_render import server_render
from bench.search import http_times

_SHIM = {
    "pysqlite3/__init__.py": "from sqlite3 import *  # noqa: F403\n",
    "pysqlite3/dbapi2.py": "import sys\nimport sqlite3.dbapi2\n\nsys.modules[__name__] = sqlite3.dbapi2\n",
}


def _shim(root: Path) -> Path:
    for name, text in _SHIM.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def measure(
    spec: StoreSpec, pythonpath: list[Path], duration: float, calls: int, source: Path = ROOT
) -> dict[str, float]:
    """One library's figures on a fresh copy of ``spec``, served by the build at ``source``."""
    with bench_home() as home:
        copy_store(spec, home)
        with serve(home, source, pythonpath=pythonpath) as server:
            version = server.client().get("/readyz").json()["sqlite_version"]
            export = server_render(server.base_url, server.process.pid, "md")
            searches, _ = asyncio.run(http_times(server.port, calls))
            load = _single_append_load([server.port], [server.process.pid], duration, warmup=1.0)
            counted, elapsed, latencies, cpu = _run(load)
    figures: dict[str, Any] = {
        "sqlite": version,
        "append_msgs_per_s": counted / elapsed,
        "append_p50_ms": percentile(latencies, 50) * 1000,
        "append_p99_ms": percentile(latencies, 99) * 1000,
        "append_cpu_ms_per_msg": cpu / counted * 1000,
        "search_median_ms": median(list(searches.values())) * 1000,
        "export_md_seconds": export["seconds"],
        "export_md_cpu_seconds": export["cpu_seconds"],
    }
    return figures


_RATIOS = ("append_msgs_per_s", "append_p99_ms", "append_cpu_ms_per_msg", "search_median_ms")
_TIMES = ("export_md_seconds", "export_md_cpu_seconds")


def _over(results: dict[str, list[dict[str, float]]], top: str, bottom: str) -> dict[str, float]:
    """Medians of ``top``'s and ``bottom``'s figures, and ``top`` over ``bottom``."""
    out: dict[str, float] = {}
    for key in _RATIOS + _TIMES:
        above = median([r[key] for r in results[top]])
        below = median([r[key] for r in results[bottom]])
        if key in _RATIOS:
            out[f"{key} {top}"] = above
            out[f"{key} {bottom}"] = below
        out[f"{key} {top} over {bottom}"] = above / below
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", default=LARGE.name, choices=sorted(STORES))
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--duration", type=float, default=8.0)
    parser.add_argument("--calls", type=int, default=5)
    parser.add_argument("--baseline", type=Path, help="another build's checkout, measured too")
    args = parser.parse_args()
    spec = STORES[args.store]
    builds = {"": ROOT, **({"baseline ": args.baseline.resolve()} if args.baseline else {})}
    results: dict[str, list[dict[str, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="sqlite-shim-") as tmp:
        libraries = {"bundled": [], "system": [_shim(Path(tmp))]}
        for round_no in range(1, args.rounds + 1):
            for library, pythonpath in libraries.items():
                for build, source in builds.items():
                    figures = measure(spec, pythonpath, args.duration, args.calls, source)
                    results.setdefault(f"{build}{library}", []).append(figures)
                    print_figures(f"{build}{library} SQLite, {spec.name}, round {round_no}", figures)
    for build in builds:
        print_figures(
            f"{build}bundled over {build}system SQLite, medians of {args.rounds} rounds",
            _over(results, f"{build}bundled", f"{build}system"),
        )
    if args.baseline:
        for library in libraries:
            print_figures(
                f"this build over the baseline build, {library} SQLite, medians of {args.rounds} rounds",
                _over(results, library, f"baseline {library}"),
            )


if __name__ == "__main__":
    main()
