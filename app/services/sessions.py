"""Session use cases: each function runs inside one writer (or reader) transaction on a connection."""

from __future__ import annotations

from typing import Any

from app.domain.etag import if_match_satisfied, parse_if_match, session_etag
from app.domain.ids import new_session_id, session_id_problem
from app.domain.records import WORKSPACE_FIELDS, NewSession
from app.domain.sources import HIDDEN_SOURCES, Source
from app.errors import ETagMismatch, InvalidSessionId, SessionNotFound, UnknownSource
from app.services.events import EventType, emit
from app.storage.protocols import Tx
from app.storage.rows import ListPage, ListQuery, SessionRow, Usage


def parse_source(value: str) -> Source:
    """A known :class:`Source`, or 422 ``unknown_source``."""
    try:
        return Source(value)
    except ValueError:
        raise UnknownSource(value, [s.value for s in Source]) from None


def get_session(tx: Tx, session_id: str, *, include_system_prompt: bool = False) -> SessionRow:
    """The public session, or 404 ``session_not_found``."""
    public = tx.sessions.fetch_session(session_id, include_system_prompt=include_system_prompt)
    if public is None:
        raise SessionNotFound(session_id)
    return public


def _check_if_match(tx: Tx, session_id: str, if_match: str | None) -> SessionRow:
    """The current session after checking ``If-Match`` against it (404 first, then 412)."""
    current = get_session(tx, session_id)
    if if_match is not None:
        etag = session_etag(current)
        if not if_match_satisfied(parse_if_match(if_match), etag):
            raise ETagMismatch(etag)
    return current


def create_session(tx: Tx, new: NewSession) -> SessionRow:
    """Insert a session (validating source, id, parent and title) and return it."""
    source = parse_source(new.source)
    if new.id is not None:
        problem = session_id_problem(new.id)
        if problem is not None:
            raise InvalidSessionId(problem)
    session_id = new.id if new.id is not None else new_session_id(source)
    tx.sessions.insert_session(session_id, new)
    return get_session(tx, session_id)


def update_session(tx: Tx, session_id: str, changes: dict[str, Any], if_match: str | None) -> SessionRow:
    """Apply a PATCH: ``title`` (None clears), ``archived``, ``model``, ``model_config``, the workspace
    fields (None clears one), the members stored in our own tables (None clears one), ``end_reason``."""
    _check_if_match(tx, session_id, if_match)
    if "title" in changes:
        tx.titles.set_title(session_id, changes["title"])
        # Even a cleared title counts: a person decided, so the automatic titler keeps out.
        tx.titles.record_title_source(session_id, "user")
    if changes.get("archived") is not None:
        tx.sessions.set_archived(session_id, bool(changes["archived"]))
    if "model" in changes:
        tx.sessions.set_model(session_id, changes["model"])
    if "model_config" in changes:
        tx.sessions.set_model_config(session_id, changes["model_config"])
    tx.sessions.set_workspace(session_id, {k: changes[k] for k in WORKSPACE_FIELDS if k in changes})
    tx.sessions.set_own_fields(session_id, changes)
    ended = changes.get("end_reason") is not None and tx.sessions.end_session(
        session_id, changes["end_reason"]
    )
    fields = sorted(k for k in changes if k != "end_reason")
    if fields:
        emit(tx, EventType.session_updated, session_id, {"session_id": session_id, "fields": fields})
    if ended:
        _emit_ended(tx, session_id, changes["end_reason"])
    return get_session(tx, session_id)


def _emit_ended(tx: Tx, session_id: str, end_reason: str) -> None:
    emit(tx, EventType.session_ended, session_id, {"session_id": session_id, "end_reason": end_reason})


def delete_session(tx: Tx, session_id: str, if_match: str | None) -> list[str]:
    """Delete a session (and its delegate children); the ids removed."""
    _check_if_match(tx, session_id, if_match)
    removed = tx.sessions.delete_session(session_id)
    if removed is None:
        raise SessionNotFound(session_id)
    return removed


def end_session(tx: Tx, session_id: str, end_reason: str) -> SessionRow:
    """End a session (first end wins) and return it."""
    if tx.sessions.end_session(session_id, end_reason):
        _emit_ended(tx, session_id, end_reason)
    elif not tx.sessions.session_exists(session_id):
        raise SessionNotFound(session_id)
    return get_session(tx, session_id)


def reopen_session(tx: Tx, session_id: str) -> SessionRow:
    """Clear the end state of a session and return it."""
    if not tx.sessions.reopen_session(session_id):
        raise SessionNotFound(session_id)
    fields = ["end_reason", "ended_at"]
    emit(tx, EventType.session_updated, session_id, {"session_id": session_id, "fields": fields})
    return get_session(tx, session_id)


def set_pinned(tx: Tx, session_id: str, pinned: bool) -> SessionRow:
    """Pin (keep from prune, auto-prune and archive) or unpin a session and return it; both idempotent."""
    if not tx.sessions.session_exists(session_id):
        raise SessionNotFound(session_id)
    if pinned:
        tx.sessions.pin(session_id)
    else:
        tx.sessions.unpin(session_id)
    emit(tx, EventType.session_updated, session_id, {"session_id": session_id, "fields": ["pinned"]})
    return get_session(tx, session_id)


def add_usage(tx: Tx, session_id: str, usage: Usage) -> SessionRow:
    """Record token and cost usage on an existing session and return it."""
    if not tx.sessions.session_exists(session_id):
        raise SessionNotFound(session_id)
    tx.sessions.record_usage(session_id, usage)
    return get_session(tx, session_id)


def default_exclusions(sources: tuple[str, ...]) -> tuple[str, ...]:
    """Sources hidden when the client names none to exclude: tool and subagent, unless asked for."""
    return tuple(sorted(s.value for s in HIDDEN_SOURCES if s.value not in sources))


def list_page(tx: Tx, query: ListQuery) -> ListPage:
    """One page of the session listing (memoised until the database changes)."""
    return tx.sessions.list_sessions_cached(query)
