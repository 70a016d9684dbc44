"""The schemathesis run of ``test_schemathesis.py`` against the PostgreSQL backend (``make soak``).

Every documented operation, three seeds of examples, coverage and fuzzing, then the stateful phase: no
server error, every response as documented. The operations on the SQLite file itself (repair, vacuum,
backup...) answer 501 ``not_supported_on_backend`` here, as documented; any other 5xx fails. It runs only
with ``HERMES_SOAK=1``: at soak sizes it takes minutes, beyond ``make test``'s budget, and the suite's
PostgreSQL tests already cover each operation on this backend.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
import schemathesis

from app.main import create_app
from app.settings import Settings
from tests.api.fuzzing import (
    RESPONSE_CHECKS,
    fuzz_test,
    fuzzed_schema,
    module_teardown,
    stateful_test_case,
)
from tests.conftest import TOKEN
from tests.pg_cluster import NoPostgres, start_cluster
from tests.sizes import SOAK

if not SOAK:
    pytest.skip("the PostgreSQL fuzzing runs with make soak (HERMES_SOAK=1)", allow_module_level=True)

SEEDS = (11, 23, 31337)

try:
    _CLUSTER = start_cluster()
except NoPostgres as exc:
    pytest.skip(f"no PostgreSQL server on this machine: {exc}", allow_module_level=True)
_HOME = Path(tempfile.mkdtemp(prefix="hermes-fuzz-pg-"))
app = create_app(Settings(home=_HOME, api_token=TOKEN, database_url=_CLUSTER.create_database("fuzz")))
schema = fuzzed_schema(app)


@schemathesis.check
def no_server_error_but_the_documented_501(ctx: Any, response: Any, case: Any) -> None:
    """Any 5xx fails, except the 501 ``not_supported_on_backend`` of the SQLite file's own operations."""
    if response.status_code < 500:
        return
    if response.status_code == 501 and response.json().get("code") == "not_supported_on_backend":
        return
    raise AssertionError(f"server error {response.status_code}: {response.content[:500]!r}")


CHECKS = [no_server_error_but_the_documented_501, *RESPONSE_CHECKS]
_close_app = module_teardown(_HOME, _CLUSTER.stop)

test_api_seed_a, test_api_seed_b, test_api_seed_c = (fuzz_test(schema, s, CHECKS) for s in SEEDS)
TestStateful = stateful_test_case(schema, CHECKS)


def test_a_file_operation_answers_the_documented_501() -> None:
    """The exception the check allows is real: a SQLite file operation answers 501 on this backend."""
    response = schema["/maintenance/repair"]["POST"].Case().call(headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 501
    assert response.json()["code"] == "not_supported_on_backend"
