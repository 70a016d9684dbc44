"""Pure message rules: the agent's content encoding, tool-call counting, batch timestamps, and the
attachment media-type policy. No I/O."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from app.domain.stored_json import load_stored

ROLES = ("system", "user", "assistant", "tool")

# The agent's marker for list/dict content stored as JSON text (``SessionDB._CONTENT_JSON_PREFIX``).
# NUL cannot occur in accepted text, so the marker never collides with real content.
CONTENT_JSON_PREFIX = "\x00json:"

# Batch timestamps step by this much so a batch keeps its order (the agent's ``_insert_message_rows``).
TIMESTAMP_STEP = 1e-6

# Longest extracted text kept for a text attachment (characters).
MAX_EXTRACTED_CHARS = 100_000

# Exact media types accepted for attachments besides the ``text/*`` and ``audio/*`` families.
# ``application/octet-stream`` is not accepted as such: the bytes are sniffed for one of the image/PDF
# types below, and refused (415) when they match none.
ALLOWED_MEDIA_TYPES = frozenset(
    {
        "application/json",
        "application/pdf",
        "image/png",
        "image/jpeg",
        "image/gif",
        "image/webp",
    }
)
ALLOWED_MEDIA_FAMILIES = ("text/", "audio/")

_MAGIC = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
    (b"%PDF-", "application/pdf"),
)


def encode_content(content: Any) -> Any:
    """Content as the agent stores it: text and numbers as they are, lists/objects as prefixed JSON.

    ``json.dumps`` with its default ``ensure_ascii=True`` matches the agent byte for byte.
    """
    if content is None or isinstance(content, str | int | float):
        return content
    return CONTENT_JSON_PREFIX + json.dumps(content)


def decode_content(content: Any) -> Any:
    """Reverse :func:`encode_content`; malformed JSON stays the raw text, as in the agent, and a value that
    cannot be rendered is the unrenderable marker (``app.domain.stored_json``)."""
    if isinstance(content, str) and content.startswith(CONTENT_JSON_PREFIX):
        try:
            return load_stored(content[len(CONTENT_JSON_PREFIX) :])
        except ValueError:
            return content
    return content


def decode_json_column(raw: Any, fallback: Any = None) -> Any:
    """A JSON text column decoded; empty is ``None``, unreadable text is ``fallback`` (the agent falls back
    to ``[]`` for ``tool_calls``) and a value that cannot be rendered is the unrenderable marker."""
    if raw is None or raw == "":
        return None
    if not isinstance(raw, str):
        return fallback
    try:
        return load_stored(raw)
    except ValueError:
        return fallback


def tool_call_count(message: Mapping[str, Any]) -> int:
    """Tool calls a message adds to ``sessions.tool_call_count``: assistant rows only; tool-role
    results add nothing, as in the agent.."""
    calls = message.get("tool_calls")
    if message.get("role") != "assistant" or not calls:
        return 0
    return len(calls) if isinstance(calls, list) else 1


def batch_timestamps(explicit: list[float | None], now: float) -> list[float]:
    """Timestamps for a batch, as the agent assigns them: an explicit value is kept, a missing one is
    "now", and "now" moves strictly past every timestamp already used so the batch keeps its order."""
    out: list[float] = []
    cursor = now
    for value in explicit:
        ts = cursor if value is None else value
        out.append(ts)
        cursor = max(cursor + TIMESTAMP_STEP, ts + TIMESTAMP_STEP)
    return out


def assistant_text(role: str, value: str | None) -> str | None:
    """Reasoning text is kept only on assistant rows, and an empty string is not stored."""
    if role != "assistant" or not value:
        return None
    return value


def resolve_media_type(declared: str | None, head: bytes) -> str | None:
    """The media type an upload is stored under, or ``None`` when the policy refuses it.

    Parameters (``; charset=...``) are dropped. Untyped uploads (missing or
    ``application/octet-stream``) are sniffed from their first bytes.
    """
    base = (declared or "").split(";", 1)[0].strip().lower()
    if base in ("", "application/octet-stream"):
        return sniff_media_type(head)
    if base in ALLOWED_MEDIA_TYPES or base.startswith(ALLOWED_MEDIA_FAMILIES):
        return base
    return None


def sniff_media_type(head: bytes) -> str | None:
    """Recognise PNG, JPEG, GIF, WebP and PDF by their magic bytes."""
    for magic, media_type in _MAGIC:
        if head.startswith(magic):
            return media_type
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    return None


def is_text_media(media_type: str) -> bool:
    """Whether text is extracted from an attachment of this type."""
    return media_type.startswith("text/") or media_type == "application/json"


def extract_text(data: bytes) -> str:
    """UTF-8 text of an attachment (invalid bytes replaced, NUL replaced, capped)."""
    text = data[: MAX_EXTRACTED_CHARS * 4].decode("utf-8", errors="replace")
    return text[:MAX_EXTRACTED_CHARS].replace("\x00", "\ufffd")
