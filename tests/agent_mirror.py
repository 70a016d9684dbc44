"""The real agent's file mirrored into PostgreSQL, so a test written against the agent's ``SessionDB`` runs
on the PostgreSQL backend too: the agent writes ``$HERMES_HOME/state.db`` as always (still the oracle for
its own answers, such as ``search_messages`` or its exporters), which a PostgreSQL server does not read, and
before each request the server's database is made a row-for-row copy of the file's sessions and messages,
ids kept. For tests that write through the agent only: a write through the API is replaced by the next
mirror."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from app.storage.postgres.connection import configure
from app.storage.sqlite.driver import sqlite3
from tests.conftest import BACKENDS, TOKEN, backend_settings

_TABLES = ("sessions", "messages")


@pytest.fixture(params=BACKENDS)
def settings(request: pytest.FixtureRequest, home: Path) -> Settings:
    """A directory importing these fixtures runs every test that serves on both backends (PostgreSQL skips
    without a server)."""
    return backend_settings(request, home)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    """The app in-process, authenticated; on PostgreSQL a request first mirrors the agent's file
    ``$HERMES_HOME/state.db`` into the database when the agent has written to it since the last mirror
    (so what the API changed in between stays changed until the agent writes again)."""
    with TestClient(create_app(settings), headers={"Authorization": f"Bearer {TOKEN}"}) as client:
        url = settings.database_url
        if url:
            source = settings.db_path
            # The files' stamps when last looked at, and the content last mirrored. A changed stamp is no
            # proof of a write: a connection closing (the mirror's own read-only one, or one of the agent's
            # collected late) checkpoints or removes the -wal. So the content decides.
            seen: dict[str, object] = {"stamps": None, "content": None}

            def mirror(_request: object) -> None:
                stamps = [_stamp(source), _stamp(source.with_name(source.name + "-wal"))]
                if stamps == seen["stamps"] or stamps[0] is None:
                    return
                seen["stamps"] = stamps
                content = _fingerprint(source)
                if content != seen["content"]:
                    mirror_agent_file(source, url)
                    seen["content"] = content

            client.event_hooks = {"request": [mirror], "response": []}
        yield client


def _stamp(path: Path) -> tuple[int, int] | None:
    """When the file last changed and its size (``None`` while it does not exist)."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return st.st_mtime_ns, st.st_size


def _fingerprint(path: Path) -> bytes:
    """A digest of every session and message row of the agent file ``path``."""
    digest = hashlib.blake2b()
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        for table in _TABLES:
            digest.update(table.encode())
            for row in source.execute(f"SELECT * FROM {table} ORDER BY rowid"):
                digest.update(repr(row).encode())
    finally:
        source.close()
    return digest.digest()


def _pg_columns(conn: psycopg.Connection[tuple[object, ...]], table: str) -> set[str]:
    rows = conn.execute(
        "SELECT column_name FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name = %s AND is_generated = 'NEVER'",
        (table,),
    )
    return {str(r[0]) for r in rows}


def mirror_agent_file(path: Path, url: str) -> None:
    """Replace every session and message in ``url``'s database with those of the agent file ``path`` (no-op
    while the file does not exist), in one transaction."""
    if not path.exists():
        return
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        with psycopg.connect(url) as conn:
            configure(conn)  # the agent's NUL-prefixed structured content, stored as the server stores it
            _replace(source, conn)
    finally:
        source.close()


def _replace(source: sqlite3.Connection, conn: psycopg.Connection[tuple[object, ...]]) -> None:
    with conn.transaction(), conn.cursor() as cur:
        # CASCADE: our own tables' rows about the replaced sessions (pins, sync origins) go with them.
        cur.execute("TRUNCATE sessions, messages CASCADE")
        for table in _TABLES:
            wanted = _pg_columns(conn, table)
            names = [r[1] for r in source.execute(f"PRAGMA table_info({table})") if r[1] in wanted]
            quoted = ", ".join(f'"{n}"' for n in names)
            with cur.copy(f"COPY {table} ({quoted}) FROM STDIN") as copy:
                for row in source.execute(f"SELECT {quoted} FROM {table} ORDER BY rowid"):
                    copy.write_row(row)
        # Appends through the API continue after the copied ids, as the agent's AUTOINCREMENT would.
        cur.execute(
            "SELECT setval(pg_get_serial_sequence('messages', 'id'),"
            " GREATEST(COALESCE(MAX(id), 0), 1)) FROM messages"
        )
