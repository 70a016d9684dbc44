"""Attachment rows (``hs_attachments``) and their links to messages (``hs_message_attachments``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.domain.records import NewAttachment
from app.errors import UnknownAttachment
from app.storage.repos.repository import Repository
from app.storage.rows import AttachmentRef
from app.storage.sqlite.driver import sqlite3

_REF_COLUMNS = "a.id, a.media_type, a.size, a.sha256, a.filename"


def _ref(row: sqlite3.Row) -> AttachmentRef:
    return {
        "id": row["id"],
        "media_type": row["media_type"],
        "size": row["size"],
        "sha256": row["sha256"],
        "filename": row["filename"],
    }


class Attachments(Repository):
    """Attachment rows and their links to messages."""

    __slots__ = ()

    def upsert_attachment(self, new: NewAttachment) -> dict[str, Any]:
        """Insert an attachment unless the same bytes (same SHA-256) are already stored; the stored row."""
        self.conn.execute(
            "INSERT INTO hs_attachments"
            " (id, sha256, size, media_type, filename, path, extracted_text, created_at)"
            f" VALUES ({self.d.p}, {self.d.p}, {self.d.p}, {self.d.p}, {self.d.p}, {self.d.p}, {self.d.p},"
            f" {self.d.p}) ON CONFLICT(sha256) DO NOTHING",
            (
                new.attachment_id,
                new.sha256,
                new.size,
                new.media_type,
                new.filename,
                new.path,
                new.extracted_text,
                new.created_at,
            ),
        )
        row = self.conn.execute(
            "SELECT id, sha256, size, media_type, filename, path, extracted_text FROM hs_attachments WHERE"
            f" sha256 = {self.d.p}",
            (new.sha256,),
        ).fetchone()
        return dict(row)

    def get_attachment(self, attachment_id: str) -> dict[str, Any] | None:
        """One attachment row (without its extracted text), or ``None``."""
        row = self.conn.execute(
            f"SELECT id, sha256, size, media_type, filename, path FROM hs_attachments WHERE id = {self.d.p}",
            (attachment_id,),
        ).fetchone()
        return None if row is None else dict(row)

    def refs_for_ids(self, attachment_ids: Sequence[str]) -> dict[str, AttachmentRef]:
        """Attachment refs by id; 422 ``unknown_attachment`` naming the ids that do not exist."""
        wanted = list(dict.fromkeys(attachment_ids))
        marks = ",".join([self.d.p] * len(wanted))
        rows = self.conn.execute(
            f"SELECT {_REF_COLUMNS} FROM hs_attachments a WHERE a.id IN ({marks})", wanted
        )
        found = {row["id"]: _ref(row) for row in rows}
        missing = [a for a in wanted if a not in found]
        if missing:
            raise UnknownAttachment(missing)
        return found

    def link(self, message_id: int, attachment_ids: Sequence[str]) -> None:
        """Link a message to attachments, in the order given (duplicates collapse to the first)."""
        self.conn.executemany(
            "INSERT INTO hs_message_attachments (message_id, attachment_id, position)"
            f" VALUES ({self.d.p}, {self.d.p}, {self.d.p}) ON CONFLICT DO NOTHING",
            [(message_id, a, pos) for pos, a in enumerate(dict.fromkeys(attachment_ids))],
        )

    def refs_for_messages(self, message_ids: Sequence[int]) -> dict[int, list[AttachmentRef]]:
        """Attachment refs of each message (only messages that have some), in link order."""
        if not message_ids:
            return {}
        out: dict[int, list[AttachmentRef]] = {}
        # Chunked to stay under SQLite's bound-parameter limit on 1000-message pages.
        for start in range(0, len(message_ids), 500):
            chunk = list(message_ids[start : start + 500])
            marks = ",".join([self.d.p] * len(chunk))
            rows = self.conn.execute(
                f"SELECT l.message_id, {_REF_COLUMNS} FROM hs_message_attachments l"
                f" JOIN hs_attachments a ON a.id = l.attachment_id WHERE l.message_id IN ({marks})"
                " ORDER BY l.message_id, l.position",
                chunk,
            )
            for row in rows:
                out.setdefault(row["message_id"], []).append(_ref(row))
        return out
