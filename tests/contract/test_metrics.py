"""/metrics: Prometheus text, no auth, request counts by route template, writer and file figures."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families


def _samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def test_metrics_is_public_prometheus_text(anon_client: TestClient) -> None:
    response = anon_client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    samples = _samples(response.text)
    assert samples[("hermes_writer_alive", ())] == 1
    assert samples[("hermes_database_bytes", ())] > 0
    assert ("hermes_wal_bytes", ()) in samples
    assert ("hermes_writer_queue_depth", ()) in samples
    assert ("hermes_writer_commits_total", ()) in samples
    assert ("hermes_writer_jobs_committed_total", ()) in samples


def test_requests_are_counted_by_route_template_method_and_status(anon_client: TestClient) -> None:
    anon_client.get("/healthz")
    anon_client.get("/healthz")
    anon_client.get("/no/such/path/at/all")
    samples = _samples(anon_client.get("/metrics").text)
    healthz = (("method", "GET"), ("route", "/healthz"), ("status", "200"))
    assert samples[("hermes_http_requests_total", healthz)] == 2
    unmatched = (("method", "GET"), ("route", "unmatched"), ("status", "404"))
    assert samples[("hermes_http_requests_total", unmatched)] == 1
    count = ("hermes_http_request_duration_seconds_count", (("method", "GET"), ("route", "/healthz")))
    assert samples[count] == 2


def test_path_parameters_are_labelled_by_template(anon_client: TestClient) -> None:
    paths = anon_client.app.openapi()["paths"]  # type: ignore[attr-defined]
    templated = [path for path, item in paths.items() if "{" in path and "get" in item]
    if not templated:
        pytest.skip("no GET route with a path parameter is registered yet")
    raw = re.sub(r"\{[^}]+\}", "raw-value-xyz", templated[0])
    assert anon_client.get(raw).status_code == 401
    samples = _samples(anon_client.get("/metrics").text)
    key = ("hermes_http_requests_total", (("method", "GET"), ("route", templated[0]), ("status", "401")))
    assert samples[key] == 1
    assert not any("raw-value-xyz" in str(labels) for _, labels in samples)


def test_writes_show_up_in_writer_counters(client: TestClient) -> None:
    before = _samples(client.get("/metrics").text)[("hermes_writer_commits_total", ())]
    db = client.app.state.db  # type: ignore[attr-defined]
    db.write_sync(lambda tx: tx.conn.execute("SELECT 1"))
    after = _samples(client.get("/metrics").text)
    assert after[("hermes_writer_commits_total", ())] >= before + 1
    assert after[("hermes_writer_jobs_committed_total", ())] >= 1


def test_commit_batch_sizes_are_a_histogram(client: TestClient) -> None:
    db = client.app.state.db  # type: ignore[attr-defined]
    # Start-up jobs (indexers, titler) may share a group commit with one write; sequential writes soon
    # commit alone once they are done.
    for _ in range(50):
        db.write_sync(lambda tx: tx.conn.execute("SELECT 1"))
        samples = _samples(client.get("/metrics").text)
        if samples[("hermes_writer_batch_size_bucket", (("le", "1.0"),))] >= 1:
            break
    commits = samples[("hermes_writer_commits_total", ())]
    assert samples[("hermes_writer_batch_size_count", ())] == commits
    assert samples[("hermes_writer_batch_size_bucket", (("le", "+Inf"),))] == commits
    assert samples[("hermes_writer_batch_size_bucket", (("le", "1.0"),))] >= 1
    assert (
        samples[("hermes_writer_batch_size_sum", ())] == samples[("hermes_writer_jobs_committed_total", ())]
    )


def test_events_dropped_by_retention_are_counted(client: TestClient) -> None:
    session_id = client.post("/sessions", json={}).json()["id"]
    for n in range(3):
        client.post(f"/sessions/{session_id}/messages", json={"role": "user", "content": f"m{n}"})
    pruner = client.app.state.event_pruner  # type: ignore[attr-defined]
    before = _samples(client.get("/metrics").text)[("hermes_events_dropped_total", ())]
    pruner.max_rows = 1
    dropped = client.portal.call(pruner.run_once)  # type: ignore[union-attr]
    assert dropped >= 2
    after = _samples(client.get("/metrics").text)[("hermes_events_dropped_total", ())]
    assert after == before + dropped


def test_refusals_at_the_edge_are_counted(anon_client: TestClient) -> None:
    anon_client.get("/healthz", headers={"Host": "evil.example"})
    samples = _samples(anon_client.get("/metrics").text)
    refused = (("method", "GET"), ("route", "unmatched"), ("status", "421"))
    assert samples[("hermes_http_requests_total", refused)] == 1
