"""Session ids: the agent's formats per source, and the rules a client-supplied id must follow."""

from __future__ import annotations

import time
import uuid
from datetime import datetime
from urllib.parse import unquote

from app.domain.sources import LOCAL_SOURCES, Source

MAX_SESSION_ID_LENGTH = 256


def new_session_id(source: Source, now: float | None = None) -> str:
    """A fresh id: ``api_<epoch>_<8 hex>`` for the API server, else local time + 6 (local) or 8 hex."""
    now = time.time() if now is None else now
    hex_digits = uuid.uuid4().hex
    if source is Source.api_server:
        return f"api_{int(now)}_{hex_digits[:8]}"
    stamp = datetime.fromtimestamp(now).strftime("%Y%m%d_%H%M%S")
    width = 6 if source in LOCAL_SOURCES else 8
    return f"{stamp}_{hex_digits[:width]}"


def session_id_problem(session_id: str) -> str | None:
    """Why a client-supplied id is refused, or ``None`` when it is acceptable."""
    if not session_id:
        return "Session id must not be empty."
    if len(session_id) > MAX_SESSION_ID_LENGTH:
        return f"Session id too long ({len(session_id)} chars, max {MAX_SESSION_ID_LENGTH})."
    if any(ord(c) < 0x20 or ord(c) == 0x7F or 0xD800 <= ord(c) <= 0xDFFF for c in session_id):
        return "Session id must not contain control characters."
    if "/" in session_id or "\\" in session_id:
        return "Session id must not contain '/' or '\\' (ids name transcript files)."
    # Ids travel in URL paths too, where a client or proxy may decode ``%2e%2e`` and drop a lone ``.``.
    decoded = unquote(session_id)
    if session_id == "." or ".." in decoded or "/" in decoded or "\\" in decoded:
        return "Session id must not be '.' or contain '..', '/' or '\\', even percent-encoded."
    if session_id != session_id.strip():
        return "Session id must not start or end with whitespace."
    return None
