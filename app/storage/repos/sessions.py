"""The ``sessions`` table: the public Session representation, inserts, updates, end/reopen and delete."""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Mapping
from typing import Any, cast

from app.domain.preview import preview_from_raw
from app.domain.prompts import prompt_hash
from app.domain.records import WORKSPACE_FIELDS, NewSession
from app.domain.stored_json import load_stored, stored_counter
from app.errors import ParentNotFound, SessionExists
from app.storage.agent_shape import AgentShape, shape_of, system_prompt_sql
from app.storage.dialect import Dialect, dialect_of
from app.storage.repos.lineage import LineageWalks
from app.storage.repos.own_fields import OWN_MEMBERS, OWN_MEMBERS_SQL
from app.storage.repos.repository import Repository
from app.storage.repos.session_filter import HOME_LABEL_SQL, LAST_ACTIVE_SQL, pinned_sql
from app.storage.repos.title_sources import TITLE_SOURCE_SQL
from app.storage.repos.titles_repo import Titles
from app.storage.repos.trigram_membership import keep_membership
from app.storage.rows import TOKEN_COUNTERS, SessionRow
from app.storage.sqlite.driver import sqlite3


# Preview of the first user message, exactly like the agent: newlines folded, 63 characters cut in SQL,
# stripped, then 60 characters + "..." when longer (see ``preview_from_raw``).
@functools.cache
def preview_raw_sql(d: Dialect) -> str:
    """The preview text of the session under alias ``{a}``, as :func:`preview_from_raw` takes it."""
    return (
        f"COALESCE((SELECT SUBSTR(REPLACE(REPLACE(m.content, {d.char(10)}, ' '), {d.char(13)}, ' '), 1, 63)"
        " FROM messages m WHERE m.session_id = {a}.id AND m.active = 1 AND m.role = 'user'"
        " AND m.content IS NOT NULL ORDER BY m.timestamp, m.id LIMIT 1), '')"
    )


# The members computed rather than read from the agent's row (:func:`_public_select_sql`,
# :func:`row_to_public`), and the columns the handoff is made of.
_COMPUTED = frozenset(
    ("has_system_prompt", "preview", "last_active", "lineage_root_id", "title_source", "pinned", "home")
)
_HANDOFF_COLUMNS = ("handoff_state", "handoff_platform", "handoff_error")
# Every public column of the agent's row, in the row type's order; not the system prompt, which list queries
# must never copy out of the B-tree.
_COLUMNS = tuple(
    column
    for member in SessionRow.__annotations__
    if member not in _COMPUTED and member not in OWN_MEMBERS and member != "system_prompt"
    for column in (_HANDOFF_COLUMNS if member == "handoff" else (member,))
)
_COUNTERS = ("message_count", "tool_call_count", *TOKEN_COUNTERS, "api_call_count")


def public_select_sql(conn: sqlite3.Connection, alias: str = "s") -> str:
    """SELECT list producing everything :func:`row_to_public` needs (no ``system_prompt`` body), for the
    file ``conn`` serves.

    The public columns come first, in ``_COLUMNS`` order, which :func:`row_to_public` relies on.
    """
    return _public_select_sql(dialect_of(conn), shape_of(conn), alias)


@functools.cache
def _public_select_sql(d: Dialect, shape: AgentShape, alias: str) -> str:
    cols = ", ".join(f"{alias}.{c}" for c in _COLUMNS)
    prompt = system_prompt_sql(shape, alias)
    return (
        f"{cols}, ({prompt} IS NOT NULL AND {prompt} != '') AS has_system_prompt,"
        f" {preview_raw_sql(d).format(a=alias)} AS preview_raw,"
        f" {LAST_ACTIVE_SQL.format(a=alias)} AS last_active,"
        f" {TITLE_SOURCE_SQL.format(a=alias)} AS title_source,"
        f" {pinned_sql(shape).format(a=alias)} AS pinned,"
        f" {HOME_LABEL_SQL.format(a=alias)} AS home{OWN_MEMBERS_SQL.format(a=alias)}"
    )


def decode_model_config(raw: Any) -> dict[str, Any] | None:
    """``model_config`` JSON text as an object; ``None`` when absent or not a JSON object, the unrenderable
    marker (``app.domain.stored_json``) when it cannot be rendered."""
    if not isinstance(raw, str) or raw == "":
        return None
    try:
        value = load_stored(raw)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


_DERIVED_AT = len(_COLUMNS)


def row_to_public(row: sqlite3.Row, lineage_root_id: str) -> SessionRow:
    """Build the public Session dict from a row selected with :func:`public_select_sql`."""
    # By position: the select list is _COLUMNS in order, then the derived columns (a listing builds one of
    # these per row, and a name lookup costs more than the whole slice).
    data: dict[str, Any] = dict(zip(_COLUMNS, row, strict=False))
    has_prompt, preview_raw, last_active, title_source, pinned, home = row[_DERIVED_AT : _DERIVED_AT + 6]
    for counter in _COUNTERS:
        data[counter] = stored_counter(data[counter])
    data["model_config"] = decode_model_config(data["model_config"])
    data["archived"] = bool(data["archived"])
    state = data.pop("handoff_state")
    platform = data.pop("handoff_platform")
    error = data.pop("handoff_error")
    data["handoff"] = None if state is None else {"state": state, "platform": platform, "error": error}
    data["has_system_prompt"] = bool(has_prompt)
    data["preview"] = preview_from_raw(preview_raw)
    data["last_active"] = last_active
    data["lineage_root_id"] = lineage_root_id
    data["title_source"] = title_source
    data["pinned"] = bool(pinned)
    data["home"] = home
    if OWN_MEMBERS:
        data.update(zip(OWN_MEMBERS, row[_DERIVED_AT + 6 :], strict=False))
    return cast(SessionRow, data)


def session_exists(conn: sqlite3.Connection, session_id: str) -> bool:
    """Whether a session row exists."""
    d = dialect_of(conn)
    return conn.execute(f"SELECT 1 FROM sessions WHERE id = {d.p}", (session_id,)).fetchone() is not None


def store_system_prompt(conn: sqlite3.Connection, prompt: str | None) -> tuple[str, str | None]:
    """Where a new session's prompt goes: the column to write and its value. A file whose agent keeps
    prompts once each gets the prompt's row first (its key is what the session names), as the agent does;
    other files keep it inline."""
    d = dialect_of(conn)
    if prompt is None or not shape_of(conn).system_prompts:
        return "system_prompt", prompt
    digest = prompt_hash(prompt)
    conn.execute(
        f"INSERT OR IGNORE INTO system_prompts (hash, prompt) VALUES ({d.p}, {d.p})", (digest, prompt)
    )
    return "system_prompt_hash", digest


def encode_model_config(model_config: dict[str, Any] | None) -> str | None:
    """Store ``model_config`` as the agent does: JSON text, NULL when empty."""
    return json.dumps(model_config) if model_config else None


def reopen_session(conn: sqlite3.Connection, session_id: str) -> bool:
    """Clear ``ended_at`` and ``end_reason``; ``False`` when the session is missing."""
    d = dialect_of(conn)
    cursor = conn.execute(
        f"UPDATE sessions SET ended_at = NULL, end_reason = NULL WHERE id = {d.p}", (session_id,)
    )
    return cursor.rowcount > 0


def _compression_walk(d: Dialect, name: str, member: str, reached: str) -> str:
    """A recursive CTE ``name(id)``: the session bound first, and every session reached from a member over
    a compression edge (a parent that ended with ``compression`` and its child), the member being the
    edge's ``child`` or ``parent`` and the one reached the other."""
    return f"""{name}(id) AS (
            SELECT {d.p}
            UNION
            SELECT {reached}.id FROM {name} w
            JOIN sessions {member} ON {member}.id = w.id
            JOIN sessions {reached} ON child.parent_session_id = parent.id
            WHERE parent.end_reason = 'compression'
          )"""


def set_archived(
    conn: sqlite3.Connection, session_id: str, archived: bool, *, keep_pinned: bool = False
) -> None:
    """Archive or unarchive the whole compression lineage, like the agent's ``set_session_archived``.

    Lists show a compression root projected onto its tip, so archiving only one member would let the
    other resurrect the conversation. With ``keep_pinned`` the lineage's pinned members stay as they are.
    """
    keep = f" AND NOT {pinned_sql(shape_of(conn)).format(a='sessions')}" if keep_pinned else ""
    set_lineage_flag(conn, session_id, "archived", archived, extra=keep)


def set_lineage_flag(
    conn: sqlite3.Connection, session_id: str, column: str, value: bool, *, extra: str = ""
) -> None:
    """Set one of the agent's flag columns (``archived``, ``pinned``, ``hidden``) on the session's whole
    compression lineage, as the agent's own setters do (``extra``: a further condition on each row)."""
    d = dialect_of(conn)
    conn.execute(
        f"""
        WITH RECURSIVE
          {_compression_walk(d, "ancestors", "child", "parent")},
          {_compression_walk(d, "descendants", "parent", "child")}
        UPDATE sessions SET {column} = {d.p}
        WHERE id IN (SELECT id FROM ancestors UNION SELECT id FROM descendants)"""
        + extra,
        (session_id, session_id, 1 if value else 0),
    )


class SessionRows(Repository):
    """The ``sessions`` rows: existence, the public shape, creation, ending, settings, deletion."""

    __slots__ = ()

    def session_exists(self, session_id: str) -> bool:
        """Whether a session row exists (:func:`session_exists`)."""
        return session_exists(self.conn, session_id)

    def fetch_session(self, session_id: str, *, include_system_prompt: bool = False) -> SessionRow | None:
        """The public Session representation, or ``None`` when there is no such session.

        With ``include_system_prompt`` the ``system_prompt`` member is added.
        """
        row = self.conn.execute(
            f"SELECT {public_select_sql(self.conn)} FROM sessions s WHERE s.id = {self.d.p}", (session_id,)
        ).fetchone()
        if row is None:
            return None
        public = row_to_public(row, LineageWalks(self.conn, self.changes).lineage_root(session_id))
        if include_system_prompt:
            prompt = self.conn.execute(
                f"SELECT {system_prompt_sql(shape_of(self.conn), 's')} FROM sessions s"
                f" WHERE s.id = {self.d.p}",
                (session_id,),
            ).fetchone()
            public["system_prompt"] = prompt[0]
        return public

    def insert_session(self, session_id: str, new: NewSession) -> None:
        """Insert a new session row in the agent's format (``new.id`` is ignored: ``session_id`` is the one
        chosen), then apply ``new.title`` with the title rules.

        409 ``session_exists`` when the id is taken (the row is left unchanged); 422 ``parent_not_found``
        for an unknown parent. Run inside one writer savepoint so a refused title leaves no row behind.
        """
        if session_exists(self.conn, session_id):
            raise SessionExists(session_id)
        parent_id = new.parent_session_id
        if parent_id is not None and not session_exists(self.conn, parent_id):
            raise ParentNotFound(parent_id)
        prompt_column, prompt = store_system_prompt(self.conn, new.system_prompt)
        self.conn.execute(
            "INSERT INTO sessions (id, source, user_id, session_key, chat_id, chat_type, thread_id,"
            f" model, model_config, {prompt_column}, parent_session_id, started_at,"
            " cwd, git_branch, git_repo_root, profile_name)"
            f" VALUES ({self.d.p}, {self.d.p}, {self.d.p}, {self.d.p}, {self.d.p}, {self.d.p}, {self.d.p},"
            f" {self.d.p}, {self.d.p}, {self.d.p}, {self.d.p}, {self.d.p},"
            f" {self.d.p}, {self.d.p}, {self.d.p}, {self.d.p})",
            (
                session_id,
                new.source,
                new.user_id,
                new.session_key,
                new.chat_id,
                new.chat_type,
                new.thread_id,
                new.model,
                encode_model_config(new.model_config),
                prompt,
                parent_id,
                time.time(),
                new.cwd,
                new.git_branch,
                new.git_repo_root,
                new.profile_name,
            ),
        )
        if new.title is not None:
            titles = Titles(self.conn, self.changes)
            titles.set_title(session_id, new.title)
            titles.record_title_source(session_id, "user")

    def end_session(self, session_id: str, end_reason: str, *, over: tuple[str, ...] = ()) -> bool:
        """End an open session; the first end wins (``False`` when it was already ended or is missing),
        except an end for one of the reasons in ``over``, which this end replaces."""
        replaceable = f" OR end_reason IN ({', '.join([self.d.p] * len(over))})" if over else ""
        cursor = self.conn.execute(
            f"UPDATE sessions SET ended_at = {self.d.p}, end_reason = {self.d.p} WHERE id = {self.d.p}"
            f" AND (ended_at IS NULL{replaceable})",
            (time.time(), end_reason, session_id, *over),
        )
        return cursor.rowcount > 0

    def reopen_session(self, session_id: str) -> bool:
        """Clear ``ended_at`` and ``end_reason`` (:func:`reopen_session`)."""
        return reopen_session(self.conn, session_id)

    def set_model(self, session_id: str, model: str | None) -> None:
        """Replace the session's model."""
        self.conn.execute(
            f"UPDATE sessions SET model = {self.d.p} WHERE id = {self.d.p}", (model, session_id)
        )

    def set_workspace(self, session_id: str, values: Mapping[str, str | None]) -> None:
        """Replace the workspace columns ``values`` names (of ``WORKSPACE_FIELDS``; ``None`` clears one)."""
        names = [name for name in WORKSPACE_FIELDS if name in values]
        if names:
            assignments = ", ".join(f"{name} = {self.d.p}" for name in names)
            self.conn.execute(
                f"UPDATE sessions SET {assignments} WHERE id = {self.d.p}",
                (*(values[n] for n in names), session_id),
            )

    def set_model_config(self, session_id: str, model_config: dict[str, Any] | None) -> None:
        """Replace the session's ``model_config`` (stored as JSON text like the agent; NULL when empty)."""
        encoded = encode_model_config(model_config)
        keep_membership(self.conn, session_id, model_config=encoded)
        self.conn.execute(
            f"UPDATE sessions SET model_config = {self.d.p} WHERE id = {self.d.p}", (encoded, session_id)
        )

    def copy_model_config_as_branch(self, parent_id: str, child_id: str) -> None:
        """Give ``child_id`` the parent's stored ``model_config`` text without decoding it in Python (it may
        hold what Python cannot re-encode faithfully), minus ``_delegate_from``, plus ``_branched_from``."""
        self.conn.execute(
            "UPDATE sessions SET model_config = (SELECT CASE"
            " WHEN json_valid(p.model_config) AND json_type(p.model_config) = 'object'"
            " THEN json_set(json_remove(p.model_config, '$._delegate_from'), '$._branched_from', p.id)"
            f" ELSE json_object('_branched_from', p.id) END FROM sessions p WHERE p.id = {self.d.p})"
            f" WHERE id = {self.d.p}",
            (parent_id, child_id),
        )

    def set_archived(self, session_id: str, archived: bool, *, keep_pinned: bool = False) -> None:
        """Archive or unarchive the whole compression lineage (:func:`set_archived`)."""
        set_archived(self.conn, session_id, archived, keep_pinned=keep_pinned)

    def delete_session(self, session_id: str) -> list[str] | None:
        """Delete a session like the agent's ``delete_session``; the deleted ids, or ``None`` when missing.

        Delegate (sub-agent) children go with it, recursively, messages included; compression and branch
        children survive with ``parent_session_id = NULL``. FTS rows go through the agent's delete triggers;
        ``session_model_usage`` rows are removed explicitly (also covered by its FK cascade).
        """
        if not session_exists(self.conn, session_id):
            return None
        delegates = LineageWalks(self.conn, self.changes).delegate_descendants([session_id])
        doomed = [*delegates, session_id]
        ph = ",".join([self.d.p] * len(doomed))
        self.conn.execute(f"DELETE FROM messages WHERE session_id IN ({ph})", doomed)
        self.conn.execute(f"DELETE FROM session_model_usage WHERE session_id IN ({ph})", doomed)
        # FK safety: anything else pointing at a doomed row (branches, continuations, untagged) is orphaned.
        self.conn.execute(
            f"UPDATE sessions SET parent_session_id = NULL WHERE parent_session_id IN ({ph})", doomed
        )
        self.conn.execute(f"DELETE FROM sessions WHERE id IN ({ph})", doomed)
        return doomed
