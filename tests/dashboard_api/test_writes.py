"""Every changing route answers as the agent's own 0.19.0 dashboard does, and leaves the store as it leaves
its copy: each step is sent to both, then both listings and counts are compared."""

from __future__ import annotations

from typing import Any

from tests.dashboard_api.conftest import Pair

STEPS: list[tuple[str, str, dict[str, Any] | None]] = [
    ("PATCH", "/api/sessions/plain03", {"title": "Renamed"}),
    ("PATCH", "/api/sessions/plain0", {"title": "Ambiguous"}),
    ("PATCH", "/api/sessions/plain03", {"title": "Title 4"}),
    ("PATCH", "/api/sessions/plain03", {"title": "x" * 101}),
    ("PATCH", "/api/sessions/plain03", {"title": "  spaced   out \x00 "}),
    ("PATCH", "/api/sessions/plain03", {"title": ""}),
    ("PATCH", "/api/sessions/tools", {"archived": True}),
    ("PATCH", "/api/sessions/tools1", {"archived": False, "title": "Tools back"}),
    ("PATCH", "/api/sessions/plain07", {"archived": True, "unknown": 1}),
    ("PATCH", "/api/sessions/plain07", {}),
    ("PATCH", "/api/sessions/nope", {"title": "x"}),
    ("DELETE", "/api/sessions/plain04", None),
    ("DELETE", "/api/sessions/plain04", None),
    ("DELETE", "/api/sessions/abcd", None),
    ("DELETE", "/api/sessions/abcd1", None),
    ("POST", "/api/sessions/bulk-delete", {"ids": ["plain05", "nope", "plain05", "plain06", ""]}),
    ("POST", "/api/sessions/bulk-delete", {"ids": []}),
    ("GET", "/api/sessions/empty/count", None),
    ("DELETE", "/api/sessions/empty", None),
    ("GET", "/api/sessions/empty/count", None),
    ("POST", "/api/sessions/prune", {"older_than_days": 1, "dry_run": True}),
    ("POST", "/api/sessions/prune", {"source": "telegram", "dry_run": True}),
    ("POST", "/api/sessions/prune", {"title_like": "title", "include_archived": True, "dry_run": True}),
    ("POST", "/api/sessions/prune", {"started_after": 1_700_000_100, "started_before": 1_700_000_700}),
    ("POST", "/api/sessions/prune", {"older_than_days": 0.5}),
    ("POST", "/api/sessions/prune", {"source": "cron"}),
    ("POST", "/api/sessions/prune", {}),
]


def _listing(pair: Pair) -> tuple[Any, Any]:
    return pair.both("GET", "/api/sessions", params={"limit": 100, "archived": "include"})


def test_each_change_answers_and_lands_alike(pair: Pair) -> None:
    for method, url, body in STEPS:
        theirs, ours = pair.both(method, url, json=body) if body is not None else pair.both(method, url)
        assert ours == theirs, (method, url, body)
        listed_theirs, listed_ours = _listing(pair)
        assert listed_ours == listed_theirs, (method, url, body)
    theirs, ours = pair.both("GET", "/api/sessions/stats")
    assert ours == theirs


def test_an_export_imports_back_alike(pair: Pair) -> None:
    """An exported session imports under a new id on both sides, its messages readable alike; the ids the
    dashboard lists in its answer are the one difference (test_exceptions.test_an_import_answers_counts)."""
    exported = pair.ours.get("/api/sessions/tools1/export").json()
    assert exported == pair.agent("GET", "/api/sessions/tools1/export").json()
    exported["id"] = "tools-copy"
    theirs, ours = pair.both("POST", "/api/sessions/import", json={"sessions": [exported]})
    assert ours[0] == theirs[0] == 200
    assert {k: v for k, v in theirs[1].items() if not k.endswith("_ids")} == ours[1]
    for route in ("", "/messages"):
        theirs, ours = pair.both("GET", f"/api/sessions/tools-copy{route}")
        assert ours == theirs
    theirs, ours = pair.both("POST", "/api/sessions/import", content=b"{not json")
    assert ours == theirs == (400, {"detail": "Invalid session import payload"})
