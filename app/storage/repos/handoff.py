"""Handoff state: the agent's ``sessions.handoff_*`` columns, updated with exactly the compare-and-set
statements of ``SessionDB`` (so our API and the agent's gateway can drive the same row), plus the details
those columns have no room for in ``hs_handoffs`` (claiming worker, where the session now lives)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import orjson

from app.storage.repos.repository import Repository

_NOT_SYNCED = "NOT EXISTS (SELECT 1 FROM hs_sync_sessions y WHERE y.session_id = sessions.id)"
"""A synced session's handoff is its home's: the home's gateway claims it there, never this store's."""


class Handoff(Repository):
    """Handoff state, moved only by compare-and-set statements."""

    __slots__ = ()

    def fetch(self, session_id: str) -> dict[str, Any] | None:
        """The handoff of a session (state ``None`` when never requested), or ``None`` for an unknown id."""
        row = self.conn.execute(
            "SELECT s.id, s.title, s.handoff_state, s.handoff_platform, s.handoff_error, h.worker, h.thread,"
            " h.requested_at, h.updated_at FROM sessions s LEFT JOIN hs_handoffs h ON h.session_id = s.id"
            f" WHERE s.id = {self.d.p}",
            (session_id,),
        ).fetchone()
        if row is None:
            return None
        sid, title, state, platform, error, worker, thread, requested_at, updated_at = tuple(row)
        return {
            "session_id": sid,
            "title": title,
            "state": state,
            "platform": platform,
            "error": error,
            "worker": worker,
            "thread": None if thread is None else orjson.loads(thread),
            "requested_at": requested_at,
            "updated_at": updated_at,
        }

    def request(self, session_id: str, platform: str) -> bool:
        """``SessionDB.request_handoff``: NULL/completed/failed → pending; ``False`` while one is in
        flight."""
        cursor = self.conn.execute(
            "UPDATE sessions"
            f" SET handoff_state = 'pending', handoff_platform = {self.d.p}, handoff_error = NULL "
            f"WHERE id = {self.d.p} AND (handoff_state IS NULL OR handoff_state IN ('completed', 'failed'))",
            (platform, session_id),
        )
        return cursor.rowcount > 0

    def pending_ids(self, platform: str | None, limit: int = 16) -> list[str]:
        """Pending handoffs, oldest session first (``list_pending_handoffs`` order), of one platform or all;
        never a synced session's."""
        if platform is None:
            rows = self.conn.execute(
                f"SELECT id FROM sessions WHERE handoff_state = 'pending' AND {_NOT_SYNCED}"
                f" ORDER BY started_at ASC LIMIT {self.d.p}",
                (limit,),
            ).fetchall()
        else:
            rows = self.conn.execute(
                f"SELECT id FROM sessions WHERE handoff_state = 'pending' AND handoff_platform = {self.d.p}"
                f" AND {_NOT_SYNCED} ORDER BY started_at ASC LIMIT {self.d.p}",
                (platform, limit),
            ).fetchall()
        return [str(row[0]) for row in rows]

    def claim(self, session_id: str) -> bool:
        """``SessionDB.claim_handoff``: pending → running; ``True`` only for the one caller that won, never
        for a synced session."""
        cursor = self.conn.execute(
            f"UPDATE sessions SET handoff_state = 'running' WHERE id = {self.d.p}"
            f" AND handoff_state = 'pending' AND {_NOT_SYNCED}",
            (session_id,),
        )
        return cursor.rowcount > 0

    def complete(self, session_id: str) -> bool:
        """running → completed (the agent's ``complete_handoff`` statement, guarded by the current state)."""
        cursor = self.conn.execute(
            "UPDATE sessions SET handoff_state = 'completed', handoff_error = NULL "
            f"WHERE id = {self.d.p} AND handoff_state = 'running'",
            (session_id,),
        )
        return cursor.rowcount > 0

    def fail(self, session_id: str, error: str, only_states: Iterable[str]) -> bool:
        """``fail_handoff(..., only_states=...)``: → failed with ``error`` (already truncated) when the
        current state is one of ``only_states``."""
        states = sorted(set(only_states))
        marks = ", ".join(f"{self.d.p}" for _ in states)
        cursor = self.conn.execute(
            f"UPDATE sessions SET handoff_state = 'failed', handoff_error = {self.d.p} "
            f"WHERE id = {self.d.p} AND handoff_state IN ({marks})",
            (error, session_id, *states),
        )
        return cursor.rowcount > 0

    def record_request(self, session_id: str, now: float) -> None:
        """A new request forgets the previous attempt's worker and destination."""
        self.conn.execute(
            "INSERT INTO hs_handoffs (session_id, worker, thread, requested_at, updated_at)"
            f" VALUES ({self.d.p}, NULL, NULL, {self.d.p}, {self.d.p})"
            " ON CONFLICT(session_id) DO UPDATE SET worker = NULL, thread = NULL,"
            " requested_at = excluded.requested_at, updated_at = excluded.updated_at",
            (session_id, now, now),
        )

    def record_claim(self, session_id: str, worker: str | None, now: float) -> None:
        """Remember which gateway worker claimed the handoff."""
        self.conn.execute(
            "INSERT INTO hs_handoffs (session_id, worker, thread, requested_at, updated_at)"
            f" VALUES ({self.d.p}, {self.d.p}, NULL, {self.d.p}, {self.d.p})"
            " ON CONFLICT(session_id) DO UPDATE"
            " SET worker = excluded.worker, updated_at = excluded.updated_at",
            (session_id, worker, now, now),
        )

    def record_settled(self, session_id: str, thread: Any, now: float) -> None:
        """Remember where a completed session now lives (``None`` after a failure)."""
        encoded = None if thread is None else orjson.dumps(thread).decode()
        self.conn.execute(
            "INSERT INTO hs_handoffs (session_id, worker, thread, requested_at, updated_at)"
            f" VALUES ({self.d.p}, NULL, {self.d.p}, {self.d.p}, {self.d.p})"
            " ON CONFLICT(session_id) DO UPDATE"
            " SET thread = excluded.thread, updated_at = excluded.updated_at",
            (session_id, encoded, now, now),
        )
