"""`hermes -c` / `-r` / `chat`, recap panel, `title`, `new`, `end` (checks 149-170)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient

from app.cli.config import CliConfig, load_config
from app.cli.context import CliEnv
from tests.cli.conftest import Run, Seeder, invoke


def test_continue_takes_the_most_recently_active_cli_session(run: Run, seed: Seeder) -> None:
    now = time.time()
    s1, s2, s3 = seed.session(), seed.session(), seed.session(source="telegram")
    seed.chat(s1["id"], 1, at=now - 300)
    seed.chat(s2["id"], 1, at=now - 200)
    seed.chat(s3["id"], 1, at=now - 100)
    result = run("-c")
    assert result.exit_code == 0, result.output
    assert result.stdout == f"{s2['id']}\n"
    assert f"↻ Resumed session {s2['id']} (1 user message, 2 total messages)" in result.stderr
    assert result.stderr.endswith(
        f"it does not chat. To continue, run the agent: hermes --resume {s2['id']}\n"
    )


def test_help_says_resuming_shows_and_names_the_agent_command(run: Run) -> None:
    for args in (["--help"], ["chat", "--help"]):
        text = " ".join(run(*args).stdout.split())
        assert "recap and id" in text and "hermes --resume ID" in text, text


def test_continue_without_cli_sessions(run: Run, seed: Seeder) -> None:
    seed.session(source="telegram")
    result = run("-c")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == "No previous CLI session found to continue.\n"


def test_continue_by_name_takes_the_newest_of_the_lineage_then_its_tip(
    run: Run, seed: Seeder, client: TestClient
) -> None:
    for title in ("my project", "my project #2", "my project #3"):
        seed.chat(seed.session(title=title)["id"], 1)
    third = run("-c", "my project").stdout.strip()
    assert seed.get(third)["title"] == "my project #3"
    child = client.post(f"/sessions/{third}/continuations", json={}).json()
    for args in (("-c", "my project"), ("--continue", "my project"), ("chat", "-c", "my project")):
        result = run(*args)
        assert result.exit_code == 0, result.output
        assert result.stdout == f"{child['id']}\n"
    via_root = run("-r", third)
    assert via_root.stdout == f"{child['id']}\n"
    assert f"Session {third} was compressed into {child['id']}" in via_root.stderr


def test_continue_unknown_name(run: Run) -> None:
    result = run("-c", "nothing like this")
    assert result.exit_code == 3
    assert result.stderr == (
        "No session found matching 'nothing like this'.\n"
        "Use 'hermes sessions list' to see available sessions.\n"
    )


def test_resume_by_id_shows_any_source_and_leaves_it_ended(run: Run, seed: Seeder) -> None:
    s = seed.session(source="telegram", title="from the phone")
    seed.chat(s["id"], 2)
    seed.end(s["id"])
    result = run("-r", s["id"])
    assert result.exit_code == 0
    assert result.stdout == f"{s['id']}\n"
    assert (
        f'↻ Resumed session {s["id"]} "from the phone" (2 user messages, 4 total messages)' in result.stderr
    )
    after = seed.get(s["id"])
    assert after["ended_at"] is not None and after["end_reason"] == "cli_close"


def test_resume_by_prefix_latest_and_unknown(run: Run, seed: Seeder) -> None:
    now = time.time()
    old, new = seed.session(), seed.session(source="discord")
    seed.chat(old["id"], 1, at=now - 100)
    seed.chat(new["id"], 1, at=now - 10)
    assert run("-r", old["id"][:-2]).stdout == f"{old['id']}\n"
    assert run("--resume", "latest").stdout == f"{new['id']}\n"
    unknown = run("-r", "zzz")
    assert unknown.exit_code == 3
    assert (
        unknown.stderr
        == "Session not found: zzz\nUse a session ID from a previous CLI run (hermes sessions list).\n"
    )


def test_resume_empty_session(run: Run, seed: Seeder) -> None:
    s = seed.session()
    result = run("-r", s["id"])
    assert result.exit_code == 0
    assert result.stderr == (
        f"Session {s['id']} found but has no messages.\nThis client shows sessions; it does not chat. To "
        f"continue, run the agent: hermes --resume {s['id']}\n"
    )
    assert "Previous Conversation" not in result.output


def test_recap_panel_keeps_the_last_ten_exchanges(run: Run, seed: Seeder) -> None:
    s = seed.session()
    seed.chat(s["id"], 25)
    err = run("-r", s["id"]).stderr
    assert "Previous Conversation" in err
    assert "  ... 30 earlier messages ..." in err
    assert "● You: question 15" in err and "● You: question 14" not in err
    assert "◆ Hermes: answer 24" in err
    assert err.count("● You:") == 10 and err.count("◆ Hermes:") == 10


def test_recap_cuts_and_hides(run: Run, seed: Seeder) -> None:
    s = seed.session()
    seed.messages(
        s["id"],
        {"role": "system", "content": "SYSTEM SECRET"},
        {"role": "user", "content": "u" * 400},
        {"role": "assistant", "content": "l1\nl2\nl3\nl4\nl5"},
        {
            "role": "user",
            "content": [{"type": "text", "text": "look"}, {"type": "image_url", "image_url": {}}],
        },
        {"role": "assistant", "content": "a" * 250},
        {"role": "user", "content": "tools please"},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {"id": f"c{i}", "type": "function", "function": {"name": name, "arguments": "{}"}}
                for i, name in enumerate(["a", "b", "a", "c", "d", "e"])
            ],
        },
        {"role": "tool", "content": "TOOL OUTPUT", "tool_call_id": "c0"},
        {"role": "assistant", "content": "<REASONING_SCRATCHPAD>hidden plan</REASONING_SCRATCHPAD>visible"},
        {"role": "assistant", "content": ""},
    )
    err = run("-r", s["id"]).stderr
    assert "● You: " + "u" * 300 + "..." in err and "u" * 301 not in err
    assert "◆ Hermes: l1" in err and "l3 ..." in err and "l4" not in err
    assert "look [image]" in err
    assert "◆ Hermes: " + "a" * 200 + "..." in err
    assert "[6 tool calls: a, b, c, d, ...]" in err
    assert "visible" in err and "hidden plan" not in err
    assert "SYSTEM SECRET" not in err and "TOOL OUTPUT" not in err
    assert "earlier messages" not in err


def test_minimal_resume_display_turns_the_recap_off(run: Run, seed: Seeder, home: Path) -> None:
    s = seed.session()
    seed.chat(s["id"], 2)
    (home / "config.yaml").write_text("display:\n  resume_display: minimal\n", encoding="utf-8")
    config = load_config({"HERMES_HOME": str(home)})
    assert not config.recap_enabled
    result = run("-r", s["id"], resume_display="minimal")
    assert "↻ Resumed session" in result.stderr and "Previous Conversation" not in result.stderr


def test_config_defaults_and_token_file(home: Path) -> None:
    (home / "api_token").write_text("from-file\n", encoding="utf-8")
    config = load_config({"HERMES_HOME": str(home)})
    assert (config.url, config.token, config.recap_enabled) == ("http://127.0.0.1:8643", "from-file", True)
    env = {"HERMES_HOME": str(home), "HERMES_API_TOKEN": "env", "HERMES_URL": "http://h:1/"}
    assert (load_config(env).token, load_config(env).url) == ("env", "http://h:1")


def test_client_follows_hermes_port_like_the_server(home: Path) -> None:
    assert load_config({"HERMES_HOME": str(home), "HERMES_PORT": "9001"}).url == "http://127.0.0.1:9001"
    explicit = {"HERMES_HOME": str(home), "HERMES_PORT": "9001", "HERMES_URL": "http://h:2"}
    assert load_config(explicit).url == "http://h:2"


def test_resume_refuses_huge_sessions(home: Path) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        assert request.url.path == "/sessions/resolve"
        body: dict[str, Any] = {"id": "big", "requested": "big", "message_count": 20_001, "ended_at": None}
        return httpx.Response(200, json=body)

    http = httpx.Client(base_url="http://x", transport=httpx.MockTransport(handler))
    result = invoke(CliEnv(CliConfig(url="http://x", token=None, home=home), http=http), "-r", "big")
    assert result.exit_code == 1
    assert "20001 messages" in result.stderr


def test_title_show_set_and_conflict(run: Run, seed: Seeder) -> None:
    holder = seed.session(title="taken")
    seed.end(holder["id"])
    s = seed.session()
    assert (
        run("title").stdout
        == f"  Session ID: {s['id']}\n  No title set. Usage: /title <your session title>\n"
    )
    assert run("title", "My", "work").stdout == "  Session title set: My work\n"
    assert run("title").stdout == f"  Session ID: {s['id']}\n  Title: My work\n"
    conflict = run("title", "taken")
    assert conflict.exit_code == 5
    assert conflict.stderr == f"  Title 'taken' is already in use by session {holder['id']}\n"
    empty = run("title", " ")
    assert empty.stderr == "  Title is empty after cleanup. Please use printable characters.\n"
    other = run("title", "--session", holder["id"], "renamed")
    assert other.stdout == "  Session title set: renamed\n"


def test_title_without_any_cli_session(run: Run) -> None:
    result = run("title")
    assert result.exit_code == 1 and "No current CLI session" in result.stderr


def test_new_ends_the_current_session_and_old_stays_resumable(run: Run, seed: Seeder) -> None:
    old = seed.session()
    seed.chat(old["id"], 1)
    result = run("new", "fresh", "start")
    assert result.exit_code == 0, result.output
    new_id = result.stdout.strip()
    assert new_id != old["id"] and len(new_id.split("_")[-1]) == 6
    assert seed.get(new_id)["title"] == "fresh start"
    assert "Session title set: fresh start" in result.stderr
    assert seed.get(old["id"])["end_reason"] == "new_session"
    assert run("-r", old["id"]).stdout == f"{old['id']}\n"
    assert seed.get(old["id"])["end_reason"] == "new_session"


def test_end_prints_the_exit_epilogue(run: Run, seed: Seeder) -> None:
    s = seed.session()
    seed.chat(s["id"], 1)
    result = run("end")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[:4] == [
        "Resume this session with:",
        f"  hermes --resume {s['id']}",
        "",
        f"Session:        {s['id']}",
    ]
    assert lines[4].startswith("Duration:       ") and lines[4].endswith("s")
    assert lines[5] == "Messages:       2 (1 user, 0 tool calls)"
    assert seed.get(s["id"])["end_reason"] == "cli_close"


def test_bare_hermes_prints_help_and_chat_needs_something_to_store(run: Run, seed: Seeder) -> None:
    assert "Usage" in run().stdout
    nothing = run("chat")
    assert nothing.exit_code == 2 and nothing.stdout == ""
    assert "a session is stored only once it has something in it" in nothing.stderr
    assert run("chat", "-q", "   ").exit_code == 2
    assert seed.client.get("/sessions").json()["items"] == []
    result = run("chat", "-q", "Plan the release")
    assert result.exit_code == 0, result.output
    session = seed.get(result.stdout.strip())
    assert session["source"] == "cli" and session["message_count"] == 1
    assert session["preview"] == "Plan the release"
    assert run("-c", "x", "sessions", "list").exit_code == 2


def test_chat_undoes_the_session_when_its_first_message_is_refused(run: Run, seed: Seeder) -> None:
    refused = run("chat", "-q", "bad \x00 text")
    assert refused.exit_code == 1, refused.output
    assert seed.client.get("/sessions").json()["items"] == []


def test_bare_continue_passes_over_ghost_sessions(run: Run, seed: Seeder) -> None:
    now = time.time()
    real = seed.session()
    seed.chat(real["id"], 1, at=now - 100)
    seed.session()  # a ghost: no messages, no title, newer than the real one
    assert run("-c").stdout == f"{real['id']}\n"
    named = seed.session(title="planned")  # titled on purpose: worth continuing though empty
    assert run("-c").stdout == f"{named['id']}\n"


def test_bare_continue_with_only_ghosts(run: Run, seed: Seeder) -> None:
    for _ in range(3):
        seed.session()
    result = run("-c")
    assert result.exit_code == 1
    assert result.stderr == "No previous CLI session found to continue.\n"


def test_chat_resume_appends_and_only_then_reopens(run: Run, seed: Seeder) -> None:
    s = seed.session(title="ongoing")
    seed.chat(s["id"], 1)
    seed.end(s["id"])
    assert run("chat", "-c", "ongoing").exit_code == 0
    assert seed.get(s["id"])["end_reason"] == "cli_close"
    result = run("chat", "-c", "ongoing", "-q", "one more thing")
    assert result.exit_code == 0, result.output
    assert result.stdout == f"{s['id']}\n"
    after = seed.get(s["id"])
    assert after["ended_at"] is None and after["end_reason"] is None and after["message_count"] == 3
