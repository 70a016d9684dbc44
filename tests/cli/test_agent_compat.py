"""The CLI over sessions the real agent wrote, and the agent reading what the CLI changed."""

from __future__ import annotations

from pathlib import Path

import hermes_state
from fastapi.testclient import TestClient

from tests.cli.conftest import Run


def test_cli_reads_and_changes_agent_written_sessions(
    sqlite_only: None, run: Run, client: TestClient, home: Path
) -> None:
    agent = hermes_state.SessionDB(db_path=home / "state.db")
    try:
        agent.create_session("20260412_143005_a1b2c3", source="cli")
        agent.append_message("20260412_143005_a1b2c3", "user", "Help me refactor the auth module, please")
        agent.append_message("20260412_143005_a1b2c3", "assistant", "Sure.")
        agent.set_session_title("20260412_143005_a1b2c3", "Refactor auth module")
        agent.end_session("20260412_143005_a1b2c3", "cli_close")
        agent.create_session("20260620_204135_bf20d558", source="telegram")

        lines = run("sessions", "list").stdout.splitlines()
        assert lines[0].startswith("Title")
        row = next(line for line in lines if line.endswith("20260412_143005_a1b2c3"))
        assert row.startswith(f"{'Refactor auth module':<32} {'Help me refactor the auth module, plea':<40} ")

        resumed = run("-c", "Refactor auth module")
        assert resumed.stdout == "20260412_143005_a1b2c3\n"
        assert '"Refactor auth module" (1 user message, 2 total messages)' in resumed.stderr
        assert run("sessions", "rename", "20260412_143", "Auth", "rewrite").exit_code == 0
        assert run("sessions", "delete", "-y", "20260620_204135").exit_code == 0

        session = agent.get_session("20260412_143005_a1b2c3")
        # Looking (-c) left it ended; only the append below reopens it.
        assert session["title"] == "Auth rewrite" and session["end_reason"] == "cli_close"
        assert agent.get_session("20260620_204135_bf20d558") is None

        appended = run("chat", "-r", "20260412_143005_a1b2c3", "-q", "And the tests too")
        assert appended.exit_code == 0, appended.output
        session = agent.get_session("20260412_143005_a1b2c3")
        assert session["ended_at"] is None and session["end_reason"] is None
        conversation = agent.get_messages_as_conversation("20260412_143005_a1b2c3")
        assert (conversation[-1]["role"], conversation[-1]["content"]) == ("user", "And the tests too")
    finally:
        agent.close()
