"""The generated Python client (openapi/client): current with the spec, and usable against a live server."""

from __future__ import annotations

import filecmp
import importlib.util
import json
from pathlib import Path

import pytest

from tests.conftest import ROOT, TOKEN, LiveServer

CLIENT_DIR = ROOT / "openapi" / "client"


def _load_generator() -> object:
    spec = importlib.util.spec_from_file_location("generate_client", ROOT / "openapi" / "generate_client.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _tree(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts}


def test_generated_client_matches_the_spec(tmp_path: Path) -> None:
    """Regenerating from openapi/openapi.json gives exactly the committed client (else: `make client`)."""
    fresh = tmp_path / "client"
    _load_generator().generate(fresh)  # type: ignore[attr-defined]
    committed, generated = _tree(CLIENT_DIR), _tree(fresh)
    assert committed == generated, "openapi/client is stale (files differ): run `make client`"
    _, mismatch, errors = filecmp.cmpfiles(CLIENT_DIR, fresh, sorted(generated), shallow=False)
    assert not mismatch and not errors, f"openapi/client is stale ({mismatch or errors}): run `make client`"


def _operations() -> set[str]:
    spec = json.loads((ROOT / "openapi" / "openapi.json").read_text(encoding="utf-8"))
    return {
        op["operationId"] for path in spec["paths"].values() for op in path.values() if "operationId" in op
    }


def test_generated_client_drives_a_live_server(live_server: LiveServer) -> None:
    """Create, append, list, search and export through the generated code. Operations not yet in the
    committed spec (so not yet in the client) are skipped; the staleness test keeps the two in step."""

    from openapi.client import AuthenticatedClient
    from openapi.client.api.sessions import sessions_create, sessions_list
    from openapi.client.models import SessionCreate, SessionPage, SessionPublic

    operations = _operations()
    client = AuthenticatedClient(base_url=live_server.base_url, token=TOKEN)
    with client:
        created = sessions_create.sync(
            client=client, body=SessionCreate.from_dict({"source": "cli", "title": "générée"})
        )
        assert isinstance(created, SessionPublic) and created.title == "générée"
        expected_messages = 0

        if "messages-append" in operations:
            from openapi.client.api.messages import messages_append
            from openapi.client.models import MessageBatch, MessageItems

            batch = MessageBatch.from_dict(
                {
                    "messages": [
                        {"role": "user", "content": "how do I prune docker images"},
                        {"role": "assistant", "content": "docker image prune -a"},
                    ]
                }
            )
            appended = messages_append.sync(created.id, client=client, body=batch)
            assert isinstance(appended, MessageItems)
            assert [m.role for m in appended.items] == ["user", "assistant"]
            expected_messages = 2

        page = sessions_list.sync(client=client, limit=5)
        assert isinstance(page, SessionPage)
        assert [s.id for s in page.items] == [created.id]
        assert page.items[0].message_count == expected_messages

        if "search-run" in operations and expected_messages:
            from openapi.client.api.search import search_run
            from openapi.client.models import DiscoverResponse

            found = search_run.sync(client=client, q="docker")
            assert isinstance(found, DiscoverResponse) and found.mode == "discover"
            assert [r.session_id for r in found.results] == [created.id]

        if "export-sessions" in operations:
            from openapi.client.api.transfer import export_sessions

            exported = export_sessions.sync_detailed(client=client, session_id=created.id)
            assert exported.status_code == 200
            record = json.loads(exported.content.decode("utf-8"))
            assert record["title"] == "générée" and len(record["messages"]) == expected_messages


@pytest.mark.parametrize("forbidden", ["app", "fastapi", "sqlite3"])
def test_generated_client_is_standalone(forbidden: str) -> None:
    """The client imports only attrs and httpx: nothing of the server."""
    sources = "\n".join(p.read_text(encoding="utf-8") for p in CLIENT_DIR.rglob("*.py"))
    assert f"import {forbidden}" not in sources and f"from {forbidden}" not in sources
