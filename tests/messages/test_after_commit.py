"""A committed write is always acknowledged with its 2xx: rendering the answer (orjson, the replay store,
the ETag) or a commit subscriber failing after the COMMIT never turns it into a 500 or an unanswered
request; counters the routes bump saturate at int64 instead of turning REAL."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient

from app.api import responses
from app.domain.stored_json import MAX_COUNTER
from app.settings import Settings
from app.storage.commit_notice import CommitNotice
from app.storage.sqlite.driver import sqlite3
from tests.conftest import HttpResponse


class _FailsOnce:
    """Stands in for the ``orjson`` module in ``app.api.responses``: its first ``dumps`` of a body raises
    what orjson raises for a value it refuses (a lone surrogate, 255 levels, an integer beyond 64 bits)."""

    def __init__(self) -> None:
        self.failed = 0
        self._lock = threading.Lock()

    def dumps(self, value: Any, **kwargs: Any) -> bytes:
        with self._lock:
            if not self.failed:
                self.failed += 1
                raise orjson.JSONEncodeError("str is not valid UTF-8: surrogates not allowed")
        return orjson.dumps(value, **kwargs)


@pytest.fixture
def fails_once(monkeypatch: pytest.MonkeyPatch) -> _FailsOnce:
    fake = _FailsOnce()
    monkeypatch.setattr(responses, "orjson", fake)
    return fake


WRITES: dict[str, Callable[[TestClient, str], HttpResponse]] = {
    "create": lambda c, sid: c.post("/sessions", json={"source": "cli", "id": "created-after"}),
    "create with key": lambda c, sid: c.post(
        "/sessions", json={"source": "cli", "id": "created-after"}, headers={"Idempotency-Key": "k1"}
    ),
    "append": lambda c, sid: c.post(f"/sessions/{sid}/messages", json={"role": "user", "content": "after"}),
    "append with key": lambda c, sid: c.post(
        f"/sessions/{sid}/messages",
        json={"role": "user", "content": "after"},
        headers={"Idempotency-Key": "k2"},
    ),
    "patch": lambda c, sid: c.patch(f"/sessions/{sid}", json={"title": "after"}),
    "end": lambda c, sid: c.post(f"/sessions/{sid}/end", json={"end_reason": "after"}),
}


def _present(client: TestClient, sid: str, write: str) -> bool:
    if write.startswith("create"):
        return client.get("/sessions/created-after").status_code == 200
    if write.startswith("append"):
        return [m["content"] for m in client.get(f"/sessions/{sid}/messages").json()["items"]] == ["after"]
    session = client.get(f"/sessions/{sid}").json()
    return session["title"] == "after" if write == "patch" else session["end_reason"] == "after"


@pytest.mark.parametrize("write", list(WRITES))
def test_an_answer_that_fails_to_render_after_the_commit_is_still_a_2xx(
    client: TestClient, sid: str, fails_once: _FailsOnce, write: str
) -> None:
    r = WRITES[write](client, sid)
    assert fails_once.failed == 1
    assert 200 <= r.status_code < 300, r.text
    assert isinstance(r.json(), dict)
    assert _present(client, sid, write)


def test_a_failing_commit_subscriber_leaves_every_write_answered(client: TestClient, sid: str) -> None:
    writer = client.app.state.db.writer  # type: ignore[attr-defined]

    def broken(notice: CommitNotice) -> None:
        raise RuntimeError("subscriber bug")

    writer.commit_hooks.insert(0, broken)
    try:
        with ThreadPoolExecutor(1) as pool:  # a writer thread killed by the hook would never answer
            first = pool.submit(
                client.post, f"/sessions/{sid}/messages", json={"role": "user", "content": "one"}
            ).result(timeout=60)
            second = pool.submit(client.patch, f"/sessions/{sid}", json={"title": "two"}).result(timeout=60)
    finally:
        writer.commit_hooks.remove(broken)
    assert first.status_code == 201 and second.status_code == 200
    assert client.get(f"/sessions/{sid}").json()["title"] == "two"


@pytest.mark.usefixtures("sqlite_only")
def test_rewind_count_saturates(client: TestClient, sid: str, settings: Settings) -> None:
    r = client.post(f"/sessions/{sid}/messages", json={"role": "user", "content": "u"})
    message_id = r.json()["items"][0]["id"]
    conn = sqlite3.connect(settings.db_path)
    with conn:
        conn.execute("UPDATE sessions SET rewind_count = ? WHERE id = ?", (MAX_COUNTER, sid))
    assert client.post(f"/sessions/{sid}/rewind", json={"message_id": message_id}).status_code == 200
    row = conn.execute(
        "SELECT rewind_count, typeof(rewind_count) FROM sessions WHERE id = ?", (sid,)
    ).fetchone()
    conn.close()
    assert row == (MAX_COUNTER, "integer")
