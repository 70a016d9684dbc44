"""What the schemathesis runs share: the checks every response must pass, the hypothesis settings, and
builders of the per-seed tests and the stateful machine for one app's schema."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, seed, settings
from schemathesis import checks as st_checks
from schemathesis.python import asgi
from schemathesis.specs.openapi import checks as oa_checks

from tests.conftest import TOKEN
from tests.sizes import sized

MAX_EXAMPLES = sized(12, 200)
STATEFUL_EXAMPLES = sized(8, 100)
AUTH = {"Authorization": f"Bearer {TOKEN}"}
# Event streams never end (an in-process client would wait forever) and claims long-poll up to 60 s:
# tests/events and tests/handoff cover those three. /mcp is a JSON-RPC transport whose bodies and answers
# are the MCP SDK's, not ours: tests/mcp drives it with the SDK's own client and with malformed messages.
UNFUZZED = ["events-stream", "sessions-events", "handoff-claim", "mcp-message"]

RESPONSE_CHECKS = [
    oa_checks.status_code_conformance,
    oa_checks.content_type_conformance,
    oa_checks.response_headers_conformance,
    oa_checks.response_schema_conformance,
]
CHECKS = [st_checks.not_a_server_error, *RESPONSE_CHECKS]
SETTINGS = settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.function_scoped_fixture,
    ],
)


ALL_PHASES = ("examples", "coverage", "fuzzing", "stateful")
SEEDED_PHASES = ("examples", "fuzzing")
"""The phases a seed changes. The coverage phase's cases are derived from the spec alone (the same under
every seed), and schemathesis builds them when the tests are collected: one schema with every phase serves
the first seed, one with these the others, so each coverage case is built and sent once."""


def fuzzed_schema(app: Any, phases: tuple[str, ...] = ALL_PHASES) -> Any:
    """The app's schema, with ``phases``, the never-ending operations left out."""
    schema = schemathesis.openapi.from_asgi("/openapi.json", app).exclude(operation_id=UNFUZZED)
    schema.config.generation.update(max_examples=MAX_EXAMPLES, database="none")
    schema.config.phases.update(phases=list(phases))
    return schema


def fuzz_test(schema: Any, seed_value: int, checks: list[Any]) -> Callable[..., None]:
    """One seed's examples, coverage and fuzzing phases over every operation, each response checked."""

    @schema.parametrize()
    @seed(seed_value)
    @SETTINGS
    def test(case: schemathesis.Case) -> None:
        case.call_and_validate(headers=AUTH, checks=checks)

    return test


def stateful_test_case(schema: Any, checks: list[Any]) -> Any:
    """The stateful phase as a unittest case: calls chained along the spec's links, authenticated."""

    class Stateful(schema.as_state_machine()):  # type: ignore[misc]
        def get_call_kwargs(self, case: schemathesis.Case) -> dict[str, Any]:
            return {"headers": AUTH}

        def validate_response(self, response: Any, case: schemathesis.Case, **kwargs: Any) -> None:
            case.validate_response(response, checks=checks)

    test_case = Stateful.TestCase
    test_case.settings = settings(
        SETTINGS, max_examples=STATEFUL_EXAMPLES, stateful_step_count=6, database=None
    )
    return test_case


def module_teardown(home: Path, *also: Callable[[], None]) -> Any:
    """An autouse module fixture: after the module, stop the app schemathesis started, run ``also`` and
    remove ``home``."""

    @pytest.fixture(scope="module", autouse=True)
    def close_app() -> Iterator[None]:
        yield
        asgi.shutdown_lifespans()
        for cleanup in also:
            cleanup()
        shutil.rmtree(home, ignore_errors=True)

    return close_app
