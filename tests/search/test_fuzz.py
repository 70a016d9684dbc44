"""Arbitrary Unicode as a query never produces a 5xx: 200, or 422 for text the store refuses."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from hermes_state import SessionDB
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.search.conftest import add_session
from tests.sizes import sized

_ANY_CHAR = st.characters(blacklist_categories=())
_QUERY_PARTS = st.sampled_from(
    ['"', "*", "AND", "OR", "NOT", "NEAR(", ")", ":", "-", "^", "通信", "记忆断裂", "🚀", "%", "_", "\\", " "]
)
_QUERIES = st.lists(st.one_of(st.text(alphabet=_ANY_CHAR, max_size=6), _QUERY_PARTS), max_size=8).map(
    " ".join
)
_FUZZ = settings(
    max_examples=sized(60, 150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.fixture
def seeded(client: TestClient, agent: SessionDB) -> TestClient:
    add_session(
        agent, "s1", [("user", "docker deploy* 通信协议 记忆断裂 🚀 tiếng NEAR AND"), ("assistant", "ok")]
    )
    add_session(agent, "s2", [("user", "100%完成 a_b c-d e.f"), ("assistant", "fine")], source="cron")
    return client


@_FUZZ
@given(query=_QUERIES, sort=st.sampled_from(["relevance", "newest", "oldest"]))
def test_post_any_query(seeded: TestClient, query: str, sort: str) -> None:
    body = json.dumps({"q": query, "sort": sort, "limit": 5}).encode()
    response = seeded.post("/search", content=body, headers={"Content-Type": "application/json"})
    assert response.status_code in (200, 422), response.text
    if response.status_code == 422:
        assert response.json()["code"] == "invalid_text"
    else:
        assert response.json()["mode"] in ("discover", "browse")


@_FUZZ
@given(query=_QUERIES.filter(lambda q: not any(0xD800 <= ord(c) <= 0xDFFF for c in q)))
def test_get_any_query(seeded: TestClient, query: str) -> None:
    response = seeded.get("/search", params={"q": query})
    assert response.status_code in (200, 422), response.text
