"""`sessions stats` (every source, WAL counted), `optimize` / `vacuum` / `backup`, and prune in a real
pseudo-terminal: summary, question, progress on the terminal and silence when piped."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.cli.conftest import Run, Seeder
from tests.conftest import TOKEN, LiveServer

HERMES = Path(sys.executable).with_name("hermes")


def test_stats_lists_every_source_and_counts_the_wal(sqlite_only: None, run: Run, seed: Seeder) -> None:
    sources = ["cron"] * 4 + ["api_server"] * 3 + ["signal"] * 2 + ["cli", "telegram"]
    for source in sources:
        seed.session(source=source)
    data = json.loads(run("sessions", "stats", "--json").stdout)
    lines = run("sessions", "stats").stdout.splitlines()
    listed = {line.split(":")[0].strip(): int(line.split()[1]) for line in lines[2:-1]}
    assert listed == {"cron": 4, "api_server": 3, "signal": 2, "cli": 1, "telegram": 1}
    assert sum(listed.values()) == data["sessions"] == len(sources)
    assert lines[2] == "  cron: 4 sessions"  # most sessions first
    assert data["wal_bytes"] > 0  # the server holds the WAL open: the agent's figure leaves it out
    total = (data["database_bytes"] + data["wal_bytes"]) / 1048576
    assert lines[-1].startswith(f"Database size: {total:.1f} MB (state.db ")
    assert lines[-1].endswith(" MB)") and " + WAL " in lines[-1]


def test_optimize_vacuum_and_backup(sqlite_file_operation: None, run: Run, seed: Seeder, home: Path) -> None:
    for _ in range(3):
        seed.chat(seed.session()["id"], 20)
    optimized = run("sessions", "optimize")
    assert optimized.exit_code == 0, optimized.output
    lines = optimized.stdout.splitlines()
    assert lines[0] == "Optimizing session store (FTS merge + VACUUM)…"
    assert lines[1].startswith("Optimized ") and lines[1].endswith(" FTS index(es).")
    assert lines[2].startswith("Database size: ") and "MB -> " in lines[2] and "(reclaimed " in lines[2]
    quick = run("sessions", "optimize", "--no-vacuum", "--json")
    assert "checkpoint" in json.loads(quick.stdout)
    vacuumed = run("sessions", "vacuum")
    assert vacuumed.exit_code == 0 and vacuumed.stdout.startswith("Vacuumed in ")
    backed = run("sessions", "backup")
    assert backed.exit_code == 0, backed.output
    (copy,) = (home / "backups").iterdir()
    assert backed.stdout.startswith(f"Backed up state.db to {copy} (")
    assert oct(copy.stat().st_mode & 0o777) == "0o600"


@pytest.fixture
def live_server(emptied_server: LiveServer) -> LiveServer:
    """These tests share one server, emptied before each (tests/cli/conftest.py)."""
    return emptied_server


def _env(server: LiveServer) -> dict[str, str]:
    return {
        **os.environ,
        "HERMES_URL": server.base_url,
        "HERMES_API_TOKEN": TOKEN,
        "HERMES_HOME": str(server.home),
        "TERM": "xterm",
        "COLUMNS": "200",
    }


def _seed_cron(server: LiveServer, n: int) -> list[str]:
    ids = []
    with server.client() as http:
        for i in range(n):
            sid = http.post("/sessions", json={"source": "cron", "title": f"job {i}"}).json()["id"]
            http.post(f"/sessions/{sid}/messages", json={"role": "user", "content": "run"})
            http.post(f"/sessions/{sid}/end", json={"end_reason": "cron_complete"})
            ids.append(sid)
    return ids


def _read_until(fd: int, needle: bytes, buf: bytearray, deadline: float) -> None:
    while needle not in buf:
        assert time.monotonic() < deadline, bytes(buf)
        ready, _, _ = select.select([fd], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # the child closed the terminal
                return
            if not chunk:
                return
            buf.extend(chunk)


def test_prune_on_a_terminal_shows_summary_asks_and_shows_progress(live_server: LiveServer) -> None:
    ids = _seed_cron(live_server, 3)
    main, child = pty.openpty()
    proc = subprocess.Popen(
        [str(HERMES), "sessions", "prune", "--source", "cron"],
        stdin=child,
        stdout=child,
        stderr=child,
        env=_env(live_server),
        close_fds=True,
    )
    os.close(child)
    out = bytearray()
    deadline = time.monotonic() + 60
    try:
        _read_until(main, b"[y/N] ", out, deadline)
        text = out.decode()
        assert "3 session(s) match (source 'cron'; oldest " in text
        assert all(sid in text for sid in ids) and "3 message(s) in all" in text
        assert "Delete these 3 session(s) (oldest " in text
        os.write(main, b"y\n")
        _read_until(main, b"Pruned 3 session(s).", out, deadline)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(main)
    after = out.decode()[len(text) :]
    assert "\x1b[?25l" in after  # the progress display took the terminal (cursor hidden while it ran)
    with live_server.client() as http:
        assert http.get("/sessions", params={"source": "cron"}).json()["items"] == []


def test_prune_piped_stays_quiet(live_server: LiveServer) -> None:
    _seed_cron(live_server, 2)
    result = subprocess.run(
        [str(HERMES), "sessions", "prune", "--source", "cron", "--yes"],
        env=_env(live_server),
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == "Pruned 2 session(s).\n" and result.stderr == ""
