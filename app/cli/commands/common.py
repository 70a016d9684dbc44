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
        suffix += " and more"
    return CliError(f"Session '{ref}' is ambiguous{suffix}; give more of the id.", ExitCode.CONFLICT)


def _resolve(api: Api, ref: str) -> dict[str, Any] | None:
    """The server's resolution of ``ref`` (by id, prefix or title); ``None`` when nothing matches."""
    try:
        return dict(api.get("/sessions/resolve", feature="session lookup", params={"ref": ref}))
    except ApiError as exc:
        if exc.code == "ambiguous_session_ref":
            raise ambiguous(exc, ref) from exc
        if exc.status == 404 and exc.code == "session_not_found":
            return None
        raise


def _by_id(resolved: dict[str, Any] | None) -> str | None:
    """The session id of a resolution made by exact id or unique id prefix, else ``None``."""
    if resolved is None or resolved.get("matched_by") not in ("id", "prefix"):
        return None
    return str(resolved["requested"])


def resolve_exact_or_prefix(api: Api, ref: str) -> str | None:
    """The session ``ref`` names by exact id or unique id prefix (like the agent's
    ``resolve_session_id``); ``None`` when nothing matches. Titles are not accepted here, so a command
    that deletes or renames never acts on a session the user did not name by id."""
    return _by_id(_resolve(api, ref))


def require_session(api: Api, ref: str) -> str:
    """Like :func:`resolve_exact_or_prefix`, leaving with ``Session '<ref>' not found.`` (exit 3); when
    ``ref`` is a title, the message says so and gives its id, as ``show`` would have found it."""
    resolved = _resolve(api, ref)
    session_id = _by_id(resolved)
    if session_id is not None:
        return session_id
    message = f"Session '{ref}' not found."
    if resolved is not None and resolved.get("matched_by") == "title":
        message += (
            f" It is the title of session {resolved['requested']}: this command takes a session id or a"
            " unique id prefix, not a title."
        )
    raise CliError(message, ExitCode.NOT_FOUND)


def active_messages(api: Api, session_id: str) -> list[dict[str, Any]]:
    """The session's active messages (what a resume loads), read through the export stream."""
    with api.stream("/export.jsonl", feature="export", params={"session_id": session_id}) as response:
        for line in response.iter_lines():
            if line.strip():
                record = orjson.loads(line)
                return list(record.get("messages") or [])
    return []
