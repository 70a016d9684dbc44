"""Shared fixtures: a real state.db in a temp HERMES_HOME, the app in-process, and a live server."""

from __future__ import annotations

import functools
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Protocol

import hermes_state
import httpx
import hypothesis
import pytest
from fastapi.testclient import TestClient

import app.main
from app.main import create_app
from app.settings import Settings
from app.storage.dialect import SQLITE, Dialect, dialect_of
from app.storage.sqlite.driver import sqlite3
from app.storage.sqlite.store import Database


@pytest.fixture(autouse=True)
def _python_sigint_handler() -> None:
    """Tests stop CLI processes with Ctrl-C (SIGINT), and a process started in the background of a
    non-interactive shell (``make test &``, ``nohup``) inherits SIGINT ignored, as would every CLI process it
    starts: each test runs with Python's own handler, which its children get back at exec."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


QueryValue = str | int | float | bool | None
QueryParams = Mapping[str, QueryValue | Sequence[QueryValue]]
"""Query parameters as both clients take them."""


class HttpResponse(Protocol):
    """A response as the tests read it: an ``httpx.Response`` from a live server, or the ``httpx2.Response``
    starlette's ``TestClient`` (built on httpx2, not httpx) returns from the app in-process."""

    @property
    def status_code(self) -> int: ...

    @property
    def headers(self) -> Mapping[str, str]: ...

    @property
    def text(self) -> str: ...

    def json(self) -> Any: ...


class HttpClient(Protocol):
    """A client the tests drive through the API: ``httpx.Client`` on a live server or ``TestClient`` on the
    app in-process, so one helper serves both."""

    def get(self, url: str, *, params: QueryParams | None = None) -> HttpResponse: ...

    def post(self, url: str, *, json: Any = None) -> HttpResponse: ...

    def put(self, url: str, *, json: Any = None) -> HttpResponse: ...


TOKEN = "test-token"
ROOT = Path(__file__).resolve().parents[1]

# The suite runs two workers on two cores beside throwaway PostgreSQL servers: slow input generation is the
# machine's load, not a strategy's fault.
hypothesis.settings.register_profile("suite", suppress_health_check=[hypothesis.HealthCheck.too_slow])
hypothesis.settings.load_profile("suite")


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A fresh HERMES_HOME for one test."""
    path = tmp_path / "hermes-home"
    path.mkdir()
    return path


@pytest.fixture
def settings(home: Path) -> Settings:
    """Settings pointing at the temp home, with a known token."""
    # Automatic titles would race with tests asserting exact titles; tests/titles turns them on.
    return Settings(home=home, api_token=TOKEN, titles_auto=False)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    """The app in-process (lifespan run), authenticated."""
    with TestClient(create_app(settings), headers={"Authorization": f"Bearer {TOKEN}"}) as c:
        yield c


@pytest.fixture
def agent(client: TestClient, home: Path, settings: Settings) -> Iterator[Any]:
    """The real agent's ``SessionDB`` on the server's state.db (opened after the server adopted it)."""
    if settings.database_url:
        pytest.skip("needs the agent's SQLite file (the agent writes state.db, not PostgreSQL)")
    db = hermes_state.SessionDB(db_path=home / "state.db")
    try:
        yield db
    finally:
        db.close()


@pytest.fixture
def anon_client(settings: Settings) -> Iterator[TestClient]:
    """The app in-process without credentials."""
    with TestClient(create_app(settings)) as c:
        yield c


def free_port() -> int:
    """An unused loopback port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class LiveServer:
    """A real uvicorn process serving the app on loopback."""

    base_url: str
    home: Path
    process: subprocess.Popen[bytes]

    def client(self, limits: httpx.Limits | None = None) -> httpx.Client:
        """An authenticated httpx client for this server (``limits``: its connection pool's, httpx's own
        default without)."""
        headers = {"Authorization": f"Bearer {TOKEN}"}
        if limits is None:
            return httpx.Client(base_url=self.base_url, headers=headers, timeout=30)
        return httpx.Client(base_url=self.base_url, headers=headers, timeout=30, limits=limits)

    def stop(self, sig: int = 15) -> None:
        """Stop the server (SIGTERM by default, SIGKILL with ``sig=9``)."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(timeout=30)


def spawn_live_server(
    home: Path, extra_env: dict[str, str] | None = None, *, stdout: IO[bytes] | None = None
) -> LiveServer:
    """Start ``hermes serve`` as a subprocess without waiting for it (stdout: the access log); several
    spawned at once start side by side, and :func:`wait_ready` then waits for each."""
    port = free_port()
    env = {**os.environ, "HERMES_HOME": str(home), "HERMES_API_TOKEN": TOKEN, "HERMES_PORT": str(port)}
    env.setdefault("HERMES_TITLES_AUTO", "false")  # as in the settings fixture; extra_env may turn it on
    env.update(extra_env or {})
    proc = subprocess.Popen(
        [sys.executable, "-m", "app.cli.main", "serve"],
        cwd=ROOT,
        env=env,
        stdout=stdout or subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    return LiveServer(f"http://127.0.0.1:{port}", home, proc)


def wait_ready(server: LiveServer, timeout: float = 60) -> LiveServer:
    """Wait until a spawned server's /readyz answers; a server that exits or is not ready in ``timeout``
    seconds fails (a start takes seconds on a machine shared with other suites, not a minute)."""
    proc = server.process
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited: {proc.stderr.read().decode() if proc.stderr else ''}")
        try:
            if httpx.get(f"{server.base_url}/readyz", timeout=1).status_code == 200:
                return server
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    proc.kill()
    raise RuntimeError(f"server did not become ready in {timeout:g} s")


def start_live_server(
    home: Path, extra_env: dict[str, str] | None = None, *, stdout: IO[bytes] | None = None
) -> LiveServer:
    """Start ``hermes serve`` as a subprocess and wait until /readyz answers (stdout: the access log)."""
    return wait_ready(spawn_live_server(home, extra_env, stdout=stdout))


@pytest.fixture
def live_server(home: Path) -> Iterator[LiveServer]:
    """A real server over loopback on the temp home."""
    server = start_live_server(home)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def module_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One real server for a whole module, for tests that leave nothing the next one would trip on (or that
    empty it first, as tests/cli/conftest.py's ``emptied_server`` does): a start costs more than most of
    those tests. A module opts in by defining its own ``live_server`` fixture that returns it."""
    server = start_live_server(tmp_path_factory.mktemp("hermes-home"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Any]:
    """One throwaway PostgreSQL server per test worker (see tests/pg_cluster.py); skipped without binaries,
    except under CI, where PostgreSQL is always installed and its absence is a failure."""
    from tests.pg_cluster import NoPostgres, start_cluster

    try:
        cluster = start_cluster()
    except NoPostgres as exc:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL is required under CI: {exc}")
        pytest.skip(f"PostgreSQL tests skipped: {exc}")
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="session")
def pg_template(pg_cluster: Any) -> str:
    """A database migrated to head once per test worker; :func:`pg_migrated_url` copies it per test."""
    from app.storage.postgres import migrate

    url = pg_cluster.create_database(prefix="template")
    migrate.upgrade(url)
    return str(url.rsplit("/", 1)[1])


@pytest.fixture
def pg_migrated_url(pg_cluster: Any, pg_template: str) -> Iterator[str]:
    """A fresh database at head (``CREATE DATABASE ... TEMPLATE``: no migration per test), dropped after."""
    url = pg_cluster.create_database(template=pg_template)
    try:
        yield url
    finally:
        pg_cluster.drop_database(url)


BACKENDS = ("sqlite", "postgresql")
"""The storage backends a directory's tests run on when its conftest parametrises ``settings`` with them."""


def backend_settings(request: pytest.FixtureRequest, home: Path) -> Settings:
    """The ``settings`` fixture of a test parametrised over :data:`BACKENDS` (``request.param``)."""
    url = request.getfixturevalue("pg_migrated_url") if request.param == "postgresql" else None
    return Settings(home=home, api_token=TOKEN, titles_auto=False, database_url=url)


@pytest.fixture
def sqlite_only(settings: Settings) -> None:
    """Skip the PostgreSQL run of a test that opens the agent's SQLite file itself."""
    if settings.database_url:
        pytest.skip("opens the agent's SQLite file itself (state.db), which the PostgreSQL backend has not")


@pytest.fixture
def sqlite_file_operation(settings: Settings) -> None:
    """Skip the PostgreSQL run of a test of an operation on the SQLite file (repair, VACUUM, backup)."""
    if settings.database_url:
        pytest.skip(
            "a SQLite file operation: PostgreSQL answers 501 not_supported_on_backend"
            " (tests/lifecycle/test_store_backends.py)"
        )


_PSYCOPG_MARK = re.compile(r"%[sb(%]")
_PLACEHOLDER = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|\?|(?<!:):[A-Za-z_]\w*|%")


@functools.cache
def _psycopg_text(sql: str) -> str:
    """A test's statement with sqlite3's placeholders as psycopg's (literal ``%`` doubled)."""

    def sub(match: re.Match[str]) -> str:
        token = match.group(0)
        if token == "?":
            return "%s"
        if token.startswith(":"):
            return f"%({token[1:]})s"
        return token.replace("%", "%%")

    return _PLACEHOLDER.sub(sub, sql)


class RawDatabase:
    """Direct access to what a test's server stored, on either backend, with sqlite3's calling convention
    (``?`` placeholders, rows by name or position; on SQLite plain tuples without ``named_rows``), for
    arranging rows and inspecting them."""

    def __init__(self, settings: Settings, *, named_rows: bool = True) -> None:
        self._closers: list[Any] = []
        if settings.database_url:
            import psycopg

            from app.storage.postgres.connection import PgConnection, configure

            pg = psycopg.connect(settings.database_url, autocommit=True)
            configure(pg)
            self._closers.append(pg.close)
            self.conn: Any = PgConnection(pg)
        else:
            # The server's own SQLite library: a second copy in this process would not see the server's POSIX
            # locks and could reset the WAL index its connections have mapped.
            conn = sqlite3.connect(settings.db_path, isolation_level=None, timeout=10)
            if named_rows:
                conn.row_factory = sqlite3.Row
            self._closers.append(conn.close)
            self.conn = conn

    def execute(self, sql: str, params: Any = ()) -> Any:
        """Run one statement (autocommit)."""
        return self.conn.execute(self._text(sql), params)

    def executemany(self, sql: str, rows: Any) -> Any:
        """Run one statement per parameter row (autocommit)."""
        return self.conn.executemany(self._text(sql), rows)

    def column_names(self, table: str) -> list[str]:
        """The agent columns of ``table``, in order."""
        return [column.name for column in dialect_of(self.conn).table_columns(self.conn, table)]

    @property
    def dialect(self) -> Dialect:
        """The backend's dialect, so repository functions given this object write their SQL for it."""
        return dialect_of(self.conn)

    def _text(self, sql: str) -> str:
        # Tests arrange rows with sqlite3's placeholders on either backend; a statement already in psycopg's
        # (a repository function's, written for the dialect) passes as written.
        if self.dialect is SQLITE or _PSYCOPG_MARK.search(sql):
            return sql
        return _psycopg_text(sql)

    def close(self) -> None:
        """Close the connection."""
        for close in self._closers:
            close()

    def __enter__(self) -> RawDatabase:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def count_rows(settings: Settings, table: str, where: str = "TRUE") -> int:
    """How many rows of ``table`` the test's server holds (on either backend) where ``where`` holds."""
    with RawDatabase(settings) as raw:
        return int(raw.execute(f"SELECT COUNT(*) FROM {table} WHERE {where}").fetchone()[0])


@pytest.fixture
def pg_url(pg_cluster: Any) -> Iterator[str]:
    """The URL of a fresh, empty database on the test cluster, dropped afterwards."""
    url = pg_cluster.create_database()
    try:
        yield url
    finally:
        pg_cluster.drop_database(url)


class FilelessStore:
    """A real SQLite store shown without its file: every job runs on the real database, but ``files`` is
    ``None`` and ``backend`` is another engine's, as a PostgreSQL store presents itself."""

    files = None
    backend = "postgresql"

    def __init__(self, db: Database) -> None:
        self._db = db

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)


@pytest.fixture
def fileless(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """The app in-process on a :class:`FilelessStore`, authenticated."""
    monkeypatch.setattr(app.main, "open_store", lambda s: FilelessStore(Database(s).open()))
    with TestClient(create_app(settings), headers={"Authorization": f"Bearer {TOKEN}"}) as client:
        yield client
