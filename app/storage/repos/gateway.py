"""The agent's gateway routing index (``gateway_routing``) and the session-row statements its
``SessionStore`` runs through ``SessionDB``, one row at a time.

The agent rewrites a whole scope on each save; a routed message here touches only its own row, with
the same columns and values, so the agent's loader reads exactly what it would have written.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

from app.domain.records import ChatPeer
from app.storage.repos.repository import Repository
from app.storage.repos.sessions_repo import Sessions
from app.storage.repos.trigram_membership import keep_membership

# -- session rows -----------------------------------------------------------------------------------


def _peer_columns(peer: ChatPeer) -> tuple[str, str | None, str, str | None, str | None, str | None]:
    # The order in which the statements below list these columns.
    return (peer.source, peer.user_id, peer.session_key, peer.chat_id, peer.chat_type, peer.thread_id)


# The ends a gateway takes back: the agent closing its process, the orphan reaper (not a person's choice).
_TAKEN_BACK = ("agent_close", "ws_orphan_reap")
_TAKEN_BACK_SQL = ", ".join(f"'{reason}'" for reason in _TAKEN_BACK)
_RECOVERABLE = (
    f"(ended_at IS NULL OR end_reason IN ({_TAKEN_BACK_SQL})) AND "
    "(COALESCE(message_count, 0) > 0 OR EXISTS (SELECT 1 FROM messages "
    "WHERE messages.session_id = sessions.id LIMIT 1))"
)


# -- background processes (hs_gateway_processes) ------------------------------------------------------


def _times(raw: str) -> list[float]:
    value = json.loads(raw)
    return [float(v) for v in value] if isinstance(value, list) else []


class Gateway(Repository):
    """The gateway's routing entries, its sessions and its processes."""

    __slots__ = ()

    def get_entry(self, scope: str, session_key: str) -> str | None:
        """The stored ``entry_json`` of one key, or ``None``."""
        row = self.conn.execute(
            f"SELECT entry_json FROM gateway_routing WHERE scope = {self.d.p} AND session_key = {self.d.p}",
            (scope, session_key),
        ).fetchone()
        return None if row is None else str(row[0])

    def put_entry(self, scope: str, session_key: str, entry_json: str) -> None:
        """Insert or replace one key's entry (``updated_at`` = the write time, as the agent stores it)."""
        self.changes.note_routing()
        self.conn.execute(
            "INSERT INTO gateway_routing (scope, session_key, entry_json, updated_at)"
            f" VALUES ({self.d.p}, {self.d.p}, {self.d.p}, {self.d.p})"
            " ON CONFLICT(scope, session_key) DO UPDATE"
            " SET entry_json = excluded.entry_json, updated_at = excluded.updated_at",
            (scope, session_key, entry_json, time.time()),
        )

    def delete_entries(self, scope: str, session_keys: list[str]) -> int:
        """Remove keys from the index; how many were there."""
        removed = 0
        for key in session_keys:
            cursor = self.conn.execute(
                f"DELETE FROM gateway_routing WHERE scope = {self.d.p} AND session_key = {self.d.p}",
                (scope, key),
            )
            removed += cursor.rowcount
        if removed:
            self.changes.note_routing()
        return removed

    def page_entries(
        self,
        scope: str,
        *,
        after: str | None,
        limit: int,
        platform: str | None,
        session_id: str | None,
    ) -> list[tuple[str, str]]:
        """``(session_key, entry_json)`` in key order after ``after``, optionally filtered on the entry's
        ``platform`` and ``session_id`` members."""
        clauses = [f"scope = {self.d.p}"]
        params: list[Any] = [scope]
        if after is not None:
            clauses.append(f"session_key > {self.d.p}")
            params.append(after)
        if platform is not None:
            clauses.append(f"{self.d.json_text('entry_json', '$.platform')} = {self.d.p}")
            params.append(platform)
        if session_id is not None:
            clauses.append(f"{self.d.json_text('entry_json', '$.session_id')} = {self.d.p}")
            params.append(session_id)
        params.append(limit)
        rows = self.conn.execute(
            f"SELECT session_key, entry_json FROM gateway_routing WHERE {' AND '.join(clauses)} "
            f"ORDER BY session_key LIMIT {self.d.p}",
            params,
        ).fetchall()
        return [(str(r[0]), str(r[1])) for r in rows]

    def iter_entries(self, scope: str) -> Iterator[tuple[str, str]]:
        """Every ``(session_key, entry_json)`` of a scope, in insertion order (for the mirror and
        watchers)."""
        for row in self.conn.execute(
            f"SELECT session_key, entry_json FROM gateway_routing WHERE scope = {self.d.p} ORDER BY rowid",
            (scope,),
        ):
            yield str(row[0]), str(row[1])

    def changed_since(self, scope: str, since: float) -> list[tuple[str, str, float]]:
        """``(session_key, entry_json, updated_at)`` of the rows written at or after ``since``."""
        rows = self.conn.execute(
            f"SELECT session_key, entry_json, updated_at FROM gateway_routing WHERE scope = {self.d.p} AND"
            f" updated_at >= {self.d.p} ORDER BY rowid",
            (scope, since),
        ).fetchall()
        return [(str(r[0]), str(r[1]), float(r[2])) for r in rows]

    def last_change(self, scope: str) -> float | None:
        """When a scope's newest row was written (``None``: no rows)."""
        row = self.conn.execute(
            f"SELECT max(updated_at) FROM gateway_routing WHERE scope = {self.d.p}", (scope,)
        ).fetchone()
        return None if row is None or row[0] is None else float(row[0])

    def keys(self, scope: str) -> set[str]:
        """Every key of a scope."""
        return {
            str(r[0])
            for r in self.conn.execute(
                f"SELECT session_key FROM gateway_routing WHERE scope = {self.d.p}", (scope,)
            )
        }

    def end_reason(self, session_id: str) -> tuple[bool, str | None]:
        """``(exists, end_reason)`` of a session row."""
        row = self.conn.execute(
            f"SELECT end_reason FROM sessions WHERE id = {self.d.p}", (session_id,)
        ).fetchone()
        return (False, None) if row is None else (True, row[0])

    def create_session(self, session_id: str, peer: ChatPeer, profile_name: str | None) -> None:
        """``SessionDB.create_session`` as the gateway calls it: a bare row, enriching NULLs on conflict."""
        self.conn.execute(
            "INSERT INTO sessions (id, source, user_id, session_key, chat_id, chat_type, thread_id, "
            "profile_name, started_at)"
            f" VALUES ({self.d.p}, {self.d.p}, {self.d.p}, {self.d.p}, {self.d.p}, {self.d.p}, {self.d.p},"
            f" {self.d.p}, {self.d.p}) ON CONFLICT(id) DO UPDATE SET "
            "session_key = COALESCE(sessions.session_key, excluded.session_key), "
            "chat_id = COALESCE(sessions.chat_id, excluded.chat_id), "
            "chat_type = COALESCE(sessions.chat_type, excluded.chat_type), "
            "thread_id = COALESCE(sessions.thread_id, excluded.thread_id), "
            "profile_name = COALESCE(sessions.profile_name, excluded.profile_name)",
            (session_id, *_peer_columns(peer), profile_name, time.time()),
        )

    def record_peer(
        self,
        session_id: str,
        peer: ChatPeer,
        *,
        display_name: str | None,
        origin_json: str | None,
    ) -> bool:
        """``record_gateway_session_peer``: the row now belongs to this chat (``False`` if it is missing)."""
        keep_membership(self.conn, session_id, source=_peer_columns(peer)[0])
        cursor = self.conn.execute(
            "UPDATE sessions"
            f" SET source = {self.d.p}, user_id = {self.d.p}, session_key = {self.d.p}, chat_id = {self.d.p},"
            f" chat_type = {self.d.p}, thread_id = {self.d.p}, display_name = COALESCE({self.d.p},"
            f" display_name), origin_json = COALESCE({self.d.p}, origin_json) WHERE id = {self.d.p}",
            (*_peer_columns(peer), display_name, origin_json, session_id),
        )
        return cursor.rowcount > 0

    def promote_to_reset(self, session_id: str, reason: str) -> bool:
        """``promote_to_session_reset``: end a live row, or one ended by ``agent_close``/``ws_orphan_reap``,
        with ``reason``; an explicit earlier end wins."""
        return Sessions(self.conn, self.changes).end_session(session_id, reason, over=_TAKEN_BACK)

    def set_expiry_finalized(self, session_id: str) -> None:
        """The row's ``expiry_finalized`` flag (the expiry watcher's mark)."""
        self.conn.execute(f"UPDATE sessions SET expiry_finalized = 1 WHERE id = {self.d.p}", (session_id,))

    def find_recoverable(self, peer: ChatPeer) -> tuple[str, float | None, str | None] | None:
        """``find_latest_gateway_session_for_peer``: the newest live (or accidentally closed) row with
        messages for this key, else for the same peer tuple; ``(id, started_at, session_key)``."""
        row = self.conn.execute(
            f"SELECT id, started_at, session_key FROM sessions WHERE session_key = {self.d.p}"
            f" AND source = {self.d.p} AND {_RECOVERABLE} ORDER BY started_at DESC LIMIT 1",
            (peer.session_key, peer.source),
        ).fetchone()
        if row is None and peer.chat_id is not None and peer.chat_type is not None:
            row = self.conn.execute(
                f"SELECT id, started_at, session_key FROM sessions WHERE source = {self.d.p}"
                f" AND COALESCE(user_id, '') = COALESCE({self.d.p}, '')"
                f" AND COALESCE(chat_id, '') = COALESCE({self.d.p}, '')"
                f" AND COALESCE(chat_type, '') = COALESCE({self.d.p}, '')"
                f" AND COALESCE(thread_id, '') = COALESCE({self.d.p}, '')"
                f" AND {_RECOVERABLE} ORDER BY started_at DESC LIMIT 1",
                (peer.source, peer.user_id, peer.chat_id, peer.chat_type, peer.thread_id),
            ).fetchone()
        if row is None:
            return None
        return str(row[0]), row[1], row[2]

    def user_message_count(self, session_id: str) -> int:
        """How many user messages a session holds (the count ``/resume`` reports)."""
        row = self.conn.execute(
            f"SELECT COUNT(*) FROM messages WHERE session_id = {self.d.p} AND role = 'user'", (session_id,)
        ).fetchone()
        return int(row[0])

    def title_of(self, session_id: str) -> str | None:
        """A session's title."""
        row = self.conn.execute(f"SELECT title FROM sessions WHERE id = {self.d.p}", (session_id,)).fetchone()
        return None if row is None else row[0]

    def entry_for_session(self, scope: str, session_id: str) -> str | None:
        """The first-stored entry (``entry_json``) routing to ``session_id`` (``lookup_by_session_id``)."""
        row = self.conn.execute(
            f"SELECT entry_json FROM gateway_routing WHERE scope = {self.d.p} "
            # A hand-edited malformed row must not fail the lookup (reading a member raises on it).
            f"AND CASE WHEN {self.d.json_is_valid('entry_json')}"
            f" THEN {self.d.json_text('entry_json', '$.session_id')} END = {self.d.p} ORDER BY rowid LIMIT 1",
            (scope, session_id),
        ).fetchone()
        return None if row is None else str(row[0])

    def owner_columns(self, session_id: str) -> dict[str, Any]:
        """The columns ``/resume`` proves ownership with: ``source``, ``user_id``, ``chat_id``, ``thread_id``
        (empty when the row is missing)."""
        row = self.conn.execute(
            f"SELECT source, user_id, chat_id, thread_id FROM sessions WHERE id = {self.d.p}", (session_id,)
        ).fetchone()
        if row is None:
            return {}
        return dict(zip(("source", "user_id", "chat_id", "thread_id"), row, strict=True))

    def put_processes(self, scope: str, session_key: str, started_at: list[float]) -> None:
        """Store the start times of a chat's live background processes; an empty list forgets them."""
        if not started_at:
            self.conn.execute(
                f"DELETE FROM hs_gateway_processes WHERE scope = {self.d.p} AND session_key = {self.d.p}",
                (scope, session_key),
            )
            return
        self.conn.execute(
            "INSERT INTO hs_gateway_processes (scope, session_key, started_at_json, updated_at) "
            f"VALUES ({self.d.p}, {self.d.p}, {self.d.p}, {self.d.p}) ON CONFLICT(scope, session_key)"
            " DO UPDATE SET started_at_json = excluded.started_at_json, updated_at = excluded.updated_at",
            (scope, session_key, json.dumps(started_at), time.time()),
        )

    def processes_of(self, scope: str, session_key: str) -> list[float]:
        """The start times last stored for one chat (empty when none)."""
        row = self.conn.execute(
            f"SELECT started_at_json FROM hs_gateway_processes WHERE scope = {self.d.p}"
            f" AND session_key = {self.d.p}",
            (scope, session_key),
        ).fetchone()
        return [] if row is None else _times(str(row[0]))

    def all_processes(self, scope: str) -> dict[str, list[float]]:
        """Every chat of a scope with stored processes, and their start times."""
        rows = self.conn.execute(
            f"SELECT session_key, started_at_json FROM hs_gateway_processes WHERE scope = {self.d.p}",
            (scope,),
        ).fetchall()
        return {str(key): _times(str(raw)) for key, raw in rows}

    def delete_processes(self, scope: str, session_keys: list[str]) -> None:
        """Forget the stored processes of these chats."""
        self.conn.executemany(
            f"DELETE FROM hs_gateway_processes WHERE scope = {self.d.p} AND session_key = {self.d.p}",
            [(scope, key) for key in session_keys],
        )

    def claim_entry(self, scope: str, session_key: str) -> str | None:
        """The stored ``entry_json`` of one key, or ``None``, with the key held by this transaction until it
        commits: a concurrent writer of the same key (another lane, another replica) waits, then reads what
        this one wrote. Every routing decision reads its entry through this."""
        # The writer is the file's only one (BEGIN IMMEDIATE), so reading is holding.
        return self.get_entry(scope, session_key)

    def reopen(self, session_id: str) -> bool:
        """Reopen an ended session row (the sessions aggregate's ``reopen_session``)."""
        return Sessions(self.conn, self.changes).reopen_session(session_id)
