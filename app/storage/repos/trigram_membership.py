"""The one change a newer agent's file forbids once a session has messages: leaving or joining its trigram
index.

From agent schema 29 the trigram index's triggers decide at each insert, update and delete whether a
message belongs to the index by reading its session's ``source`` (cron sessions are left out; from 30
subagent ones too) and ``model_config``'s ``_delegate_from`` (30). A session that changes sides while it
has messages leaves the index holding rows its delete trigger will no longer remove (or the reverse), and
FTS5 then reports the file malformed. Such a change is refused; everything else about a session may change.
"""

from __future__ import annotations

import json
from typing import Any

from app.errors import TrigramMembershipLocked
from app.storage.agent_shape import AgentShape, shape_of
from app.storage.sqlite.driver import sqlite3

_UNCHANGED = object()


def _delegated(model_config: Any) -> bool:
    if not isinstance(model_config, str):
        return False
    try:
        decoded = json.loads(model_config)
    except ValueError:
        return False
    return isinstance(decoded, dict) and decoded.get("_delegate_from") is not None


def _indexed(shape: AgentShape, source: Any, model_config: Any) -> bool:
    if not shape.trigram_reads_delegate:
        return source != "cron"
    return source not in ("cron", "subagent") and not _delegated(model_config)


def keep_membership(
    conn: sqlite3.Connection, session_id: str, *, source: Any = _UNCHANGED, model_config: Any = _UNCHANGED
) -> None:
    """Raise :class:`TrigramMembershipLocked` if giving the session this ``source`` or ``model_config``
    (stored JSON text) would move it into or out of the file's trigram index while it has messages."""
    shape = shape_of(conn)
    if not shape.trigram_reads_sessions:
        return
    row = conn.execute(
        "SELECT source, model_config, EXISTS (SELECT 1 FROM messages WHERE session_id = ?1)"
        " FROM sessions WHERE id = ?1",
        (session_id,),
    ).fetchone()
    if row is None or not row[2]:
        return
    new_source = row[0] if source is _UNCHANGED else source
    new_config = row[1] if model_config is _UNCHANGED else model_config
    if _indexed(shape, row[0], row[1]) != _indexed(shape, new_source, new_config):
        raise TrigramMembershipLocked(session_id)
