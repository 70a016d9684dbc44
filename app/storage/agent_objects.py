"""The triggers, views and FTS tables the agent's builds put on ``sessions`` and ``messages`` (schema 22-30).

A file is written only when every such object in it is one of these (see :mod:`app.storage.agent_shape`): a
trigger we do not know may index, copy or veto what we write in ways we cannot check. The texts are
restated from the agent's DDL (hermes-agent 0.19.0 for 22; the 0.20 builds for 23 to 26; the upstream
schema module at ``SCHEMA_VERSION = 30`` for 29 and 30) and compared after :func:`normalize`, which drops
what does not change a statement's meaning (case, white space, ``IF NOT EXISTS``, index hints).

The families, by FTS layout:

- **inline** (schema 11 to 22, and any later file never optimized): each FTS table stores its own copy of
  ``content || tool_name || tool_calls``; later builds narrow the update triggers to ``UPDATE OF`` and cut
  tool output to a prefix.
- **external** (schema 23 on): the indexes read ``messages`` (layout 1), or the trigram one drops
  ``tool_calls`` (layout 2), or the word index reads the view ``messages_fts_src`` (layout 3); the triggers
  are gated on the deferred-rebuild marks in ``state_meta``. From 29 the trigram triggers and view also look
  up the session: cron sessions (29), and subagent and delegated ones (30), are left out.
- **display** (schema 30): four triggers that keep ``messages.display_order``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from itertools import product

from app.storage import hermes_ddl as ddl

NEWEST_KNOWN_SCHEMA = 30
"""The newest agent schema whose objects this module knows."""

_HINTS = re.compile(r"\bindexed\s+by\s+\w+", re.IGNORECASE)


def normalize(sql: str) -> str:
    """``sql`` without case, white space, ``IF NOT EXISTS``, index hints or a trailing semicolon."""
    text = _HINTS.sub("", sql).lower().replace("if not exists", "")
    return "".join(text.split()).rstrip(";")


@dataclass(frozen=True)
class Family:
    """What a known object tells about the file."""

    fts: str
    """``inline``, ``external`` or ``display`` (not FTS)."""
    reads_sessions: bool = False
    """Its trigram membership depends on ``sessions.source`` (schema 29 and 30)."""
    reads_delegate: bool = False
    """... and on ``model_config``'s ``_delegate_from`` (schema 30)."""


INLINE = Family("inline")
DISPLAY = Family("display")

# -- inline (schema 22, and legacy files at any later version) ---------------------------------------------

_INLINE_UPDATE_EVENTS = (
    "AFTER UPDATE ON messages",
    "AFTER UPDATE OF content, tool_name, tool_calls ON messages",
    "AFTER UPDATE OF content, tool_name, tool_calls, role ON messages",
)
_TOOL_PREFIX_CHARS = 8192


def _indexed_content(row: str, *, cut_tool_output: bool) -> str:
    if cut_tool_output:
        return (
            f"CASE WHEN {row}.role = 'tool' THEN "
            f"substr(COALESCE({row}.content, ''), 1, {_TOOL_PREFIX_CHARS}) ELSE {row}.content END"
        )
    return f"{row}.content"


def _inline_objects(table: str, update_event: str, cut: bool) -> dict[str, str]:
    document = (
        f"COALESCE({_indexed_content('new', cut_tool_output=cut)}, '') || ' ' || COALESCE(new.tool_name, '')"
        " || ' ' || COALESCE(new.tool_calls, '')"
    )
    insert = f"INSERT INTO {table}(rowid, content) VALUES (new.id, {document});"
    return {
        f"{table}_insert": f"CREATE TRIGGER {table}_insert AFTER INSERT ON messages BEGIN {insert} END",
        f"{table}_delete": (
            f"CREATE TRIGGER {table}_delete AFTER DELETE ON messages BEGIN "
            f"DELETE FROM {table} WHERE rowid = old.id; END"
        ),
        f"{table}_update": (
            f"CREATE TRIGGER {table}_update {update_event} BEGIN "
            f"DELETE FROM {table} WHERE rowid = old.id; {insert} END"
        ),
    }


# -- external content (schema 23 on) ------------------------------------------------------------------------


def _gate(row: str) -> str:
    return (
        f"({row}.id > COALESCE((SELECT CAST(value AS INTEGER) FROM state_meta "
        "WHERE key = 'fts_rebuild_high_water'), -1) "
        f"OR {row}.id <= COALESCE((SELECT CAST(value AS INTEGER) FROM state_meta "
        "WHERE key = 'fts_rebuild_progress'), -1))"
    )


_DELEGATE = (
    "json_extract((CASE WHEN json_valid({q}model_config) THEN {q}model_config ELSE json_object() END), "
    "'$._delegate_from') IS NULL"
)


def _member(q: str, exclusion: str) -> str:
    """The trigram index's session predicate of one exclusion generation (``q``: column qualifier)."""
    if exclusion == "cron":
        return f"{q}source NOT IN ('cron')"
    return f"{q}source NOT IN ('cron', 'subagent') AND " + _DELEGATE.format(q=q)


def _external_word_objects(layout3: bool) -> dict[str, str]:
    new, old = (_indexed_content(r, cut_tool_output=layout3) for r in ("new", "old"))
    objects = {
        "messages_fts_insert": (
            f"CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages WHEN {_gate('new')} BEGIN "
            "INSERT INTO messages_fts(rowid, content, tool_name, tool_calls) "
            f"VALUES (new.id, {new}, new.tool_name, new.tool_calls); END"
        ),
        "messages_fts_delete": (
            f"CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages WHEN {_gate('old')} BEGIN "
            "INSERT INTO messages_fts(messages_fts, rowid, content, tool_name, tool_calls) "
            f"VALUES ('delete', old.id, {old}, old.tool_name, old.tool_calls); END"
        ),
    }
    changed = (
        "old.content IS NOT new.content OR old.tool_name IS NOT new.tool_name OR old.tool_calls IS NOT "
        "new.tool_calls"
    )
    events = ["content, tool_name, tool_calls"]
    if layout3:
        # Layout 3 indexes a role-dependent prefix, so a role change re-indexes the row.
        events, changed = ["content, tool_name, tool_calls, role"], changed + " OR old.role IS NOT new.role"
    objects["messages_fts_update"] = (
        f"CREATE TRIGGER messages_fts_update AFTER UPDATE OF {events[0]} ON messages "
        f"WHEN ({changed}) AND {_gate('old')} BEGIN "
        "INSERT INTO messages_fts(messages_fts, rowid, content, tool_name, tool_calls) "
        f"VALUES ('delete', old.id, {old}, old.tool_name, old.tool_calls); "
        "INSERT INTO messages_fts(rowid, content, tool_name, tool_calls) "
        f"VALUES (new.id, {new}, new.tool_name, new.tool_calls); END"
    )
    if layout3:
        objects["messages_fts_src"] = (
            f"CREATE VIEW messages_fts_src AS SELECT id, CASE WHEN role = 'tool' THEN "
            f"substr(COALESCE(content, ''), 1, {_TOOL_PREFIX_CHARS}) ELSE content END AS content, "
            "tool_name, tool_calls FROM messages"
        )
    return objects


def _external_trigram_objects(with_calls: bool, exclusion: str | None) -> dict[str, str]:
    cols = "content, tool_name, tool_calls" if with_calls else "content, tool_name"

    def values(row: str) -> str:
        return ", ".join(f"{row}.{c.strip()}" for c in cols.split(","))

    def member(row: str) -> str:
        if exclusion is None:
            return ""
        return (
            f" AND EXISTS (SELECT 1 FROM sessions WHERE id = {row}.session_id AND {_member('', exclusion)})"
        )

    objects = {
        "messages_fts_trigram_insert": (
            "CREATE TRIGGER messages_fts_trigram_insert AFTER INSERT ON messages "
            f"WHEN new.role <> 'tool'{member('new')} AND {_gate('new')} BEGIN "
            f"INSERT INTO messages_fts_trigram(rowid, {cols}) VALUES (new.id, {values('new')}); END"
        ),
        "messages_fts_trigram_delete": (
            "CREATE TRIGGER messages_fts_trigram_delete AFTER DELETE ON messages "
            f"WHEN old.role <> 'tool'{member('old')} AND {_gate('old')} BEGIN "
            f"INSERT INTO messages_fts_trigram(messages_fts_trigram, rowid, {cols}) "
            f"VALUES ('delete', old.id, {values('old')}); END"
        ),
    }
    watched = [c.strip() for c in cols.split(",")][1:]
    changed = " OR ".join(f"old.{c} IS NOT new.{c}" for c in ["content", *watched, "role"])
    objects["messages_fts_trigram_update"] = (
        f"CREATE TRIGGER messages_fts_trigram_update AFTER UPDATE OF {cols}, role ON messages "
        f"WHEN ({changed}) AND {_gate('old')} BEGIN "
        f"INSERT INTO messages_fts_trigram(messages_fts_trigram, rowid, {cols}) "
        f"SELECT 'delete', old.id, {values('old')} WHERE old.role <> 'tool'{member('old')}; "
        f"INSERT INTO messages_fts_trigram(rowid, {cols}) "
        f"SELECT new.id, {values('new')} WHERE new.role <> 'tool'{member('new')}; END"
    )
    if exclusion is None:
        objects["messages_fts_trigram_src"] = (
            "CREATE VIEW messages_fts_trigram_src AS SELECT id, role, content, tool_name"
            + (", tool_calls" if with_calls else "")
            + " FROM messages WHERE role <> 'tool'"
        )
    else:
        objects["messages_fts_trigram_src"] = (
            "CREATE VIEW messages_fts_trigram_src AS SELECT m.id, m.role, m.content, m.tool_name"
            + (", m.tool_calls" if with_calls else "")
            + " FROM messages AS m JOIN sessions AS s ON s.id = m.session_id "
            f"WHERE m.role <> 'tool' AND {_member('s.', exclusion)}"
        )
    return objects


# -- display order (schema 30) ------------------------------------------------------------------------------

_PEER_ORDER = (
    "SELECT display_order FROM messages WHERE session_id = new.session_id AND id <> new.id "
    "AND (active = 1 OR compacted = 1) AND display_identity = new.display_identity "
    "AND display_order IS NOT NULL ORDER BY display_order LIMIT 1"
)
_OLD_PEERS_MIN = (
    "SELECT MIN(peer.id) FROM messages AS peer WHERE peer.session_id = old.session_id "
    "AND (peer.active = 1 OR peer.compacted = 1) AND peer.display_identity = old.display_identity"
)
_VISIBLE_OLD_PEERS = (
    "WHERE session_id = old.session_id AND (active = 1 OR compacted = 1) "
    "AND display_identity = old.display_identity"
)
_DISPLAY = {
    "messages_display_order_insert": (
        "CREATE TRIGGER messages_display_order_insert AFTER INSERT ON messages "
        "WHEN new.display_order IS NULL BEGIN "
        f"UPDATE messages SET display_order = COALESCE(({_PEER_ORDER}), new.id) WHERE id = new.id; END"
    ),
    "messages_display_visibility_update": (
        "CREATE TRIGGER messages_display_visibility_update AFTER UPDATE OF active, compacted ON messages "
        "WHEN (new.active = 1 OR new.compacted = 1) <> (old.active = 1 OR old.compacted = 1) BEGIN "
        f"UPDATE messages SET display_order = MIN(new.id, COALESCE(({_PEER_ORDER}), new.id)) "
        "WHERE id = new.id AND (new.active = 1 OR new.compacted = 1); "
        "UPDATE messages SET display_order = (SELECT display_order FROM messages WHERE id = new.id) "
        "WHERE session_id = new.session_id AND id <> new.id AND (active = 1 OR compacted = 1) "
        "AND display_identity = new.display_identity AND (new.active = 1 OR new.compacted = 1); "
        f"UPDATE messages SET display_order = ({_OLD_PEERS_MIN}) {_VISIBLE_OLD_PEERS} "
        "AND NOT (new.active = 1 OR new.compacted = 1); END"
    ),
    "messages_display_identity_update": (
        "CREATE TRIGGER messages_display_identity_update AFTER UPDATE OF role, content, timestamp, "
        "tool_call_id, tool_calls, tool_name, display_kind ON messages "
        "WHEN new.role IS NOT old.role OR new.content IS NOT old.content "
        "OR new.timestamp IS NOT old.timestamp OR new.tool_call_id IS NOT old.tool_call_id "
        "OR new.tool_calls IS NOT old.tool_calls "
        "OR new.tool_name IS NOT old.tool_name OR new.display_kind IS NOT old.display_kind BEGIN "
        "UPDATE messages SET display_identity = NULL, display_order = NULL WHERE id = new.id OR ("
        "session_id = old.session_id AND display_identity = old.display_identity "
        "AND (active = 1 OR compacted = 1)); END"
    ),
    "messages_display_identity_delete": (
        "CREATE TRIGGER messages_display_identity_delete AFTER DELETE ON messages "
        "WHEN old.active = 1 OR old.compacted = 1 BEGIN "
        f"UPDATE messages SET display_order = ({_OLD_PEERS_MIN}) {_VISIBLE_OLD_PEERS}; END"
    ),
}


@cache
def known_objects() -> dict[tuple[str, str], Family]:
    """(name, normalized SQL) of every trigger and view we know, with what it tells about the file."""
    known: dict[tuple[str, str], Family] = {}

    def add(objects: dict[str, str], family: Family) -> None:
        for name, sql in objects.items():
            known[(name, normalize(sql))] = family

    for table, event, cut in product(ddl.FTS_TABLES, _INLINE_UPDATE_EVENTS, (False, True)):
        add(_inline_objects(table, event, cut), INLINE)
    for layout3 in (False, True):
        add(_external_word_objects(layout3), Family("external"))
    for with_calls, exclusion in product((True, False), (None, "cron", "delegates")):
        family = Family("external", exclusion is not None, exclusion == "delegates")
        add(_external_trigram_objects(with_calls, exclusion), family)
    add(_DISPLAY, DISPLAY)
    return known


@cache
def v22_objects() -> frozenset[tuple[str, str]]:
    """The six FTS triggers exactly as schema 22 writes them: the only file whose index we maintain."""
    return frozenset(
        (name, normalize(sql))
        for table in ddl.FTS_TABLES
        for name, sql in _inline_objects(table, _INLINE_UPDATE_EVENTS[0], False).items()
    )


FTS_TABLE_SQL = {
    normalize("CREATE VIRTUAL TABLE messages_fts USING fts5(content)"): "inline",
    normalize("CREATE VIRTUAL TABLE messages_fts_trigram USING fts5(content, tokenize='trigram')"): "inline",
    normalize(
        "CREATE VIRTUAL TABLE messages_fts USING fts5(content, tool_name, tool_calls, content='messages', "
        "content_rowid='id')"
    ): "external",
    normalize(
        "CREATE VIRTUAL TABLE messages_fts USING fts5(content, tool_name, tool_calls, "
        "content='messages_fts_src', content_rowid='id')"
    ): "external",
    normalize(
        "CREATE VIRTUAL TABLE messages_fts_trigram USING fts5(content, tool_name, tool_calls, "
        "content='messages_fts_trigram_src', content_rowid='id', tokenize='trigram')"
    ): "external",
    normalize(
        "CREATE VIRTUAL TABLE messages_fts_trigram USING fts5(content, tool_name, "
        "content='messages_fts_trigram_src', content_rowid='id', tokenize='trigram')"
    ): "external",
}
"""The two FTS tables' declarations by layout."""
