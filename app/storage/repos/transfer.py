"""SQL for import: whole sessions in, their rows shaped by :mod:`app.domain.agent_rows` exactly as the
agent writes them. Columns are discovered with ``PRAGMA table_info``, so a column a newer agent adds is
carried through both ways untouched.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from app.domain.agent_rows import Prepared
from app.storage.agent_shape import agent_pins, shape_of
from app.storage.dialect import Dialect, dialect_of
from app.storage.hermes_ddl import FTS_DOCUMENT_SQL
from app.storage.hermes_schema import declared_columns
from app.storage.repos.repository import Repository
from app.storage.repos.sessions import store_system_prompt
from app.storage.repos.sessions_repo import Sessions
from app.storage.repos.trigram_membership import keep_membership
from app.storage.sqlite.driver import sqlite3

CARRIED_NEWER_COLUMNS = {"sessions": {"pinned": "INTEGER", "hidden": "INTEGER", "last_activity_at": "REAL"}}
"""Columns of newer agents that import and sync carry besides schema 22's, where the store has them (by its
shape: PostgreSQL keeps two of them out of its rows' ``SELECT *``), with their declared types: the ones that
mean something in our API. Every other newer column is left to the store's default: some are the agent's
own bookkeeping (``tool_names``, ``title_source``, compression state), some depend on the file they were
computed in (``display_order``, ``system_prompt_hash``: the prompt itself is carried instead)."""


def _ids_free(conn: sqlite3.Connection, ids: list[int]) -> bool:
    d = dialect_of(conn)
    if not ids:
        return True
    if any(b <= a for a, b in itertools.pairwise(ids)):
        return False  # not in insertion order: new ids keep the order the line gives
    (taken,) = conn.execute(
        f"SELECT COUNT(*) FROM messages WHERE id BETWEEN {d.p} AND {d.p}", (ids[0], ids[-1])
    ).fetchone()
    if taken == 0:
        return True
    for start in range(0, len(ids), 500):
        part = ids[start : start + 500]
        marks = ",".join([d.p] * len(part))
        if conn.execute(f"SELECT 1 FROM messages WHERE id IN ({marks}) LIMIT 1", part).fetchone():
            return False
    return True


def session_row_sql(d: Dialect, columns: Sequence[str], *, update: bool) -> str | None:
    """The statement writing a session row of ``columns`` (``id`` among them): an INSERT, or with
    ``update`` an UPDATE of the other columns by id taking its parameters in column order, id last
    (``None`` when there is nothing to update)."""
    if update:
        sets = ", ".join(f'"{c}" = {d.p}' for c in columns if c != "id")
        return f"UPDATE sessions SET {sets} WHERE id = {d.p}" if sets else None
    names = ", ".join(f'"{c}"' for c in columns)
    return f"INSERT INTO sessions ({names}) VALUES ({', '.join([d.p] * len(columns))})"


def session_row_params(values: dict[str, Any], *, update: bool) -> list[Any]:
    """The parameters of :func:`session_row_sql` for one row."""
    if update:
        return [*(v for c, v in values.items() if c != "id"), values["id"]]
    return list(values.values())


def row_rules(conn: sqlite3.Connection, values: dict[str, Any], *, update: bool) -> SessionRowWrite:
    """What writing a whole session row (import, sync; either backend) takes on the store's file.

    A session must not leave or join a newer agent's trigram index while it has messages; a prompt goes to
    ``system_prompts`` where the agent keeps them there; ``pinned`` is written to the agent's column where
    it has one, and otherwise becomes our pin once the row is written."""
    shape = shape_of(conn)
    values = dict(values)
    pinned = None
    if "pinned" in values and not agent_pins(shape):
        pinned = bool(values.pop("pinned"))
    if "system_prompt" in values and shape.system_prompts:
        _, stored = store_system_prompt(conn, values["system_prompt"])
        values["system_prompt"], values["system_prompt_hash"] = None, stored
    if update:
        keep_membership(
            conn, values["id"], **{k: values[k] for k in ("source", "model_config") if k in values}
        )
    return SessionRowWrite(values, pinned)


@dataclass(frozen=True, slots=True)
class SessionRowWrite:
    """A session row as :func:`row_rules` leaves it, and the pin to set after it is written."""

    values: dict[str, Any]
    pinned: bool | None

    def pin(self, sessions: Sessions) -> None:
        """Set or clear our pin, when the row carried one the store keeps in ``hs_session_pins``."""
        if self.pinned is True:
            sessions.pin(self.values["id"])
        elif self.pinned is False:
            sessions.unpin(self.values["id"])


def parent_chain_contains(conn: sqlite3.Connection, start: str, target: str) -> bool:
    """Whether ``target`` is ``start`` or one of its ancestors (linking would close a cycle)."""
    d = dialect_of(conn)
    current: str | None = start
    seen: set[str] = set()
    while current is not None and current not in seen:
        if current == target:
            return True
        seen.add(current)
        row = conn.execute(f"SELECT parent_session_id FROM sessions WHERE id = {d.p}", (current,)).fetchone()
        current = row[0] if row else None
    return False


# -- bulk FTS indexing during import ----------------------------------------------------------------

_FTS_INSERT_TRIGGERS = {
    "messages_fts_insert": "messages_fts",
    "messages_fts_trigram_insert": "messages_fts_trigram",
}


def _squash(sql: str) -> str:
    return "".join(sql.split()).lower()


def _expected_trigger_body(table: str) -> str:
    document = FTS_DOCUMENT_SQL.replace("COALESCE(", "COALESCE(new.")
    return _squash(f"INSERT INTO {table}(rowid, content) VALUES (new.id, {document});")


def suspend_fts_insert_triggers(conn: sqlite3.Connection) -> list[tuple[str, str, str]]:
    """Drop the agent's two FTS insert triggers for the rest of this transaction; returns what to restore.

    Indexing a batch with one ``INSERT … SELECT`` per FTS table is about ten times faster than firing the
    triggers row by row. The triggers are re-created from their exact stored SQL before the transaction
    ends (:func:`restore_fts_insert_triggers`), so no other connection ever sees them missing, and a
    rollback restores them too. A trigger whose text is not the agent's is left alone.
    """
    d = dialect_of(conn)
    suspended: list[tuple[str, str, str]] = []
    if not shape_of(conn).own_fts_upkeep:
        # A newer agent's file (even one whose triggers still read as schema 22's): its triggers index.
        return suspended
    for name, table in _FTS_INSERT_TRIGGERS.items():
        row = conn.execute(
            f"SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = {d.p}", (name,)
        ).fetchone()
        if row is None or _expected_trigger_body(table) not in _squash(row[0]):
            continue
        conn.execute(f'DROP TRIGGER "{name}"')
        suspended.append((name, table, row[0]))
    return suspended


def restore_fts_insert_triggers(conn: sqlite3.Connection, suspended: list[tuple[str, str, str]]) -> None:
    """Re-create the suspended triggers from their exact stored SQL."""
    for _, _, sql in suspended:
        conn.execute(sql)


class Transfer(Repository):
    """Import: the stored layout, whole sessions with their messages, parent links, bulk indexing."""

    __slots__ = ()

    def table_columns(self, table: str) -> dict[str, str]:
        """Column name → declared type (upper case) of the columns import and sync write in one of the agent's
        tables: schema 22's, and those of :data:`CARRIED_NEWER_COLUMNS` the store has."""
        declared = declared_columns()[table]
        columns = {
            column.name: column.declared_type.upper()
            for column in self.d.table_columns(self.conn, table)
            if column.name in declared
        }
        if table == "sessions":
            shape = shape_of(self.conn)
            newer = CARRIED_NEWER_COLUMNS[table].items()
            columns.update({name: kind for name, kind in newer if shape.has_session_column(name)})
        return columns

    def message_defaults(self) -> dict[str, Any]:
        """Declared defaults of the messages columns, evaluated by SQLite (literals and constant
        expressions)."""
        out: dict[str, Any] = {}
        for column in self.d.table_columns(self.conn, "messages"):
            raw = column.default
            # The text is the schema's own DEFAULT clause, so the database evaluates it as an INSERT would.
            out[column.name] = None if raw is None else self.conn.execute(f"SELECT {raw}").fetchone()[0]
        return out

    def existing_ids(self, session_ids: Iterable[str]) -> set[str]:
        """The subset of ``session_ids`` already stored."""
        ids = list(session_ids)
        found: set[str] = set()
        for start in range(0, len(ids), 500):
            part = ids[start : start + 500]
            marks = ",".join([self.d.p] * len(part))
            found.update(
                r[0] for r in self.conn.execute(f"SELECT id FROM sessions WHERE id IN ({marks})", part)
            )
        return found

    def write_session_row(self, values: dict[str, Any], *, update: bool) -> None:
        """Insert the session row ``values`` (column → value, ``id`` among them) or, with ``update``,
        overwrite those columns of the stored row (its children keep pointing at it), by :func:`row_rules`."""
        write = row_rules(self.conn, values, update=update)
        sql = session_row_sql(self.d, list(write.values), update=update)
        if sql is not None:
            self.conn.execute(sql, session_row_params(write.values, update=update))
        write.pin(Sessions(self.conn, self.changes))

    def insert_session(self, item: Prepared, message_columns: list[str], *, replace: bool) -> bool:
        """Write one session and its messages (caller holds a SAVEPOINT); returns whether ids were kept.

        ``item.rows`` hold ``session_id`` then ``message_columns`` (see :class:`MessageLayout`), preceded by
        the line's message id when ``item.message_ids`` is set; those ids are kept when none is taken,
        otherwise the messages get new ones. With ``replace`` the existing row is updated in place (its
        children keep pointing at it) and its messages are swapped.
        """
        session, rows, message_ids = item.session, item.rows, item.message_ids
        sid = session["id"]
        if replace:
            self.conn.execute(f"DELETE FROM messages WHERE session_id = {self.d.p}", (sid,))
        self.write_session_row(session, update=replace)
        keep_ids = message_ids is not None and _ids_free(self.conn, message_ids)
        if not rows:
            return keep_ids
        cols = ["session_id", *message_columns]
        if keep_ids:
            cols.insert(0, "id")
        elif message_ids is not None:
            rows = [row[1:] for row in rows]
        names = ", ".join(f'"{c}"' for c in cols)
        marks = ", ".join([self.d.p] * len(cols))
        # Not noted for the auto-titler: imported history keeps the titles it came with (a title is asked for
        # explicitly, app.services.transfer).
        self.conn.executemany(f"INSERT INTO messages ({names}) VALUES ({marks})", rows)
        return keep_ids

    def link_parent(self, child_id: str, parent_id: str) -> bool:
        """Point ``child_id`` at ``parent_id`` when the parent exists and no cycle results."""
        if not Sessions(self.conn, self.changes).session_exists(parent_id) or parent_chain_contains(
            self.conn, parent_id, child_id
        ):
            return False
        self.conn.execute(
            f"UPDATE sessions SET parent_session_id = {self.d.p} WHERE id = {self.d.p}", (parent_id, child_id)
        )
        return True

    def detach_parent(self, session_id: str) -> None:
        """Clear the session's parent link (a replaced session whose line names no parent)."""
        self.conn.execute(
            f"UPDATE sessions SET parent_session_id = NULL WHERE id = {self.d.p}", (session_id,)
        )

    @contextmanager
    def fts_triggers_suspended(self) -> Iterator[list[str]]:
        """The block runs with the agent's FTS insert triggers suspended; yields the FTS tables whose trigger
        was suspended (those the caller must index itself, :meth:`index_sessions`).

        The triggers come back when the block ends, unless SQLite aborted the transaction, which has already
        put them back.
        """
        suspended = suspend_fts_insert_triggers(self.conn)
        try:
            yield [table for _, table, _ in suspended]
        finally:
            if self.conn.in_transaction:
                restore_fts_insert_triggers(self.conn, suspended)

    def index_sessions(self, tables: list[str], session_ids: list[str]) -> None:
        """Index the messages of ``session_ids`` in ``tables`` with one ``INSERT … SELECT`` per 500
        sessions."""
        for table in tables:
            for start in range(0, len(session_ids), 500):
                part = session_ids[start : start + 500]
                marks = ",".join([self.d.p] * len(part))
                self.conn.execute(
                    f"INSERT INTO {table}(rowid, content) SELECT id, {FTS_DOCUMENT_SQL} FROM messages "
                    f"WHERE session_id IN ({marks}) ORDER BY id",
                    part,
                )
