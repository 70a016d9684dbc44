"""An agent's ``state.db`` read as a sync source: strictly read-only, in short read transactions.

The file is opened with a ``mode=ro`` URI, so nothing here can write to it (SQLite itself may create the
empty ``-wal``/``-shm`` files any reader of a WAL file needs when the agent is not running; they are the
agent's usual sidecars). Every read is its own short transaction, so the agent can checkpoint while a big
file streams out. Before anything is read for sending, :meth:`AgentFile.open` checks that the file is an
intact agent store whose shape we know, whatever agent version wrote it (``PRAGMA quick_check``,
:func:`~app.storage.agent_shape.inspect`). Rows are read as the agent reads them: a prompt the agent keeps in
``system_prompts`` is sent as text; columns whose values only mean something inside this file
(``display_order``, ``display_identity``) are not sent.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal
from urllib.parse import quote

from app.domain.sync import FIRST_ROWS, FileMark, row_digest
from app.storage.agent_shape import inspect, system_prompt_sql
from app.storage.sqlite.driver import sqlite3

Problem = Literal["missing", "not_sqlite", "corrupt", "not_agent_file", "unknown_shape"]
_FILE_LOCAL_MESSAGE_COLUMNS = frozenset({"display_order", "display_identity"})
_CHUNK = 500
_MARK_SELECT = "SELECT id, session_id, role, content, timestamp FROM messages"


Check = Literal["whole", "read", "sessions"]
"""How much of the file :meth:`AgentFile.open` checks first."""


class AgentFileError(Exception):
    """The file cannot be synced; ``problem`` names why (the CLI maps it to its message and exit code)."""

    def __init__(self, problem: Problem, detail: str) -> None:
        super().__init__(detail)
        self.problem = problem
        self.detail = detail


@dataclass(frozen=True)
class Snapshot:
    """One consistent look at the file: each session's digest (in ``started_at`` order), the parent each
    session names, and the newest message id. Messages up to ``max_message_id`` belong to sessions of this
    snapshot."""

    digests: dict[str, str]
    max_message_id: int
    parents: dict[str, str]


def _decode_lossy(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")


class AgentFile:
    """A read-only connection to an agent's ``state.db``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._conn: sqlite3.Connection | None = None
        self.session_columns: list[str] = []
        self.message_columns: list[str] = []
        self._session_select = "*"
        self._message_select = "*"
        self._opened = (0, 0)

    def open(self, *, check: Check = "read") -> AgentFile:
        """Open and validate the file; :class:`AgentFileError` when it cannot be synced.

        ``check`` says how much ``PRAGMA quick_check`` reads first: ``"whole"`` every page of the file
        (seconds per GB, most of them the agent's search indexes, which sync never reads); ``"read"`` the
        tables sync reads (sessions, messages, the prompts a newer file keeps apart) and their indexes;
        ``"sessions"`` only the sessions table. A damaged page met later while reading is still refused
        with :class:`AgentFileError`."""
        if not self.path.exists():
            raise AgentFileError("missing", f"{self.path} does not exist.")
        if not self.path.is_file():
            raise AgentFileError("missing", f"{self.path} is not a regular file.")
        stat = os.stat(self.path)
        self._opened = (stat.st_dev, stat.st_ino)
        uri = f"file:{quote(str(self.path.resolve()))}?mode=ro"
        try:
            conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise AgentFileError("not_sqlite", f"{self.path} cannot be opened: {exc}.") from exc
        self._conn = conn
        try:
            self._validate(conn, check)
        except (UnicodeDecodeError, sqlite3.OperationalError) as exc:
            self.close()
            if isinstance(exc, sqlite3.OperationalError) and "decode" not in str(exc):
                raise
            # Flipped bytes in the schema's own text (names, declarations): no agent wrote that.
            raise AgentFileError("corrupt", f"{self.path} is damaged: its schema is not UTF-8 text.") from exc
        except BaseException:
            self.close()
            raise
        return self

    def _validate(self, conn: sqlite3.Connection, check: Check) -> None:
        conn.execute("PRAGMA busy_timeout = 5000")
        try:
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            read = {"sessions", "messages", "system_prompts", "sqlite_sequence"} & tables
            if check == "whole" or "sessions" not in tables or "messages" not in tables:
                pragmas = ["PRAGMA quick_check"]
            else:
                wanted = sorted(read) if check == "read" else ["sessions"]
                pragmas = [f"PRAGMA quick_check({table})" for table in wanted]
            verdict = [row[0] for pragma in pragmas for row in conn.execute(pragma).fetchall()]
            verdict = [v for v in verdict if v != "ok"] or ["ok"]
        except sqlite3.DatabaseError as exc:
            if "not a database" in str(exc):
                raise AgentFileError("not_sqlite", f"{self.path} is not a SQLite database.") from exc
            raise AgentFileError("corrupt", f"{self.path} is damaged: {exc}.") from exc
        if verdict != ["ok"]:
            raise AgentFileError("corrupt", f"{self.path} is damaged: {'; '.join(map(str, verdict[:3]))}.")
        if not {"sessions", "messages", "schema_version"} <= tables:
            raise AgentFileError(
                "not_agent_file",
                f"{self.path} is not a Hermes agent state file (no sessions or messages).",
            )
        shape = inspect(conn)
        if not shape.writable:
            raise AgentFileError(
                "unknown_shape",
                f"{self.path} ({shape.describe()}) has {', '.join(shape.problems)}, which this "
                "hermes-sessions does not know, so what its rows mean cannot be vouched for.",
            )
        self.session_columns = [r[1] for r in conn.execute("PRAGMA table_info(sessions)")]
        self.message_columns = [
            r[1]
            for r in conn.execute("PRAGMA table_info(messages)")
            if r[1] not in _FILE_LOCAL_MESSAGE_COLUMNS
        ]
        self._session_select = ", ".join(
            system_prompt_sql(shape, "s") if c == "system_prompt" else f's."{c}"'
            for c in self.session_columns
        )
        self._message_select = ", ".join(f'"{c}"' for c in self.message_columns)

    def reopen(self) -> None:
        """Read the file the path names now (another one than before), checked as a first sync's is."""
        self.close()
        self.open(check="read")

    @property
    def conn(self) -> sqlite3.Connection:
        """The open connection."""
        if self._conn is None:
            raise RuntimeError("the agent file is not open")
        return self._conn

    def close(self) -> None:
        """Close the connection."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def data_version(self) -> int:
        """SQLite's ``data_version``: it changes when another connection (the agent) commits to the file."""
        (version,) = self.conn.execute("PRAGMA data_version").fetchone()
        return int(version)

    def snapshot(self) -> Snapshot:
        """Every session's digest and the newest message id, in one short read transaction.

        The digest reads every column but the system prompt, of which it reads the length and both ends: a
        system prompt is the one big value of a row, and reading every one of them on each ``--watch``
        round would cost far more than the rest (a prompt edited in its middle to the same length is
        missed until the row changes otherwise)."""
        conn = self.conn
        prompt = ["length(system_prompt)", "substr(system_prompt, 1, 64)", "substr(system_prompt, -192)"]
        selected: list[str] = []
        for c in self.session_columns:
            selected += prompt if c == "system_prompt" else [f'"{c}"']
        columns = ", ".join(selected)
        # Where each row holds the parent's id (after the leading id), when the file has the column.
        parent_at = 1 + selected.index('"parent_session_id"') if '"parent_session_id"' in selected else None
        digests: dict[str, str] = {}
        parents: dict[str, str] = {}
        conn.execute("BEGIN")
        try:
            for row in self._rows(f"SELECT id, {columns} FROM sessions ORDER BY started_at, id", ()):
                digests[str(row[0])] = row_digest(row)
                if parent_at is not None and isinstance(row[parent_at], str):
                    parents[str(row[0])] = row[parent_at]
            (newest,) = conn.execute("SELECT COALESCE(MAX(id), 0) FROM messages").fetchone()
        finally:
            conn.execute("COMMIT")
        return Snapshot(digests, int(newest), parents)

    def mark(self, ids: Iterable[int] = ()) -> tuple[FileMark, dict[int, str], int]:
        """The file's mark now (device and inode of the file this connection reads, digests of its first
        message rows), the digests of the rows with ``ids`` now (those still there), and the highest message
        id the file ever handed out, in one short read transaction."""
        conn = self.conn
        wanted = list(ids)
        conn.execute("BEGIN")
        try:
            first = self._rows(f"{_MARK_SELECT} ORDER BY id LIMIT ?", (FIRST_ROWS,))
            marks = ",".join("?" * len(wanted))
            again = self._rows(f"{_MARK_SELECT} WHERE id IN ({marks})", wanted) if wanted else []
            (newest,) = conn.execute("SELECT COALESCE(MAX(id), 0) FROM messages").fetchone()
            handed = self._handed_out()
        finally:
            conn.execute("COMMIT")
        mark = FileMark(self._opened[0], self._opened[1], {int(r[0]): row_digest(r) for r in first})
        return mark, {int(r[0]): row_digest(r) for r in again}, max(int(newest), handed)

    def _handed_out(self) -> int:
        # AUTOINCREMENT's record of the highest id ever used (a file without it has no sqlite_sequence).
        try:
            row = self.conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'messages'").fetchone()
        except sqlite3.OperationalError:
            return 0
        return int(row[0]) if row else 0

    def replaced(self) -> bool:
        """Whether the path now names another file than the one this connection reads (replaced while a
        ``--watch`` ran)."""
        try:
            stat = os.stat(self.path)
        except OSError:
            return True
        return (stat.st_dev, stat.st_ino) != self._opened

    def count_messages(self, after: int, up_to: int) -> int:
        """How many messages have ids in ``(after, up_to]``."""
        (count,) = self.conn.execute(
            "SELECT COUNT(*) FROM messages WHERE id > ? AND id <= ?", (after, up_to)
        ).fetchone()
        return int(count)

    def session_rows(self, session_ids: list[str]) -> list[dict[str, Any]]:
        """The rows of these sessions (every column), in ``started_at`` order; missing ones are left out."""
        out: list[dict[str, Any]] = []
        for start in range(0, len(session_ids), _CHUNK):
            part = session_ids[start : start + _CHUNK]
            marks = ",".join("?" * len(part))
            rows = self._rows(f"SELECT {self._session_select} FROM sessions s WHERE s.id IN ({marks})", part)
            out.extend(dict(zip(self.session_columns, row, strict=True)) for row in rows)
        out.sort(key=_started_order)
        return out

    def session_message_page(
        self, session_ids: list[str], after: int, up_to: int, limit: int
    ) -> list[tuple[Any, ...]]:
        """Up to ``limit`` message rows of ``session_ids`` with ids in ``(after, up_to]``, in id order."""
        marks = ",".join("?" * len(session_ids))
        return self._rows(
            f"SELECT {self._message_select} FROM messages WHERE session_id IN ({marks})"
            " AND id > ? AND id <= ? ORDER BY id LIMIT ?",
            (*session_ids, after, up_to, limit),
        )

    def message_page(self, after: int, up_to: int, limit: int) -> list[tuple[Any, ...]]:
        """Up to ``limit`` message rows (every column, table order) with ids in ``(after, up_to]``."""
        return self._rows(
            f"SELECT {self._message_select} FROM messages WHERE id > ? AND id <= ? ORDER BY id LIMIT ?",
            (after, up_to, limit),
        )

    def message_rows(self, message_ids: list[int]) -> list[tuple[Any, ...]]:
        """The message rows (every column, table order) with these ids, in id order; missing ones are left
        out."""
        out: list[tuple[Any, ...]] = []
        for start in range(0, len(message_ids), _CHUNK):
            part = message_ids[start : start + _CHUNK]
            marks = ",".join("?" * len(part))
            out += self._rows(f"SELECT {self._message_select} FROM messages WHERE id IN ({marks})", part)
        at = self.message_columns.index("id")
        return sorted(out, key=lambda row: int(row[at]))

    def _rows(self, sql: str, params: Any) -> list[tuple[Any, ...]]:
        conn = self.conn
        try:
            return conn.execute(sql, params).fetchall()
        except sqlite3.OperationalError as exc:
            if "decode" not in str(exc):
                raise
        except sqlite3.DatabaseError as exc:
            raise AgentFileError("corrupt", f"{self.path} is damaged: {exc}.") from exc
        # Text that is not UTF-8 (the agent stores what Python hands it, which is always UTF-8; a foreign
        # writer may not): read it with replacement characters rather than stop the sync.
        conn.text_factory = _decode_lossy
        try:
            return conn.execute(sql, params).fetchall()
        finally:
            conn.text_factory = str


def _started_order(row: dict[str, Any]) -> tuple[float, str]:
    # A value that is not a number (a foreign writer's text) sorts first; the server refuses the row.
    started = row.get("started_at")
    number = started if isinstance(started, int | float) and not isinstance(started, bool) else 0.0
    return float(number), str(row["id"])


def iter_session_pages(
    source: AgentFile, session_ids: list[str], up_to: int, limit: int
) -> Iterator[list[tuple[Any, ...]]]:
    """The message pages of ``session_ids`` with ids up to ``up_to``, in id order, each read in its own short
    transaction."""
    at = source.message_columns.index("id")
    for start in range(0, len(session_ids), _CHUNK):
        part = session_ids[start : start + _CHUNK]
        after = 0
        while page := source.session_message_page(part, after, up_to, limit):
            yield page
            after = int(page[-1][at])


def iter_pages(source: AgentFile, after: int, up_to: int, limit: int) -> Iterator[list[tuple[Any, ...]]]:
    """Message pages with ids in ``(after, up_to]``, in id order, each read in its own short transaction."""
    at = source.message_columns.index("id")
    while after < up_to:
        page = source.message_page(after, up_to, limit)
        if not page:
            return
        yield page
        after = int(page[-1][at])
