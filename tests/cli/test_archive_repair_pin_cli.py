"""`hermes sessions archive`, `repair`, `pin`/`unpin` and the filter flags on `list`, in the agent's words."""

from __future__ import annotations

import json
import time
from pathlib import Path

from app.storage.sqlite.driver import sqlite3
from tests.cli.conftest import Run, Seeder


def test_archive_previews_asks_and_keeps_pinned(run: Run, seed: Seeder) -> None:
    first = seed.session(title="codex one")
    second = seed.session(title="codex two")
    pinned = seed.session(title="codex kept")
    for s in (first, second, pinned):
        seed.end(s["id"])
    assert run("sessions", "pin", pinned["id"]).stdout == (
        f"Pinned session '{pinned['id']}': prune, auto-prune and archive will keep it.\n"
    )
    refused = run("sessions", "archive")
    assert refused.exit_code == 2 and refused.stderr.startswith(
        "Refusing to archive every ended session: pass at least one filter (e.g. --newer-than 5h, "
    )
    dry = run("sessions", "archive", "--title", "codex", "--dry-run").stdout.splitlines()
    assert dry[0].startswith("2 session(s) match (title contains 'codex'; oldest ")
    assert [line.split()[0] for line in dry[1:3]] == [first["id"], second["id"]]
    assert "just now" in dry[1] and "codex one" in dry[1] and "cli" in dry[1]
    assert dry[-1] == "Dry run — nothing archived."
    asked = run("sessions", "archive", "--title", "codex", input="n\n").stdout
    assert asked.endswith("Archive these 2 session(s) (oldest " + asked.split("(oldest ")[-1])
    assert asked.endswith("? [y/N] Cancelled.\n")
    done = run("sessions", "archive", "--title", "codex", "--yes").stdout
    assert done == (
        "Archived 2 session(s). They're hidden from listings but fully recoverable (nothing was deleted).\n"
    )
    assert [s["archived"] for s in (seed.get(first["id"]), seed.get(pinned["id"]))] == [True, False]
    assert run("sessions", "archive", "--title", "codex", "--yes").stdout.startswith("No sessions match (")
    assert run("sessions", "unpin", pinned["id"]).stdout == f"Unpinned session '{pinned['id']}'.\n"
    piped = run("sessions", "archive", "--title", "codex", "--yes", "--json")
    assert json.loads(piped.stdout)["archived"] == 1 and piped.stderr == ""


def test_repair_words_and_exit_codes(sqlite_file_operation: None, run: Run, seed: Seeder, home: Path) -> None:
    s = seed.session(title="repair me")
    seed.chat(s["id"], 2)
    path = home / "state.db"
    healthy = run("sessions", "repair", "--check-only")
    assert healthy.exit_code == 0 and healthy.stdout == f"✓ {path} opens cleanly — no repair needed.\n"
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("DELETE FROM messages_fts WHERE rowid = (SELECT MIN(id) FROM messages)")
    conn.close()
    broken = run("sessions", "repair", "--check-only")
    assert broken.exit_code == 1
    assert broken.stdout == (
        f"✗ {path} does not open cleanly: messages_fts: 1 message(s) missing from the search index\n"
    )
    fixed = run("sessions", "repair", "--no-backup")
    assert fixed.exit_code == 0, fixed.output
    assert fixed.stdout.splitlines() == [
        f"✗ {path} does not open cleanly: messages_fts: 1 message(s) missing from the search index",
        "Repairing (a backup copy is made first)…",
        "  strategy: index_missing:messages_fts",
        "✓ Repaired — 1 sessions recovered.",
    ]
    assert run("sessions", "repair").stdout == f"✓ {path} opens cleanly — no repair needed.\n"


def test_list_takes_the_filter_flags(run: Run, seed: Seeder, home: Path) -> None:
    cheap = seed.session(title="cheap", model="openai/gpt-5")
    big = seed.session(title="big", model="anthropic/claude")
    assert seed.client.post(f"/sessions/{big['id']}/usage", json={"input_tokens": 5000}).status_code == 200
    seed.chat(big["id"], 3)

    def ids(*flags: str) -> list[str]:
        out = run("sessions", "list", "--jsonl", *flags)
        assert out.exit_code == 0, out.output
        return [json.loads(line)["id"] for line in out.stdout.splitlines()]

    assert ids("--model", "GPT") == [cheap["id"]]
    assert ids("--min-tokens", "1000", "--min-messages", "6") == [big["id"]]
    assert ids("--max-messages", "0", "--newer-than", "1h") == [cheap["id"]]
    assert ids("--older-than", "1h") == []
    # A naive ISO time is local time, as the agent reads it (sent to the server with the local offset).
    local_midnight = time.strftime("%Y-%m-%d", time.localtime(time.time() + 86400))
    assert set(ids("--before", local_midnight)) == {cheap["id"], big["id"]}
    bad = run("sessions", "list", "--after", "later")
    assert bad.exit_code == 2 and bad.stderr.startswith("Error: Invalid value for --after: 'later'.")
    empty = run("sessions", "list", "--after", "1h", "--before", "2h")
    assert empty.exit_code == 2 and empty.stderr.startswith(
        "Error: Empty time window: the --after/--newer-than"
    )
