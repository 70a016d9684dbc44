"""Per-operation error documentation: each problem+json response names the stable ``code`` values its status
can carry for that operation, with one example body per code.

Routes compose their ``responses=`` from the shared tables below plus the codes their own service raises:
``error_responses(WRITE, JSON_BODY, {404: ("session_not_found",)})``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.api.problem import PROBLEM_MEDIA_TYPE, Problem
from app.errors import (
    BadRequest,
    Conflict,
    DatabaseBusy,
    NotFound,
    PayloadTooLarge,
    PreconditionFailed,
    StorageFull,
    Unauthorized,
    Unprocessable,
    UnsupportedMediaType,
)

Codes = Mapping[int, Sequence[str]]

_TITLES = {
    cls.status: cls.title
    for cls in (
        BadRequest,
        Unauthorized,
        NotFound,
        Conflict,
        PreconditionFailed,
        PayloadTooLarge,
        UnsupportedMediaType,
        Unprocessable,
        DatabaseBusy,
        StorageFull,
    )
}

# Statuses the edge answers before any route (no exception class of ours carries them).
_TITLES.update({408: "Request Timeout", 421: "Misdirected Request"})

_SUMMARIES = {
    400: "Bad request",
    401: "Missing or invalid bearer token",
    404: "Not found",
    408: "The request body stalled",
    409: "Conflict",
    412: "If-Match did not match the current ETag",
    413: "Request body too large",
    415: "Unsupported media type",
    421: "The Host header names a host this server does not answer for",
    422: "Validation failed",
    503: "Service unavailable (nothing was written)",
    507: "Disk full; nothing was written",
}

# One sentence a client might see for each code: the ``detail`` of its example body.
DETAILS: dict[str, str] = {
    "invalid_json": "The request body is not valid JSON: unexpected character at line 1 column 2.",
    "body_not_object": "The request body must be a JSON object.",
    "invalid_cursor": "The cursor is malformed or belongs to another listing; use next_cursor from the "
    "previous page.",
    "invalid_last_event_id": "Last-Event-ID must be an event id (an integer 0 .. 2^63-1), not 'abc'.",
    "invalid_resolve_query": "Give either ref or latest=true (not both).",
    "invalid_idempotency_key": "Idempotency-Key must be 1-255 printable characters.",
    "missing_file": "The multipart body has no file in its `file` field.",
    "http_error": "There was an error parsing the body",
    "unauthorized": "Invalid bearer token.",
    "session_not_found": "Session not found: 20260105_101500_a1b2c3",
    "message_not_found": "Message 42 not found in session 20260105_101500_a1b2c3.",
    "message_not_in_session": "Message 42 is not in session 20260105_101500_a1b2c3.",
    "attachment_not_found": "Attachment not found: 9f86d081884c7d65",
    "session_exists": "Session already exists: 20260105_101500_a1b2c3",
    "title_in_use": "Title 'Refactor the search ranking' is already in use by session "
    "20260104_090000_d4e5f6.",
    "ambiguous_session_ref": "'2026' matches several sessions; give more of the id.",
    "session_ended": "Session 20260105_101500_a1b2c3 has ended; reopen it first.",
    "request_in_flight": "A request with this Idempotency-Key is still being processed; retry shortly.",
    "attachments_dir_unusable": "The attachments directory is not a directory inside HERMES_HOME.",
    "backup_dir_unusable": "The backups directory is not a directory inside HERMES_HOME.",
    "maintenance_busy": "Another VACUUM, backup or repair is running in this server; retry when it ends.",
    "platform_not_enabled": "Platform 'telegram' is not enabled for handoff.",
    "no_home_channel": "Platform 'telegram' has no home channel: run /sethome in the destination chat.",
    "agent_busy": "Agent is busy. Wait for the current turn to finish, then retry /handoff.",
    "handoff_in_flight": "A handoff of this session is already pending or running.",
    "handoff_state_changed": "The handoff is no longer running (it is completed).",
    "anchor_in_current_lineage": "The anchor message is in the caller's own live lineage.",
    "precondition_failed": "If-Match does not match the session's current ETag.",
    "payload_too_large": "The request body exceeds the configured limit of 10485760 bytes.",
    "unsupported_media_type": "Send JSONL (application/jsonl) or a multipart/form-data upload, not text/csv.",
    "validation_error": "Invalid value at body.role: Input should be 'system', 'user', 'assistant' or 'tool'",
    "invalid_text": "Invalid value at body.content: text contains a NUL character",
    "json_too_deep": "Invalid value at body.content.a.a.a.a.a.a...: nested deeper than 128 levels",
    "integer_out_of_range": "Invalid value at body.token_count: integer beyond -2^63 .. 2^63-1",
    "number_not_finite": "Invalid value at body.estimated_cost_usd: NaN and Infinity are not JSON numbers",
    "invalid_session_id": "A session id must be 1-256 characters with no '/' and no '..'.",
    "unknown_source": "Unknown source 'fax'. Known sources: cli, telegram, discord, ...",
    "parent_not_found": "Parent session not found: 20260101_000000_000000",
    "title_too_long": "Title is too long (123 characters, at most 100).",
    "invalid_title": "Title is empty after cleanup. Please use printable characters.",
    "unknown_attachment": "Unknown attachment id: 9f86d081884c7d65",
    "idempotency_key_reused": "This Idempotency-Key was used with a different request.",
    "conflicting_parameters": "Use either after or before, not both.",
    "not_a_user_message": "Message 43 is not a user message; rewind to a user message.",
    "invalid_role": "Unknown role(s): robot; use assistant, system, tool, user",
    "invalid_duration": "Invalid value for older_than: '3 fortnights'. Use a duration like '5h', '30m', "
    "'2d', '1w', a bare number of days, or an ISO timestamp like '2026-07-05' or '2026-07-05 14:30'.",
    "empty_time_window": "Empty time window: the after/newer_than bound (2026-07-05 14:30 UTC) is not "
    "earlier than the before/older_than bound (2026-07-01 00:00 UTC).",
    "filter_required": "Refusing to archive every ended session: give at least one filter (for example "
    "newer_than, source or title).",
    "lineage_needs_session_id": "lineage=true exports one logical session: give its session_id.",
    "lineage_not_available": "lineage=logical is available with format=jsonl (not redacted) or one file per "
    "session (format=md or qmd, layout=files).",
    "only_not_available": "only=user-prompts is available with format=jsonl or md.",
    "layout_not_available": "format=qmd is written one file per session: use layout=files.",
    "unknown_platform": "Unknown platform 'fax'.",
    "invalid_chat_type": "Unknown chat type 'room'; use one of dm, group, channel, thread.",
    "route_not_found": "No routed chat has the session key 'agent:main:telegram:dm:123456789'.",
    "config_unreadable": "gateway.json exists but is not a readable mapping; fix it by hand before changing "
    "the gateway configuration (rewriting it would lose its contents).",
    "invalid_only_states": "only_states may name pending and running only.",
    "database_busy": "The database is locked by another process; retry after 1 second.",
    "schema_too_new": "state.db was migrated by a newer agent (schema 9); writes are refused until "
    "hermes-sessions is upgraded.",
    "storage_full": "The disk is full; nothing was written.",
    "host_not_allowed": "This server does not answer for host 'evil.example'; add it to HERMES_ALLOWED_HOSTS "
    "if it is yours.",
    "server_busy": "Too many request bodies are being received at once; retry after 1 second.",
    "request_timeout": "The request body stalled for more than 30 seconds.",
}

# Every operation behind the bearer token, reading only (the edge's host guard and connection cap included).
READ: Codes = {
    401: ("unauthorized",),
    413: ("payload_too_large",),
    421: ("host_not_allowed",),
    422: ("validation_error",),
    503: ("database_busy", "server_busy"),
}
# Every operation that writes (a file a newer agent migrated is served read-only).
WRITE: Codes = {**READ, 503: ("database_busy", "server_busy", "schema_too_new"), 507: ("storage_full",)}
# Every operation with a JSON request body (the JSON policy, the body model, and the edge's body limits).
JSON_BODY: Codes = {
    400: ("invalid_json", "body_not_object"),
    408: ("request_timeout",),
    415: ("unsupported_media_type",),
    422: ("invalid_text", "json_too_deep", "integer_out_of_range", "number_not_finite"),
    503: ("server_busy",),
}
# Operations that honour ``Idempotency-Key``.
IDEMPOTENT: Codes = {
    400: ("invalid_idempotency_key",),
    409: ("request_in_flight",),
    422: ("idempotency_key_reused",),
}
# Operations that take an If-Match header.
IF_MATCH: Codes = {412: ("precondition_failed",)}


def _example(status: int, code: str) -> dict[str, Any]:
    body: dict[str, Any] = {
        "type": "about:blank",
        "title": _TITLES.get(status, "Error"),
        "status": status,
        "detail": DETAILS.get(code, ""),
        "code": code,
        "request_id": "01JH2Z8Q5V6X3YF4N7C9B2K1MD",
    }
    if code == "validation_error":
        body["errors"] = [
            {
                "loc": ["body", "role"],
                "msg": "Input should be 'system', 'user', 'assistant' or 'tool'",
                "type": "literal_error",
            }
        ]
    return body


def _merge(tables: Sequence[Codes]) -> dict[int, list[str]]:
    merged: dict[int, list[str]] = {}
    for table in tables:
        for status, codes in table.items():
            listed = merged.setdefault(status, [])
            listed.extend(code for code in codes if code not in listed)
    return merged


def error_responses(*tables: Codes) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses=`` entries for problem+json bodies: for each status in ``tables`` (merged in
    order), a description naming its codes and one named example body per code."""
    responses: dict[int | str, dict[str, Any]] = {}
    for status, codes in sorted(_merge(tables).items()):
        listed = ", ".join(f"`{code}`" for code in codes)
        media = {
            "schema": {"$ref": "#/components/schemas/Problem"},
            "examples": {code: {"summary": code, "value": _example(status, code)} for code in codes},
        }
        # ``model`` registers the Problem schema; FastAPI then also lists it as application/json, so that
        # entry carries the same examples.
        responses[status] = {
            "model": Problem,
            "description": f"{_SUMMARIES.get(status, 'Error')}. Codes: {listed}.",
            "content": {PROBLEM_MEDIA_TYPE: media, "application/json": media},
        }
    return responses
