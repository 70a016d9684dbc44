"""`hermes sessions prune` with the agent's [L] filters and `hermes sessions export --lineage logical`."""

from __future__ import annotations

import json
import time
from pathlib import Path

from app.settings import Settings
from tests.cli.conftest import Run, Seeder
from tests.conftest import RawDatabase


def _age(settings: Settings, session_id: str, days: float) -> None:
    shift = days * 86400
    with RawDatabase(settings) as raw:
        raw.execute(
            "UPDATE sessions SET started_at = started_at - ?, ended_at = ended_at - ? WHERE id = ?",
            (shift, shift, session_id),
        )


def _ids(run: Run) -> set[str]:
    return {
        json.loads(x)["id"] for x in run("sessions", "list", "--jsonl", "--limit", "50").stdout.splitlines()
    }


def test_filters_prune_any_age_and_skip_archived_unless_asked(run: Run, seed: Seeder, home: Path) -> None:
    recent = seed.session(title="Deploy prod")
    archived = seed.session(title="deploy docs")
    open_one = seed.session(title="deploy live")
    other = seed.session(title="notes")
    for s in (recent, archived, other):
        seed.end(s["id"])
    assert seed.client.patch(f"/sessions/{archived['id']}", json={"archived": True}).status_code == 200

    asked = run("sessions", "prune", "--title", "deploy", input="n\n").stdout.splitlines()
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(recent["started_at"]))
    span = f"oldest {when}, newest {when}"
    assert asked == [
        f"1 session(s) match (title contains 'deploy'; {span}):",
        f"  {recent['id']}  {when:<17} {'just now':<10} {'cli':<10} {'-':<24} {0:>4} msgs  Deploy prod",
        "  0 message(s) in all; about 0.0 MB of stored content.",
        "  Keeps 1 more matching session(s): 1 open (never pruned).",
        f"Delete these 1 session(s) ({span})? [y/N] Cancelled.",
    ]
    dry = run("sessions", "prune", "--title", "DEPLOY", "--dry-run").stdout.splitlines()
    assert dry[0].startswith("1 session(s) match (title contains 'DEPLOY'; ")
    assert dry[1].startswith(f"  {recent['id']}  ") and dry[-1] == "Dry run — nothing deleted."
    assert run("sessions", "prune", "--title", "deploy", "--yes").stdout == "Pruned 1 session(s).\n"
    everything = run("sessions", "prune", "--title", "deploy", "--include-archived", "--yes")
    assert everything.stdout == "Pruned 1 session(s).\n"
    left = {
        r["id"] for r in seed.client.get("/sessions", params={"include_archived": "true"}).json()["items"]
    }
    assert left == {open_one["id"], other["id"]}


def test_older_than_durations_and_bad_values(run: Run, seed: Seeder, settings: Settings) -> None:
    old = seed.session(model="openai/gpt-5")
    young = seed.session(model="openai/gpt-5")
    for s in (old, young):
        seed.end(s["id"])
    _age(settings, old["id"], 3)
    bad = run("sessions", "prune", "--older-than", "abc", "--yes")
    assert bad.exit_code == 2 and "Error: Invalid value for --older-than: 'abc'. Use a duration" in bad.stderr
    question = run("sessions", "prune", "--older-than", "2d", "--model", "GPT", input="\n").stdout
    assert (
        question.startswith("1 session(s) match (started before ") and ", model contains 'GPT'; " in question
    )
    assert f"  {old['id']}  " in question and f"{'gpt-5':<24}" in question
    assert question.endswith("? [y/N] Cancelled.\n") and "Delete these 1 session(s) (oldest " in question
    dry = run("sessions", "prune", "--older-than", "2d", "--dry-run", "--json")
    assert json.loads(dry.stdout)["ids"] == [old["id"]]
    nothing = run("sessions", "prune", "--older-than", "1w", "--yes").stdout
    assert nothing.startswith("No sessions match (started before ") and nothing.endswith(").\n")
    both = run("sessions", "prune", "--older-than", "1w", "--before", "2d", "--dry-run", "--json")
    assert json.loads(both.stdout)["ids"] == []  # the tighter bound (1 week) wins
    assert json.loads(run("sessions", "prune", "--before", "2d", "--dry-run", "--json").stdout)["ids"] == [
        old["id"]
    ]
    assert run("sessions", "prune", "--before", "soon").exit_code == 2
    day = time.strftime("%Y-%m-%d", time.gmtime(time.time() - 86400))
    assert run("sessions", "prune", "--older-than", day, "--yes").stdout == "Pruned 1 session(s).\n"
    assert _ids(run) == {young["id"]}


def test_export_lineage_logical(run: Run, seed: Seeder, tmp_path: Path) -> None:
    root = seed.session(title="Voyage")
    seed.chat(root["id"], 2)
    child = seed.client.post(f"/sessions/{root['id']}/continuations", json={})
    assert child.status_code == 201, child.text
    tip = child.json()["id"]
    seed.chat(tip, 1)
    out = tmp_path / "lineage.jsonl"
    result = run("sessions", "export", str(out), "--session-id", tip, "--lineage", "logical")
    assert result.stdout == f"Exported 1 session to {out}\n"
    (record,) = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert record["lineage_session_ids"] == [root["id"], tip]
    assert record["id"] == tip and record["message_count"] == 6 == len(record["messages"])
    assert [len(s["messages"]) for s in record["segments"]] == [4, 2]
    assert run("sessions", "export", "-", "--lineage", "logical").exit_code == 2
    assert run("sessions", "export", "-", "--session-id", tip, "--lineage", "deep").exit_code == 2


def test_prune_dry_run_says_what_it_keeps_and_why(run: Run, seed: Seeder) -> None:
    ended, pinned, _open = (seed.session(title=f"trip {n}") for n in range(3))
    for s in (ended, pinned):
        seed.end(s["id"])
    assert seed.client.put(f"/sessions/{pinned['id']}/pin").status_code in (200, 204)
    dry = run("sessions", "prune", "--title", "trip", "--dry-run").stdout.splitlines()
    assert dry[0].startswith("1 session(s) match (title contains 'trip'; ")
    assert dry[-2:] == [
        "  Keeps 2 more matching session(s): 1 open, 1 pinned (never pruned).",
        "Dry run — nothing deleted.",
    ]
    answer = json.loads(run("sessions", "prune", "--title", "trip", "--dry-run", "--json").stdout)
    assert (answer["kept_open"], answer["kept_pinned"]) == (1, 1)
