"""``hermes sessions show``: titles resolved as ``-c`` does, pinned, home and title source, ``--lineage``."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.cli.conftest import Run, Seeder
from tests.lifecycle.helpers import agent_db, make_session


def _chain(home: Path) -> None:
    """A compression chain the real agent wrote: root → middle → tip, and a branch off the root."""
    db = agent_db(home)
    make_session(db, "root", messages=4, title="Voyage", age_days=0.3, ended=False)
    db.end_session("root", "compression")
    make_session(db, "middle", messages=3, parent="root", age_days=0.2, ended=False)
    db.end_session("middle", "compression")
    make_session(db, "tip", messages=2, parent="middle", ended=False, age_days=0.1)
    db.close()


def test_show_lineage_lists_the_chain_the_agent_renders(run: Run, home: Path) -> None:
    _chain(home)
    db = agent_db(home)
    try:
        expected = {sid: db.get_compression_lineage(sid) for sid in ("root", "middle", "tip")}
        logical = db.export_session_lineage("middle")
    finally:
        db.close()
    for sid, chain in expected.items():
        shown = json.loads(run("sessions", "show", sid, "--lineage", "--json").stdout)
        assert [s["id"] for s in shown["lineage"]] == chain, sid
    text = run("sessions", "show", "middle", "--lineage").stdout
    assert "lineage:            3 segments, root first" in text
    assert re.findall(r"^ [ *] +\d+\. (\S+)", text, re.M) == ["root", "middle", "tip"]
    assert " *  2. middle" in text
    assert logical is not None
    lines = run("sessions", "show", "middle", "--lineage", "--messages", "--jsonl").stdout.splitlines()
    ours = [(m["session_id"], m["role"], m["content"]) for m in map(json.loads, lines)]
    assert ours == [(m["session_id"], m["role"], m["content"]) for m in logical["messages"]]


def test_show_resolves_a_title_as_continue_does_and_says_what_it_shows(run: Run, seed: Seeder) -> None:
    s = seed.session(title="Garden plan")
    seed.chat(s["id"], 1)
    seed.client.put(f"/sessions/{s['id']}/pin")
    result = run("sessions", "show", "Garden plan")
    assert result.exit_code == 0, result.output
    assert f"id:                 {s['id']}" in result.stdout
    assert "title_source:       user" in result.stdout
    assert "pinned:             True" in result.stdout
    assert "home:               \n" in result.stdout
    assert run("sessions", "show", "No such title").exit_code == 3
