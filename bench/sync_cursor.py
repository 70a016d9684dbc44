"""The sync cursor's writes over a first sync: what `hermes sessions sync` spends recording answers.

A first sync of the 500,000-message file acknowledges 250 batches of 2,000 messages, each carrying the rows
of the 200 sessions whose first messages it holds; after each one the client saves its cursor (the position
and the session digests, each fsynced) on the lane's thread, under the lanes' lock. This replays those saves
alone, with digests of the real length, and prints their CPU and wall time, and the bytes written under
``$HERMES_HOME/sync/``. ``--baseline DIR`` (a checkout of another build) replays them with that build's
cursor too, in the same run, for the ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

if "--child" not in sys.argv:  # a child imports ``app`` from the build it measures (its PYTHONPATH)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ROOT = Path(__file__).resolve().parents[1]


def _bytes_written() -> int:
    # Bytes this process handed to write() so far (Linux /proc), whatever file they went to.
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("wchar:"):
            return int(line.split()[1])
    raise RuntimeError("no wchar in /proc/self/io")


def _replay(batches: int, per_batch: int) -> dict[str, float]:
    """Save a cursor after each of ``batches`` batches carrying ``per_batch`` new sessions (this process's
    ``app``); the figures."""
    import app
    from app.cli.sync_cursor import SyncCursor, cursor_path

    print(f"measuring the cursor of {Path(app.__file__).parents[1]}", file=sys.stderr)

    with tempfile.TemporaryDirectory(dir=ROOT / "bench" / "data") as tmp:
        path = cursor_path(Path(tmp), "bench", "http://127.0.0.1:1")
        cursor = SyncCursor(path, "bench", "http://127.0.0.1:1")
        written = _bytes_written()
        cpu, wall = time.process_time(), time.perf_counter()
        for batch in range(batches):
            digests = {
                f"20261206_{batch:05d}_{i:04d}_abcdef": f"{batch:012x}{i:012x}" for i in range(per_batch)
            }
            cursor.acknowledge(digests, (batch + 1) * 2000)
            cursor.save()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        written = _bytes_written() - written
        again = SyncCursor.load(path, "bench", "http://127.0.0.1:1")
        if len(again.sessions) != batches * per_batch:
            raise RuntimeError(f"the cursor read back {len(again.sessions)} sessions")
    return {"saves CPU s": cpu, "saves wall s": wall, "MB written": written / 1e6}


def _run_build(source: Path, batches: int, per_batch: int) -> dict[str, float]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, (str(source), os.environ.get("PYTHONPATH")))),
    }
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", str(batches), str(per_batch)],
        cwd=source,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    print(done.stderr.strip(), file=sys.stderr)
    figures: dict[str, float] = json.loads(done.stdout)
    return figures


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--batches", type=int, default=250)
    parser.add_argument("--sessions-per-batch", type=int, default=200)
    parser.add_argument("--baseline", type=Path, help="another build's checkout, replayed in the same run")
    parser.add_argument("--child", nargs=2, type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(_replay(*args.child)))
        return
    from bench.common import print_figures

    this = _run_build(ROOT, args.batches, args.sessions_per_batch)
    title = f"cursor saves of a first sync ({args.batches} batches of {args.sessions_per_batch} new sessions)"
    print_figures(title, this)
    if args.baseline is not None:
        before = _run_build(args.baseline, args.batches, args.sessions_per_batch)
        print_figures("the baseline build, same run", before)
        print_figures(
            "this build over the baseline build",
            {
                "CPU ratio": this["saves CPU s"] / before["saves CPU s"],
                "wall ratio": this["saves wall s"] / before["saves wall s"],
            },
        )
    print_figures("load", {"load average (1 min)": os.getloadavg()[0]})


if __name__ == "__main__":
    main()
