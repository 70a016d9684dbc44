"""Session titles in the store: globally unique, sanitised like the agent, numbered within a lineage."""

from __future__ import annotations

from app.domain import titles as title_rules
from app.domain.titles import like_escape, lineage_base, next_in_lineage, sanitize_title
from app.errors import InvalidTitle, TitleTaken, TitleTooLong
from app.storage.agent_shape import shape_of
from app.storage.repos.lineage import LineageWalks
from app.storage.repos.repository import Repository


class TitleRows(Repository):
    """Session titles: unique, sanitised like the agent, numbered within a lineage."""

    __slots__ = ()

    @staticmethod
    def clean_title(title: str | None) -> str | None:
        """Sanitise a requested title; ``None``/``""`` mean "no title".

        Raises 422 ``title_too_long`` past 100 characters and 422 ``invalid_title`` when a non-empty input
        is left with nothing printable (the agent would silently clear the title instead).
        """
        try:
            cleaned = sanitize_title(title)
        except title_rules.TitleTooLong as exc:
            raise TitleTooLong(exc.length) from exc
        if cleaned is None and title:
            raise InvalidTitle()
        return cleaned

    def set_title(self, session_id: str, title: str | None) -> bool:
        """Set (or with ``None`` clear) a session's title; ``False`` when the session does not exist.

        A title held by a compression ancestor of this session moves here (the ancestor's is cleared); one
        held by any other session is 409 ``title_in_use`` naming the ``holder`` and a free
        ``suggested_title``. Re-setting a session's own title is a no-op success.
        """
        cleaned = self.clean_title(title)
        if cleaned is not None:
            holder = self.conn.execute(
                f"SELECT id FROM sessions WHERE title = {self.d.p} AND id != {self.d.p}",
                (cleaned, session_id),
            ).fetchone()
            if holder is not None:
                holder_id = str(holder[0])
                if LineageWalks(self.conn, self.changes).is_compression_ancestor(holder_id, session_id):
                    self.conn.execute(f"UPDATE sessions SET title = NULL WHERE id = {self.d.p}", (holder_id,))
                else:
                    # The base rule: a subclass that takes a lock for the titles holds it already.
                    raise TitleTaken(cleaned, holder_id, TitleRows.next_title_in_lineage(self, cleaned))
        if shape_of(self.conn).has_session_column("title_source"):
            # The agent ranks a 'user' title above any generated one and never overwrites it.
            cursor = self.conn.execute(
                f"UPDATE sessions SET title = {self.d.p}, title_source = 'user' WHERE id = {self.d.p}",
                (cleaned, session_id),
            )
        else:
            cursor = self.conn.execute(
                f"UPDATE sessions SET title = {self.d.p} WHERE id = {self.d.p}", (cleaned, session_id)
            )
        return cursor.rowcount > 0

    def next_title_in_lineage(self, base_title: str) -> str:
        """The next free title of a lineage: ``"T"`` if free, else ``"T #<max+1>"`` (agent's rule)."""
        base = lineage_base(base_title)
        rows = self.conn.execute(
            f"SELECT title FROM sessions WHERE title = {self.d.p} OR title {self.d.casefold_like} {self.d.p}"
            " ESCAPE '\\'",
            (base, f"{like_escape(base)} #%"),
        ).fetchall()
        return next_in_lineage(base, [str(row[0]) for row in rows])

    def resolve_by_title(self, title: str) -> str | None:
        """The session a title names: the newest (by ``started_at``) ``"title #N"``, else the exact title."""
        numbered = self.conn.execute(
            f"SELECT id FROM sessions WHERE title {self.d.casefold_like} {self.d.p} ESCAPE '\\'"
            " ORDER BY started_at DESC LIMIT 1",
            (f"{like_escape(title)} #%",),
        ).fetchone()
        if numbered is not None:
            return str(numbered[0])
        exact = self.conn.execute(f"SELECT id FROM sessions WHERE title = {self.d.p}", (title,)).fetchone()
        return None if exact is None else str(exact[0])
