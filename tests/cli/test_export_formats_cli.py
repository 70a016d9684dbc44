"""``hermes sessions export`` in every format: files, manifest and verification as the agent's, the agent's
messages and usage errors, and ``--delete-after-verified`` deleting only what verified."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from hermes_cli import session_export, session_export_md

from tests.cli.conftest import Run, Seeder
from tests.lifecycle.helpers import agent_db, make_session


def _store(home: Path) -> None:
    db = agent_db(home)
    make_session(db, "a1", messages=5, title="Trip plan", source="telegram")
    make_session(db, "b2", messages=2, source="telegram")
    make_session(db, "c3", messages=1, source="cli")
    db.close()


def test_md_files_manifest_and_verification(run: Run, home: Path, tmp_path: Path) -> None:
    _store(home)
    out = tmp_path / "exports"
    result = run("sessions", "export", str(out), "--format", "md", "--session-id", "a1")
    assert result.exit_code == 0, result.output
    path = out / "a1-trip-plan.md"
    assert result.stdout == f"Exported 1 session (5 messages) to {path}\n"
    db = agent_db(home)
    session = db.export_session("a1")
    db.close()
    assert session_export_md.verify_export_file(path, session) == (True, "ok")
    (entry,) = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
    assert entry["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    assert {
        k: entry[k] for k in ("session_id", "lineage_session_ids", "path", "format", "message_count")
    } == {
        "session_id": "a1",
        "lineage_session_ids": ["a1"],
        "path": str(path),
        "format": "md",
        "message_count": 5,
    }
    again = run("sessions", "export", str(out), "--format", "md", "--session-id", "a1")
    assert again.exit_code == 1
    assert f"Export already exists: {path}. Pass --force to overwrite." in again.output
    forced = run("sessions", "export", str(out), "--format", "md", "--session-id", "a1", "--force")
    assert forced.exit_code == 0


def test_bulk_qmd_needs_a_filter_and_writes_one_file_per_session(
    run: Run, home: Path, tmp_path: Path
) -> None:
    _store(home)
    refused = run("sessions", "export", str(tmp_path / "nothing"), "--format", "qmd")
    assert refused.exit_code == 2
    assert "Refusing bulk export without a filter." in refused.output
    assert not (tmp_path / "nothing").exists()  # a refused export leaves no directory behind
    assert run("sessions", "export", "--format", "md").exit_code == 2
    assert not (home / "session-exports").exists()
    result = run("sessions", "export", str(tmp_path / "q"), "--format", "qmd", "--source", "telegram")
    assert result.exit_code == 0, result.output
    assert result.stdout == f"Exported 2 session(s) to {tmp_path / 'q'}\n"
    assert sorted(p.name for p in (tmp_path / "q").iterdir()) == [
        "a1-trip-plan.qmd",
        "b2-session.qmd",
        "manifest.jsonl",
    ]


def test_delete_after_verified(run: Run, home: Path, tmp_path: Path, seed: Seeder) -> None:
    _store(home)
    needs_yes = run(
        "sessions", "export", str(tmp_path), "--format", "md", "--session-id", "b2", "--delete-after-verified"
    )
    assert needs_yes.exit_code == 2
    assert "--delete-after-verified requires --yes." in needs_yes.output
    done = run(
        "sessions",
        "export",
        str(tmp_path),
        "--format",
        "md",
        "--session-id",
        "b2",
        "--delete-after-verified",
        "--yes",
    )
    assert done.exit_code == 0, done.output
    assert "Deleted exported session 'b2'." in done.stdout
    assert seed.client.get("/sessions/b2").status_code == 404
    assert seed.client.get("/sessions/a1").status_code == 200


def test_prompts_html_trace_and_jsonl(run: Run, home: Path, tmp_path: Path) -> None:
    _store(home)
    db = agent_db(home)
    sessions = [db.export_session(s) for s in ("a1", "b2", "c3")]
    db.close()
    piped = run("sessions", "export", "--format", "md", "--only", "user-prompts")
    assert piped.stdout == session_export.render_sessions_export(
        sessions, fmt="markdown", only="user-prompts"
    )
    to_file = run("sessions", "export", str(tmp_path / "p.jsonl"), "--only", "user-prompts")
    assert to_file.stdout == f"Exported 4 prompts to {tmp_path / 'p.jsonl'}\n"
    page = run("sessions", "export", str(tmp_path / "all.html"), "--format", "html")
    assert page.stdout == f"Exported 3 sessions to {tmp_path / 'all.html'} (HTML)\n"
    assert (tmp_path / "all.html").read_text().count('<div class="session-view') == 3
    one = run("sessions", "export", "-", "--format", "trace", "--session-id", "c3")
    assert [json.loads(x)["sessionId"] for x in one.stdout.splitlines()] == ["c3"]
    many = run("sessions", "export", str(tmp_path / "t"), "--format", "trace", "--source", "telegram")
    assert many.stdout == f"Exported 2 session trace(s) to {tmp_path / 't'}\n"
    assert sorted(p.name for p in (tmp_path / "t").iterdir()) == ["a1.trace.jsonl", "b2.trace.jsonl"]
    plain = run("sessions", "export", str(tmp_path / "x.jsonl"), "--redact")
    assert plain.stdout == f"Exported 3 sessions to {tmp_path / 'x.jsonl'}\n"


def test_the_agents_usage_errors(run: Run, home: Path, tmp_path: Path) -> None:
    _store(home)
    cases = {
        ("--format", "html", "--only", "user-prompts"): "--only user-prompts supports --format jsonl or md.",
        ("--format", "html"): "HTML export requires an output file path.",
        ("--format", "jsonl"): "JSONL export requires an output path (use - for stdout).",
        (
            "-",
            "--format",
            "md",
        ): "Markdown/QMD export writes files; stdout (-) is only supported with --format jsonl.",
        ("--format", "trace", "--upload"): "hosted dataset",
        ("--format", "trace", "--upload", "--public"): "does not support",
    }
    for args, message in cases.items():
        result = run("sessions", "export", *args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output, args
    assert run("sessions", "export", "--format", "pdf", "x").exit_code == 2


def test_html_export_honours_lineage_logical(run: Run, home: Path, tmp_path: Path) -> None:
    db = agent_db(home)
    make_session(db, "l1", messages=4, title="Voyage", ended=False)
    db.end_session("l1", "compression")
    make_session(db, "l2", messages=3, parent="l1", title="Voyage #2")
    db.close()
    for lineage, messages in (("logical", 7), ("single", 3)):
        path = tmp_path / f"{lineage}.html"
        args = ("--format", "html", "--session-id", "l2", "--lineage", lineage)
        result = run("sessions", "export", str(path), *args)
        assert result.stdout == f"Exported 1 session to {path} (HTML)\n", result.output
        page = path.read_text()
        assert page.count('<div class="session-view') == 1
        assert page.count('<div class="message ') == messages
