"""The JSON policy (depth, int64 integers, finite numbers, timestamp range) and strict request bodies.

Every refusal here was, before the policy, either a 500 after a commit (a row that poisoned later reads), a
silent change of the stored value, or a typo acted upon. Appends run both through the fast path (no
Idempotency-Key) and through the route (with one): the two must answer alike.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import orjson
import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from app.api.json_body import PolicyRoute
from app.domain import field_rules, json_policy
from app.main import create_app
from app.settings import Settings
from tests.api.problem_assert import assert_problem, stored_messages
from tests.conftest import TOKEN

INT64_MAX = 2**63 - 1
WIDE = ["-99999999999999999999999", str(2**63), str(2**64), str(-(2**63) - 1)]
JSON = {"Content-Type": "application/json"}


def _nested(depth: int) -> str:
    """A JSON array nested ``depth`` levels deep."""
    return "[" * depth + "]" * depth


def _raw_post(client: TestClient, url: str, raw: str | bytes, *, idempotent: bool = False) -> Any:
    headers = {**JSON, "Idempotency-Key": f"key-{hash(raw)}"} if idempotent else JSON
    return client.post(url, content=raw if isinstance(raw, bytes) else raw.encode(), headers=headers)


@pytest.fixture
def sid(client: TestClient) -> str:
    """A fresh session's id."""
    return str(client.post("/sessions", json={"source": "cli"}).json()["id"])


PATHS = pytest.mark.parametrize("idempotent", [False, True], ids=["fast-path", "route"])


# --- the pure policy ---------------------------------------------------------------------------------------


def test_policy_depth_boundary() -> None:
    assert json_policy.loads(_nested(json_policy.MAX_DEPTH)) == (json.loads(_nested(128)), None)
    value, violation = json_policy.loads(_nested(json_policy.MAX_DEPTH + 1))
    assert value is None and violation is not None and violation.code == "json_too_deep"
    assert violation.loc == (0,) * json_policy.MAX_DEPTH


@pytest.mark.parametrize("depth", [1025, 100_000], ids=["past-orjson", "100k"])
def test_policy_any_depth_is_refused_without_recursion(depth: int) -> None:
    # The second document is one orjson refuses early (a lone surrogate): the standard library parses it.
    for doc in (_nested(depth), '["\\ud800", ' + _nested(depth) + "]"):
        _, violation = json_policy.loads(doc)
        assert violation is not None and violation.code == "json_too_deep", doc[:20]


@pytest.mark.parametrize("literal", WIDE)
def test_policy_refuses_integers_beyond_int64(literal: str) -> None:
    _, violation = json_policy.loads(f'{{"a": [1, {literal}]}}')
    assert violation is not None and violation.code == "integer_out_of_range"
    assert violation.loc == ("a", 1)


def test_policy_keeps_int64_extremes_and_real_floats() -> None:
    doc = f"[{INT64_MAX}, {-(2**63)}, 1e19, 1.5e308, -0.0]"
    assert json_policy.loads(doc) == ([INT64_MAX, -(2**63), 1e19, 1.5e308, -0.0], None)


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_policy_refuses_non_finite_numbers(literal: str) -> None:
    _, violation = json_policy.loads(f"[{literal}]")
    assert violation is not None and violation.code == "number_not_finite"


@pytest.mark.parametrize(
    "raw", [b'{"a": "\xb1"}', b"\x80", b"\x00\x00\x00{\x00"], ids=["latin1", "byte", "utf32"]
)
def test_bytes_that_are_not_utf8_are_invalid_json(client: TestClient, sid: str, raw: bytes) -> None:
    for idempotent in (False, True):
        assert_problem(
            _raw_post(client, f"/sessions/{sid}/messages", raw, idempotent=idempotent), 400, "invalid_json"
        )
    assert_problem(_raw_post(client, "/sessions", raw), 400, "invalid_json")


@pytest.mark.parametrize(
    ("value", "ok"),
    [
        (0, True),
        (1.7e9, True),
        (253_402_300_799, True),
        (253_402_300_800, False),
        (-1, False),
        (1e308, False),
    ],
)
def test_timestamp_range(value: float, ok: bool) -> None:
    assert (field_rules.timestamp_problem("timestamp", value) is None) is ok
    assert (field_rules.message_problem({"timestamp": value}) is None) is ok


# --- finding 1: nesting ------------------------------------------------------------------------------------


@PATHS
@pytest.mark.parametrize("field", ["content", "tool_calls", "reasoning_details"])
def test_deep_message_is_refused_and_nothing_stored(
    client: TestClient, settings: Settings, sid: str, field: str, idempotent: bool
) -> None:
    role = "assistant" if field != "content" else "user"
    deep = _nested(254)
    value = f'[{{"id": "c1", "function": {deep}}}]' if field == "tool_calls" else deep
    raw = f'{{"role": "{role}", "{field}": {value}}}'
    resp = _raw_post(client, f"/sessions/{sid}/messages", raw, idempotent=idempotent)
    body = assert_problem(resp, 422, "json_too_deep", extra=("errors",))
    assert body["errors"][0]["loc"][:2] == ["body", field]
    assert stored_messages(settings) == 0
    # What the poisoned row used to break: the listing, search and export of the session.
    assert client.get(f"/sessions/{sid}/messages").status_code == 200
    assert client.get("/search", params={"session_id": sid}).status_code == 200
    assert client.get("/export.jsonl").status_code == 200


@PATHS
def test_a_100k_deep_body_is_a_clean_422(client: TestClient, sid: str, idempotent: bool) -> None:
    raw = f'{{"role": "user", "content": {_nested(100_000)}}}'
    assert_problem(
        _raw_post(client, f"/sessions/{sid}/messages", raw, idempotent=idempotent), 422, "json_too_deep"
    )
    assert_problem(_raw_post(client, "/sessions", f'{{"model_config": {{"a": {_nested(100_000)}}}}}'), 422)
    resp = client.patch(f"/sessions/{sid}", content=f'{{"title": {_nested(5000)}}}', headers=JSON)
    assert_problem(resp, 422, "json_too_deep")


@PATHS
def test_the_deepest_accepted_message_renders_everywhere(
    client: TestClient, sid: str, idempotent: bool, tmp_path: Path
) -> None:
    # The body itself is level 1, so its content may nest 127 levels.
    content = json.loads(_nested(127))
    raw = orjson.dumps({"role": "user", "content": content})
    resp = _raw_post(client, f"/sessions/{sid}/messages", raw, idempotent=idempotent)
    assert resp.status_code == 201, resp.text
    message_id = resp.json()["items"][0]["id"]
    assert client.get(f"/sessions/{sid}/messages/{message_id}").json()["content"] == content
    assert client.get(f"/sessions/{sid}/messages").status_code == 200
    assert client.post(f"/sessions/{sid}/fork", json={}).status_code == 201
    export = client.get("/export.jsonl")
    assert export.status_code == 200
    assert [json.loads(line)["messages"][0]["content"] for line in export.text.splitlines()] == [content] * 2
    # What the API accepted imports again: the export line's envelope does not count against the value.
    fresh = Settings(home=tmp_path / "fresh", api_token=TOKEN, titles_auto=False)
    with TestClient(create_app(fresh), headers={"Authorization": f"Bearer {TOKEN}"}) as other:
        imported = other.post(
            "/import", content=export.content, headers={"Content-Type": "application/jsonl"}
        )
        assert imported.status_code == 200, imported.text
        assert imported.json()["errors"] == [], imported.text
        assert other.get("/export.jsonl").content == export.content
    too_deep = orjson.dumps({"role": "user", "content": [content]})
    assert_problem(_raw_post(client, f"/sessions/{sid}/messages", too_deep, idempotent=idempotent), 422)


# --- finding 4: integers beyond 64 bits --------------------------------------------------------------------


@PATHS
@pytest.mark.parametrize("literal", WIDE)
def test_wide_integer_in_content_is_refused_on_both_paths(
    client: TestClient, settings: Settings, sid: str, literal: str, idempotent: bool
) -> None:
    raw = f'{{"role": "user", "content": [{literal}]}}'
    resp = _raw_post(client, f"/sessions/{sid}/messages", raw, idempotent=idempotent)
    body = assert_problem(resp, 422, "integer_out_of_range", extra=("errors",))
    assert body["errors"][0]["loc"] == ["body", "content", 0]
    assert stored_messages(settings) == 0


@PATHS
def test_int64_extremes_are_stored_exactly(client: TestClient, sid: str, idempotent: bool) -> None:
    raw = f'{{"role": "user", "content": [{INT64_MAX}, {-(2**63)}, 1e19]}}'
    resp = _raw_post(client, f"/sessions/{sid}/messages", raw, idempotent=idempotent)
    assert resp.status_code == 201, resp.text
    assert client.get(f"/sessions/{sid}/messages").json()["items"][0]["content"] == [
        INT64_MAX,
        -(2**63),
        1e19,
    ]


def test_wide_integer_in_model_config_is_refused_and_listing_survives(client: TestClient, sid: str) -> None:
    raw = '{"model_config": {"temperature": 99999999999999999999999}}'
    assert_problem(_raw_post(client, "/sessions", raw), 422, "integer_out_of_range")
    resp = client.patch(f"/sessions/{sid}", content=raw, headers=JSON)
    assert_problem(resp, 422, "integer_out_of_range")
    listing = client.get("/sessions")
    assert listing.status_code == 200
    assert [s["id"] for s in listing.json()["items"]] == [sid]


def test_wide_integer_in_handoff_thread(client: TestClient, sid: str) -> None:
    raw = '{"thread": {"chat_id": 99999999999999999999999}}'
    assert_problem(_raw_post(client, f"/handoff/{sid}/complete", raw), 422, "integer_out_of_range")


@pytest.mark.parametrize("counter", ["input_tokens", "output_tokens", "reasoning_tokens", "api_call_count"])
@pytest.mark.parametrize("value", [2**63, 2**64, -1])
def test_usage_counters_bounded(client: TestClient, sid: str, counter: str, value: int) -> None:
    assert_problem(client.post(f"/sessions/{sid}/usage", json={counter: value}), 422)
    assert client.get(f"/sessions/{sid}").json()[counter] == 0


def test_usage_counter_at_int64_max_is_accepted(client: TestClient, sid: str) -> None:
    resp = client.post(f"/sessions/{sid}/usage", json={"mode": "absolute", "input_tokens": INT64_MAX})
    assert resp.status_code == 200, resp.text
    assert client.get(f"/sessions/{sid}").json()["input_tokens"] == INT64_MAX


@pytest.mark.parametrize("cost", [1e308, 1e13, -0.5])
def test_usage_costs_bounded(client: TestClient, sid: str, cost: float) -> None:
    assert_problem(client.post(f"/sessions/{sid}/usage", json={"estimated_cost_usd": cost}), 422)


# --- finding 2 and 6: unknown members and strict types -----------------------------------------------------


def _ended_session(client: TestClient, title: str) -> str:
    sid = str(client.post("/sessions", json={"title": title}).json()["id"])
    client.post(f"/sessions/{sid}/end", json={"end_reason": "done"})
    return sid


def test_prune_typo_is_refused_not_run(client: TestClient) -> None:
    sid = _ended_session(client, "keepme")
    resp = client.post("/maintenance/prune", json={"title": "keepme", "dryRun": True})
    body = assert_problem(resp, 422, "validation_error", extra=("errors",))
    assert body["errors"][0]["loc"] == ["body", "dryRun"]
    assert client.get(f"/sessions/{sid}").status_code == 200


@pytest.mark.parametrize(
    "body",
    [{"title": "keepme", "dry_run": 0}, {"title": "keepme", "max_messages": False}, {"min_messages": True}],
    ids=["dry_run-0", "max_messages-false", "min_messages-true"],
)
def test_prune_strict_types(client: TestClient, body: dict[str, Any]) -> None:
    sid = _ended_session(client, "keepme")
    assert_problem(client.post("/maintenance/prune", json=body), 422, "validation_error")
    assert client.get(f"/sessions/{sid}").status_code == 200


@pytest.mark.parametrize("member", ["min_messages", "max_messages"])
def test_prune_counts_bounded(client: TestClient, member: str) -> None:
    assert_problem(client.post("/maintenance/prune", json={member: 2**63, "dry_run": True}), 422)
    resp = client.post("/maintenance/prune", json={member: INT64_MAX, "dry_run": True})
    assert resp.status_code == 200, resp.text


@pytest.mark.parametrize("member", ["title", "model", "branch", "provider", "source", "end_reason"])
def test_prune_filters_bounded(client: TestClient, member: str) -> None:
    body = assert_problem(
        client.post("/maintenance/prune", json={member: "x" * 50_001, "dry_run": True}), 422
    )
    assert "1000" in body["detail"]
    resp = client.post("/maintenance/prune", json={member: "x" * 1000, "dry_run": True})
    assert resp.status_code == 200, resp.text


def test_rewind_refuses_true_as_a_message_id(client: TestClient, sid: str) -> None:
    client.post(f"/sessions/{sid}/messages", json={"role": "user", "content": "first"})
    assert_problem(client.post(f"/sessions/{sid}/rewind", json={"message_id": True}), 422)
    assert [m["active"] for m in client.get(f"/sessions/{sid}/messages").json()["items"]] == [True]


@pytest.mark.parametrize(
    "body",
    [
        {"enabled": True, "threads": 0},
        {"enabled": 1},
        {"enabled": "true"},
        {"enabled": True, "threads": "no"},
    ],
)
def test_platform_settings_strict(client: TestClient, body: dict[str, Any]) -> None:
    assert_problem(client.put("/platforms/telegram", json=body), 422, "validation_error")
    assert client.get("/platforms").json()["items"][0]["updated_at"] is None


@pytest.mark.parametrize(
    ("method", "url", "body"),
    [
        ("PATCH", "/sessions/{sid}", {"archived": 1}),
        ("POST", "/sessions/{sid}/messages", {"role": "user", "content": "x", "token_count": True}),
        ("POST", "/sessions/{sid}/messages", {"role": "user", "content": "x", "timestamp": True}),
        ("POST", "/sessions/{sid}/fork", {"message_id": True}),
        ("POST", "/sessions/{sid}/usage", {"input_tokens": True}),
        ("POST", "/sessions/{sid}/usage", {"input_tokens": 1.0}),
        ("POST", "/search", {"around_message_id": True, "session_id": "x"}),
        ("POST", "/handoff", {"session_id": "{sid}", "platform": "telegram", "busy": 1}),
    ],
)
def test_bool_and_int_are_not_interchangeable(
    client: TestClient, settings: Settings, sid: str, method: str, url: str, body: dict[str, Any]
) -> None:
    filled = {k: v.replace("{sid}", sid) if isinstance(v, str) else v for k, v in body.items()}
    resp = client.request(method, url.replace("{sid}", sid), json=filled)
    assert_problem(resp, 422, "validation_error")
    assert stored_messages(settings) == 0


# --- finding 6: timestamps ---------------------------------------------------------------------------------


@PATHS
@pytest.mark.parametrize("stamp", ["1e308", "-1", "253402300800"])
def test_message_timestamp_out_of_range(
    client: TestClient, settings: Settings, sid: str, stamp: str, idempotent: bool
) -> None:
    raw = f'{{"role": "user", "content": "x", "timestamp": {stamp}}}'
    assert_problem(_raw_post(client, f"/sessions/{sid}/messages", raw, idempotent=idempotent), 422)
    assert stored_messages(settings) == 0


def _import(client: TestClient, *lines: dict[str, Any] | bytes) -> dict[str, Any]:
    body = b"\n".join(line if isinstance(line, bytes) else orjson.dumps(line) for line in lines)
    resp = client.post("/import", content=body, headers={"content-type": "application/jsonl"})
    assert resp.status_code == 200, resp.text
    result: dict[str, Any] = resp.json()
    return result


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ({"id": "s1", "source": "cli", "started_at": 1e308}, "timestamp_out_of_range"),
        ({"id": "s1", "source": "cli", "started_at": 1.7e9, "ended_at": -5}, "timestamp_out_of_range"),
        (
            {"id": "s1", "source": "cli", "messages": [{"role": "user", "content": "x", "timestamp": 1e300}]},
            "timestamp_out_of_range",
        ),
        (
            b'{"id": "s1", "source": "cli", "model_config": {"a": 99999999999999999999999}}',
            "integer_out_of_range",
        ),
        (
            b'{"id": "s1", "source": "cli", "messages": [{"role": "user", "content": '
            + _nested(200).encode()
            + b"}]}",
            "json_too_deep",
        ),
    ],
    ids=["started_at", "ended_at", "message-timestamp", "wide-integer", "deep"],
)
def test_import_applies_the_policy(client: TestClient, line: dict[str, Any] | bytes, code: str) -> None:
    result = _import(client, line)
    assert (result["imported"], result["failed"]) == (0, 1)
    assert result["errors"][0]["code"] == code
    assert client.get("/sessions/s1").status_code == 404


# --- query parameters --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "params",
    [{"around_message_id": str(10**30)}, {"window": str(10**30)}, {"limit": str(-(10**30))}],
)
def test_search_integers_bounded(client: TestClient, sid: str, params: dict[str, str]) -> None:
    assert_problem(client.get("/search", params={"session_id": sid, **params}), 422, "validation_error")


def test_huge_last_event_id_is_a_400(client: TestClient) -> None:
    resp = client.get("/events", headers={"Last-Event-ID": str(10**30)})
    assert_problem(resp, 400, "invalid_last_event_id")


# --- the policy covers every body --------------------------------------------------------------------------


def _reachable_objects(spec: dict[str, Any], schema: dict[str, Any], seen: set[str]) -> list[tuple[str, Any]]:
    """Every object schema reachable from ``schema`` (following $ref), with a name to report."""
    found: list[tuple[str, Any]] = []
    stack: list[tuple[str, Any]] = [("body", schema)]
    while stack:
        name, node = stack.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                target = ref.rsplit("/", 1)[-1]
                if target not in seen:
                    seen.add(target)
                    stack.append((target, spec["components"]["schemas"][target]))
                continue
            if node.get("type") == "object" and "properties" in node:
                found.append((name, node))
            stack.extend((name, child) for child in node.values())
        elif isinstance(node, list):
            stack.extend((name, child) for child in node)
    return found


def test_every_json_request_body_forbids_unknown_members(settings: Settings) -> None:
    spec = create_app(settings).openapi()
    checked: list[str] = []
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            content = operation.get("requestBody", {}).get("content", {})
            # The agent dashboard's bodies ignore unknown members, as its own do (tests/dashboard_api).
            if "application/json" not in content or path.startswith("/api/"):
                continue
            seen: set[str] = set()
            for name, schema in _reachable_objects(spec, content["application/json"]["schema"], seen):
                assert schema.get("additionalProperties") is False, (method, path, name)
                checked.append(name)
    assert {"PruneIn", "MessageCreate", "MessageBatch", "SessionCreate", "UsageUpdate", "HomeChannel"} <= set(
        checked
    )


def test_every_route_with_a_body_is_judged_by_the_policy(settings: Settings) -> None:
    app = create_app(settings)
    # FastAPI wraps each included router; the routes stay on the router that declared them.
    routers = [r.original_router for r in app.routes if hasattr(r, "original_router")]
    routes = [r for router in routers for r in router.routes if isinstance(r, APIRoute)]
    with_body = [r for r in routes if r.body_field is not None]
    assert len(with_body) >= 15
    assert [r.path for r in with_body if not isinstance(r, PolicyRoute)] == []


# --- the walk against a plain recursive reading of the policy ---------------------------------------------


def _reference(value: Any, limit: int, loc: tuple[str | int, ...] = (), depth: int = 1) -> str | None:
    """The policy read literally, recursively, in document order: the violation codes a walk may report."""
    if isinstance(value, dict | list):
        if depth > limit:
            return "json_too_deep"
        items = value.items() if isinstance(value, dict) else enumerate(value)
        found = [_reference(child, limit, (*loc, key), depth + 1) for key, child in items]
        return next((code for code in found if code is not None), None)
    if isinstance(value, int) and not isinstance(value, bool) and not -(2**63) <= value < 2**63:
        return "integer_out_of_range"
    if isinstance(value, float) and not math.isfinite(value):
        return "number_not_finite"
    return None


_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.text(max_size=4),
    st.integers(min_value=-(2**70), max_value=2**70),
    # Where orjson's integers end and its floats begin, on both sides.
    st.sampled_from([-(2**63) - 1, -(2**63), 2**63 - 1, 2**63, 2**64 - 1, 2**64, -(2**64)]),
    st.floats(allow_nan=True, allow_infinity=True),
)
_DOCS = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4),
    max_leaves=40,
)


@settings(max_examples=400, deadline=None)
@given(doc=_DOCS, limit=st.integers(min_value=1, max_value=6))
def test_walk_finds_a_violation_exactly_when_the_policy_is_broken(doc: Any, limit: int) -> None:
    violation, _ = json_policy._walk(doc, limit)
    expected = _reference(doc, limit)
    assert (violation is None) == (expected is None)
    if violation is not None:
        # The reported place holds a violating value of the reported kind.
        node = doc
        for key in violation.loc:
            node = node[key]
        assert violation.code == _reference(node, limit, violation.loc, 1 + len(violation.loc))


@settings(max_examples=200, deadline=None)
@given(doc=_DOCS)
def test_loads_judges_the_exact_document(doc: Any) -> None:
    # Serialized by the standard library (integers beyond 64 bits and non-finite numbers included), parsed
    # and judged: refused exactly when the exact document breaks the policy.
    source = json.dumps(doc)
    value, violation = json_policy.loads(source)
    expected = _reference(json.loads(source), json_policy.MAX_DEPTH)
    assert (violation is None) == (expected is None), source
    if violation is None:
        assert value == json.loads(source)


@pytest.mark.parametrize(
    ("cell", "code"),
    [
        ("9223372036854775808", json_policy.INTEGER_OUT_OF_RANGE),
        ("-9223372036854775809", json_policy.INTEGER_OUT_OF_RANGE),
        ("1e400", json_policy.NUMBER_NOT_FINITE),
        ("[1e400]", json_policy.NUMBER_NOT_FINITE),
        ("12.5", None),
        ("9.3e18", None),
        ('"text"', None),
        ("true", None),
    ],
)
def test_a_table_of_rows_is_judged_as_its_cells(cell: str, code: str | None) -> None:
    # Sync's message rows are judged a column at a time; a cell breaking the policy is still found, where
    # it is.
    rows = ", ".join(f'[{i}, "m", 1.5, null, {cell if i == 7 else 0}]' for i in range(20))
    _, violation = json_policy.loads(f'{{"rows": [{rows}]}}'.encode())
    assert (violation and violation.code) == code
    if violation is not None:
        assert violation.loc[:3] == ("rows", 7, 4)
