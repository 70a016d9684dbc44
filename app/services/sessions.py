"""Session use cases: each function runs inside one writer (or reader) transaction on a connection."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from app.domain.etag import if_match_satisfied, parse_if_match, session_etag
from app.domain.ids import new_session_id, session_id_problem
from app.domain.sources import HIDDEN_SOURCES, Source
from app.errors import ETagMismatch, InvalidSessionId, SessionNotFound, UnknownSource
from app.services.events import EventType, emit
from app.storage.repos import pins
from app.storage.repos import sessions as repo
from app.storage.repos.session_list import ListPage, ListQuery, list_sessions_cached
from app.storage.repos.title_sources import record_title_source
from app.storage.repos.titles import set_title
from app.storage.repos.usage import Usage, record_usage
from app.storage.rows import SessionRow


@dataclass(frozen=True)
class NewSession:
    """What a client may set when creating a session."""

    source: str = Source.api_server.value
    id: str | None = None
    title: str | None = None
    system_prompt: str | None = None
    model: str | None = None
    model_config: dict[str, Any] | None = None
    user_id: str | None = None
    parent_session_id: str | None = None
    session_key: str | None = None
    chat_id: str | None = None
    chat_type: str | None = None
    thread_id: str | None = None


def parse_source(value: str) -> Source:
    """A known :class:`Source`, or 422 ``unknown_source``."""
    try:
        return Source(value)
    except ValueError:
        raise UnknownSource(value, [s.value for s in Source]) from None


def get_session(
    conn: sqlite3.Connection, session_id: str, *, include_system_prompt: bool = False
) -> SessionRow:
    """The public session, or 404 ``session_not_found``."""
    public = repo.fetch_session(conn, session_id, include_system_prompt=include_system_prompt)
    if public is None:
        raise SessionNotFound(session_id)
    return public


def _check_if_match(conn: sqlite3.Connection, session_id: str, if_match: str | None) -> SessionRow:
    """The current session after checking ``If-Match`` against it (404 first, then 412)."""
    current = get_session(conn, session_id)
    if if_match is not None:
        etag = session_etag(current)
        if not if_match_satisfied(parse_if_match(if_match), etag):
            raise ETagMismatch(etag)
    return current


def create_session(conn: sqlite3.Connection, new: NewSession) -> SessionRow:
    """Insert a session (validating source, id, parent and title) and return it."""
    source = parse_source(new.source)
    if new.id is not None:
        problem = session_id_problem(new.id)
        if problem is not None:
            raise InvalidSessionId(problem)
    session_id = new.id if new.id is not None else new_session_id(source)
    repo.insert_session(
        conn,
        session_id=session_id,
        source=source.value,
        title=new.title,
        model=new.model,
        model_config=new.model_config,
        system_prompt=new.system_prompt,
        user_id=new.user_id,
        parent_session_id=new.parent_session_id,
        session_key=new.session_key,
        chat_id=new.chat_id,
        chat_type=new.chat_type,
        thread_id=new.thread_id,
    )
    return get_session(conn, session_id)


def update_session(
    conn: sqlite3.Connection, session_id: str, changes: dict[str, Any], if_match: str | None
) -> SessionRow:
    """Apply a PATCH: ``title`` (None clears), ``archived``, ``model``, ``model_config``, ``end_reason``."""
    _check_if_match(conn, session_id, if_match)
    if "title" in changes:
        set_title(conn, session_id, changes["title"])
        # Even a cleared title counts: a person decided, so the automatic titler keeps out.
        record_title_source(conn, session_id, "user")
    if changes.get("archived") is not None:
        repo.set_archived(conn, session_id, bool(changes["archived"]))
    if "model" in changes:
        repo.set_model(conn, session_id, changes["model"])
    if "model_config" in changes:
        repo.set_model_config(conn, session_id, changes["model_config"])
    ended = changes.get("end_reason") is not None and repo.end_session(
        conn, session_id, changes["end_reason"]
    )
    fields = sorted(k for k in changes if k != "end_reason")
    if fields:
        emit(conn, EventType.session_updated, session_id, {"session_id": session_id, "fields": fields})
    if ended:
        _emit_ended(conn, session_id, changes["end_reason"])
    return get_session(conn, session_id)


def _emit_ended(conn: sqlite3.Connection, session_id: str, end_reason: str) -> None:
    emit(conn, EventType.session_ended, session_id, {"session_id": session_id, "end_reason": end_reason})


def delete_session(conn: sqlite3.Connection, session_id: str, if_match: str | None) -> list[str]:
    """Delete a session (and its delegate children); the ids removed."""
    _check_if_match(conn, session_id, if_match)
    removed = repo.delete_session(conn, session_id)
    if removed is None:
        raise SessionNotFound(session_id)
    return removed


def end_session(conn: sqlite3.Connection, session_id: str, end_reason: str) -> SessionRow:
    """End a session (first end wins) and return it."""
    if repo.end_session(conn, session_id, end_reason):
        _emit_ended(conn, session_id, end_reason)
    elif not repo.session_exists(conn, session_id):
        raise SessionNotFound(session_id)
    return get_session(conn, session_id)


def reopen_session(conn: sqlite3.Connection, session_id: str) -> SessionRow:
    """Clear the end state of a session and return it."""
    if not repo.reopen_session(conn, session_id):
        raise SessionNotFound(session_id)
    fields = ["end_reason", "ended_at"]
    emit(conn, EventType.session_updated, session_id, {"session_id": session_id, "fields": fields})
    return get_session(conn, session_id)


def set_pinned(conn: sqlite3.Connection, session_id: str, pinned: bool) -> SessionRow:
    """Pin (keep from prune, auto-prune and archive) or unpin a session and return it; both idempotent."""
    if not repo.session_exists(conn, session_id):
        raise SessionNotFound(session_id)
    if pinned:
        pins.pin(conn, session_id)
    else:
        pins.unpin(conn, session_id)
    emit(conn, EventType.session_updated, session_id, {"session_id": session_id, "fields": ["pinned"]})
    return get_session(conn, session_id)


def add_usage(conn: sqlite3.Connection, session_id: str, usage: Usage) -> SessionRow:
    """Record token and cost usage on an existing session and return it."""
    if not repo.session_exists(conn, session_id):
        raise SessionNotFound(session_id)
    record_usage(conn, session_id, usage)
    return get_session(conn, session_id)


def default_exclusions(sources: tuple[str, ...]) -> tuple[str, ...]:
    """Sources hidden when the client names none to exclude: tool and subagent, unless asked for."""
    return tuple(sorted(s.value for s in HIDDEN_SOURCES if s.value not in sources))


def list_page(conn: sqlite3.Connection, query: ListQuery) -> ListPage:
    """One page of the session listing (memoised until the database changes)."""
    return list_sessions_cached(conn, query)
