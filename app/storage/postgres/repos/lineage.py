"""The ``Lineage`` repository on PostgreSQL."""

from __future__ import annotations

from typing import Any

from app.storage.postgres.dialect import POSTGRES
from app.storage.postgres.repos.base import pg_of
from app.storage.repos.lineage_messages import tool_calls_of_row_sql
from app.storage.repos.lineage_repo import Lineage


class PgLineage(Lineage):
    """The ``Lineage`` repository over one PostgreSQL connection."""

    __slots__ = ()

    def copy_active_messages(self, source_id: str, target_id: str, up_to_id: int | None = None) -> int:
        """Copy the active messages of ``source_id`` (up to and including ``up_to_id``) into an empty
        ``target_id`` with every column (a newer agent's too) and their attachment links; set the target's
        counters. Returns the number copied."""
        pg = pg_of(self.conn)
        names = [
            str(row[0])
            for row in pg.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema()"
                " AND table_name = 'messages' AND column_name NOT IN ('id', 'session_id')"
                # Generated columns (the search vector) are computed for the copies, never written.
                " AND is_generated = 'NEVER'"
                " ORDER BY ordinal_position"
            )
        ]
        columns = ", ".join(f'"{name}"' for name in names)
        bound = "" if up_to_id is None else " AND id <= %(up_to)s"
        params: dict[str, Any] = {"source": source_id, "target": target_id, "up_to": up_to_id}
        # One statement: the copies in source id order, each paired with its original for the links.
        copied = pg.execute(
            f"WITH src AS (SELECT id AS old_id, {columns} FROM messages"
            f" WHERE session_id = %(source)s AND active = 1{bound}),"
            f" ins AS (INSERT INTO messages (session_id, {columns})"
            f" SELECT %(target)s, {columns} FROM src ORDER BY old_id RETURNING id),"
            " pairs AS (SELECT n.id AS new_id, o.old_id FROM"
            " (SELECT id, row_number() OVER (ORDER BY id) AS k FROM ins) n JOIN"
            " (SELECT old_id, row_number() OVER (ORDER BY old_id) AS k FROM src) o ON o.k = n.k),"
            " links AS (INSERT INTO hs_message_attachments (message_id, attachment_id, position)"
            " SELECT p.new_id, l.attachment_id, l.position FROM pairs p"
            " JOIN hs_message_attachments l ON l.message_id = p.old_id)"
            " SELECT count(*) FROM pairs",
            params,
        ).fetchone()
        count = int(copied[0]) if copied else 0
        pg.execute(
            f"UPDATE sessions SET message_count = (SELECT count(*) FROM messages WHERE session_id = %(t)s),"
            f" tool_call_count = (SELECT COALESCE(SUM({tool_calls_of_row_sql(POSTGRES)}), 0) FROM messages"
            f" WHERE session_id = %(t)s) WHERE id = %(t)s",
            {"t": target_id},
        )
        if count:
            self.changes.note_messages(target_id)
        return count
