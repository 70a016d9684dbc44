"""Newer agents as test oracles: each build runs ``tests/compat/oracle_driver.py`` in a process of its own.

The Makefile installs them into ``.venv/oracles/<name>`` (``pip install --no-deps --target``). They ship the
same module names as the hermes-agent 0.19.0 installed in the venv itself, so none of them may be imported
into the test process: a driver process puts its build's folder first on ``sys.path`` and answers JSON.

``v22`` is that 0.19.0 (no folder of its own), so the harness also runs where no newer build is installed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from app.storage.sqlite.driver import sqlite3
from tests.compat.oracle_driver import FTS_TABLES, MARK, fts_integrity

ROOT = Path(__file__).resolve().parents[2]
ORACLE_DIR = ROOT / ".venv" / "oracles"
DRIVER = Path(__file__).resolve().with_name("oracle_driver.py")


@dataclass(frozen=True)
class Oracle:
    """One agent build: where it lives, its module, and the schema version it writes."""

    name: str
    folder: Path | None
    module: str
    schema_version: int
    is_async: bool = False

    @property
    def available(self) -> bool:
        return self.folder is None or (self.folder / f"{self.module}.py").is_file()


ORACLES: dict[str, Oracle] = {
    "v22": Oracle("v22", None, "hermes_state", 22),
    "axisrow": Oracle("axisrow", ORACLE_DIR / "axisrow", "hermes_state", 26),
    "nastech": Oracle("nastech", ORACLE_DIR / "nastech", "nastech_state", 25),
    "async": Oracle("async", ORACLE_DIR / "async", "hermes_state", 25, is_async=True),
}
NEWER = ("axisrow", "nastech", "async")
"""The newer builds (schema 25/26), in the order tests are parametrised."""


class OracleError(AssertionError):
    """The driver failed (its traceback is the message)."""


def oracle(name: str) -> Oracle:
    """The build called ``name``, or a pytest skip when its folder is not installed (run ``make``)."""
    found = ORACLES[name]
    if not found.available:
        pytest.skip(f"oracle {name} is not installed in {found.folder} (the Makefile's $(STAMP) installs it)")
    return found


class OracleProcess:
    """A running driver; :meth:`result` waits for its answer."""

    def __init__(self, build: Oracle, command: dict[str, Any]) -> None:
        self.build = build
        self.command = command
        # The agent writes caches under HERMES_HOME (nastech: NASTECH_HOME); keep them out of the test's home.
        self._home = tempfile.TemporaryDirectory(prefix=f"oracle-{build.name}-")
        env = {**os.environ, "HERMES_HOME": self._home.name, "NASTECH_HOME": self._home.name}
        env.pop("PYTHONPATH", None)
        folder = str(build.folder) if build.folder else "-"
        self.process = subprocess.Popen(
            [sys.executable, str(DRIVER), folder, build.module, json.dumps(command)],
            cwd=self._home.name,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def result(self, timeout: float = 120) -> dict[str, Any]:
        """The driver's answer; :class:`OracleError` when it failed."""
        try:
            out, err = self.process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.communicate()
            raise OracleError(
                f"{self.build.name} {self.command['op']} did not answer in {timeout} s"
            ) from None
        finally:
            self._home.cleanup()
        line = next((ln for ln in reversed(out.splitlines()) if ln.startswith(MARK)), None)
        if line is None:
            raise OracleError(
                f"{self.build.name} gave no answer (exit {self.process.returncode}):\n{err[-3000:]}"
            )
        answer: dict[str, Any] = json.loads(line[len(MARK) :])
        if not answer.pop("ok"):
            raise OracleError(f"{self.build.name} {self.command['op']} failed:\n{answer['error']}")
        return answer


def start_oracle(name: str, op: str, db_path: Path, **kwargs: Any) -> OracleProcess:
    """Start the build ``name`` on ``db_path`` doing ``op`` (the driver's ``HANDLERS``), without waiting."""
    return OracleProcess(oracle(name), {"op": op, "db": str(db_path), **kwargs})


def run_oracle(name: str, op: str, db_path: Path, **kwargs: Any) -> dict[str, Any]:
    """Run ``op`` with the build ``name`` on ``db_path`` and return its JSON answer. ``op="batch"`` with
    ``steps=[{"op": ...}, ...]`` runs several on one ``SessionDB`` (one process start instead of many);
    its answer's ``results`` holds each step's."""
    return start_oracle(name, op, db_path, **kwargs).result()


def assert_fts_ok(path: Path) -> None:
    """Every FTS table of the file passes its integrity-check (rank 1), and the file its quick_check."""
    checks = fts_integrity(path, sqlite3)
    assert set(checks) >= {"quick_check", *FTS_TABLES}, checks
    assert all(v == "ok" for v in checks.values()), checks


@dataclass(frozen=True)
class FileState:
    """What the server must never change in an agent's file: its journal mode, its ``schema_version`` and
    ``state_meta`` rows, and every FTS object (tables, shadow tables, views, triggers) as ``sqlite_master``
    holds them."""

    journal_mode: str
    schema_version: tuple[tuple[Any, ...], ...]
    state_meta: tuple[tuple[Any, ...], ...]
    fts_objects: tuple[tuple[Any, ...], ...]


def file_state(path: Path) -> FileState:
    """The :class:`FileState` of ``path`` now (read-only; the journal mode is read from the header, since
    ``PRAGMA journal_mode`` on a connection reports but never sets it)."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
    try:
        has_meta = conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'state_meta'").fetchone()
        return FileState(
            journal_mode=journal_mode(path),
            schema_version=tuple(tuple(r) for r in conn.execute("SELECT * FROM schema_version ORDER BY 1")),
            state_meta=tuple(tuple(r) for r in conn.execute("SELECT * FROM state_meta ORDER BY 1"))
            if has_meta
            else (),
            fts_objects=tuple(
                tuple(r)
                for r in conn.execute(
                    "SELECT type, name, tbl_name, sql FROM sqlite_master"
                    " WHERE name LIKE 'messages_fts%' OR (type = 'trigger' AND tbl_name = 'messages'"
                    " AND name LIKE '%fts%') ORDER BY type, name"
                )
            ),
        )
    finally:
        conn.close()


def journal_mode(path: Path) -> str:
    """``wal`` when the file's header says WAL (bytes 18/19 are 2), else ``delete``: no connection needed, so
    looking never changes anything."""
    with path.open("rb") as f:
        header = f.read(20)
    return "wal" if header[18:20] == b"\x02\x02" else "delete"


def schema_version(path: Path) -> int:
    """The agent's ``schema_version`` of the file."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
    try:
        return int(conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0])
    finally:
        conn.close()


def columns(path: Path, table: str) -> set[str]:
    """The column names of ``table`` in the file."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
    try:
        return {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}
    finally:
        conn.close()


def fts_layout(path: Path) -> str:
    """``legacy`` (the v22 inline FTS), ``external`` (v23+, content read from ``messages`` or a view)."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
    try:
        (sql,) = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'messages_fts'").fetchone()
    finally:
        conn.close()
    return "external" if "content=" in sql.replace(" ", "") else "legacy"
