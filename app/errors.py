"""The exception tree every layer raises; the HTTP layer renders it as problem+json.

One class per condition: each fixes its stable ``code`` and builds its sentence from its arguments, so a
condition reads the same wherever it is raised. The status classes (``NotFound``, ``Conflict``, ...) carry
the HTTP status and title and are never raised themselves. ``example_args`` builds the example instance
the OpenAPI error documentation shows (app/api/error_docs.py), so the documented body is the real one.

Several classes may share a code where two conditions mean the same thing to a client (a missing and a
wrong bearer token are both ``unauthorized``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar

from app.domain.titles import MAX_TITLE_LENGTH

_SESSION_ID = "20260105_101500_a1b2c3"


def _example(**args: Any) -> Mapping[str, Any]:
    """The constructor arguments of a class's documented example (read-only: classes share nothing)."""
    return MappingProxyType(args)


class HermesError(Exception):
    """Base of every error the API reports; ``code`` is the stable machine-readable name."""

    status: ClassVar[int] = 500
    title: ClassVar[str] = "Internal Server Error"
    code: ClassVar[str]
    example_args: ClassVar[Mapping[str, Any]] = MappingProxyType({})
    retry_after: int | None = None

    def __init__(self, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.detail = detail
        self.extra = extra

    @classmethod
    def example(cls) -> HermesError:
        """The instance the API documentation shows for this class."""
        return cls(**cls.example_args)

    def headers(self) -> dict[str, str] | None:
        """Response headers this error adds to its problem+json answer."""
        return None if self.retry_after is None else {"Retry-After": str(self.retry_after)}


def concrete_errors() -> list[type[HermesError]]:
    """Every class that can be raised (one with a ``code``), in definition order."""
    found: list[type[HermesError]] = []
    stack: list[type[HermesError]] = [HermesError]
    while stack:
        cls = stack.pop(0)
        stack.extend(cls.__subclasses__())
        if "code" in vars(cls):
            found.append(cls)
    return found


# -- statuses ------------------------------------------------------------------------------------------


class BadRequest(HermesError):
    status = 400
    title = "Bad Request"


class Unauthorized(HermesError):
    status = 401
    title = "Unauthorized"

    def headers(self) -> dict[str, str] | None:
        """RFC 9110: a 401 names the scheme it expects."""
        return {"WWW-Authenticate": "Bearer"}


class NotFound(HermesError):
    status = 404
    title = "Not Found"


class RequestTimeout(HermesError):
    status = 408
    title = "Request Timeout"


class Conflict(HermesError):
    status = 409
    title = "Conflict"


class PreconditionFailed(HermesError):
    status = 412
    title = "Precondition Failed"


class ContentTooLarge(HermesError):
    status = 413
    title = "Content Too Large"


class UriTooLong(HermesError):
    status = 414
    title = "URI Too Long"
    code = "uri_too_long"
    example_args = _example(limit=16384)

    def __init__(self, limit: int) -> None:
        super().__init__(f"The request target is longer than the limit of {limit} bytes.")


class UnsupportedMediaType(HermesError):
    status = 415
    title = "Unsupported Media Type"


class MisdirectedRequest(HermesError):
    status = 421
    title = "Misdirected Request"


class Unprocessable(HermesError):
    status = 422
    title = "Unprocessable Content"


class RequestHeaderTooLarge(HermesError):
    status = 431
    title = "Request Header Fields Too Large"
    code = "request_header_too_large"
    example_args = _example(limit=16384)

    def __init__(self, limit: int) -> None:
        super().__init__(f"The request line and headers are longer than the limit of {limit} bytes.")


class NotImplementedHere(HermesError):
    status = 501
    title = "Not Implemented"


class ServiceUnavailable(HermesError):
    status = 503
    title = "Service Unavailable"


class InsufficientStorage(HermesError):
    status = 507
    title = "Insufficient Storage"


# -- 400 -----------------------------------------------------------------------------------------------


class InvalidCursor(BadRequest):
    code = "invalid_cursor"

    def __init__(self, *, other_listing: bool = False) -> None:
        super().__init__(
            "The cursor was made by another listing: a next_cursor pages only the listing that made it, "
            "with the same q, sources, status, order and filters (relative times stay as the first page "
            "resolved them). Send the first page's parameters with it, or start again without a cursor."
            if other_listing
            else "The cursor is malformed or belongs to another listing; use next_cursor from the previous "
            "page."
        )


class InvalidJson(BadRequest):
    code = "invalid_json"
    example_args = _example(reason="Expecting value: line 1 column 2 (char 1)")

    def __init__(self, reason: str) -> None:
        super().__init__(f"The request body is not valid JSON: {reason}.")


class BodyNotObject(BadRequest):
    code = "body_not_object"

    def __init__(self) -> None:
        super().__init__("The request body must be a JSON object.")


class UnreadableForm(BadRequest):
    """The multipart parser refused the body (its own sentence says why)."""

    code = "http_error"
    example_args = _example(reason="There was an error parsing the body")

    def __init__(self, reason: str) -> None:
        super().__init__(reason)


class InvalidLastEventId(BadRequest):
    code = "invalid_last_event_id"
    example_args = _example(value="abc")

    def __init__(self, value: str) -> None:
        super().__init__(f"Last-Event-ID must be an event id (an integer 0 .. 2^63-1), not {value!r}.")


class InvalidResolveQuery(BadRequest):
    code = "invalid_resolve_query"

    def __init__(self) -> None:
        super().__init__("Give either ref or latest=true (not both).")


class InvalidIdempotencyKey(BadRequest):
    code = "invalid_idempotency_key"

    def __init__(self) -> None:
        super().__init__("Idempotency-Key must be 1-255 printable characters.")


class MissingFile(BadRequest):
    code = "missing_file"

    def __init__(self) -> None:
        super().__init__("The multipart body has no file in its `file` field.")


class EmptyImport(BadRequest):
    code = "empty_body"

    def __init__(self) -> None:
        super().__init__("The import body is empty: send the JSONL file as the body or in the `file` field.")


class MalformedRequest(BadRequest):
    """The HTTP parser refused the request; subclasses name the header at fault."""

    code = "malformed_request"
    example_args = _example(reason="Invalid method encountered")

    def __init__(self, reason: str) -> None:
        super().__init__(f"The request is not valid HTTP/1.1: {reason}.")


class InvalidContentLength(MalformedRequest):
    code = "invalid_content_length"
    example_args = _example(reason="Invalid Content-Length")


class AmbiguousBodyLength(MalformedRequest):
    code = "ambiguous_body_length"
    example_args = _example(reason="Content-Length can't be present with Transfer-Encoding")


class InvalidTransferEncoding(MalformedRequest):
    code = "invalid_transfer_encoding"
    example_args = _example(reason="Invalid Transfer-Encoding")


# -- 401 -----------------------------------------------------------------------------------------------


class MissingToken(Unauthorized):
    code = "unauthorized"

    def __init__(self) -> None:
        super().__init__(
            "Missing bearer token: send 'Authorization: Bearer <token>' (see $HERMES_HOME/api_token)."
        )


class InvalidToken(Unauthorized):
    code = "unauthorized"

    def __init__(self) -> None:
        super().__init__("Invalid bearer token.")


# -- 404 -----------------------------------------------------------------------------------------------


class SessionNotFound(NotFound):
    """No session has this id (or, for a reference, this id prefix or title)."""

    code = "session_not_found"
    example_args = _example(session_id=_SESSION_ID)

    def __init__(self, session_id: str) -> None:
        super().__init__(f"Session not found: {session_id}", session_id=session_id)


class NoSessionToContinue(NotFound):
    code = "session_not_found"
    example_args = _example(sources=("cli",))

    def __init__(self, sources: Sequence[str]) -> None:
        where = f" from {', '.join(sources)}" if sources else ""
        super().__init__(f"No previous session{where} found to continue.")


class MessageNotFound(NotFound):
    code = "message_not_found"
    example_args = _example(session_id=_SESSION_ID, message_id=42)

    def __init__(self, session_id: str, message_id: int) -> None:
        super().__init__(
            f"Message {message_id} not found in session {session_id}.",
            session_id=session_id,
            message_id=message_id,
        )


class MessageNotInSession(NotFound):
    """The anchor of a window (``param``) is not a message of the session named."""

    code = "message_not_in_session"
    example_args = _example(session_id=_SESSION_ID, message_id=42, param="around")

    def __init__(self, session_id: str, message_id: int, *, param: str) -> None:
        super().__init__(
            f"{param} {message_id} not in session_id {session_id}",
            session_id=session_id,
            message_id=message_id,
        )


class AttachmentNotFound(NotFound):
    code = "attachment_not_found"
    example_args = _example(attachment_id="9f86d081884c7d65")

    def __init__(self, attachment_id: str) -> None:
        super().__init__(f"Attachment not found: {attachment_id}", attachment_id=attachment_id)


class RouteNotFound(NotFound):
    code = "route_not_found"
    example_args = _example(session_key="agent:main:telegram:dm:123456789")

    def __init__(self, session_key: str) -> None:
        super().__init__(f"No routed chat has the session key '{session_key}'.", session_key=session_key)


# -- 408 -----------------------------------------------------------------------------------------------


class BodyStalled(RequestTimeout):
    code = "request_timeout"
    example_args = _example(timeout_s=30)

    def __init__(self, timeout_s: float) -> None:
        super().__init__(f"The request body stalled for more than {timeout_s:g} s.")


class HeadersStalled(RequestTimeout):
    code = "request_timeout"
    example_args = _example(timeout_s=10)

    def __init__(self, timeout_s: float) -> None:
        super().__init__(f"The request headers did not arrive within {timeout_s:g} s.")


# -- 409 -----------------------------------------------------------------------------------------------


class SessionExists(Conflict):
    code = "session_exists"
    example_args = _example(session_id=_SESSION_ID)

    def __init__(self, session_id: str) -> None:
        super().__init__(f"Session already exists: {session_id}", session_id=session_id)


class TrigramMembershipLocked(Conflict):
    code = "session_kind_locked"
    example_args = _example(session_id="20260101_000000_a1b2c3")

    def __init__(self, session_id: str) -> None:
        super().__init__(
            f"Session {session_id} already has messages, and in this agent file a session's source and "
            "delegation mark decide whether its messages are in the substring search index; changing them "
            "now would damage that index, so nothing was changed. Start a new session instead.",
            session_id=session_id,
        )


class ImportWouldOverwrite(Conflict):
    """``on_conflict=fail`` found sessions of the import already stored; nothing was imported."""

    code = "session_exists"
    example_args = _example(conflicts=[{"line": 1, "session_id": _SESSION_ID}], total=1)

    def __init__(self, conflicts: list[dict[str, Any]], total: int, *, transcripts: bool = False) -> None:
        what = "transcript session(s)" if transcripts else "session(s) in the file"
        super().__init__(f"{total} {what} already exist; nothing was imported.", conflicts=conflicts)


class TitleTaken(Conflict):
    code = "title_in_use"
    example_args = _example(
        title="Refactor the search ranking",
        holder="20260104_090000_d4e5f6",
        suggested_title="Refactor the search ranking #2",
    )

    def __init__(self, title: str, holder: str, suggested_title: str) -> None:
        super().__init__(
            f"Title '{title}' is already in use by session {holder}",
            holder=holder,
            suggested_title=suggested_title,
        )


class AmbiguousSessionRef(Conflict):
    code = "ambiguous_session_ref"
    example_args = _example(
        ref="2026",
        candidates=[{"id": _SESSION_ID, "title": None}, {"id": "20260104_090000_d4e5f6", "title": "x"}],
        more=False,
    )

    def __init__(self, ref: str, candidates: list[dict[str, Any]], more: bool) -> None:
        super().__init__(
            f"'{ref}' matches several sessions; give more of the id.", candidates=candidates, more=more
        )


class SessionEnded(Conflict):
    code = "session_ended"
    example_args = _example(session_id=_SESSION_ID, end_reason="cli_close")

    def __init__(self, session_id: str, end_reason: str | None = None) -> None:
        super().__init__(
            f"Session {session_id} has ended; reopen it first.", session_id=session_id, end_reason=end_reason
        )


class RequestInFlight(Conflict):
    code = "request_in_flight"

    def __init__(self) -> None:
        super().__init__(
            "A request with this Idempotency-Key is still being processed; retry when it has finished."
        )


class DirUnusable(Conflict):
    """A directory of ours under $HERMES_HOME is a link leading outside it, or not a directory."""

    label: ClassVar[str]
    example_args = _example(path=Path("/home/me/.hermes/attachments"), outside=None)

    def __init__(self, path: Path, outside: tuple[str, str] | None) -> None:
        """``outside`` is (where ``path`` resolves, where $HERMES_HOME resolves) for a link leading out."""
        if outside is not None:
            detail = (
                f"The {self.label} {path} resolves to {outside[0]}, outside $HERMES_HOME ({outside[1]}); "
                "nothing is written there. Replace the link with a directory inside $HERMES_HOME."
            )
        else:
            detail = f"The {self.label} {path} exists but is not a directory; move it away and retry."
        super().__init__(detail)


class AttachmentsDirUnusable(DirUnusable):
    code = "attachments_dir_unusable"
    label = "attachments directory"


class BackupDirUnusable(DirUnusable):
    code = "backup_dir_unusable"
    label = "backups directory"
    example_args = _example(path=Path("/home/me/.hermes/backups"), outside=None)


class MaintenanceBusy(Conflict):
    code = "maintenance_busy"

    def __init__(self) -> None:
        super().__init__("Another VACUUM, backup or repair is running in this server; retry when it ends.")


class PlatformNotEnabled(Conflict):
    code = "platform_not_enabled"
    example_args = _example(platform="telegram")

    def __init__(self, platform: str) -> None:
        super().__init__(
            f"Platform '{platform}' is not configured/enabled in the gateway.", platform=platform
        )


class NoHomeChannel(Conflict):
    code = "no_home_channel"
    example_args = _example(platform="telegram")

    def __init__(self, platform: str) -> None:
        super().__init__(
            f"No home channel configured for {platform}. "
            "Set one with /sethome on the destination chat first.",
            platform=platform,
        )


class AgentBusy(Conflict):
    code = "agent_busy"

    def __init__(self) -> None:
        super().__init__("Agent is busy. Wait for the current turn to finish, then retry /handoff.")


class HandoffInFlight(Conflict):
    code = "handoff_in_flight"
    example_args = _example(state="pending", platform="telegram")

    def __init__(self, state: str | None, platform: str | None) -> None:
        super().__init__(
            "Session is already in flight for handoff. Wait for it to settle, then retry.",
            state=state,
            platform=platform,
        )


class HandoffStateChanged(Conflict):
    code = "handoff_state_changed"
    example_args = _example(session_id=_SESSION_ID, state="completed", wanted="failed")

    def __init__(self, session_id: str, state: str | None, wanted: str) -> None:
        super().__init__(
            f"The handoff of session {session_id} is {state or 'not requested'}; "
            f"it cannot become {wanted} now.",
            state=state,
        )


class AnchorInCurrentLineage(Conflict):
    code = "anchor_in_current_lineage"

    def __init__(self) -> None:
        super().__init__(
            "scroll rejected: anchor lives in the current session lineage (already in your active context)"
        )


class ConfigUnreadable(Conflict):
    code = "config_unreadable"
    example_args = _example(path=Path("/home/me/.hermes/gateway.json"))

    def __init__(self, path: Path) -> None:
        super().__init__(
            f"{path.name} exists but is not a readable mapping; fix it by hand before changing the gateway "
            "configuration (rewriting it would lose its contents).",
            path=str(path),
        )


# -- 412, 413, 415, 421 --------------------------------------------------------------------------------


class ETagMismatch(PreconditionFailed):
    code = "precondition_failed"
    example_args = _example(etag='"3f2a9c0d1e"')

    def __init__(self, etag: str) -> None:
        super().__init__(
            "The session changed since you read it (If-Match does not match); fetch it and retry.", etag=etag
        )


class PayloadTooLarge(ContentTooLarge):
    code = "payload_too_large"
    example_args = _example(limit=10485760)

    def __init__(self, limit: int, *, what: str = "request body") -> None:
        super().__init__(f"The {what} exceeds the limit of {limit} bytes.")


class UnsupportedBodyType(UnsupportedMediaType):
    code = "unsupported_media_type"
    example_args = _example(expected="application/json", declared="text/csv")

    def __init__(self, expected: str, declared: str) -> None:
        super().__init__(f"Send this body as {expected}, not {declared}.")


class UnsupportedAttachmentType(UnsupportedMediaType):
    code = "unsupported_media_type"
    example_args = _example(media_type="application/zip")

    def __init__(self, media_type: str | None) -> None:
        super().__init__(
            f"Attachments of type '{media_type or 'unknown'}' are not accepted. Allowed: text/*, "
            "audio/*, application/json, application/pdf, image/png, image/jpeg, image/gif, image/webp.",
            media_type=media_type,
        )


class HostNotAllowed(MisdirectedRequest):
    code = "host_not_allowed"
    example_args = _example(host="evil.example")

    def __init__(self, host: str) -> None:
        super().__init__(
            f"This server does not answer for the host {host!r}; add it to HERMES_ALLOWED_HOSTS to allow it."
        )


# -- 422 -----------------------------------------------------------------------------------------------

_SHOWN_KEYS = 8


class InvalidValue(Unprocessable):
    """A request value failed a check: the sentence names the first failure, ``errors`` lists them all."""

    code = "validation_error"
    example_args = _example(
        errors=[
            {
                "loc": ["body", "role"],
                "msg": "Input should be 'system', 'user', 'assistant' or 'tool'",
                "type": "literal_error",
            }
        ]
    )

    def __init__(self, errors: list[dict[str, Any]]) -> None:
        first = errors[0] if errors else {"loc": [], "msg": "invalid input"}
        loc = [str(p) for p in first["loc"]]
        # A too-deep body's location is ~128 keys long: the sentence names its start, ``errors`` all of it.
        where = ".".join(loc) if len(loc) <= _SHOWN_KEYS else ".".join(loc[:_SHOWN_KEYS]) + "..."
        detail = f"Invalid value at {where or 'request'}: {first['msg']}"
        if len(errors) > 1:
            detail += f" (and {len(errors) - 1} more problem{'s' if len(errors) > 2 else ''})"
        super().__init__(detail, errors=errors)


class InvalidText(InvalidValue):
    code = "invalid_text"
    example_args = _example(
        errors=[{"loc": ["body", "content"], "msg": "text contains a NUL character", "type": "invalid_text"}]
    )


class JsonTooDeep(InvalidValue):
    code = "json_too_deep"
    example_args = _example(
        errors=[
            {
                "loc": ["body", "content", *["a"] * 7],
                "msg": "JSON may nest at most 128 levels of objects and arrays.",
                "type": "json_too_deep",
            }
        ]
    )


class IntegerOutOfRange(InvalidValue):
    code = "integer_out_of_range"
    example_args = _example(
        errors=[
            {
                "loc": ["body", "token_count"],
                "msg": "Integers must be within -2^63 .. 2^63-1, not 9223372036854775808.",
                "type": "integer_out_of_range",
            }
        ]
    )


class NumberNotFinite(InvalidValue):
    code = "number_not_finite"
    example_args = _example(
        errors=[
            {
                "loc": ["body", "estimated_cost_usd"],
                "msg": "Numbers must be finite (no NaN, no Infinity).",
                "type": "number_not_finite",
            }
        ]
    )


class InvalidSyncBatch(InvalidValue):
    """A sync batch row the store cannot take; nothing of the batch was written."""

    code = "invalid_sync_batch"
    example_args = _example(
        errors=[
            {
                "loc": ["body", "messages", "rows", 3, "id"],
                "msg": "id must be a positive 64-bit integer",
                "type": "invalid_sync_batch",
            }
        ]
    )


class InvalidSessionId(Unprocessable):
    code = "invalid_session_id"
    example_args = _example(reason="Session id must not contain '/' or '\\' (ids name transcript files).")

    def __init__(self, reason: str) -> None:
        super().__init__(reason)


class UnknownSource(Unprocessable):
    code = "unknown_source"
    example_args = _example(source="fax", known=("cli", "telegram", "discord"))

    def __init__(self, source: str, known: Sequence[str]) -> None:
        super().__init__(f"Unknown source '{source}'. Known sources: {', '.join(known)}.", source=source)


class ParentNotFound(Unprocessable):
    code = "parent_not_found"
    example_args = _example(parent_session_id="20260101_000000_000000")

    def __init__(self, parent_session_id: str) -> None:
        super().__init__(
            f"Parent session not found: {parent_session_id}", parent_session_id=parent_session_id
        )


class TitleTooLong(Unprocessable):
    code = "title_too_long"
    example_args = _example(length=123)

    def __init__(self, length: int) -> None:
        super().__init__(
            f"Title too long ({length} chars, max {MAX_TITLE_LENGTH})", max_length=MAX_TITLE_LENGTH
        )


class InvalidTitle(Unprocessable):
    code = "invalid_title"

    def __init__(self) -> None:
        super().__init__("Title is empty after cleanup. Please use printable characters.")


class UnknownAttachment(Unprocessable):
    code = "unknown_attachment"
    example_args = _example(attachment_ids=["9f86d081884c7d65"])

    def __init__(self, attachment_ids: list[str]) -> None:
        super().__init__(
            f"Unknown attachment id(s): {', '.join(attachment_ids)}. Upload them first with "
            "POST /sessions/{session_id}/attachments.",
            attachment_ids=attachment_ids,
        )


class IdempotencyKeyReused(Unprocessable):
    code = "idempotency_key_reused"

    def __init__(self) -> None:
        super().__init__(
            "This Idempotency-Key was already used with a different request body; "
            "use a new key for a new request."
        )


class ConflictingParameters(Unprocessable):
    code = "conflicting_parameters"
    example_args = _example(first="around", others="after, before or cursor")

    def __init__(self, first: str, others: str) -> None:
        super().__init__(f"{first} cannot be combined with {others}.")


class NotAUserMessage(Unprocessable):
    code = "not_a_user_message"
    example_args = _example(message_id=43, role="assistant")

    def __init__(self, message_id: int, role: str) -> None:
        super().__init__(
            f"Rewind target must be a user message; message {message_id} is a {role} message.",
            message_id=message_id,
            role=role,
        )


class InvalidRole(Unprocessable):
    code = "invalid_role"
    example_args = _example(unknown=["robot"], known=["assistant", "system", "tool", "user"])

    def __init__(self, unknown: Sequence[str], known: Sequence[str]) -> None:
        super().__init__(f"Unknown role(s): {', '.join(unknown)}; use {', '.join(known)}")


class InvalidDuration(Unprocessable):
    code = "invalid_duration"
    example_args = _example(
        reason="Invalid value for older_than: '3 fortnights'. Use a duration like '5h', '30m', '2d', '1w', "
        "a bare number of days, or an ISO timestamp like '2026-07-05' or '2026-07-05 14:30'."
    )

    def __init__(self, reason: str) -> None:
        super().__init__(reason)


class EmptyTimeWindow(Unprocessable):
    code = "empty_time_window"
    example_args = _example(
        reason="Empty time window: the after/newer_than bound (2026-07-05 14:30 UTC) is not earlier than "
        "the before/older_than bound (2026-07-01 00:00 UTC)."
    )

    def __init__(self, reason: str) -> None:
        super().__init__(reason)


class FilterRequired(Unprocessable):
    code = "filter_required"

    def __init__(self) -> None:
        super().__init__(
            "Refusing to archive every ended session: give at least one filter (for example newer_than, "
            "source or title)."
        )


class LineageNeedsSessionId(Unprocessable):
    code = "lineage_needs_session_id"
    example_args = _example(parameter="lineage=true")

    def __init__(self, parameter: str) -> None:
        super().__init__(f"{parameter} exports one logical session: give its session_id.")


class OnlyNotAvailable(Unprocessable):
    code = "only_not_available"

    def __init__(self) -> None:
        super().__init__("only=user-prompts is available with format=jsonl or md.")


class FilesLayoutNotAvailable(Unprocessable):
    code = "layout_not_available"

    def __init__(self) -> None:
        super().__init__(
            "layout=files (one verified file per session) is available with format=md or qmd, without only."
        )


class QmdNeedsFilesLayout(Unprocessable):
    code = "layout_not_available"

    def __init__(self) -> None:
        super().__init__("format=qmd is written one file per session: use layout=files.")


class LineageNotAvailable(Unprocessable):
    code = "lineage_not_available"

    def __init__(self) -> None:
        super().__init__(
            "lineage=logical is available with format=jsonl (not redacted), format=html, or one file per "
            "session (format=md or qmd, layout=files)."
        )


class UnknownPlatform(Unprocessable):
    code = "unknown_platform"
    example_args = _example(platform="fax", known=("cli", "telegram", "discord"))

    def __init__(self, platform: str, known: Sequence[str]) -> None:
        super().__init__(
            f"Unknown platform '{platform}'. Known platforms: {', '.join(known)}.",
            platform=platform,
            platforms=list(known),
        )


class InvalidChatType(Unprocessable):
    code = "invalid_chat_type"
    example_args = _example(chat_type="room")

    def __init__(self, chat_type: str) -> None:
        super().__init__(
            f"Unknown chat type '{chat_type}'; use one of dm, group, channel, thread.", chat_type=chat_type
        )


class InvalidOnlyStates(Unprocessable):
    code = "invalid_only_states"

    def __init__(self) -> None:
        super().__init__("only_states may name pending and running only.")


# -- 503, 507 ------------------------------------------------------------------------------------------


class DatabaseBusy(ServiceUnavailable):
    code = "database_busy"
    retry_after = 1

    def __init__(self) -> None:
        super().__init__(
            "Another process held the database lock for longer than this server waits; retry shortly."
        )


class DatabaseReadOnly(ServiceUnavailable):
    """SQLite refused to write the file (its permissions, or a read-only file system)."""

    code = "database_read_only"

    def __init__(self) -> None:
        super().__init__(
            "state.db cannot be written (the file, its directory or its file system is read-only); "
            "nothing was written."
        )


class NotSupportedOnBackend(NotImplementedHere):
    """An operation that works on the SQLite file itself (VACUUM, backups, repair), asked of a server whose
    store is another database: nothing was done, and retrying cannot help on this server."""

    code = "not_supported_on_backend"
    example_args = _example(operation="A VACUUM", backend="postgresql")

    def __init__(self, operation: str, backend: str) -> None:
        name, tools = _ENGINE_TOOLS.get(backend, (backend, ""))
        super().__init__(
            f"{operation} works on the SQLite file state.db, and this server stores sessions in {name}: "
            f"nothing was done. Use {name}'s own tools for this{tools}.",
            operation=operation,
            backend=backend,
        )


# How a sentence names a backend and its own maintenance tools (``backend`` fields keep the identifier).
_ENGINE_TOOLS = {"postgresql": ("PostgreSQL", " (VACUUM, REINDEX, pg_dump)")}


class AgentFileReadOnly(ServiceUnavailable):
    """The agent's file holds objects we do not know (a build we were not written for): every write is
    refused, reads go on (no Retry-After: retrying cannot help while the file keeps that shape)."""

    code = "agent_file_read_only"
    example_args = _example(unknown="trigger messages_fts_projection_dirty_insert", version=31)

    def __init__(self, unknown: str, version: int | None) -> None:
        stamp = "no schema version" if version is None else f"agent schema {version}"
        super().__init__(
            f"state.db ({stamp}) has {unknown}, which this hermes-sessions does not know, so it is served "
            "read-only and nothing was written. Listing, reading, searching and exporting still work, and "
            "the agent itself can still write its sessions."
        )


class TooManyConnections(ServiceUnavailable):
    code = "server_busy"
    example_args = _example(limit=1000, retry_after_s=1)

    def __init__(self, limit: int, retry_after_s: int) -> None:
        super().__init__(f"The server has {limit} connections open, its limit; retry in {retry_after_s} s.")
        self.retry_after = retry_after_s


class TooManyBodies(ServiceUnavailable):
    code = "server_busy"
    example_args = _example(cap=41943040, retry_after_s=1)

    def __init__(self, cap: int, retry_after_s: int) -> None:
        super().__init__(
            f"The server is receiving too many request bodies at once (over {cap} bytes); "
            f"retry in {retry_after_s} s."
        )
        self.retry_after = retry_after_s


class StorageFull(InsufficientStorage):
    code = "storage_full"
    example_args = _example(disk_of="state.db")

    def __init__(self, disk_of: str, *, advice: str = "Free some space and retry.") -> None:
        super().__init__(f"The disk holding {disk_of} is full; nothing was written. {advice}")
