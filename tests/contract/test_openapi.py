"""The committed OpenAPI document is the contract: it must match the app and follow the conventions."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import orjson
import pytest

from app.openapi_export import render

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "openapi" / "openapi.json"
OPERATION_ID = re.compile(r"^[a-z]+(-[a-z]+)+$")
HTTP_METHODS = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}
# Probes answer without a token.
PUBLIC_PATHS = {"/healthz", "/readyz", "/metrics"}
PROBLEM_REF = "#/components/schemas/Problem"


@pytest.fixture(scope="module")
def fresh() -> bytes:
    """The document generated from the code as it is now."""
    return render()


@pytest.fixture(scope="module")
def spec(fresh: bytes) -> dict[str, Any]:
    """The fresh document, parsed."""
    parsed: dict[str, Any] = orjson.loads(fresh)
    return parsed


def _operations(spec: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, op)
        for path, item in spec["paths"].items()
        for method, op in item.items()
        if method in HTTP_METHODS
    ]


def test_committed_document_matches_the_app(fresh: bytes) -> None:
    committed = COMMITTED.read_bytes() if COMMITTED.exists() else b""
    assert committed == fresh, (
        "openapi/openapi.json is out of date with the routes: run `make openapi` and commit the result."
    )


def test_every_operation_has_a_kebab_case_operation_id(spec: dict[str, Any]) -> None:
    bad = [
        (method.upper(), path, op.get("operationId"))
        for path, method, op in _operations(spec)
        if not OPERATION_ID.match(op.get("operationId") or "")
    ]
    assert not bad, f"operationIds must match {OPERATION_ID.pattern} (name= on the route): {bad}"


def test_operation_ids_are_unique(spec: dict[str, Any]) -> None:
    counts = Counter(op.get("operationId") for _, _, op in _operations(spec))
    assert not [oid for oid, n in counts.items() if n > 1]


def test_protected_operations_document_401(spec: dict[str, Any]) -> None:
    missing = [
        f"{method.upper()} {path}"
        for path, method, op in _operations(spec)
        if path not in PUBLIC_PATHS and "401" not in op.get("responses", {})
    ]
    assert not missing, f"document 401 with operation(..., AUTH or READ): {missing}"


def test_problem_responses_reference_the_problem_schema(spec: dict[str, Any]) -> None:
    assert "Problem" in spec["components"]["schemas"]
    wrong = []
    for path, method, op in _operations(spec):
        for status, response in op.get("responses", {}).items():
            content = response.get("content", {})
            problem = content.get("application/problem+json")
            if problem is not None and problem.get("schema", {}).get("$ref") != PROBLEM_REF:
                wrong.append(f"{method.upper()} {path} {status}")
            # Probes answer their own model (readyz 503 is a Readiness body), everything else problem+json;
            # FastAPI's default 422 (HTTPValidationError) would be a lie, since ours is problem+json.
            if status.startswith(("4", "5")) and problem is None and path not in PUBLIC_PATHS:
                wrong.append(f"{method.upper()} {path} {status} (no application/problem+json body)")
    assert not wrong, f"error responses must be problem+json with the Problem schema: {wrong}"
