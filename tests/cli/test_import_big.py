"""A 150 MB export through ``hermes-sessions sessions import``: sent in pieces under the server's body
limit, parents before children, killed mid-way and resumed with nothing duplicated. ``make test`` imports a
smaller export of the same shape, still several pieces of the limit; ``make soak`` the 150 MB one."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import orjson
import pytest

from app.cli.api import MAX_BODY_BYTES
from app.cli.import_plan import Line, batches, plan
from tests.conftest import TOKEN, LiveServer
from tests.sizes import sized

# Each session is 12 messages of 2,000 characters, about 25 KB of JSON.
SESSIONS = sized(2500, 6100)
MESSAGES = 12
SIZE_MB = sized(60, 150)
CLI = str(Path(sys.executable).with_name("hermes-sessions"))


def _parent(n: int) -> str | None:
    # As in the agent's export, newest first: a compression child comes before its parent.
    return f"s{n + 1:06d}" if n % 3 == 0 and n + 1 < SESSIONS else None


def _export(path: Path) -> None:
    filler = ("the quick brown fox jumps over the lazy dog; " * 45)[:2000]
    with path.open("wb") as out:
        for n in range(SESSIONS):
            started = 1_767_225_600.0 + n
            record = {
                "id": f"s{n:06d}",
                "source": "cli",
                "started_at": started,
                "parent_session_id": _parent(n),
                "messages": [
                    {
                        "role": "user" if m % 2 == 0 else "assistant",
                        "content": f"{n}-{m} {filler}",
                        "timestamp": started + m,
                    }
                    for m in range(MESSAGES)
                ],
            }
            out.write(orjson.dumps(record) + b"\n")


def _import(path: Path, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [CLI, "sessions", "import", str(path)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _acknowledged(cursors: Path) -> int:
    for cursor in cursors.glob("*.json"):
        try:
            return int(json.loads(cursor.read_text())["done"])
        except (OSError, ValueError, KeyError):
            return 0
    return 0


@pytest.mark.slow
def test_a_150_mb_import_killed_and_resumed_duplicates_nothing(
    live_server: LiveServer, tmp_path: Path
) -> None:
    export = tmp_path / "big.jsonl"
    _export(export)
    assert export.stat().st_size > SIZE_MB * 1000 * 1000 > 5 * MAX_BODY_BYTES
    home = tmp_path / "cli-home"
    env = {
        **os.environ,
        "HERMES_URL": live_server.base_url,
        "HERMES_API_TOKEN": TOKEN,
        "HERMES_HOME": str(home),
    }

    first = _import(export, env)
    deadline = time.monotonic() + 300
    while _acknowledged(home / "import") == 0:
        assert first.poll() is None, first.communicate()
        assert time.monotonic() < deadline, "no piece acknowledged in time"
        time.sleep(0.05)
    first.send_signal(signal.SIGKILL)
    first.communicate()
    done_before = _acknowledged(home / "import")
    assert 0 < done_before < SESSIONS

    second = _import(export, env)
    out, err = second.communicate(timeout=600)
    assert second.returncode == 0, err
    assert f"Resuming the import of {export}: {done_before} of {SESSIONS} lines were done before." in err
    # The summary counts the whole import; what the resumed run found already stored (and skipped) is at most
    # the piece that was on its way when the first run was killed.
    imported = int(out.split("Imported ")[1].split(" ")[0])
    skipped = int(out.split("skipped ")[1].split(",")[0])
    assert imported + skipped == SESSIONS, out
    assert out.startswith(f"Imported {imported} session(s) ({imported * MESSAGES} messages); replaced 0,")
    with export.open("rb") as stream:
        piece = max(len(b) for b in batches(plan(stream), MAX_BODY_BYTES))
    assert skipped <= piece
    assert not list((home / "import").glob("*.json"))

    with httpx.Client(base_url=live_server.base_url, headers={"Authorization": f"Bearer {TOKEN}"}) as http:
        stats = http.get("/stats").json()
        assert (stats["sessions"], stats["messages"]) == (SESSIONS, SESSIONS * MESSAGES)
        for n in (0, 3, SESSIONS // 2 - 2, SESSIONS - 3):
            session = http.get(f"/sessions/s{n:06d}").json()
            assert session["parent_session_id"] == _parent(n), n


def test_the_plan_sends_parents_first_in_pieces_under_the_budget(tmp_path: Path) -> None:
    records = [
        {"id": "c2", "parent_session_id": "c1"},
        {"id": "c1", "parent_session_id": "root"},
        {"id": "alone"},
        {"id": "root", "parent_session_id": "elsewhere"},
        {"id": "loop-a", "parent_session_id": "loop-b"},
        {"id": "loop-b", "parent_session_id": "loop-a"},
    ]
    path = tmp_path / "f.jsonl"
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in records) + b"\n{broken\n")
    with path.open("rb") as stream:
        lines = plan(stream)
    order = [records[line.number - 1]["id"] if line.number <= len(records) else "bad" for line in lines]
    assert order.index("root") < order.index("c1") < order.index("c2")
    assert sorted(order) == sorted([*(r["id"] for r in records), "bad"])
    sized = [Line(n, 0, size) for n, size in enumerate((40, 50, 200, 10, 10), 1)]
    assert [[line.number for line in b] for b in batches(sized, 100)] == [[1, 2], [3], [4, 5]]
