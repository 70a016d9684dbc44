"""The Store boundary: ``open_store`` picks the backend, and a store without a SQLite file (what a PostgreSQL
store looks like to services) answers its file-only operations with 501 ``not_supported_on_backend``."""

from __future__ import annotations

import asyncio
import sys
import types
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from app.errors import NotSupportedOnBackend
from app.services import maintenance
from app.settings import Settings
from app.storage import backends
from app.storage.backends import BackendUnavailable, open_store, redacted_url
from app.storage.protocols import Store
from app.storage.sqlite.store import Database
from tests.conftest import FilelessStore
from tests.lifecycle.helpers import agent_db, make_session


def test_open_store_opens_the_sqlite_file_by_default(settings: Settings, sqlite_only: None) -> None:
    store = open_store(settings)
    try:
        assert isinstance(store, Database)
        assert store.backend == "sqlite" and store.files is not None
        assert store.files.path == settings.db_path
        assert store.files.wal_path == settings.db_path.with_name("state.db-wal")
        status = store.writer_status()
        assert status is not None and status.alive and status.queue_depth == 0
    finally:
        store.close()


def test_a_postgresql_url_loads_the_postgres_package(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[Settings] = []
    fake = types.ModuleType("tests_fake_postgres")

    def open_postgres_store(s: Settings) -> str:
        opened.append(s)
        return "the store"

    fake.open_postgres_store = open_postgres_store  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tests_fake_postgres", fake)
    monkeypatch.setattr(backends, "POSTGRES_PACKAGE", "tests_fake_postgres")
    url_settings = settings.model_copy(update={"database_url": "postgresql://hermes@db.example/hermes"})
    assert open_store(url_settings) == "the store"
    assert opened == [url_settings]


def test_a_missing_postgres_package_is_a_clear_start_up_error(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(backends, "POSTGRES_PACKAGE", "app.storage.no_such_backend")
    url_settings = settings.model_copy(
        update={"database_url": "postgresql://hermes:s3cret@db.example:5433/h"}
    )
    with pytest.raises(BackendUnavailable) as raised:
        open_store(url_settings)
    message = str(raised.value)
    assert "HERMES_DATABASE_URL" in message and "postgresql://hermes:***@db.example:5433/h" in message
    assert "s3cret" not in message


def test_database_url_accepts_postgresql_urls_only(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HERMES_DATABASE_URL", "postgres://localhost/hermes")
    assert Settings(home=home).database_url == "postgres://localhost/hermes"
    monkeypatch.setenv("HERMES_DATABASE_URL", "mysql://localhost/hermes")
    with pytest.raises(ValidationError, match="postgresql://"):
        Settings(home=home)
    monkeypatch.delenv("HERMES_DATABASE_URL")
    assert Settings(home=home).database_url is None


def test_redacted_url_hides_only_the_password() -> None:
    assert redacted_url("postgresql://u:pw@[::1]:5432/db?sslmode=require") == (
        "postgresql://u:***@[::1]:5432/db?sslmode=require"
    )
    assert redacted_url("postgresql://u@host/db") == "postgresql://u@host/db"


def test_a_read_only_store_has_no_writer_to_follow(settings: Settings) -> None:
    db = Database(settings)  # never opened: no writer, as on a file a newer agent migrated
    assert db.writer_status() is None
    unsubscribe = db.subscribe(lambda notice: None)
    unsubscribe()


@pytest.mark.parametrize(
    ("path", "operation"),
    [
        ("/maintenance/vacuum", "A VACUUM"),
        ("/maintenance/optimize", "An FTS optimize with a WAL checkpoint"),
        ("/maintenance/backup", "A backup (VACUUM INTO)"),
        ("/maintenance/repair", "The repair check"),
    ],
)
def test_file_operations_answer_501_without_a_file(
    fileless: TestClient, home: Path, path: str, operation: str
) -> None:
    r = fileless.post(path)
    assert r.status_code == 501, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    body = r.json()
    assert body["code"] == "not_supported_on_backend"
    assert body["detail"] == NotSupportedOnBackend(operation, "postgresql").detail
    assert body["detail"].startswith(operation) and "stores sessions in PostgreSQL" in body["detail"]
    assert body["backend"] == "postgresql"
    assert not (home / "backups").exists()


def test_readiness_and_metrics_without_a_file(fileless: TestClient) -> None:
    r = fileless.get("/readyz")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["backend"] == "postgresql" and body["status"] == "ready"
    assert "disk_free" not in body["checks"] and body["checks"]["writer_alive"] is True
    metrics = fileless.get("/metrics").text
    assert "hermes_writer_queue_depth" in metrics
    assert "hermes_database_bytes" not in metrics and "hermes_wal_bytes" not in metrics


def test_readiness_names_the_backend(client: TestClient, settings: Settings) -> None:
    r = client.get("/readyz")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["status"] == "ready"
    if settings.database_url is None:
        assert body["backend"] == "sqlite" and body["checks"]["disk_free"] is True
    else:  # no file of its own whose disk could fill up
        assert body["backend"] == "postgresql" and "disk_free" not in body["checks"]


def test_stats_leave_the_sizes_to_a_store_without_files(home: Path, settings: Settings) -> None:
    db = agent_db(home)
    make_session(db, "a", messages=2)
    db.close()
    store = Database(settings).open()
    try:
        fileless: Store = FilelessStore(store)
        out = asyncio.run(maintenance.stats(fileless))
        assert out["sessions"] == 1 and "database_bytes" not in out
        sized = asyncio.run(maintenance.stats(store))
        assert sized["database_bytes"] == settings.db_path.stat().st_size
    finally:
        store.close()
