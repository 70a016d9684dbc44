"""Where our dashboard API answers otherwise than the agent's 0.19.0 dashboard, on purpose: each difference
stated once, with both answers (docs/dashboard-api.md lists them)."""

from __future__ import annotations

import pytest

from tests.dashboard_api.conftest import AGENT_TOKEN, NEEDLE, TOKEN, Pair

HUGE = 10**20


def test_search_goes_past_the_agents_first_fifty_hits(reads: Pair) -> None:
    """The dashboard reads at most max(5 x limit, 50) message hits and groups them by conversation, so the
    sixty best hits, all in one session, hide the next session; ours reads on until ``limit`` conversations
    are found, over the whole store."""
    (_, theirs), (_, ours) = reads.both("GET", "/api/sessions/search", params={"q": NEEDLE, "limit": 3})
    assert [r["session_id"] for r in theirs["results"]] == ["hits"]
    assert [r["session_id"] for r in ours["results"]] == ["hits", "onehit"]


def test_search_snippets_are_trimmed(reads: Pair) -> None:
    """The agent's index text ends with a message's tool fields, so its snippets end in spaces; ours are
    trimmed, as ``GET /search`` gives them."""
    (_, theirs), (_, ours) = reads.both("GET", "/api/sessions/search", params={"q": "walrus"})
    assert [r["snippet"] for r in theirs["results"]] == [r["snippet"] + "  " for r in ours["results"]]


def test_a_nul_in_a_search_finds_no_session_id(reads: Pair) -> None:
    """The dashboard matches ``q`` as an id substring with LIKE, where a NUL matches every id; ours matches
    ids by prefix, and no id holds a NUL."""
    (_, theirs), (_, ours) = reads.both("GET", "/api/sessions/search", params={"q": "\x00"})
    assert len(theirs["results"]) == 20 and ours == {"results": []}


@pytest.mark.parametrize("limit", [0, -1, 101, 10_000])
def test_a_listing_page_holds_1_to_100_rows(reads: Pair, limit: int) -> None:
    """0.20's cap: a page outside 1..100 is a 422 (0.19.0 answers 0 rows, or every row for a negative
    limit, and would read a page of any size)."""
    (their_status, _), (our_status, ours) = reads.both("GET", "/api/sessions", params={"limit": limit})
    assert their_status == 200 and our_status == 422
    assert ours["detail"][0]["loc"] == ["query", "limit"]


@pytest.mark.parametrize(
    ("url", "param"),
    [
        ("/api/sessions", "offset"),
        ("/api/sessions/plain01/messages", "offset"),
    ],
)
def test_positions_beyond_any_store_are_refused(reads: Pair, url: str, param: str) -> None:
    """A position past what SQLite can count is a 500 there and a 422 here; a negative listing offset, which
    the dashboard echoes while reading from the start, is a 422 too."""
    (their_status, _), (our_status, ours) = reads.both("GET", url, params={param: HUGE})
    assert their_status == 500 and our_status == 422
    assert ours["detail"][0]["loc"] == ["query", param]
    (their_status, _), (our_status, _) = reads.both("GET", "/api/sessions", params={"offset": -1})
    assert their_status == 200 and our_status == 422


def test_a_huge_message_count_filter_is_a_filter(reads: Pair) -> None:
    """``min_messages`` beyond SQLite's integers is a 500 there; here it simply matches nothing."""
    (their_status, _), (our_status, ours) = reads.both("GET", "/api/sessions", params={"min_messages": HUGE})
    assert their_status == 500 and our_status == 200 and ours["sessions"] == []


def test_status_names_this_server(reads: Pair) -> None:
    """``/api/status`` (no token needed on either side) gives the version a probe looks for, and no gateway,
    path or profile details: this server runs no gateway and shows no paths."""
    theirs = reads.theirs.get("/api/status", headers={"X-Hermes-Session-Token": ""})
    ours = reads.ours.get("/api/status", headers={"X-Hermes-Session-Token": ""})
    assert theirs.status_code == ours.status_code == 200
    assert "version" in theirs.json() and "hermes_home" in theirs.json()
    assert ours.json() == {
        "version": ours.json()["version"],
        "server": "hermes-sessions",
        "auth_required": True,
    }


def test_an_import_answers_counts(pair: Pair) -> None:
    """An import answers the dashboard's counts without its lists of ids; a refused session is reported by
    line, with our code, and the others still go in (the dashboard refuses the whole payload)."""
    good = pair.ours.get("/api/sessions/plain01/export").json()
    good["id"] = "copy01"
    payload = {"sessions": [good, {"source": "cli"}]}
    (their_status, theirs), (our_status, ours) = pair.both("POST", "/api/sessions/import", json=payload)
    assert their_status == our_status == 400
    assert theirs["detail"]["errors"] == [{"index": 1, "error": "session id is required"}]
    assert ours["detail"]["imported"] == 1
    assert ours["detail"]["errors"] == [
        {"line": 2, "code": "invalid_session", "detail": "session id is required"}
    ]


def test_pinned_and_open_sessions_outlive_empty_deletes_and_prunes(pair: Pair) -> None:
    """Ours keeps its own rules: a pinned session (0.20's ``pinned``, which 0.19.0 ignores) is left by
    ``DELETE /api/sessions/empty`` and by prune, and neither ever takes an open session."""
    theirs, ours = pair.both("PATCH", "/api/sessions/empty0", json={"pinned": True})
    assert theirs == (400, {"detail": "Nothing to update; provide 'title' and/or 'archived'."})
    assert ours == (200, {"ok": True, "title": "", "pinned": True})
    assert pair.ours.get("/api/sessions/empty/count").json() == {"count": 1}
    assert pair.ours.delete("/api/sessions/empty").json() == {"ok": True, "deleted": 1}
    assert pair.ours.get("/api/sessions/empty0").status_code == 200
    pair.ours.patch("/api/sessions/plain00", json={"pinned": True})
    dry = pair.ours.post("/api/sessions/prune", json={"older_than_days": 1, "dry_run": True}).json()
    assert [s["id"] for s in dry["sessions"]] == ["plain05", "plain10", "chainroot"]
    pruned = pair.ours.post("/api/sessions/prune", json={"older_than_days": 1, "include_archived": True})
    assert pruned.json() == {"ok": True, "removed": 4}
    kept = pair.ours.get("/api/sessions", params={"limit": 100, "archived": "include"}).json()["sessions"]
    assert "plain00" in {s["id"] for s in kept}
    assert {s["id"] for s in kept if s["ended_at"] is not None} == {"plain00", "empty0"}


def test_the_bearer_scheme_is_case_insensitive(reads: Pair) -> None:
    """Auth schemes are case-insensitive, as for the rest of our API; the dashboard wants ``Bearer``."""
    theirs = reads.agent(
        "GET", "/api/sessions", headers={"X-Hermes-Session-Token": "", **_bearer(AGENT_TOKEN)}
    )
    ours = reads.ours.get("/api/sessions", headers={"X-Hermes-Session-Token": "", **_bearer(TOKEN)})
    assert theirs.status_code == 401 and ours.status_code == 200


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"bearer {token}"}
