"""SQL for the readable exports: pages of session rows and of decoded active messages, as dicts.

The readable formats (Markdown, HTML, traces, redacted JSONL) render in Python, so they read rows as dicts
(``get_session`` / ``get_messages`` shapes) a page at a time, each page one short read. A value no text can
hold as stored (a BLOB, TEXT that is not UTF-8) is shown as its text with undecodable bytes replaced.
"""

from __future__ import annotations

import itertools
from typing import Any

from app.domain.agent_rows import CONTENT_JSON_PREFIX
from app.storage.dialect import dialect_of
from app.storage.repos.export import LAST_ACTIVE, decode_message, filter_where, read_rows
from app.storage.repos.repository import Repository
from app.storage.rows import ExportFilter, MessageSlice
from app.storage.sqlite.driver import sqlite3

_PLAIN = frozenset({str, int, float, type(None)})


def _dicts(cols: list[str], rows: list[tuple[Any, ...]]) -> list[dict[str, Any]]:
    """Rows as dicts; a value no text holds as stored is shown with its undecodable bytes replaced."""
    out = [dict(zip(cols, row, strict=False)) for row in rows]  # every row has len(cols) values
    if not _PLAIN.issuperset(map(type, itertools.chain.from_iterable(rows))):
        for item in out:
            for key, value in item.items():
                if isinstance(value, bytes):
                    item[key] = bytes(value).decode(errors="replace")
    return out


def _select(conn: sqlite3.Connection, columns: tuple[str, ...] | None) -> str:
    if columns is None:
        return "*"
    present = {column.name for column in dialect_of(conn).table_columns(conn, "messages")}
    return ", ".join(f'"{c}"' for c in columns if c in present)


def _decoded(cols: list[str], rows: list[tuple[Any, ...]]) -> list[dict[str, Any]]:
    out = _dicts(cols, rows)
    # Only tool calls and structured content need decoding, and most rows hold neither.
    for message in out:
        content = message.get("content")
        if message.get("tool_calls") or (type(content) is str and content.startswith(CONTENT_JSON_PREFIX)):
            decode_message(message)
    return out


class ExportPages(Repository):
    """The readable exports' pages: session rows and decoded active messages, as dicts."""

    __slots__ = ()

    def session_heads(self, flt: ExportFilter, after_id: str, limit: int) -> list[dict[str, Any]]:
        """Up to ``limit`` sessions after ``after_id`` that pass the filter, in id order: every column and the
        agent's ``last_active``."""
        return self._sessions_after(f"s.*, {LAST_ACTIVE} AS last_active", flt, after_id, limit)

    def sidebar_rows(self, flt: ExportFilter, after_id: str, limit: int) -> list[dict[str, Any]]:
        """What a page's sidebar shows of up to ``limit`` sessions after ``after_id``: id, title, start."""
        return self._sessions_after("s.id, s.title, s.started_at", flt, after_id, limit)

    def _sessions_after(
        self, columns: str, flt: ExportFilter, after_id: str, limit: int
    ) -> list[dict[str, Any]]:
        """``columns`` (of alias ``s``) of up to ``limit`` sessions after ``after_id`` that pass the
        filter."""
        where, params = filter_where(self.d, flt, since=True)
        cols, rows = read_rows(
            self.conn,
            f"SELECT {columns} FROM sessions s WHERE s.id > {self.d.p}{where} ORDER BY s.id LIMIT {self.d.p}",
            [after_id, *params, limit],
        )
        return _dicts(cols, rows)

    def sessions_by_id(self, session_ids: list[str]) -> list[dict[str, Any]]:
        """These sessions' columns and ``last_active`` in the order given (missing ones left out)."""
        if not session_ids:
            return []
        marks = ",".join([self.d.p] * len(session_ids))
        cols, rows = read_rows(
            self.conn,
            f"SELECT s.*, {LAST_ACTIVE} AS last_active FROM sessions s WHERE s.id IN ({marks})",
            session_ids,
        )
        found = {r["id"]: r for r in _dicts(cols, rows)}
        return [found[sid] for sid in session_ids if sid in found]

    def count_sessions(self, flt: ExportFilter, up_to: int) -> int:
        """How many sessions pass the filter, counting no further than ``up_to``."""
        where, params = filter_where(self.d, flt, since=True)
        (count,) = self.conn.execute(
            f"SELECT COUNT(*) FROM (SELECT 1 FROM sessions s WHERE TRUE{where} LIMIT {self.d.p}) AS passing",
            [*params, up_to],
        ).fetchone()
        return int(count)

    def message_dicts(self, part: MessageSlice) -> list[dict[str, Any]]:
        """The messages of ``part``, decoded as the agent's ``get_messages`` decodes them."""
        bound = "" if part.upto_id is None else f" AND id <= {self.d.p}"
        cols, rows = read_rows(
            self.conn,
            f"SELECT {_select(self.conn, part.columns)} FROM messages "
            f"WHERE session_id = {self.d.p} AND active = 1 AND id > {self.d.p}{bound} ORDER BY id"
            f" LIMIT {self.d.p}",
            [part.session_id, part.after_id, *([] if part.upto_id is None else [part.upto_id]), part.limit],
        )
        return _decoded(cols, rows)

    def messages_of(
        self, session_ids: list[str], limit: int, columns: tuple[str, ...] | None = None
    ) -> list[dict[str, Any]]:
        """The first ``limit`` active messages of these sessions, in (session id, id) order, decoded."""
        marks = ",".join([self.d.p] * len(session_ids))
        cols, rows = read_rows(
            self.conn,
            f"SELECT {_select(self.conn, columns)} FROM messages"
            f" WHERE session_id IN ({marks}) AND active = 1 ORDER BY session_id, id LIMIT {self.d.p}",
            [*session_ids, limit],
        )
        return _decoded(cols, rows)

    def message_snapshot(self, session_ids: list[str]) -> tuple[dict[str, int], int]:
        """Active messages per session now, and the highest message id now (what a file covers)."""
        counts: dict[str, int] = {}
        if session_ids:
            marks = ",".join([self.d.p] * len(session_ids))
            counts = dict(
                self.conn.execute(
                    f"SELECT session_id, COUNT(*) FROM messages WHERE session_id IN ({marks}) AND active = 1"
                    " GROUP BY session_id",
                    session_ids,
                ).fetchall()
            )
        (top,) = self.conn.execute("SELECT COALESCE(MAX(id), 0) FROM messages").fetchone()
        return counts, int(top)
