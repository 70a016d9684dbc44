"""`hermes sessions …` end to end: CLI → HTTP → app → SQLite (in-process)."""

from __future__ import annotations

import json
import time
from pathlib import Path

from tests.cli.conftest import Run, Seeder


def test_list_empty(run: Run) -> None:
    result = run("sessions", "list")
    assert result.exit_code == 0
    assert result.stdout == "No sessions found.\n"


def test_list_untitled_layout_with_preview_and_relative_time(run: Run, seed: Seeder) -> None:
    s = seed.session()
    seed.messages(s["id"], {"role": "user", "content": "hello\nthere", "timestamp": time.time() - 300})
    lines = run("sessions", "list").stdout.splitlines()
    assert lines[0] == f"{'Preview':<50} {'Last Active':<13} {'Src':<6} ID"
    assert lines[1] == "─" * 95
    assert lines[2] == f"{'hello there':<50} {'5m ago':<13} cli    {s['id']}"


def test_list_titled_layout(run: Run, seed: Seeder) -> None:
    titled = seed.session(title="Refactor auth module")
    untitled = seed.session()
    lines = run("sessions", "list").stdout.splitlines()
    assert lines[0].startswith("Title" + " " * 28 + "Preview")
    assert len(lines[1]) == 110
    rows = {line.split()[-1]: line for line in lines[2:]}
    assert rows[titled["id"]].startswith(f"{'Refactor auth module':<32} {'':<40} {'just now':<13}")
    assert rows[untitled["id"]].startswith(f"{'—':<32} ")


def test_list_hides_tool_sessions_unless_asked_and_limits(run: Run, seed: Seeder) -> None:
    tool = seed.session(source="tool")
    cli = [seed.session() for _ in range(3)]
    listed = run("sessions", "list").stdout
    assert tool["id"] not in listed
    assert all(s["id"] in listed for s in cli)
    only_tool = run("sessions", "list", "--source", "tool").stdout
    assert tool["id"] in only_tool and cli[0]["id"] not in only_tool
    assert len(run("sessions", "list", "--limit", "2").stdout.splitlines()) == 4


def test_list_json_and_jsonl_keep_non_ascii(run: Run, seed: Seeder) -> None:
    seed.session(title="日本語のタイトル")
    seed.session()
    doc = run("sessions", "list", "--json")
    assert doc.exit_code == 0
    assert "日本語のタイトル" in doc.stdout
    assert len(json.loads(doc.stdout)) == 2
    lines = run("sessions", "list", "--jsonl").stdout.splitlines()
    assert [json.loads(line)["source"] for line in lines] == ["cli", "cli"]
    assert run("sessions", "list", "--json", "--jsonl").exit_code == 2


def test_show_by_prefix(run: Run, seed: Seeder) -> None:
    s = seed.session(title="shown")
    result = run("sessions", "show", s["id"][:-2])
    assert result.exit_code == 0
    assert f"id:                 {s['id']}" in result.stdout
    assert "title:              shown" in result.stdout
    assert json.loads(run("sessions", "show", s["id"], "--json").stdout)["id"] == s["id"]


def test_rename_joins_words(run: Run, seed: Seeder) -> None:
    s = seed.session()
    result = run("sessions", "rename", s["id"], "My", "new", "title")
    assert result.exit_code == 0
    assert result.stdout == f"Session '{s['id']}' renamed to: My new title\n"
    assert seed.get(s["id"])["title"] == "My new title"


def test_rename_conflict_whitespace_and_missing(run: Run, seed: Seeder) -> None:
    holder = seed.session(title="taken")
    other = seed.session()
    conflict = run("sessions", "rename", other["id"], "taken")
    assert conflict.exit_code == 5
    assert conflict.stderr.strip() == f"Error: Title 'taken' is already in use by session {holder['id']}"
    blank = run("sessions", "rename", other["id"], "   ")
    assert blank.exit_code == 2
    assert blank.stderr.strip() == "Error: title cannot be empty or whitespace-only."
    too_long = run("sessions", "rename", other["id"], "x" * 101)
    assert too_long.stderr.strip() == "Error: Title too long (101 chars, max 100)"
    missing = run("sessions", "rename", "nope", "x")
    assert (missing.exit_code, missing.stderr) == (3, "Session 'nope' not found.\n")


def test_delete_prompts_and_cancels(run: Run, seed: Seeder) -> None:
    s = seed.session()
    for answer in ("n\n", "\n", ""):
        result = run("sessions", "delete", s["id"], input=answer)
        assert result.exit_code == 0
        assert result.stdout.startswith(f"Delete session '{s['id']}' and all its messages? [y/N] ")
        assert result.stdout.rstrip().endswith("Cancelled.")
    assert seed.get(s["id"])["id"] == s["id"]


def test_delete_confirmed_with_yes_answer_or_flag(run: Run, seed: Seeder) -> None:
    a, b = seed.session(), seed.session()
    result = run("sessions", "delete", a["id"], input="YES\n")
    assert result.stdout.endswith(f"Deleted session '{a['id']}'.\n")
    quiet = run("sessions", "delete", "--yes", b["id"][:-1])
    assert quiet.stdout == f"Deleted session '{b['id']}'.\n"
    assert run("sessions", "list").stdout == "No sessions found.\n"
    gone = run("sessions", "delete", "-y", a["id"])
    assert (gone.exit_code, gone.stderr) == (3, f"Session '{a['id']}' not found.\n")


def test_delete_never_matches_a_title(run: Run, seed: Seeder) -> None:
    seed.session(title="precious")
    result = run("sessions", "delete", "-y", "precious")
    assert result.exit_code == 3
    assert len(run("sessions", "list", "--jsonl").stdout.splitlines()) == 1


def test_export_one_all_stdout_and_unknown(run: Run, seed: Seeder, tmp_path: Path) -> None:
    a = seed.session(title="café")
    seed.messages(a["id"], {"role": "user", "content": "naïve ☕"})
    seed.session(source="telegram")
    one = tmp_path / "one.jsonl"
    result = run("sessions", "export", str(one), "--session-id", a["id"][:-1])
    assert result.stdout == f"Exported 1 session to {one}\n"
    record = json.loads(one.read_text(encoding="utf-8"))
    assert record["id"] == a["id"] and record["messages"][0]["content"] == "naïve ☕"
    assert "naïve ☕" in one.read_text(encoding="utf-8")
    everything = tmp_path / "all.jsonl"
    assert run("sessions", "export", str(everything)).stdout == f"Exported 2 sessions to {everything}\n"
    assert len(everything.read_text(encoding="utf-8").splitlines()) == 2
    cli_only = tmp_path / "cli.jsonl"
    assert run("sessions", "export", str(cli_only), "--source", "cli").stdout.startswith(
        "Exported 1 sessions"
    )
    piped = run("sessions", "export", "-")
    assert len(piped.stdout.splitlines()) == 2 and "Exported" not in piped.output
    missing = run("sessions", "export", str(tmp_path / "x.jsonl"), "--session-id", "nope")
    assert (missing.exit_code, missing.stderr) == (3, "Session 'nope' not found.\n")
    assert not (tmp_path / "x.jsonl").exists()


def test_import_round_trip(run: Run, seed: Seeder, tmp_path: Path) -> None:
    a = seed.session(title="keep me")
    seed.chat(a["id"], 2)
    dump = tmp_path / "dump.jsonl"
    run("sessions", "export", str(dump))
    assert run("sessions", "delete", "-y", a["id"]).exit_code == 0
    dry = run("sessions", "import", str(dump), "--dry-run")
    assert dry.exit_code == 0 and dry.stdout.startswith("Would import 1 session(s) (4 messages)")
    assert run("sessions", "list").stdout == "No sessions found.\n"
    result = run("sessions", "import", str(dump))
    assert result.stdout == "Imported 1 session(s) (4 messages); replaced 0, skipped 0, failed 0.\n"
    assert seed.get(a["id"])["title"] == "keep me"
    again = json.loads(run("sessions", "import", str(dump), "--json").stdout)
    assert again["skipped"] == 1


def test_import_reports_bad_lines(run: Run, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n", encoding="utf-8")
    result = run("sessions", "import", str(bad))
    assert result.exit_code == 1
    assert "line 1: invalid_json" in result.stderr
    missing = run("sessions", "import", str(tmp_path / "absent.jsonl"))
    assert missing.exit_code == 1 and "cannot read" in missing.stderr


def test_import_of_an_empty_or_non_utf8_file_says_what_is_wrong(run: Run, tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"\n  \n")
    result = run("sessions", "import", str(empty))
    assert (result.exit_code, result.stdout) == (2, "")
    advice = "Give a JSONL export, one session per line.\n"
    assert result.stderr == f"Nothing to import: {empty} is empty. {advice}"
    piped = run("sessions", "import", "-", input="")
    assert piped.stderr == f"Nothing to import: standard input is empty. {advice}"
    latin1 = tmp_path / "latin1.jsonl"
    latin1.write_bytes(b'{"id": "caf\xe9"}\n')
    result = run("sessions", "import", str(latin1))
    assert result.exit_code == 1
    assert (
        "line 1: invalid_json: not valid JSON: the line is not UTF-8 text (byte 0xe9 at column 12); "
        "an export is UTF-8 JSON, one session per line"
    ) in result.stderr


def _old_session(session_id: str, source: str, days: float, ended: bool) -> str:
    started = time.time() - days * 86400
    record = {
        "id": session_id,
        "source": source,
        "started_at": started,
        "ended_at": started + 60 if ended else None,
        "end_reason": "cli_close" if ended else None,
        "messages": [],
    }
    return json.dumps(record)


def test_prune_prompt_dry_run_and_yes(run: Run, tmp_path: Path) -> None:
    dump = tmp_path / "old.jsonl"
    lines = [
        _old_session("20250101_000000_aaaaaa", "cli", 100, True),
        _old_session("20250101_000000_bbbbbb", "cli", 10, True),
        _old_session("20250101_000000_cccccc", "cli", 200, False),
        _old_session("20250101_000000_dddddddd", "telegram", 100, True),
    ]
    dump.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert run("sessions", "import", str(dump)).exit_code == 0

    cancelled = run("sessions", "prune", input="n\n").stdout.splitlines()
    assert cancelled[0].startswith("2 session(s) match (started before ")  # the 90-day default
    assert cancelled[-1].startswith("Delete these 2 session(s) (oldest ")
    assert cancelled[-1].endswith(")? [y/N] Cancelled.")
    dry = run("sessions", "prune", "--dry-run")
    assert dry.stdout.splitlines()[-1] == "Dry run — nothing deleted."
    assert "20250101_000000_aaaaaa" in dry.stdout and "20250101_000000_cccccc" not in dry.stdout
    # 0.19.0: a filter, --source included, matches every age; the preview shows no time bound.
    filtered = run("sessions", "prune", "--source", "telegram", input="y\n").stdout.splitlines()
    assert filtered[0].startswith("1 session(s) match (source 'telegram'; oldest ")
    assert filtered[-1].endswith("? [y/N] Pruned 1 session(s).")
    assert run("sessions", "prune", "--yes").stdout == "Pruned 1 session(s).\n"
    remaining = {json.loads(line)["id"] for line in run("sessions", "list", "--jsonl").stdout.splitlines()}
    assert remaining == {"20250101_000000_bbbbbb", "20250101_000000_cccccc"}


def test_stats(run: Run, seed: Seeder) -> None:
    seed.chat(seed.session()["id"], 1)
    seed.session(source="telegram")
    seed.session(source="signal")
    lines = run("sessions", "stats").stdout.splitlines()
    assert lines[:6] == [
        "Total sessions: 3",
        "Total messages: 2",
        "  cli: 1 sessions",
        "  signal: 1 sessions",  # the agent lists only cli, telegram, discord, whatsapp, slack
        "  telegram: 1 sessions",
        lines[5],
    ]
    assert lines[5].startswith("Database size: ")
    assert json.loads(run("sessions", "stats", "--json").stdout)["by_source"]["signal"] == 1


def test_insights(run: Run, seed: Seeder) -> None:
    seed.chat(seed.session()["id"], 1)
    result = run("sessions", "insights", "--days", "7")
    assert result.exit_code == 0
    assert result.stdout.startswith("Last 7 days\n  Sessions: 1   Messages: 2\n")
    assert json.loads(run("sessions", "insights", "--json").stdout)["days"] == 30


def test_search(run: Run, seed: Seeder) -> None:
    s = seed.session(title="containers")
    seed.messages(s["id"], {"role": "user", "content": "how do I run docker compose"})
    result = run("sessions", "search", "docker")
    assert result.exit_code == 0, result.output
    assert s["id"] in result.stdout and ">>>docker<<<" in result.stdout
    assert json.loads(run("sessions", "search", "docker", "--json").stdout)["mode"] == "discover"
    assert run("sessions", "search", "zzzunfindable").stdout == "No matches.\n"
    lines = run("sessions", "search", "docker", "--jsonl").stdout.splitlines()
    assert [json.loads(line)["session_id"] for line in lines] == [s["id"]]


def test_a_mistyped_source_gets_a_suggestion(run: Run, seed: Seeder) -> None:
    seed.session(source="telegram")
    result = run("sessions", "list", "--source", "tg")
    assert result.stderr == "Note: no session source is called 'tg'; did you mean telegram?\n"
    assert result.stdout == "No sessions found.\n"
    assert "did you mean telegram?" in run("sessions", "search", "x", "--source", "telegramm").stderr
    assert "did you mean discord?" in run("sessions", "prune", "--source", "dc", "--dry-run").stderr
    assert run("sessions", "list", "--source", "telegram").stderr == ""
