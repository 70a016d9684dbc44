"""``hermes sessions export`` takes prune's filter set and selects what the listing selects for it, in every
format; ``--dry-run`` shows the matches as a table; bad values stop it with the agent's words."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.cli.conftest import Run
from tests.lifecycle.helpers import agent_db
from tests.lifecycle.test_filter_set import _agent_ids, _build, _copy, _listed

# CLI flags and the same filters as the API takes them.
CASES: list[tuple[tuple[str, ...], dict[str, Any]]] = [
    (("--title", "deploy"), {"title": "deploy"}),
    (("--older-than", "30"), {"older_than": "30"}),
    (("--newer-than", "7d", "--source", "cli"), {"newer_than": "7d", "source": "cli"}),
    (("--cwd", "/work/app"), {"cwd": "/work/app"}),
    (("--min-messages", "3", "--max-messages", "6"), {"min_messages": 3, "max_messages": 6}),
    (("--model", "GPT", "--provider", "openrouter"), {"model": "GPT", "provider": "openrouter"}),
    (("--user", "u42", "--chat-type", "dm"), {"user": "u42", "chat_type": "dm"}),
    (
        (
            "--chat-id",
            "c2",
        ),
        {"chat_id": "c2"},
    ),
    (("--branch", "feat", "--end-reason", "cli_close"), {"branch": "feat", "end_reason": "cli_close"}),
    (("--min-tokens", "1500", "--max-cost", "1"), {"min_tokens": 1500, "max_cost": 1}),
    (("--min-cost", "1"), {"min_cost": 1}),
    (("--min-tool-calls", "1", "--max-tool-calls", "5"), {"min_tool_calls": 1, "max_tool_calls": 5}),
    (("--max-tokens", "15"), {"max_tokens": 15}),
    (("--before", "20d", "--after", "200d"), {"before": "20d", "after": "200d"}),
]


def _jsonl_ids(path: Path) -> list[str]:
    return [json.loads(line)["id"] for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize(("flags", "api"), CASES, ids=[" ".join(c[0]) for c in CASES])
def test_export_selects_what_the_listing_selects(
    run: Run, home: Path, client: TestClient, tmp_path: Path, flags: tuple[str, ...], api: dict[str, Any]
) -> None:
    _build(home)
    out = tmp_path / "out.jsonl"
    result = run("sessions", "export", str(out), *flags)
    assert result.exit_code == 0, result.output
    exported = _jsonl_ids(out)
    assert set(exported) == _listed(client, api)
    assert result.stdout == f"Exported {len(exported)} sessions to {out}\n"
    files = tmp_path / "md"
    made = run("sessions", "export", str(files), "--format", "md", *flags)
    assert made.exit_code == 0, made.output
    entries = [json.loads(x) for x in (files / "manifest.jsonl").read_text().splitlines()] if exported else []
    assert {e["session_id"] for e in entries} == set(exported)
    assert made.stdout == f"Exported {len(exported)} session(s) to {files}\n"


def test_open_sessions_are_exported_too_unlike_the_agent(
    run: Run, home: Path, client: TestClient, tmp_path: Path
) -> None:
    """Deliberately different: the agent exports only ended sessions once a filter is given (its prune
    candidates); ours exports what the listing shows, so a gateway session still open is not lost."""
    _build(home)
    db = agent_db(_copy(home, tmp_path))
    try:
        agent = _agent_ids(db, {"title": "deploy"})
    finally:
        db.close()
    out = tmp_path / "out.jsonl"
    assert run("sessions", "export", str(out), "--title", "deploy").exit_code == 0
    ours = _jsonl_ids(out)
    assert set(ours) - set(agent) == {"s07_open"}
    assert set(agent) < set(ours)


def test_every_format_and_the_session_id_rule(run: Run, home: Path, tmp_path: Path) -> None:
    _build(home)
    page = run("sessions", "export", str(tmp_path / "t.html"), "--format", "html", "--source", "telegram")
    assert page.stdout == f"Exported 2 sessions to {tmp_path / 't.html'} (HTML)\n"
    traces = run("sessions", "export", str(tmp_path / "tr"), "--format", "trace", "--chat-type", "dm")
    assert traces.exit_code == 0, traces.output
    assert sorted(p.name for p in (tmp_path / "tr").iterdir()) == ["s04_tg_dm.trace.jsonl"]
    prompts = run("sessions", "export", "-", "--only", "user-prompts", "--min-messages", "8")
    assert {json.loads(x)["session_id"] for x in prompts.stdout.splitlines()} == {"s10_repo"}
    # As the agent: --session-id names the session; the filters do not narrow it.
    one = run("sessions", "export", "-", "--session-id", "s04_tg_dm", "--source", "cli")
    assert [json.loads(x)["id"] for x in one.stdout.splitlines()] == ["s04_tg_dm"]


def test_dry_run_is_a_table_and_writes_nothing(run: Run, home: Path, tmp_path: Path) -> None:
    _build(home)
    out = tmp_path / "out.jsonl"
    dry = run("sessions", "export", str(out), "--title", "deploy", "--source", "cli", "--dry-run")
    assert dry.exit_code == 0, dry.output
    lines = dry.stdout.splitlines()
    assert lines[0] == "Would export 4 session(s) (source 'cli', title contains 'deploy')."
    # Oldest first, as the agent; archived and open sessions too.
    assert [line.split()[0] for line in lines[1:]] == [
        "s07_open",
        "s01_deploy",
        "s06_archived",
        "s02_staging",
    ]
    assert "msgs  Deploy prod" in dry.stdout and " cli " in dry.stdout
    assert not out.exists()
    md = run("sessions", "export", str(tmp_path / "md"), "--format", "md", "--older-than", "100", "--dry-run")
    assert md.stdout.splitlines()[1].split()[0] == "s07_open" and len(md.stdout.splitlines()) == 3
    assert not (tmp_path / "md").exists()


def test_bad_values_and_missing_filters(run: Run, home: Path, tmp_path: Path) -> None:
    _build(home)
    bad = run("sessions", "export", str(tmp_path / "x.jsonl"), "--older-than", "abc")
    assert bad.exit_code == 2
    assert "Error: Invalid value for --older-than: 'abc'. Use a duration" in bad.stderr
    empty = run("sessions", "export", "-", "--newer-than", "1d", "--older-than", "1w")
    assert empty.exit_code == 2 and "Error: Empty time window" in empty.stderr
    assert run("sessions", "export", "-", "--min-messages", "many").exit_code == 2
    nofilter = run("sessions", "export", "-", "--dry-run")
    assert nofilter.exit_code == 2 and "--dry-run requires at least one filter." in nofilter.output
    refused = run("sessions", "export", str(tmp_path), "--format", "md")
    assert refused.exit_code == 2 and "Refusing bulk export without a filter." in refused.output
    assert not (tmp_path / "x.jsonl").exists()
