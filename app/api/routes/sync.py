"""``POST /sync/batches``: what ``hermes sessions sync`` pushes from an agent's file."""

from __future__ import annotations

from typing import Any

from app.api.deps import DB
from app.api.error_docs import JSON_BODY, WRITE
from app.api.operations import api_router, operation
from app.api.schemas.sync import SyncBatchIn, SyncResultOut
from app.errors import InvalidSyncBatch
from app.services import sync as service

router = api_router("sync")


@router.post(
    "/sync/batches",
    **operation(
        "sync-batch",
        "Apply a batch of an agent's file",
        SyncResultOut,
        WRITE,
        JSON_BODY,
        InvalidSyncBatch,
    ),
)
async def sync_batch(db: DB, body: SyncBatchIn) -> dict[str, Any]:
    """Upsert the session rows and store the messages not stored before, in one transaction, under the
    home's label. A message is known by its home, its file's generation (`file`) and its id in that file,
    so a repeated or resumed batch stores nothing twice (`messages_skipped`); a message another generation
    delivered counts as there only when it says the same. Sessions are the home's: a row overwrites the one
    it synced before, never a session created here or synced from another home (`sessions_conflicting`). A
    row breaking a field rule (the API's own: timestamps, counts, flags, titles, ids) is set aside and
    listed in `refused`; so is a row the store itself refuses (a constraint of its schema: `write_failed`;
    a newer agent's session with messages that would change kind: `session_kind_locked`), with the messages
    of a refused session row; the rest is stored, in one transaction. Errors: `invalid_sync_batch` (422, a
    batch of the wrong shape; nothing of the batch was written)."""
    batch = service.SyncBatch(
        home=body.home,
        sessions=body.sessions,
        message_columns=body.messages.columns,
        message_rows=body.messages.rows,
        file=body.file,
    )
    result = await service.apply_batch(db, batch)
    return result.as_dict()
