"""Helpers of the replica tests: the events table on a test database, bounded waits."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import psycopg
from sqlalchemy.dialects import postgresql
from sqlalchemy.schema import CreateTable

from app.storage.own_schema import Event


def create_events_table(url: str) -> None:
    """``hs_events`` as the SQLModel metadata declares it, on the database at ``url``."""
    ddl = str(CreateTable(Event.__table__).compile(dialect=postgresql.dialect()))  # type: ignore[attr-defined]
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(ddl)


def wait_for(check: Callable[[], Any], timeout: float, what: str, every: float = 0.05) -> Any:
    """Poll ``check()`` until it returns something truthy (returned); fails after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        time.sleep(every)


def backend_pids(url: str, application_name: str) -> list[int]:
    """Server pids of the sessions named ``application_name`` on ``url``'s database."""
    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE application_name = %s AND datname = current_database()",
            (application_name,),
        ).fetchall()
    return [int(r[0]) for r in rows]


def terminate(url: str, pid: int) -> None:
    """End one server session (``pg_terminate_backend``)."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT pg_terminate_backend(%s)", (pid,))
