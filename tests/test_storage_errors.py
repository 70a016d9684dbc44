"""Both backends' driver failures are storage's own :class:`StorageError`, so a background loop logs them as
foreseen without knowing which backend runs."""

from __future__ import annotations

import logging

import psycopg
import psycopg_pool
import pytest

import app.storage.postgres.connection  # noqa: F401  (the PostgreSQL backend declares its errors)
from app.services.background import log_failure
from app.storage.errors import StorageError
from app.storage.sqlite.driver import sqlite3


@pytest.mark.parametrize(
    "exc",
    [
        sqlite3.OperationalError("database is locked"),
        sqlite3.IntegrityError("UNIQUE constraint failed"),
        psycopg.OperationalError("server closed the connection"),
        psycopg.errors.ReadOnlySqlTransaction("read-only"),
        psycopg_pool.PoolTimeout("no connection"),
    ],
    ids=type,
)
def test_driver_failures_are_storage_errors(exc: Exception) -> None:
    assert isinstance(exc, StorageError)


def test_other_failures_are_not() -> None:
    assert not isinstance(ValueError("x"), StorageError)


def test_a_storage_failure_is_logged_without_a_traceback(caplog: pytest.LogCaptureFixture) -> None:
    log = logging.getLogger("test")
    with caplog.at_level(logging.WARNING):
        for what, exc in (
            ("pass skipped", psycopg.OperationalError("gone")),
            ("pass failed", RuntimeError("bug")),
        ):
            try:
                raise exc
            except Exception as caught:
                log_failure(log, what, caught)
    assert [(r.getMessage(), bool(r.exc_info)) for r in caplog.records] == [
        ("pass skipped: gone", False),
        ("pass failed: bug", True),
    ]
