"""`hermes sessions show ID --messages` (text, Markdown, --tools, paging) and `sessions list --workspace`."""

from __future__ import annotations

import json
import time

import hermes_state

from app.settings import Settings
from tests.cli.conftest import Run, Seeder
from tests.conftest import RawDatabase

_CALLS = [
    {"id": f"c{i}", "type": "function", "function": {"name": name, "arguments": json.dumps({"n": i})}}
    for i, name in enumerate(("read_file", "grep", "read_file"))
]


def _tool_session(seed: Seeder) -> str:
    sid = str(seed.session(title="Fix the parser")["id"])
    seed.messages(
        sid,
        {"role": "user", "content": "Why does the parser fail?\nIt says EOF."},
        {
            "role": "assistant",
            "content": "<REASONING_SCRATCHPAD>hmm</REASONING_SCRATCHPAD>",
            "tool_calls": _CALLS,
        },
        {"role": "tool", "content": "line 1\n```\nline 3", "tool_call_id": "c0", "tool_name": "read_file"},
        {"role": "assistant", "content": "The file ends early."},
    )
    return sid


def test_transcript_collapses_tool_calls_like_the_recap(run: Run, seed: Seeder) -> None:
    sid = _tool_session(seed)
    result = run("sessions", "show", sid[:-1], "--messages")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == f"Fix the parser  {sid}  [cli]  4 messages"
    body = [line for line in lines[2:] if not line.startswith("[")]
    assert body == [
        "  Why does the parser fail?",
        "  It says EOF.",
        "",
        "  [3 tool calls: read_file, grep]",
        "",
        "  The file ends early.",
        "",
    ]
    assert [line.split("] ", 1)[1] for line in lines[2:] if line.startswith("[")] == [
        "You:",
        "Hermes:",
        "Hermes:",
    ]
    assert "hmm" not in result.stdout and "line 3" not in result.stdout


def test_transcript_with_tools_expands_calls_and_results(run: Run, seed: Seeder) -> None:
    sid = _tool_session(seed)
    text = run("sessions", "show", sid, "--messages", "--tools").stdout
    assert '  → grep\n      {\n        "n": 1\n      }\n' in text
    assert "] Tool (read_file):\n  line 1\n  ```\n  line 3\n" in text
    md = run("sessions", "show", sid, "--messages", "--tools", "--format", "md").stdout
    assert md.startswith(f"# Fix the parser\n\n- **Session:** `{sid}`\n- **Source:** cli\n")
    assert "\n## Tool (read_file) · " in md and "\n````\nline 1\n```\nline 3\n````\n" in md
    assert '**Tool call:** `grep`\n\n```json\n{\n  "n": 1\n}\n```\n' in md
    collapsed = run("sessions", "show", sid, "--messages", "--format", "md").stdout
    assert "\n*[3 tool calls: read_file, grep]*\n" in collapsed and "Tool (read_file)" not in collapsed


def test_transcript_pages_through_the_api(run: Run, seed: Seeder) -> None:
    sid = str(seed.session()["id"])
    seed.chat(sid, 150)  # 300 messages: two pages of 200
    text = run("sessions", "show", sid, "--messages").stdout
    assert text.count("] You:") == 150 and "  answer 149" in text and "  question 0" in text
    jsonl = run("sessions", "show", sid, "--messages", "--jsonl").stdout.splitlines()
    assert [json.loads(x)["content"] for x in jsonl[-2:]] == ["question 149", "answer 149"]
    assert len(jsonl) == 300
    assert len(json.loads(run("sessions", "show", sid, "--messages", "--json").stdout)["messages"]) == 300


def test_transcript_flags_need_messages(run: Run, seed: Seeder) -> None:
    sid = str(seed.session()["id"])
    assert run("sessions", "show", sid, "--tools").exit_code == 2
    assert run("sessions", "show", sid, "--messages", "--format", "md", "--json").exit_code == 2
    assert run("sessions", "show", sid, "--messages", "--format", "html").exit_code == 2


def _place(settings: Settings, sid: str, cwd: str | None, root: str | None) -> None:
    with RawDatabase(settings) as raw:
        raw.execute("UPDATE sessions SET cwd = ?, git_repo_root = ? WHERE id = ?", (cwd, root, sid))


def test_list_workspace_matches_the_agents_rule(run: Run, seed: Seeder, settings: Settings) -> None:
    alpha = seed.session(title="alpha work")
    beta = seed.session()
    seed.messages(beta["id"], {"role": "user", "content": "beta things"})
    loose = seed.session(title="no workspace")
    _place(settings, alpha["id"], "/home/u/src/proj-alpha/pkg", "/home/u/src/proj-alpha")
    _place(settings, beta["id"], "/home/u/beta/sub", None)
    sessions = [seed.get(s["id"]) for s in (alpha, beta, loose)]
    assert [s["git_repo_root"] for s in sessions] == ["/home/u/src/proj-alpha", None, None]
    for needle in ("alpha", "proj-alpha", "SUB", "beta", "/home/u", "pkg", "nowhere"):
        wanted = needle.lower()
        expected = set()
        for s in sessions:  # the agent's own filter of `sessions list --workspace`
            key = (hermes_state.workspace_key(s) or "").lower()
            if key and (wanted in key or wanted == key.rstrip("/").rsplit("/", 1)[-1]):
                expected.add(s["id"])
        got = {
            json.loads(x)["id"]
            for x in run("sessions", "list", "--workspace", needle, "--jsonl").stdout.splitlines()
        }
        assert got == expected, needle
    lines = run("sessions", "list", "--workspace", "alpha").stdout.splitlines()
    assert lines[0] == f"{'Title':<28} {'Workspace':<18} {'Last Active':<13} ID"
    assert lines[2] == f"{'alpha work':<28} {'proj-alpha':<18} {'just now':<13} {alpha['id']}"
    plain = run("sessions", "list").stdout.splitlines()
    assert plain[0].startswith("Title") and "Workspace" in plain[0]
    assert f"{'no workspace':<28} {'—':<18}" in "\n".join(plain)
    assert run("sessions", "list", "--workspace", "nowhere").stdout == "No sessions found.\n"


def test_list_workspace_reads_past_the_limit_window(run: Run, seed: Seeder, settings: Settings) -> None:
    """Deliberately better than the agent, which filters only the `--limit` newest rows."""
    old = seed.session(title="old project")
    _place(settings, old["id"], "/srv/old-project", None)
    with RawDatabase(settings) as raw:
        raw.execute("UPDATE sessions SET started_at = ? WHERE id = ?", (time.time() - 86400, old["id"]))
    for _ in range(5):
        seed.session()
    found = run(
        "sessions", "list", "--limit", "2", "--workspace", "old-project", "--jsonl"
    ).stdout.splitlines()
    assert [json.loads(x)["id"] for x in found] == [old["id"]]


def test_search_selects_a_workspace_or_a_directory(run: Run, seed: Seeder) -> None:
    inside = seed.session(cwd="/home/u/src/engine/web", git_repo_root="/home/u/src/engine")["id"]
    other = seed.session(cwd="/srv/other")["id"]
    for sid in (inside, other):
        seed.messages(sid, {"role": "user", "content": "the zeppelin manual"})

    def found(*args: str) -> list[str]:
        result = run("sessions", "search", "zeppelin", *args, "--jsonl")
        assert result.exit_code == 0, result.output
        return sorted(json.loads(x)["session_id"] for x in result.stdout.splitlines())

    assert found() == sorted([inside, other])
    assert found("--workspace", "Engine") == [inside]
    assert found("--cwd", "/srv/other/") == [other]
    assert found("--cwd", "/srv") == [other]
    assert found("--workspace", "engine", "--cwd", "/srv") == []
