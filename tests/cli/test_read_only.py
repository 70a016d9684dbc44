"""Reading never writes: every read command and read endpoint leaves the sessions table as it was.

Before the fix ``hermes -r``/``-c``/``browse`` reopened the session they showed, so an ended cron session that
was only looked at lost ``cron_complete`` and could never be pruned.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi.testclient import TestClient

from app.settings import Settings
from tests.cli.conftest import Run, Seeder, snapshot_rows


def _seed(seed: Seeder) -> dict[str, dict[str, Any]]:
    cli = seed.session(title="my project")
    seed.chat(cli["id"], 3)
    seed.messages(
        cli["id"],
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "grep", "arguments": "{}"}}],
        },
        {"role": "tool", "content": "found", "tool_call_id": "c1", "tool_name": "grep"},
    )
    seed.end(cli["id"], "cli_close")
    cron = seed.session(source="cron", title="nightly report")
    seed.chat(cron["id"], 2)
    seed.end(cron["id"], "cron_complete")
    return {"cli": cli, "cron": cron}


def test_every_read_command_leaves_the_rows_untouched(run: Run, seed: Seeder, settings: Settings) -> None:
    made = _seed(seed)
    cli_id, cron_id = made["cli"]["id"], made["cron"]["id"]
    before = snapshot_rows(settings)
    commands: list[tuple[tuple[str, ...], str | None]] = [
        (("-r", cli_id), None),
        (("-r", cron_id), None),
        (("-r", cron_id[:-2]), None),
        (("--resume", "latest"), None),
        (("-c",), None),
        (("-c", "my project"), None),
        (("-c", "nightly report"), None),
        (("chat", "-r", cron_id), None),
        (("chat", "-c"), None),
        (("title", "-s", cli_id), None),
        (("sessions", "show", cron_id), None),
        (("sessions", "show", cron_id, "--messages"), None),
        (("sessions", "show", cli_id, "--messages", "--tools", "--format", "md"), None),
        (("sessions", "browse"), "1\n"),
        (("sessions", "browse", "--source", "cron"), "1\n"),
        (("sessions", "list"), None),
        (("sessions", "list", "--workspace", "nowhere"), None),
        (("sessions", "search", "question"), None),
        (("sessions", "export", "-"), None),
        (("sessions", "export", "-", "--session-id", cron_id), None),
        (("sessions", "stats"), None),
        (("sessions", "insights"), None),
        (("sessions", "prune", "--source", "cron", "--older-than", "0", "--dry-run"), None),
    ]
    for args, stdin in commands:
        result = run(*args, input=stdin)
        assert result.exit_code == 0, (args, result.output)
        assert snapshot_rows(settings) == before, f"`hermes {' '.join(args)}` changed the store"


def test_every_read_endpoint_leaves_the_rows_untouched(
    client: TestClient, seed: Seeder, settings: Settings
) -> None:
    made = _seed(seed)
    before = snapshot_rows(settings)
    for sid in (made["cli"]["id"], made["cron"]["id"]):
        path = f"/sessions/{quote(sid, safe='')}"
        first = client.get(f"{path}/messages", params={"limit": 1}).json()["items"][0]["id"]
        reads: list[tuple[str, dict[str, Any]]] = [
            (path, {}),
            (path, {"include": "system_prompt"}),
            ("/sessions/resolve", {"ref": sid}),
            ("/sessions/resolve", {"ref": sid[:-2]}),
            ("/sessions/resolve", {"latest": "true", "source": "cron"}),
            ("/sessions/resolve", {"latest": "true"}),
            (f"{path}/recap", {}),
            (f"{path}/lineage", {}),
            (f"{path}/messages", {}),
            (f"{path}/messages", {"around": first, "window": 2}),
            (f"{path}/messages/{first}", {}),
            ("/search", {"q": "question"}),
            ("/search", {"session_id": sid}),
            ("/search", {"session_id": sid, "around_message_id": first}),
            ("/search", {}),
            ("/export.jsonl", {}),
            ("/export.jsonl", {"session_id": sid}),
            ("/sessions", {"include_archived": "true", "status": "ended"}),
            ("/stats", {}),
        ]
        for url, params in reads:
            response = client.get(url, params=params)
            assert response.status_code == 200, (url, params, response.text)
            assert snapshot_rows(settings) == before, f"GET {url} {params} changed the store"
    response = client.post("/search", json={"q": "answer"})
    assert response.status_code == 200 and snapshot_rows(settings) == before


def test_a_looked_at_cron_session_can_still_be_pruned(run: Run, seed: Seeder) -> None:
    cron = _seed(seed)["cron"]
    assert run("-r", cron["id"]).exit_code == 0
    assert run("-c", "nightly report").exit_code == 0
    after = seed.get(cron["id"])
    assert after["end_reason"] == "cron_complete" and after["ended_at"] is not None
    pruned = run("sessions", "prune", "--source", "cron", "--end-reason", "cron_complete", "--yes")
    assert pruned.stdout.endswith("Pruned 1 session(s).\n"), pruned.output
