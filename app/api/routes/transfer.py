"""Transfer endpoints: streamed JSONL export and import (docs/api.md, "Export and prune")."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from typing import IO, Annotated, Any, cast
from urllib.parse import quote

from fastapi import Depends, Query, Request
from fastapi.responses import StreamingResponse
from starlette.datastructures import UploadFile

from app.api.deps import DB, AppSettings, Indexer, Titler
from app.api.error_docs import READ, WRITE
from app.api.operations import api_router, operation
from app.api.schemas import examples as ex
from app.api.schemas.transfer import ExportQuery, ImportResult
from app.domain import json_policy
from app.errors import (
    EmptyImport,
    EmptyTimeWindow,
    FilesLayoutNotAvailable,
    ImportWouldOverwrite,
    InvalidDuration,
    LineageNeedsSessionId,
    LineageNotAvailable,
    MissingFile,
    OnlyNotAvailable,
    QmdNeedsFilesLayout,
    SessionNotFound,
    UnsupportedBodyType,
)
from app.services import export as export_service
from app.services import export_readable as readable
from app.services import transfer as service
from app.services.export import ExportFilter
from app.services.fts_indexer import FtsIndexer
from app.services.titling.worker import AutoTitler

router = api_router("transfer")

JSONL_MEDIA_TYPE = "application/jsonl"
_RAW_TYPES = {
    "application/jsonl",
    "application/x-ndjson",
    "application/json",
    "text/plain",
    "application/octet-stream",
}
# Request bodies spill to disk past this size, so a large upload never sits in memory.
_SPOOL_BYTES = 1024 * 1024

OnConflictQuery = Annotated[
    service.OnConflict,
    Query(description="an id that already exists: skip that session, replace it, or refuse the whole file"),
]
SourceQuery = Annotated[str | None, Query(description="only sessions of this source")]
SessionIdQuery = Annotated[str | None, Query(description="only this session (404 if missing)")]
SinceQuery = Annotated[
    float | None,
    Query(
        ge=json_policy.MIN_TIMESTAMP,
        le=json_policy.MAX_TIMESTAMP,
        description="only sessions active (last message, else start) at or after this epoch time",
    ),
]
DryRunQuery = Annotated[bool, Query(description="validate and count without writing anything")]
WaitForIndexQuery = Annotated[
    bool,
    Query(
        description="answer only once the imported messages are in the full-text indexes (an import of "
        "over 1,000 messages or 200 sessions is otherwise indexed in the background after the answer; "
        "see `index_pending`)"
    ),
]

TitleUntitledQuery = Annotated[
    bool,
    Query(
        description="give the imported sessions that have no title an automatic one, as a live session "
        "gets after its first exchange (when automatic titles are on); by default imported history keeps "
        "the titles it came with"
    ),
]


@dataclass(frozen=True)
class ImportOptions:
    """The query parameters both imports take."""

    on_conflict: service.OnConflict
    dry_run: bool
    wait_for_index: bool
    title_untitled: bool

    def run(self, indexer: FtsIndexer, titler: AutoTitler) -> service.ImportRun:
        """The import these options ask for, with the server's indexer and titler."""
        titled = titler if self.title_untitled else None
        return service.ImportRun(self.on_conflict, self.dry_run, indexer, self.wait_for_index, titled)


def _import_options(
    on_conflict: OnConflictQuery = "skip",
    dry_run: DryRunQuery = False,
    wait_for_index: WaitForIndexQuery = False,
    title_untitled: TitleUntitledQuery = False,
) -> ImportOptions:
    return ImportOptions(on_conflict, dry_run, wait_for_index, title_untitled)


ImportOptionsQuery = Annotated[ImportOptions, Depends(_import_options)]

_IMPORT_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "description": "One session per line, as `GET /export.jsonl` or `hermes sessions export` write them; "
        "either the raw file or a multipart upload with the file in the `file` field. The example of "
        "`GET /export.jsonl` shows a line (none here: the fuzzer that sends every example cannot encode "
        "these media types).",
        "content": {
            JSONL_MEDIA_TYPE: {"schema": {"type": "string", "format": "binary"}},
            "application/x-ndjson": {"schema": {"type": "string", "format": "binary"}},
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "required": ["file"],
                    "properties": {"file": {"type": "string", "format": "binary"}},
                }
            },
        },
    }
}


@router.get(
    "/export.jsonl",
    **operation(
        "export-sessions",
        "Export sessions as JSONL (streamed)",
        None,
        READ,
        SessionNotFound,
        LineageNeedsSessionId,
        ok={
            200: {
                "description": "One session per line: every session column, `last_active`, and `messages` "
                "(active messages, `tool_calls` decoded, `model_config` kept as the agent's JSON string). "
                "UTF-8, non-ASCII unescaped. Sessions in id order.",
                "content": {JSONL_MEDIA_TYPE: {"schema": {"type": "string"}, "example": ex.EXPORT_LINE}},
            }
        },
        description="One session per line, in the line format of `hermes sessions export` (the agent's "
        "`export_all`). With `lineage=true` and a `session_id`, one line for the whole logical session "
        "instead (the agent's `export_session_lineage`, `hermes sessions export --lineage logical`): the "
        "compression tip's columns with `message_count` = every active message of the lineage, `messages` = "
        "all segments' messages root → tip, `segments` = each compression segment (its columns and messages) "
        "and `lineage_session_ids` root → tip.\n\n"
        "A stored value the encoder cannot take (structured `content` or `tool_calls` nested deeper than 200 "
        "levels, an integer beyond 64 bits, a lone surrogate) is written as its stored text, a JSON string. "
        "A value no JSON can hold (a BLOB, TEXT that is not UTF-8) leaves its message, or its whole session "
        "when it is in the session row, out; every other session is written, and the stream then ends with "
        'one error record line `{"_export_error": {"detail": str, "stopped_early": bool, '
        '"sessions_skipped": [{"session_id", "column", "reason"}], "messages_skipped": [{"session_id", '
        '"message_id", "column", "reason"}]}}` (`reason`: `binary_value` or `invalid_utf8`; at most 1,000 '
        "entries each). An export that cannot go on ends with the same record, `stopped_early: true`. "
        "`POST /import` reports that line (`export_incomplete`) and does not import it.",
        response_class=StreamingResponse,
    ),
)
async def export_sessions(
    db: DB,
    source: SourceQuery = None,
    session_id: SessionIdQuery = None,
    since: SinceQuery = None,
    lineage: Annotated[
        bool,
        Query(
            description="export the compression lineage through `session_id` as one logical session "
            "(requires `session_id`; `source` and `since` do not apply)"
        ),
    ] = False,
) -> StreamingResponse:
    """Stream the export with constant memory, one short read transaction per chunk."""
    if lineage and session_id is None:
        raise LineageNeedsSessionId("lineage=true")
    await export_service.check_export_target(db, session_id)
    if lineage and session_id is not None:
        body = export_service.export_lineage_jsonl(db, session_id)
    else:
        body = export_service.export_jsonl(
            db, ExportFilter(source=source, session_id=session_id, since=since)
        )
    return StreamingResponse(
        body,
        media_type=JSONL_MEDIA_TYPE,
        headers={"Content-Disposition": 'attachment; filename="hermes-sessions.jsonl"'},
    )


_FORMAT_DESCRIPTION = (
    "`jsonl` (default): the line format of `GET /export.jsonl`, byte for byte. `md`: one Markdown document "
    "(the agent's `render_sessions_export`), or with `layout=files` one verified file per session (the "
    "agent's `hermes sessions export --format md` files: front matter, messages, and a closing SHA-256 of "
    "the file). `qmd`: the same files for Quarto. `html`: one self-contained page, a sidebar when there are "
    "several sessions. `trace`: Claude Code JSONL traces (the Hugging Face agent trace viewer's format), one "
    "line per turn, sessions one after another."
)

_EXPORT_DESCRIPTION = (
    "Every format streams with constant memory: sessions and their messages are read a page at "
    "a time, each page in its own short read transaction. Besides `source`, `session_id` and `since` (those "
    "of `GET /export.jsonl`), the filter set of `GET /sessions` (`older_than` ... `max_tool_calls`, "
    "`workspace`, `profile`) and its `status` select the sessions, with the listing's semantics: each "
    "stored row is judged on its own, as the listing does with `include_children=true`, and archived "
    "sessions are exported too. "
    + _FORMAT_DESCRIPTION
    + "\n\n`only=user-prompts` keeps the user prompts alone: one record per line with `format=jsonl` "
    "(`session_id, index, created_at, role, text, message_id, event_id`), numbered sections with "
    "`format=md`. "
    "`redact=true` masks secrets (API keys, bearer and other tokens, private keys, passwords in connection "
    "strings, JWTs, phone numbers) as the agent's `--redact` does, and beyond it: any URL's password, secret "
    "query parameters, `key = value` of any case, JSON members by a secret-like name (tool-call arguments, "
    "`reasoning_details`, `model_config`), in every message and in the session's own text (title, model, "
    "system prompt, cwd, branch); it is on by default for `trace` and off otherwise, as in the agent. "
    "With `layout=files` and a `session_id`, the answer is that "
    "session's file: `Content-Disposition` names it as the agent would, `X-Hermes-Message-Count` is the "
    "number of messages it holds and `X-Hermes-Lineage-Session-Ids` the segments it covers (space-separated, "
    "root to tip; `lineage=logical` exports the whole compression lineage as one file)."
)


@router.get(
    "/export",
    **operation(
        "export-sessions-formatted",
        "Export sessions as JSONL, Markdown, Quarto, HTML or traces (streamed)",
        None,
        READ,
        SessionNotFound,
        LineageNeedsSessionId,
        LineageNotAvailable,
        OnlyNotAvailable,
        FilesLayoutNotAvailable,
        QmdNeedsFilesLayout,
        InvalidDuration,
        EmptyTimeWindow,
        ok={
            200: {
                "description": "The export in the asked format.",
                "content": {
                    readable.MEDIA_TYPES["jsonl"]: {"schema": {"type": "string"}, "example": ex.EXPORT_LINE},
                    "text/markdown": {"schema": {"type": "string"}},
                    "text/html": {"schema": {"type": "string"}},
                    readable.MEDIA_TYPES["trace"]: {"schema": {"type": "string"}},
                },
            }
        },
        description=_EXPORT_DESCRIPTION,
        response_class=StreamingResponse,
    ),
)
async def export_formatted(db: DB, params: Annotated[ExportQuery, Query()]) -> StreamingResponse:
    """Stream the export in the asked format with constant memory."""
    req = readable.checked(
        readable.ExportRequest(
            params.format, params.only, params.redact, params.layout, params.lineage, params.export_filter()
        )
    )
    session_id, lineage = params.session_id, params.lineage
    await export_service.check_export_target(db, session_id)
    headers = {"Content-Disposition": f'attachment; filename="{readable.download_name(req)}"'}
    if req.plain_jsonl:
        body = (
            export_service.export_lineage_jsonl(db, session_id)
            if lineage == "logical" and session_id is not None
            else export_service.export_jsonl(db, req.flt)
        )
    elif req.layout == "files" and session_id is not None:
        plan = await readable.plan_file(db, session_id, lineage == "logical")
        name = plan.name(req.fmt, redact=bool(req.redact))
        headers = {
            "Content-Disposition": f"attachment; filename*=UTF-8''{quote(name)}",
            "X-Hermes-Message-Count": str(plan.total),
            "X-Hermes-Lineage-Session-Ids": " ".join(plan.segments),
        }
        body = readable.session_file(db, plan, req.fmt, bool(req.redact))
    else:
        body = readable.export_readable(db, req)
    return StreamingResponse(body, media_type=readable.MEDIA_TYPES[req.fmt], headers=headers)


async def _body_file(request: Request) -> IO[bytes]:
    content_type = request.headers.get("content-type", JSONL_MEDIA_TYPE).split(";")[0].strip().lower()
    if content_type == "multipart/form-data":
        form = await request.form()
        upload = form.get("file")
        if not isinstance(upload, UploadFile):
            raise MissingFile()
        if not upload.size:
            raise EmptyImport()
        await upload.seek(0)
        return cast(IO[bytes], upload.file)
    if content_type not in _RAW_TYPES:
        raise UnsupportedBodyType(f"JSONL ({JSONL_MEDIA_TYPE}) or a multipart/form-data upload", content_type)
    spool = tempfile.SpooledTemporaryFile(max_size=_SPOOL_BYTES)  # noqa: SIM115 - returned to the caller
    async for chunk in request.stream():
        spool.write(chunk)
    if not spool.tell():
        spool.close()
        raise EmptyImport()
    spool.seek(0)
    return cast(IO[bytes], spool)


@router.post(
    "/import",
    **operation(
        "import-sessions",
        "Import sessions from JSONL",
        ImportResult,
        WRITE,
        MissingFile,
        EmptyImport,
        ImportWouldOverwrite,
        UnsupportedBodyType,
        openapi_extra=_IMPORT_BODY,
    ),
)
async def import_sessions(
    request: Request,
    db: DB,
    indexer: Indexer,
    titler: Titler,
    options: ImportOptionsQuery,
) -> dict[str, Any]:
    """Import an export file; bad lines are reported by number and none of their session is written."""
    stream = await _body_file(request)
    try:
        report = await service.import_stream(db, stream, options.run(indexer, titler))
    finally:
        stream.close()
    return report.as_dict()


@router.post(
    "/import/transcripts",
    **operation(
        "import-transcripts",
        "Import legacy per-session transcript files",
        ImportResult,
        WRITE,
        ImportWouldOverwrite,
    ),
)
async def import_transcripts(
    db: DB,
    settings: AppSettings,
    indexer: Indexer,
    titler: Titler,
    options: ImportOptionsQuery,
) -> dict[str, Any]:
    """Import `$HERMES_HOME/sessions/<id>.jsonl` files (one message per line) as sessions named by file.
    Only regular files inside `$HERMES_HOME` are read; any other entry is skipped and reported in `errors`
    (`outside_home`: it, or `sessions` itself, resolves outside `$HERMES_HOME`; `not_a_regular_file`: a
    directory, FIFO, device or dangling link)."""
    report = await service.import_transcripts(
        db, settings.home, settings.sessions_dir, options.run(indexer, titler)
    )
    return report.as_dict()
