"""Numbers longer than Python converts (4,300 digits, ``sys.get_int_max_str_digits``): a 422 on every JSON
endpoint, as a literal in a body and as text, never a 500."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from tests.api.problem_assert import assert_problem

JSON = {"Content-Type": "application/json"}
DIGITS = "9" * 5000


def _json_operations(client: TestClient) -> list[tuple[str, str]]:
    """``(method, path)`` of every operation that takes a JSON body, path parameters filled in."""
    spec = client.get("/openapi.json").json()
    return [
        (method.upper(), re.sub(r"\{[^}]+\}", "x", path))
        for path, item in spec["paths"].items()
        for method, operation in item.items()
        if "application/json" in operation.get("requestBody", {}).get("content", {})
    ]


@pytest.mark.parametrize("literal", [DIGITS, "-" + DIGITS, "[1, " + DIGITS + "]"])
def test_a_huge_integer_literal_is_a_422_on_every_json_endpoint(client: TestClient, literal: str) -> None:
    operations = _json_operations(client)
    assert len(operations) > 20
    body = ('{"n": ' + literal + ', "s": "\\ud800"}').encode()
    for method, path in operations:
        for raw in (b'{"n": ' + literal.encode() + b"}", body):
            resp = client.request(method, path, content=raw, headers=JSON)
            if path.startswith("/api/"):
                # The agent dashboard's routes answer in its bodies: FastAPI's list of problems.
                assert resp.status_code == 422, (method, path)
                assert resp.json()["detail"][0]["type"] == "integer_out_of_range", (method, path)
            elif path == "/mcp":
                # MCP answers in JSON-RPC: a parse error, never a 500.
                assert resp.status_code == 400, (method, path)
                assert resp.json()["error"]["code"] == -32700, (method, path)
            else:
                assert_problem(resp, 422, "integer_out_of_range", extra=("errors",))


def test_a_huge_integer_literal_appended_through_the_fast_path(client: TestClient) -> None:
    sid = client.post("/sessions", json={"source": "cli"}).json()["id"]
    raw = ('{"role": "user", "content": [' + DIGITS + "]}").encode()
    resp = client.post(f"/sessions/{sid}/messages", content=raw, headers=JSON)
    assert_problem(resp, 422, "integer_out_of_range", extra=("errors",))
    assert client.get(f"/sessions/{sid}/messages").json()["items"] == []


@pytest.mark.parametrize("text", [DIGITS, "1" * 100, "-" + DIGITS])
def test_numbers_as_text_of_any_length_are_a_422(client: TestClient, text: str) -> None:
    sid = client.post("/sessions", json={"source": "cli"}).json()["id"]
    assert_problem(client.get("/sessions", params={"limit": text}), 422, extra=("errors",))
    for export in ("/export.jsonl", "/export"):
        assert_problem(client.get(export, params={"since": text}), 422, extra=("errors",))
    for body in ({"input_tokens": text}, {"model_config": '{"t": ' + text + "}"}):
        assert_problem(client.patch(f"/sessions/{sid}", json=body), 422, extra=("errors",))
    assert_problem(client.post(f"/sessions/{sid}/usage", json={"input_tokens": text}), 422, extra=("errors",))
