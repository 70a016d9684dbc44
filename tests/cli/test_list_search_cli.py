"""``hermes sessions list --search/-q``: the server's ``GET /sessions?q=``, paged like any listing."""

from __future__ import annotations

import json

from tests.cli.conftest import Run, Seeder


def _ids(run: Run, *args: str) -> list[str]:
    result = run("sessions", "list", *args, "--jsonl")
    assert result.exit_code == 0, result.output
    return [json.loads(line)["id"] for line in result.stdout.splitlines()]


def test_search_by_title_id_and_preview(run: Run, seed: Seeder) -> None:
    titled = seed.session(title="Water the plants")
    spoken = seed.session()
    seed.messages(spoken["id"], {"role": "user", "content": "how are my PLANTS doing?"})
    named = seed.session(id="plants-by-id")
    seed.session(title="Unrelated")
    expected = [named["id"], spoken["id"], titled["id"]]
    assert _ids(run, "--search", "plants") == expected
    assert _ids(run, "-q", "Plants", "--limit", "2") == expected[:2]
    assert _ids(run, "-q", "plants", "--source", "telegram") == []
    assert run("sessions", "list", "-q", "100%").stdout == "No sessions found.\n"
