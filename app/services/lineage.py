"""Lineage use cases: resolving what a user typed to a session, the compression chain, context compression
(continuations), branching (fork) and the resume recap. Continuations and forks are whole use cases (writer
job and idempotency record); the others run inside one reader transaction (they take the connection)."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from app.domain.ids import new_session_id, session_id_problem
from app.domain.recap import Recap, build_recap
from app.domain.records import NewSession
from app.domain.sources import Source
from app.domain.stored_json import is_unrenderable
from app.errors import (
    AmbiguousSessionRef,
    HermesError,
    InvalidSessionId,
    MessageNotFound,
    NoSessionToContinue,
    SessionEnded,
    SessionNotFound,
)
from app.services.idempotency import Idempotency, Render, Reply
from app.services.sessions import default_exclusions, get_session
from app.storage.protocols import Store, Tx
from app.storage.rows import SessionRow

# How many sessions an ambiguous prefix lists in the 409 body.
MAX_CANDIDATES = 10
COMPRESSION = "compression"
BRANCHED = "branched"


class MatchedBy(StrEnum):
    """How a reference found its session."""

    ID = "id"
    PREFIX = "prefix"
    TITLE = "title"
    LATEST = "latest"


@dataclass(frozen=True)
class Resolution:
    """The session a reference resolved to, what it matched first, and how."""

    session: SessionRow
    requested: str
    matched_by: MatchedBy


@dataclass(frozen=True)
class Continuation:
    """What a context compression carries into the new child session."""

    system_prompt: str | None = None
    messages: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class Fork:
    """Where a branch is cut, what it is called and (optionally) its id."""

    message_id: int | None = None
    title: str | None = None
    id: str | None = None


def _match_ref(tx: Tx, ref: str) -> tuple[str, MatchedBy]:
    """Exact id, then a unique id prefix, then a title (newest ``title #N`` of its lineage).

    A prefix shared by several sessions is 409 ``ambiguous_session_ref`` unless the text is also a title.
    """
    found = tx.lineage.exact_id(ref)
    if found is not None:
        return found, MatchedBy.ID
    candidates = tx.lineage.ids_with_prefix(ref, MAX_CANDIDATES + 1)
    if len(candidates) == 1:
        return candidates[0].id, MatchedBy.PREFIX
    found = tx.titles.resolve_by_title(ref) if ref else None
    if found is not None:
        return found, MatchedBy.TITLE
    if candidates:
        shown = candidates[:MAX_CANDIDATES]
        raise AmbiguousSessionRef(
            ref, [{"id": c.id, "title": c.title} for c in shown], len(candidates) > MAX_CANDIDATES
        )
    raise SessionNotFound(ref)


def resolve(tx: Tx, ref: str | None, *, latest: bool, sources: tuple[str, ...]) -> Resolution:
    """Resolve ``ref`` (or, with ``latest``, the most recently active session of ``sources``), then
    follow the compression chain to its tip: the session the user actually continues."""
    if latest:
        requested = tx.lineage.latest_session(sources, default_exclusions(sources))
        if requested is None:
            raise NoSessionToContinue(sources)
        matched_by = MatchedBy.LATEST
    else:
        requested, matched_by = _match_ref(tx, ref or "")
    tip = tx.lineage.compression_tip(requested)
    return Resolution(session=get_session(tx, tip), requested=requested, matched_by=matched_by)


def lineage(tx: Tx, session_id: str) -> list[SessionRow]:
    """The compression chain containing the session, root → tip, as public sessions."""
    if not tx.sessions.session_exists(session_id):
        raise SessionNotFound(session_id)
    return [get_session(tx, sid) for sid in tx.lineage.compression_chain(session_id)]


@dataclass(frozen=True)
class Family:
    """A conversation as a page shows it: the compression chain root → tip, and the sessions that
    branched off or were delegated from any of its segments (with ``branch`` or ``delegate``)."""

    chain: list[SessionRow]
    children: list[tuple[SessionRow, str]]


def family(tx: Tx, session_id: str) -> Family:
    """The session's compression chain and its branch and delegate children; 404 ``session_not_found``."""
    chain = lineage(tx, session_id)
    children = [
        (get_session(tx, child_id), kind)
        for segment in chain
        for child_id, kind in tx.lineage.side_children(segment["id"])
    ]
    return Family(chain, children)


def _child_id(tx: Tx, parent_source: str) -> str:
    """A fresh id in the parent's format (8-hex messaging format for a source we do not know)."""
    try:
        source = Source(parent_source)
    except ValueError:
        source = Source.telegram
    while True:
        candidate = new_session_id(source)
        if not tx.sessions.session_exists(candidate):
            return candidate


def _child(parent: SessionRow, **own: Any) -> NewSession:
    """A child of ``parent``: its source, model, user and chat routing fields, plus the child's ``own``."""
    return NewSession(
        source=parent["source"],
        model=parent["model"],
        user_id=parent["user_id"],
        parent_session_id=parent["id"],
        session_key=parent["session_key"],
        chat_id=parent["chat_id"],
        chat_type=parent["chat_type"],
        thread_id=parent["thread_id"],
        **own,
    )


def _lineage_title(tx: Tx, parent_title: str | None) -> str | None:
    """The next title of the parent's lineage (``None`` without a parent title, or when it cannot be
    numbered: the child then stays untitled, never failing the operation). Called before the child row is
    written: on PostgreSQL it takes the title lock, so concurrent children are stamped ``started_at`` in the
    order they are numbered and the bare title resolves to the highest number."""
    if parent_title is None:
        return None
    try:
        return tx.titles.next_title_in_lineage(parent_title)
    except HermesError:
        return None


def _give_title(tx: Tx, child_id: str, title: str | None) -> None:
    # set_title validates and looks for a holder before it writes, so a refused title leaves nothing behind.
    if title is not None:
        with contextlib.suppress(HermesError):
            tx.titles.set_title(child_id, title)


async def continue_session(
    db: Store,
    idempotency: Idempotency,
    session_id: str,
    continuation: Continuation,
    render: Render[SessionRow],
) -> Reply:
    """Context compression in one writer job (see :func:`_continue`); ``render`` answers the new child."""
    return await idempotency.run(db, lambda tx: _continue(tx, session_id, continuation), render)


async def fork_session(
    db: Store, idempotency: Idempotency, session_id: str, fork: Fork, render: Render[SessionRow]
) -> Reply:
    """Branching in one writer job (see :func:`_fork`); ``render`` answers the new child."""
    return await idempotency.run(db, lambda tx: _fork(tx, session_id, fork), render)


def _continue(tx: Tx, session_id: str, continuation: Continuation) -> SessionRow:
    """Context compression: end the parent with ``compression`` and create its continuation.

    The child gets a new id in the parent's format, the parent's model and chat routing fields, the next
    title of the lineage, and the optional system prompt and initial messages — all in this transaction.
    409 ``session_ended`` when the parent was already ended for another reason.
    """
    parent = get_session(tx, session_id)
    if parent["ended_at"] is not None and parent["end_reason"] != COMPRESSION:
        raise SessionEnded(session_id, parent["end_reason"])
    tx.sessions.end_session(session_id, COMPRESSION)
    title = _lineage_title(tx, parent["title"])
    child_id = _child_id(tx, parent["source"])
    tx.sessions.insert_session(child_id, _child(parent, system_prompt=continuation.system_prompt))
    _give_title(tx, child_id, title)
    if continuation.messages:
        tx.messages.insert_messages(child_id, continuation.messages)
    return get_session(tx, child_id)


def _fork(tx: Tx, session_id: str, fork: Fork) -> SessionRow:
    """Branch: end the parent with ``branched`` (first end wins) and create a child marked
    ``_branched_from`` holding a copy of the parent's active messages (up to ``message_id``).

    A client-chosen ``id`` must be valid (422 ``invalid_session_id``) and free (409 ``session_exists``).
    An explicit ``title`` must be free (409 ``title_in_use``); otherwise the child takes the next title
    of the parent's lineage when the parent has one. 404 ``message_not_found`` for a ``message_id`` that
    is not an active message of the session.
    """
    parent = get_session(tx, session_id, include_system_prompt=True)
    if fork.id is not None:
        problem = session_id_problem(fork.id)
        if problem is not None:
            raise InvalidSessionId(problem)
    if fork.message_id is not None and not tx.lineage.is_active_message(session_id, fork.message_id):
        raise MessageNotFound(session_id, fork.message_id)
    tx.sessions.end_session(session_id, BRANCHED)
    # A branch of a sub-agent run is the user's own conversation, not another delegate.
    stored_config = parent["model_config"]
    verbatim = is_unrenderable(stored_config)
    inherited = {} if verbatim else (stored_config or {})
    model_config = {k: v for k, v in inherited.items() if k != "_delegate_from"}
    model_config["_branched_from"] = session_id
    child_id = fork.id if fork.id is not None else _child_id(tx, parent["source"])
    child = _child(parent, title=fork.title, model_config=model_config, system_prompt=parent["system_prompt"])
    title = _lineage_title(tx, parent["title"]) if fork.title is None else None
    tx.sessions.insert_session(child_id, child)
    if verbatim:
        tx.sessions.copy_model_config_as_branch(session_id, child_id)
    _give_title(tx, child_id, title)
    tx.lineage.copy_active_messages(session_id, child_id, fork.message_id)
    return get_session(tx, child_id)


def recap(tx: Tx, session_id: str, exchanges: int) -> Recap:
    """The resume recap of a session's active conversation."""
    if not tx.sessions.session_exists(session_id):
        raise SessionNotFound(session_id)
    return build_recap(tx.lineage.conversation_for_recap(session_id), exchanges)
