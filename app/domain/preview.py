"""A session's preview: the agent's rule for the short text a listing shows."""

from __future__ import annotations

PREVIEW_CHARS = 60


def preview_from_raw(raw: str | None) -> str:
    """The agent's preview rule applied to the first user message (already cut in the query)."""
    text = (raw or "").strip()
    if not text:
        return ""
    return text[:PREVIEW_CHARS] + ("..." if len(text) > PREVIEW_CHARS else "")
