"""Property-based fuzzing of every documented operation: no 5xx, and every response as documented.

Three seeds through schemathesis' examples and fuzzing phases, the first also through the coverage phase
(boundaries and negative values of every documented rule, the same cases under any seed), then the stateful
phase, which chains calls along the spec's OpenAPI
links (a created session's id into get, append, fork...; an appended message's id into get and rewind).
The coverage phase sends each documented bound and its neighbours, so every rule the server enforces is
written into the spec. ``HERMES_SOAK=1`` runs many more examples.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from app.main import create_app
from app.settings import Settings
from app.storage.sqlite.driver import sqlite3
from tests.api.fuzzing import (
    AUTH,
    CHECKS,
    SEEDED_PHASES,
    fuzz_test,
    fuzzed_schema,
    module_teardown,
    stateful_test_case,
)
from tests.conftest import TOKEN

SEEDS = (20261130, 7, 424242)

# One app for the whole module: schemathesis starts its lifespan (opening state.db) on first use.
_HOME = Path(tempfile.mkdtemp(prefix="hermes-fuzz-"))
app = create_app(Settings(home=_HOME, api_token=TOKEN))
schema = fuzzed_schema(app)
reseeded = fuzzed_schema(app, SEEDED_PHASES)
_close_app = module_teardown(_HOME)

test_api_seed_a = fuzz_test(schema, SEEDS[0], CHECKS)
test_api_seed_b, test_api_seed_c = (fuzz_test(reseeded, s, CHECKS) for s in SEEDS[1:])
TestStateful = stateful_test_case(schema, CHECKS)


def test_the_spec_links_created_sessions_and_messages() -> None:
    """The stateful phase has links to follow: from a created session and from an appended message."""
    spec = app.openapi()
    created = spec["paths"]["/sessions"]["post"]["responses"]["201"]["links"]
    appended = spec["paths"]["/sessions/{session_id}/messages"]["post"]["responses"]["201"]["links"]
    assert {"GetSession", "AppendMessages", "ForkSession"} <= set(created)
    assert {"GetMessage", "RewindToMessage"} <= set(appended)


def test_fuzzing_reaches_the_handlers() -> None:
    """Guard against a silently useless run (e.g. every request refused with 401): a case built from the same
    schema and sent with the same headers as the fuzzing gets through to the handler and stores a session."""
    case = schema["/sessions"]["POST"].Case(body={"source": "cli"})
    response = case.call(headers=AUTH)
    assert response.status_code == 201, response.text
    conn = sqlite3.connect(_HOME / "state.db")
    try:
        stored = conn.execute(
            "SELECT COUNT(*) FROM sessions WHERE id = ?", (response.json()["id"],)
        ).fetchone()
    finally:
        conn.close()
    assert stored == (1,)
