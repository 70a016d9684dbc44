"""A session's members stored in our own tables (``own_schema.SESSION_MEMBERS``): read beside the agent's
row, written by one upsert per table. Nothing here names a member: the tables' columns are the list."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.storage.own_schema import session_member_columns, session_member_tables
from app.storage.repos.repository import Repository

OWN_MEMBERS: tuple[str, ...] = tuple(c.name for c in session_member_columns())
"""The names, in the order :data:`OWN_MEMBERS_SQL` selects them."""

OWN_MEMBERS_SQL = "".join(
    f", (SELECT own.{c.name} FROM {c.table.name} own WHERE own.session_id = {{a}}.id) AS {c.name}"
    for c in session_member_columns()
)
"""What the select list of the session under alias ``{a}`` appends for them (empty when there are none)."""


class OwnFields(Repository):
    """A session's members stored in our own tables."""

    __slots__ = ()

    def set_own_fields(self, session_id: str, values: Mapping[str, Any]) -> None:
        """Store the members of ours that ``values`` names (``None`` clears one); other names are left to
        their own setters."""
        for table in session_member_tables():
            names = [c.name for c in table.columns if c.name != "session_id" and c.name in values]
            if names:
                self.conn.execute(
                    f"INSERT INTO {table.name} (session_id, {', '.join(names)})"
                    f" VALUES ({', '.join([self.d.p] * (len(names) + 1))}) ON CONFLICT(session_id) DO UPDATE"
                    " SET " + ", ".join(f"{n} = excluded.{n}" for n in names),
                    (session_id, *(values[n] for n in names)),
                )
