"""Every read route answers as the agent's own 0.19.0 dashboard does on a copy of the same state.db: the same
status and the same JSON, for a generated set of parameters. Where ours differs on purpose, the difference
is stated in ``test_exceptions.py``; the only one these tests allow for is the search snippet's trailing
whitespace (see :func:`trimmed`)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.dashboard_api.conftest import NEEDLE, Pair

IDS = [
    "plain00",
    "plain01",
    "plain05",
    "tools1",
    "chainroot",
    "chaintip",
    "branched",
    "delegate",
    "archived1",
    "empty0",
    "empty2",
    "hits",
]
# Unique prefixes, ambiguous ones (abcd: abcd1 and abcd2), none, and LIKE's own wildcards.
PREFIXES = ["tool", "chainr", "abcd1", "abcd", "plain0", "p", "nope", "%", "_", "plain0_"]

listing_params = st.fixed_dictionaries(
    {},
    optional={
        "limit": st.integers(1, 100),
        "offset": st.integers(0, 30),
        "order": st.sampled_from(["created", "recent"]),
        "archived": st.sampled_from(["exclude", "only", "include"]),
        "source": st.sampled_from(["cli", "telegram", "cron", "subagent", "nope"]),
        "exclude_sources": st.sampled_from(["cron", "cli,cron", "telegram,", ""]),
        "min_messages": st.integers(-1, 4),
        "cwd_prefix": st.sampled_from(["/work", "/work/repo1", "/work/repo0/sub/", "/elsewhere"]),
        "full": st.booleans(),
        "profile": st.sampled_from(["default", "", "other"]),
    },
)


def same(reads: Pair, method: str, url: str, **kwargs: Any) -> tuple[int, Any]:
    """Assert both answer alike; return the answer."""
    theirs, ours = reads.both(method, url, **kwargs)
    assert ours == theirs, url
    return ours


@settings(max_examples=60, deadline=None)
@given(params=listing_params)
def test_listing_pages_match(reads: Pair, params: dict[str, Any]) -> None:
    theirs, ours = reads.both("GET", "/api/sessions", params=params)
    assert ours == theirs


@pytest.mark.parametrize("limit", [1, 5, 20, 100])
@pytest.mark.parametrize("order", ["created", "recent"])
def test_every_offset_pages_through_the_same_rows(reads: Pair, limit: int, order: str) -> None:
    for offset in range(0, 26, limit):
        status, body = same(
            reads, "GET", "/api/sessions", params={"limit": limit, "offset": offset, "order": order}
        )
        assert status == 200 and body["total"] > 0


def test_the_listing_shows_a_compression_chain_as_its_tip(reads: Pair) -> None:
    """The chain's row is the root's, with its tip's id and activity: the case the row builder merges."""
    _, body = same(reads, "GET", "/api/sessions", params={"limit": 100})
    row = next(r for r in body["sessions"] if r.get("_lineage_root_id") == "chainroot")
    root = reads.ours.get("/api/sessions/chainroot").json()
    assert row["id"] == "chaintip" and row["preview"] == "second part walrus"
    assert row["started_at"] == root["started_at"] and row["archived"] is False


@pytest.mark.parametrize("ref", IDS + PREFIXES)
@pytest.mark.parametrize("route", ["", "/messages", "/export", "/latest-descendant"])
def test_session_routes_match(reads: Pair, ref: str, route: str) -> None:
    same(reads, "GET", f"/api/sessions/{ref}{route}")


@pytest.mark.parametrize("ref", ["hits", "chainroot", "tools1"])
@pytest.mark.parametrize("limit", [None, 0, 1, 7, 500, 501, -1])
@pytest.mark.parametrize("offset", [0, 3, 59, 60, 1000, -2])
def test_message_pages_match(reads: Pair, ref: str, limit: int | None, offset: int) -> None:
    params = {"offset": offset} if limit is None else {"limit": limit, "offset": offset}
    same(reads, "GET", f"/api/sessions/{ref}/messages", params=params)


def trimmed(body: Any) -> Any:
    """A search answer with each snippet stripped: the agent's index text ends with the message's (empty)
    tool fields, so its snippets end in spaces; ours are trimmed, as ``GET /search`` gives them."""
    if not isinstance(body, dict) or "results" not in body:
        return body
    return {"results": [{**r, "snippet": r["snippet"].strip()} for r in body["results"]]}


QUERIES = [
    NEEDLE,
    "walrus",
    "zebra",
    "hello number",
    '"prefix twin"',
    "zeb",
    "grep",
    "abcd",
    "abcd1",
    "chain",
    "nothing-here",
    "",
    "   ",
    '"',
    "*",
    "walrus OR zebra",
]
# Not the needle with 3 results: the dashboard stops after 50 message hits, all in one session, where ours
# goes on to the next one (test_exceptions.test_search_goes_past_the_agents_first_fifty_hits).
SEARCHES = [(q, limit) for q in QUERIES for limit in (None, 1, 3, 100, 0) if (q, limit) != (NEEDLE, 3)]


@pytest.mark.parametrize(("q", "limit"), SEARCHES)
def test_search_matches(reads: Pair, q: str, limit: int | None) -> None:
    params: dict[str, Any] = {"q": q} if limit is None else {"q": q, "limit": limit}
    (their_status, theirs), (our_status, ours) = reads.both("GET", "/api/sessions/search", params=params)
    assert our_status == their_status == 200
    assert trimmed(ours) == trimmed(theirs)


@pytest.mark.parametrize("url", ["/api/sessions/stats", "/api/sessions/empty/count"])
def test_counts_match(reads: Pair, url: str) -> None:
    same(reads, "GET", url)


@pytest.mark.parametrize("url", ["/api/nothing", "/api/sessions/plain01/nothing", "/api/sessions/a/b/c"])
def test_unknown_paths_match(reads: Pair, url: str) -> None:
    assert same(reads, "GET", url)[0] == 404
