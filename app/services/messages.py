"""Message use cases: append (single or batch) with the session checks, list pages and windows, fetch,
rewind. :func:`append` is the whole use case (writer job, idempotency record; what follows the commit hears
of it through the writer's commit notice); the others run inside one writer or reader job (they take the
connection)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.errors import MessageNotFound, MessageNotInSession, NotAUserMessage, SessionEnded, SessionNotFound
from app.services.events import EventType, emit, emit_messages
from app.services.idempotency import Idempotency, Render, Reply
from app.storage.protocols import AppendJob, Store, Tx
from app.storage.rows import MessageQuery, MessageRow


async def append(
    db: Store,
    idempotency: Idempotency,
    session_id: str,
    messages: list[dict[str, Any]],
    *,
    reopen: bool,
    render: Render[list[MessageRow]],
) -> Reply:
    """Append messages to a session in one writer job; ``render`` answers the stored messages. See
    :func:`append_job` for the rules."""
    return await idempotency.run(db, append_job(session_id, messages, reopen=reopen), render)


def append_job(
    session_id: str, messages: list[dict[str, Any]], *, reopen: bool
) -> AppendJob[list[MessageRow]]:
    """The writer job appending messages to a session; its result is the stored messages with their ids.

    404 ``session_not_found``; an ended session is 409 ``session_ended`` unless ``reopen`` (then it is
    reopened in the same transaction).
    """

    def then(tx: Tx, stored: list[MessageRow] | None) -> list[MessageRow]:
        if stored is None:
            exists, ended = tx.messages.session_end_state(session_id)
            if not exists:
                raise SessionNotFound(session_id)
            if ended:
                if not reopen:
                    raise SessionEnded(session_id)
                tx.sessions.reopen_session(session_id)
                emit(
                    tx,
                    EventType.session_updated,
                    session_id,
                    {"session_id": session_id, "fields": ["end_reason", "ended_at"]},
                )
            stored = tx.messages.insert_messages(session_id, messages)
        emit_messages(tx, session_id, stored)
        return stored

    return AppendJob(session_id, messages, then)


@dataclass
class MessageListing:
    """What listing a session's messages found: a page (``next_position`` is where the next one starts,
    ``None`` at the end) or a window around an anchor (``window`` says how it was cut)."""

    items: list[MessageRow]
    has_more: bool
    next_position: dict[str, int] | None = None
    window: dict[str, int] = field(default_factory=dict)


def _require_session(tx: Tx, session_id: str) -> None:
    if not tx.sessions.session_exists(session_id):
        raise SessionNotFound(session_id)


def list_messages(tx: Tx, query: MessageQuery) -> MessageListing:
    """A page in id order (after a cursor, before a cursor, or from the start) or a window around an
    anchor; 404 ``session_not_found`` / ``message_not_in_session``."""
    _require_session(tx, query.session_id)
    if query.around is not None:
        return _window(tx, query, query.around)
    rows = tx.messages.page(query)
    has_more = len(rows) > query.limit
    if not has_more:
        return MessageListing(tx.messages.to_messages(rows), False)
    if query.before is not None:
        rows = rows[1:]  # the surplus row is the oldest one
        return MessageListing(tx.messages.to_messages(rows), True, {"before": rows[0]["id"]})
    rows = rows[: query.limit]
    return MessageListing(tx.messages.to_messages(rows), True, {"after": rows[-1]["id"]})


def _window(tx: Tx, query: MessageQuery, anchor_id: int) -> MessageListing:
    found = tx.messages.around(query, anchor_id)
    if found is None:
        raise MessageNotInSession(query.session_id, anchor_id, param="around")
    before, anchor, after = found
    items = tx.messages.to_messages([*before, anchor, *after])
    return MessageListing(
        items,
        False,
        None,
        {"anchor_id": anchor_id, "messages_before": len(before), "messages_after": len(after)},
    )


def get_message(tx: Tx, session_id: str, message_id: int) -> MessageRow:
    """One message of a session (active or not); 404 ``session_not_found`` / ``message_not_found``."""
    row = tx.messages.fetch(session_id, message_id)
    if row is None:
        _require_session(tx, session_id)
        raise MessageNotFound(session_id, message_id)
    return tx.messages.to_messages([row])[0]


def rewind(tx: Tx, session_id: str, message_id: int) -> dict[str, Any]:
    """Rewind a session to before one of its user messages (``SessionDB.rewind_to_message``).

    The target and every later message become ``active = 0`` (kept on disk) and ``rewind_count`` goes
    up by one even when nothing was left to deactivate. Returns ``session_id``, ``rewound_count``,
    ``new_head_id``, ``rewind_count``, ``message_count`` and the target message (to pre-fill a prompt).
    """
    _require_session(tx, session_id)
    row = tx.messages.fetch(session_id, message_id)
    if row is None:
        raise MessageNotFound(session_id, message_id)
    if row["role"] != "user":
        raise NotAUserMessage(message_id, row["role"])
    rewound, head = tx.messages.rewind(session_id, message_id)
    counts = tx.messages.session_counters(session_id)
    target = tx.messages.to_messages([tx.messages.fetch(session_id, message_id) or row])[0]
    return {
        "session_id": session_id,
        "rewound_count": rewound,
        "new_head_id": head,
        "rewind_count": counts["rewind_count"],
        "message_count": counts["message_count"],
        "target_message": target,
    }
