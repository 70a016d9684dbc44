"""The app starts on a fresh home and answers its probes."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.conftest import LiveServer


def test_probes_in_process(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    ready = client.get("/readyz").json()
    assert ready["status"] == "ready"
    assert all(ready["checks"].values())
    assert (ready["sqlite_version"] is None) == (ready["backend"] == "postgresql")
    assert (ready["postgresql_version"] is None) == (ready["backend"] == "sqlite")


def test_live_server_answers(live_server: LiveServer) -> None:
    with live_server.client() as c:
        assert c.get("/healthz").status_code == 200
