"""A 150 MB export imported through ``hermes-sessions sessions import`` against ``POST /import`` of the same
lines in pieces of just under 10 MiB (the server's default body limit), each into a fresh server, in the
same run. Rounds alternate which goes first. The figure is wall time to the last answer (the FTS indexing
of both continues in the background afterwards); the target is a ratio of at most 1 (the CLI at least as
fast as the hand-cut pieces).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import TOKEN, bench_home, median, print_figures, serve

CLI = str(Path(sys.executable).with_name("hermes-sessions"))
PIECE_BYTES = 10 * 1024 * 1024 - 64 * 1024


def write_export(path: Path, sessions: int, messages: int) -> None:
    """An export of ``sessions`` sessions of ``messages`` messages of about 2 KB each."""
    filler = ("the quick brown fox jumps over the lazy dog; " * 45)[:2000]
    with path.open("wb") as out:
        for n in range(sessions):
            started = 1_767_225_600.0 + n
            record = {
                "id": f"s{n:06d}",
                "source": "cli",
                "started_at": started,
                "messages": [
                    {"role": "user" if m % 2 == 0 else "assistant", "content": f"{n}-{m} {filler}"}
                    for m in range(messages)
                ],
            }
            out.write(orjson.dumps(record) + b"\n")


def _pieces(path: Path) -> list[bytes]:
    pieces: list[bytes] = []
    current: list[bytes] = []
    size = 0
    with path.open("rb") as stream:
        for line in stream:
            if current and size + len(line) > PIECE_BYTES:
                pieces.append(b"".join(current))
                current, size = [], 0
            current.append(line)
            size += len(line)
    if current:
        pieces.append(b"".join(current))
    return pieces


def _via_cli(export: Path) -> float:
    with bench_home() as home, serve(home) as server:
        env = {
            **os.environ,
            "HERMES_URL": server.base_url,
            "HERMES_API_TOKEN": TOKEN,
            "HERMES_HOME": str(home),
        }
        started = time.perf_counter()
        subprocess.run([CLI, "sessions", "import", str(export)], env=env, check=True, capture_output=True)
        return time.perf_counter() - started


def _via_pieces(export: Path) -> float:
    pieces = _pieces(export)  # cut before the clock starts: the baseline is the server's part alone
    with bench_home() as home, serve(home) as server, server.client() as http:
        started = time.perf_counter()
        for piece in pieces:
            response = http.post(
                "/import", content=piece, headers={"Content-Type": "application/jsonl"}, timeout=600
            )
            response.raise_for_status()
        return time.perf_counter() - started


def run(rounds: int, sessions: int, messages: int) -> dict[str, float]:
    """The figures of one run."""
    with bench_home() as scratch:
        export = scratch / "export.jsonl"
        write_export(export, sessions, messages)
        size_mb = export.stat().st_size / 1e6
        cli: list[float] = []
        pieces: list[float] = []
        for n in range(rounds):
            order = (_via_cli, _via_pieces) if n % 2 == 0 else (_via_pieces, _via_cli)
            for measure in order:
                (cli if measure is _via_cli else pieces).append(measure(export))
    return {
        "file MB": size_mb,
        "CLI import s (median)": median(cli),
        "CLI import MB/s": size_mb / median(cli),
        "POST /import in 10 MiB pieces s (median)": median(pieces),
        "POST /import in 10 MiB pieces MB/s": size_mb / median(pieces),
        "CLI time / pieces time": median(cli) / median(pieces),
        "load average": os.getloadavg()[0],
    }


def main() -> None:
    """Run and print the figures, with the target met or not."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=1, help="rounds, alternating which import goes first")
    parser.add_argument("--sessions", type=int, default=6100, help="sessions in the export")
    parser.add_argument("--messages", type=int, default=12, help="messages per session (about 2 KB each)")
    args = parser.parse_args()
    figures = run(args.rounds, args.sessions, args.messages)
    print_figures(f"CLI import of a {figures['file MB']:.0f} MB export, {args.rounds} round(s)", figures)
    print(
        f"  target CLI time / pieces time <= 1: {'yes' if figures['CLI time / pieces time'] <= 1 else 'NO'}"
    )


if __name__ == "__main__":
    main()
