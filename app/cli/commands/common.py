"""Lookups several commands share: id resolution and the active messages of a session."""

from __future__ import annotations

from typing import Any

import orjson

from app.cli.api import Api
from app.cli.errors import ApiError, CliError, ExitCode


def ambiguous(error: ApiError, ref: str) -> CliError:
    """A clear message for an id prefix shared by several sessions."""
    candidates = error.body.get("candidates")
    listed = candidates if isinstance(candidates, list) else []
    names = ", ".join(str(c.get("id", c)) if isinstance(c, dict) else str(c) for c in listed)
    suffix = f": {names}" if names else ""
    if error.body.get("more") is True:
        suffix += " and more (give more of the id)"
    return CliError(f"Session '{ref}' is ambiguous{suffix}", ExitCode.CONFLICT)


def resolve_exact_or_prefix(api: Api, ref: str) -> str | None:
    """The session ``ref`` names by exact id or unique id prefix (like the agent's
    ``resolve_session_id``); ``None`` when nothing matches. Titles are not accepted here, so a command
    that deletes or renames never acts on a session the user did not name by id."""
    try:
        resolved = api.get("/sessions/resolve", feature="session lookup", params={"ref": ref})
    except ApiError as exc:
        if exc.code == "ambiguous_session_ref":
            raise ambiguous(exc, ref) from exc
        if exc.status == 404 and exc.code == "session_not_found":
            return None
        raise
    if resolved.get("matched_by") not in ("id", "prefix"):
        return None
    return str(resolved["requested"])


def require_session(api: Api, ref: str) -> str:
    """Like :func:`resolve_exact_or_prefix`, leaving with ``Session '<ref>' not found.`` (exit 3)."""
    session_id = resolve_exact_or_prefix(api, ref)
    if session_id is None:
        raise CliError(f"Session '{ref}' not found.", ExitCode.NOT_FOUND)
    return session_id


def active_messages(api: Api, session_id: str) -> list[dict[str, Any]]:
    """The session's active messages (what a resume loads), read through the export stream."""
    with api.stream("/export.jsonl", feature="export", params={"session_id": session_id}) as response:
        for line in response.iter_lines():
            if line.strip():
                record = orjson.loads(line)
                return list(record.get("messages") or [])
    return []
