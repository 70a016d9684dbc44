"""The exception tree every layer raises; the HTTP layer renders it as problem+json.

HermesError
 ├── BadRequest            400  (invalid_cursor, invalid_json, ...)
 ├── Unauthorized          401  (unauthorized)
 ├── NotFound              404  (session_not_found, message_not_found, route_not_found, ...)
 ├── Conflict              409  (session_exists, title_in_use, ambiguous_session_ref,
 │                              backup_dir_unusable, attachments_dir_unusable, config_unreadable, ...)
 ├── PreconditionFailed    412  (precondition_failed)
 ├── PayloadTooLarge       413  (payload_too_large)
 ├── UnsupportedMediaType  415  (unsupported_media_type)
 ├── Unprocessable         422  (invalid_session_id, unknown_source, invalid_title, unknown_platform,
 │                              invalid_chat_type, ...)
 ├── DatabaseBusy          503  (database_busy, with Retry-After)
 ├── SchemaTooNew          503  (schema_too_new: a newer agent migrated state.db; served read-only)
 └── StorageFull           507  (storage_full)
"""

from __future__ import annotations

from typing import Any, ClassVar


class HermesError(Exception):
    """Base of every error the API reports; ``code`` is the stable machine-readable name."""

    status: ClassVar[int] = 500
    title: ClassVar[str] = "Internal Server Error"
    default_code: ClassVar[str] = "internal_error"

    def __init__(self, detail: str, *, code: str | None = None, **extra: Any) -> None:
        super().__init__(detail)
        self.detail = detail
        self.code = code or self.default_code
        self.extra = extra


class BadRequest(HermesError):
    status = 400
    title = "Bad Request"
    default_code = "bad_request"


class Unauthorized(HermesError):
    status = 401
    title = "Unauthorized"
    default_code = "unauthorized"


class NotFound(HermesError):
    status = 404
    title = "Not Found"
    default_code = "not_found"


class Conflict(HermesError):
    status = 409
    title = "Conflict"
    default_code = "conflict"


class PreconditionFailed(HermesError):
    status = 412
    title = "Precondition Failed"
    default_code = "precondition_failed"


class PayloadTooLarge(HermesError):
    status = 413
    title = "Content Too Large"
    default_code = "payload_too_large"


class UnsupportedMediaType(HermesError):
    status = 415
    title = "Unsupported Media Type"
    default_code = "unsupported_media_type"


class Unprocessable(HermesError):
    status = 422
    title = "Unprocessable Content"
    default_code = "validation_error"


class DatabaseBusy(HermesError):
    status = 503
    title = "Service Unavailable"
    default_code = "database_busy"

    def __init__(self, detail: str, *, retry_after: int = 1, **extra: Any) -> None:
        super().__init__(detail, **extra)
        self.retry_after = retry_after


class SchemaTooNew(HermesError):
    """A newer agent has migrated state.db past the newest schema we have tested: every write is refused
    (no Retry-After: retrying cannot help until hermes-sessions is upgraded)."""

    status = 503
    title = "Service Unavailable"
    default_code = "schema_too_new"


class StorageFull(HermesError):
    status = 507
    title = "Insufficient Storage"
    default_code = "storage_full"
