"""``hs_session_titles``: who set a session's title, the first exchange to title, and the auto-title write."""

from __future__ import annotations

import time

from app.storage.agent_shape import shape_of
from app.storage.repos.titles import TitleRows
from app.storage.rows import FirstExchange

TITLE_SOURCE_SQL = (
    "(SELECT t.title_source FROM hs_session_titles t WHERE t.session_id = {a}.id AND {a}.title IS NOT NULL)"
)
"""Correlated primary-key lookup for session lists: ``user``/``auto``, NULL when untitled or unknown."""

_TITLED_BEFORE = "EXISTS (SELECT 1 FROM hs_session_titles t WHERE t.session_id = s.id)"
# A synced session's title belongs to its home (the agent there titles it; the next sync brings the title).
_SYNCED = "EXISTS (SELECT 1 FROM hs_sync_sessions y WHERE y.session_id = s.id)"
_MAY_NEED_TITLE = f"s.title IS NULL AND NOT {_TITLED_BEFORE} AND NOT {_SYNCED}"
_SETTLED = f"s.title IS NOT NULL OR {_TITLED_BEFORE} OR {_SYNCED}"


class TitleSources(TitleRows):
    """Who set each title, and the titles a generator proposes."""

    __slots__ = ()

    def record_title_source(self, session_id: str, source: str, generator: str | None = None) -> None:
        """Remember who set the title (``user`` or ``auto``); a row also stops any later auto-title."""
        self.conn.execute(
            "INSERT INTO hs_session_titles (session_id, title_source, generator, created_at)"
            f" VALUES ({self.d.p}, {self.d.p}, {self.d.p}, {self.d.p}) ON CONFLICT(session_id) DO UPDATE SET"
            " title_source = excluded.title_source,"
            " generator = excluded.generator, created_at = excluded.created_at",
            (session_id, source, generator, time.time()),
        )

    def _first_text(self, session_id: str, role: str) -> str | None:
        row = self.conn.execute(
            f"SELECT content FROM messages WHERE session_id = {self.d.p} AND role = {self.d.p} AND active = 1"
            " AND content IS NOT NULL AND TRIM(content) != '' ORDER BY timestamp, id LIMIT 1",
            (session_id, role),
        ).fetchone()
        return None if row is None else str(row[0])

    def _session_test(self, session_id: str, test: str) -> bool | None:
        """The SQL condition ``test`` on the session's row (alias ``s``); ``None`` when there is no row."""
        row = self.conn.execute(
            f"SELECT {test} FROM sessions s WHERE s.id = {self.d.p}", (session_id,)
        ).fetchone()
        return None if row is None else bool(row[0])

    def title_due(self, session_id: str) -> FirstExchange | bool:
        """The exchange to title; otherwise whether the session is settled: ``True`` when it will never need
        an auto-title (gone, titled, titled before, or synced), ``False`` when it still may (it lacks a first
        exchange). Settled never turns back, so one read answers both questions."""
        if not self._session_test(session_id, _MAY_NEED_TITLE):
            return True
        user = self._first_text(session_id, "user")
        assistant = self._first_text(session_id, "assistant") if user is not None else None
        if user is None or assistant is None:
            return False
        return FirstExchange(user=user, assistant=assistant)

    def apply_auto_title(self, session_id: str, title: str, generator: str) -> str | None:
        """Set a generated title if the session is still untitled and was never titled; the title set, or
        ``None``.

        Re-checked inside the writer job, so a title a person set while the generator ran wins. A taken title
        gets the next free `` #N`` of its lineage instead of failing.
        """
        # Gone, titled, titled before, or synced: it never needs an auto-title.
        if self._session_test(session_id, _SETTLED) is not False:
            return None
        cleaned = self.clean_title(title)
        if cleaned is None:
            return None
        # The base rule: a subclass that takes a lock for the titles holds it already.
        final = TitleRows.next_title_in_lineage(self, cleaned)
        if len(final) > 100:
            # The " #N" suffix pushed a long title past the limit: shorten the base and number again.
            final = TitleRows.next_title_in_lineage(self, cleaned[: 100 - len(final) + len(cleaned)].rstrip())
        if len(final) > 100:
            return None
        if shape_of(self.conn).has_session_column("title_source"):
            # The agent's names: 'llm' for a model's proposal, 'derived' for one cut from the text.
            source = "llm" if generator == "endpoint" else "derived"
            self.conn.execute(
                f"UPDATE sessions SET title = {self.d.p}, title_source = {self.d.p} WHERE id = {self.d.p}"
                " AND title IS NULL",
                (final, source, session_id),
            )
        else:
            self.conn.execute(
                f"UPDATE sessions SET title = {self.d.p} WHERE id = {self.d.p} AND title IS NULL",
                (final, session_id),
            )
        self.record_title_source(session_id, "auto", generator)
        return final
