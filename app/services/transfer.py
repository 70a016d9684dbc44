"""Import of JSONL (the agent's ``hermes sessions export`` line format) and legacy transcripts.

Import parses on a worker thread and writes a group of sessions per
writer job, each session inside its own SAVEPOINT: a bad line is reported by number and nothing of that
session is written, while the other lines go in.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import IO, Any, Literal

import orjson

from app.domain.id_runs import Run, overlap
from app.domain.text import find_invalid_char
from app.errors import Conflict
from app.services.fts_indexer import FtsIndexer
from app.storage.database import Database
from app.storage.repos import fts_backlog as backlog
from app.storage.repos import sessions as session_repo
from app.storage.repos import transfer as repo

OnConflict = Literal["skip", "replace", "fail"]

# A writer job carries about this many messages (or sessions): big enough to amortise the commit, small
# enough that live appends queued behind it wait only milliseconds.
IMPORT_BATCH_MESSAGES = 4000
IMPORT_BATCH_SESSIONS = 200
# An import no bigger than this (one writer job) is indexed inline; bigger ones defer to the indexer.
INLINE_INDEX_MESSAGES = 1000
MAX_REPORTED_ERRORS = 100


@dataclass
class ImportIssue:
    """Why one line (or transcript file) was not imported."""

    code: str
    detail: str
    line: int | None = None
    file: str | None = None
    session_id: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """JSON shape, without the keys that do not apply."""
        out = {"line": self.line, "file": self.file, "session_id": self.session_id}
        return {**{k: v for k, v in out.items() if v is not None}, "code": self.code, "detail": self.detail}


@dataclass
class _Record:
    ref: dict[str, Any]
    raw: dict[str, Any] | None = None
    issue: ImportIssue | None = None


@dataclass
class _Prepared:
    ref: dict[str, Any]
    session_id: str
    session: dict[str, Any]
    # session_id then the layout's columns, preceded by the line's message id when message_ids is set.
    rows: list[list[Any]]
    message_ids: list[int] | None
    parent_id: str | None


@dataclass
class _Batch:
    """What the parser thread hands the writer: sessions to write, and the lines it could not use."""

    items: list[_Prepared] = field(default_factory=list)
    issues: list[ImportIssue] = field(default_factory=list)
    lines: int = 0
    messages: int = 0
    eof: bool = False


@dataclass
class ImportReport:
    """Counts and issues of one import."""

    dry_run: bool
    on_conflict: str
    lines: int = 0
    imported: int = 0
    replaced: int = 0
    skipped: int = 0
    failed: int = 0
    messages: int = 0
    linked: int = 0
    detached: int = 0
    message_ids_kept: int = 0
    index_pending: int = 0
    errors: list[ImportIssue] = field(default_factory=list)

    def add_issue(self, issue: ImportIssue) -> None:
        """Count a failed line; keep the first few for the response."""
        self.failed += 1
        if len(self.errors) < MAX_REPORTED_ERRORS:
            self.errors.append(issue)

    def as_dict(self) -> dict[str, Any]:
        """The response body."""
        return {
            "dry_run": self.dry_run,
            "on_conflict": self.on_conflict,
            "lines": self.lines,
            "imported": self.imported,
            "replaced": self.replaced,
            "skipped": self.skipped,
            "failed": self.failed,
            "messages": self.messages,
            "linked": self.linked,
            "detached": self.detached,
            "message_ids_kept": self.message_ids_kept,
            "index_pending": self.index_pending,
            "errors": [e.as_dict() for e in self.errors],
            "errors_truncated": self.failed > len(self.errors),
        }


def _is_title_conflict(exc: sqlite3.Error) -> bool:
    # The agent keeps titles unique (a partial unique index); another session already has this one.
    return isinstance(exc, sqlite3.IntegrityError) and "title" in str(exc)


class _DryRun(Exception):
    """Raised at the end of a dry-run writer job so everything it did rolls back."""

    def __init__(self, outcome: Any) -> None:
        super().__init__("dry run")
        self.outcome = outcome


def _has_bad_text(value: Any) -> str | None:
    if isinstance(value, str):
        return find_invalid_char(value)
    if isinstance(value, dict):
        for k, v in value.items():
            problem = _has_bad_text(k) or _has_bad_text(v)
            if problem:
                return problem
    elif isinstance(value, list):
        for item in value:
            problem = _has_bad_text(item)
            if problem:
                return problem
    return None


def iter_jsonl(stream: IO[bytes]) -> Iterator[_Record]:
    """One record per non-blank line of a JSONL file (the agent's export or ours)."""
    for number, line in enumerate(stream, start=1):
        if not line.strip():
            continue
        ref = {"line": number}
        try:
            raw = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            yield _Record(ref, issue=ImportIssue("invalid_json", f"not valid JSON: {exc}", line=number))
            continue
        if not isinstance(raw, dict):
            yield _Record(
                ref, issue=ImportIssue("invalid_line", "each line must be one session object", line=number)
            )
            continue
        # JSON can spell NUL only as an escape, so the scan runs only for lines that contain one.
        if b"\\u0000" in line:
            problem = _has_bad_text(raw)
            if problem:
                sid = raw.get("id") if isinstance(raw.get("id"), str) else None
                yield _Record(
                    ref, issue=ImportIssue("invalid_text", f"text contains {problem}", number, None, sid)
                )
                continue
        yield _Record(ref, raw=raw)


def _timestamp(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value).timestamp()
        except ValueError:
            return None
    return None


def iter_transcripts(sessions_dir: Path) -> Iterator[_Record]:
    """Legacy ``$HERMES_HOME/sessions/<id>.jsonl`` transcripts (one message dict per line) as sessions.

    The first ``session_meta`` row (written by the gateway) gives the platform and model; it is kept as a
    message, as the gateway stores it in state.db too. ISO timestamps from old versions become epoch seconds.
    """
    if not sessions_dir.is_dir():
        return
    for path in sorted(sessions_dir.glob("*.jsonl")):
        ref = {"file": path.name}
        messages: list[dict[str, Any]] = []
        issue: ImportIssue | None = None
        with path.open("rb") as fh:
            for number, line in enumerate(fh, start=1):
                if not line.strip():
                    continue
                try:
                    msg = orjson.loads(line)
                except orjson.JSONDecodeError as exc:
                    issue = ImportIssue(
                        "invalid_json", f"not valid JSON: {exc}", number, path.name, path.stem
                    )
                    break
                if not isinstance(msg, dict):
                    issue = ImportIssue(
                        "invalid_line", "each line must be a message object", number, path.name
                    )
                    break
                ts = _timestamp(msg.get("timestamp"))
                msg["timestamp"] = ts
                messages.append(msg)
        if issue is not None:
            yield _Record(ref, issue=issue)
            continue
        meta = next((m for m in messages if m.get("role") == "session_meta"), {})
        stamps = [m["timestamp"] for m in messages if m.get("timestamp") is not None]
        raw: dict[str, Any] = {
            "id": path.stem,
            "source": meta.get("platform") or "import",
            "model": meta.get("model") if isinstance(meta.get("model"), str) else None,
            "started_at": min(stamps) if stamps else path.stat().st_mtime,
            "ended_at": max(stamps) if stamps else path.stat().st_mtime,
            "messages": [{k: v for k, v in m.items() if k != "tools"} for m in messages],
        }
        yield _Record(ref, raw=raw)


def _prepare(
    record: _Record, session_cols: dict[str, str], layout: repo.MessageLayout, now: float
) -> _Prepared | ImportIssue:
    assert record.raw is not None
    raw = record.raw
    line, file = record.ref.get("line"), record.ref.get("file")
    sid = raw.get("id")
    if not isinstance(sid, str) or not sid.strip():
        return ImportIssue("invalid_session", "session id is required", line, file)
    sid = sid.strip()
    messages = raw.get("messages") or []
    if not isinstance(messages, list) or any(not isinstance(m, dict) for m in messages):
        return ImportIssue("invalid_session", "messages must be a list of objects", line, file, sid)
    parent = raw.get("parent_session_id")
    if parent is not None and not isinstance(parent, str):
        return ImportIssue("invalid_session", "parent_session_id must be a string", line, file, sid)
    try:
        session = repo.session_values(raw, session_cols, now)
        session["id"] = sid
        default_ts = session["started_at"]
        values = [layout.row(m, i, default_ts) for i, m in enumerate(messages)]
    except repo.RowError as exc:
        return ImportIssue("invalid_session", str(exc), line, file, sid)
    # Counters come from the line when it has them (the agent's export does), else from its messages.
    session.setdefault("message_count", len(messages))
    if "tool_call_count" not in session:
        session["tool_call_count"] = sum(repo.tool_call_count(m.get("tool_calls")) for m in messages)
    ids = [m.get("id") for m in messages]
    keep = all(isinstance(i, int) and not isinstance(i, bool) and 0 < i <= repo.INT64_MAX for i in ids)
    if keep:
        kept_ids: list[int] | None = [int(i) for i in ids if isinstance(i, int)]
        rows = [[mid, sid, *row] for mid, row in zip(ids, values, strict=True)]
    else:
        kept_ids, rows = None, [[sid, *row] for row in values]
    return _Prepared(record.ref, sid, session, rows, kept_ids, parent or None)


@dataclass
class _Outcome:
    kind: Literal["imported", "replaced", "skipped", "failed"]
    prepared: _Prepared
    linked: bool = False
    deferred: bool = False
    ids_kept: bool = False
    issue: ImportIssue | None = None


class Importer:
    """One import run: the next batch is parsed on a worker thread while the writer stores the current one.

    Indexing: an import that fits in one writer job of at most :data:`INLINE_INDEX_MESSAGES` messages indexes
    them in that job, so it is search-ready when acknowledged. A bigger one stores its rows with the FTS
    insert triggers suspended and queues their ids for the background indexer (``hs_fts_backlog``, in the
    same transaction), because the two FTS indexes cost several times the rest of the import.
    """

    def __init__(
        self, db: Database, on_conflict: OnConflict, dry_run: bool, indexer: FtsIndexer | None = None
    ) -> None:
        self.db = db
        self.on_conflict = on_conflict
        self.dry_run = dry_run
        self.indexer = indexer
        self.report = ImportReport(dry_run=dry_run, on_conflict=on_conflict)
        self._pending_parents: dict[str, str] = {}
        self._imported: set[str] = set()
        self.queued: list[Run] = []
        self._message_columns: list[str] = []

    async def run(self, records: Iterator[_Record]) -> ImportReport:
        """Import everything ``records`` yields; returns the report."""
        session_cols, message_cols, defaults = await self.db.read(
            lambda conn: (
                repo.table_columns(conn, "sessions"),
                repo.table_columns(conn, "messages"),
                repo.message_defaults(conn),
            )
        )
        layout = repo.MessageLayout(message_cols, defaults)
        self._message_columns = layout.names
        now = time.time()

        def next_batch() -> _Batch:
            batch = _Batch()
            for record in records:
                batch.lines += 1
                if record.issue is not None:
                    batch.issues.append(record.issue)
                    continue
                prepared = _prepare(record, session_cols, layout, now)
                if isinstance(prepared, ImportIssue):
                    batch.issues.append(prepared)
                    continue
                batch.items.append(prepared)
                batch.messages += len(prepared.rows)
                if batch.messages >= IMPORT_BATCH_MESSAGES or len(batch.items) >= IMPORT_BATCH_SESSIONS:
                    return batch
            batch.eof = True
            return batch

        # The next batch is parsed on a worker thread while the writer stores the current one.
        parsing: asyncio.Future[_Batch] | None = asyncio.ensure_future(asyncio.to_thread(next_batch))
        first = True
        try:
            while parsing is not None:
                batch = await parsing
                parsing = None if batch.eof else asyncio.ensure_future(asyncio.to_thread(next_batch))
                self.report.lines += batch.lines
                for issue in batch.issues:
                    self.report.add_issue(issue)
                if batch.items:
                    inline = first and batch.eof and batch.messages <= INLINE_INDEX_MESSAGES
                    for outcome in await self._write(batch.items, inline):
                        self._count(outcome)
                first = False
        finally:
            if parsing is not None:  # a write failed: let the parser finish before the stream is closed
                with contextlib.suppress(Exception):
                    await parsing
        await self._resolve_pending()
        if self.queued and self.indexer is not None:
            self.indexer.wake()
        return self.report

    def _count(self, outcome: _Outcome) -> None:
        prepared = outcome.prepared
        if outcome.kind == "failed":
            assert outcome.issue is not None
            self.report.add_issue(outcome.issue)
            return
        if outcome.kind == "skipped":
            self.report.skipped += 1
            return
        setattr(self.report, outcome.kind, getattr(self.report, outcome.kind) + 1)
        self.report.messages += len(prepared.rows)
        self.report.message_ids_kept += len(prepared.rows) if outcome.ids_kept else 0
        self.report.linked += outcome.linked
        self._imported.add(prepared.session_id)
        if outcome.deferred and prepared.parent_id is not None:
            self._pending_parents[prepared.session_id] = prepared.parent_id

    def _import_one(self, conn: sqlite3.Connection, item: _Prepared, message_columns: list[str]) -> _Outcome:
        exists = session_repo.session_exists(conn, item.session_id)
        if exists and self.on_conflict != "replace":
            if self.on_conflict == "fail":
                issue = ImportIssue(
                    "session_exists", "a session with this id already exists", session_id=item.session_id
                )
                issue.line, issue.file = item.ref.get("line"), item.ref.get("file")
                return _Outcome("failed", item, issue=issue)
            return _Outcome("skipped", item)
        kept = repo.insert_session(
            conn, dict(item.session), message_columns, item.rows, item.message_ids, replace=exists
        )
        linked = deferred = False
        if item.parent_id is not None:
            linked = repo.link_parent(conn, item.session_id, item.parent_id)
            deferred = not linked
        elif exists:
            conn.execute("UPDATE sessions SET parent_session_id = NULL WHERE id = ?", (item.session_id,))
        return _Outcome("replaced" if exists else "imported", item, linked, deferred, kept)

    async def _write(self, batch: list[_Prepared], inline: bool) -> list[_Outcome]:
        message_columns = self._message_columns

        def job(conn: sqlite3.Connection) -> tuple[list[_Outcome], list[Run]]:
            outcomes: list[_Outcome] = []
            queued: list[Run] = []
            suspended = repo.suspend_fts_insert_triggers(conn)
            try:
                for item in batch:
                    conn.execute("SAVEPOINT import_session")
                    try:
                        outcome = self._import_one(conn, item, message_columns)
                    except sqlite3.Error as exc:
                        if not conn.in_transaction:
                            raise  # the whole transaction is gone (disk full, I/O): the writer reports it
                        conn.execute("ROLLBACK TO import_session")
                        ref = item.ref
                        code = "title_in_use" if _is_title_conflict(exc) else "write_failed"
                        issue = ImportIssue(code, str(exc), ref.get("line"), ref.get("file"), item.session_id)
                        outcome = _Outcome("failed", item, issue=issue)
                    conn.execute("RELEASE import_session")
                    outcomes.append(outcome)
                written = [o.prepared.session_id for o in outcomes if o.kind in ("imported", "replaced")]
                if suspended and written and not self.dry_run:
                    if inline:
                        repo.index_sessions(conn, [table for _, table, _ in suspended], written)
                    else:
                        queued = backlog.imported_runs(conn, written)
                        backlog.queue_runs(conn, queued)
            finally:
                # After an aborted transaction SQLite has already put the triggers back.
                if conn.in_transaction:
                    repo.restore_fts_insert_triggers(conn, suspended)
            if self.dry_run:
                raise _DryRun(outcomes)
            return outcomes, queued

        try:
            outcomes, queued = await self.db.write(job)
        except _DryRun as done:
            dry: list[_Outcome] = done.outcome
            return dry
        self.queued.extend(queued)
        return outcomes

    async def _resolve_pending(self) -> None:
        # Children whose parent came later in the file (the agent exports newest first) are linked now;
        # parents that never arrived leave the child detached, as the agent's import does.
        pending = dict(self._pending_parents)
        if not pending:
            return

        def job(conn: sqlite3.Connection) -> int:
            linked = 0
            for child, parent in pending.items():
                if self.dry_run:
                    linked += parent in self._imported or session_repo.session_exists(conn, parent)
                else:
                    linked += repo.link_parent(conn, child, parent)
            return linked

        linked = await (self.db.read(job) if self.dry_run else self.db.write(job))
        self.report.linked += linked
        self.report.detached += len(pending) - linked


async def find_conflicts(db: Database, records: Iterator[_Record]) -> list[dict[str, Any]]:
    """Lines whose session id already exists (the ``on_conflict=fail`` pre-check; nothing is written)."""

    def ids() -> list[tuple[dict[str, Any], str]]:
        out: list[tuple[dict[str, Any], str]] = []
        for record in records:
            sid = record.raw.get("id") if record.raw is not None else None
            if isinstance(sid, str) and sid.strip():
                out.append((record.ref, sid.strip()))
        return out

    refs = await asyncio.to_thread(ids)
    existing = await db.read(lambda conn: repo.existing_ids(conn, [sid for _, sid in refs]))
    return [{**ref, "session_id": sid} for ref, sid in refs if sid in existing]


async def _finish_indexing(importer: Importer, wait_for_index: bool) -> None:
    # index_pending: this import's messages still queued for the background indexer when it answers.
    if not importer.queued:
        return
    up_to = max(last for _, last in importer.queued)
    if wait_for_index and importer.indexer is not None:
        await importer.indexer.wait_indexed(up_to)
    queued = await importer.db.read(lambda conn: backlog.queued_runs(conn, up_to))
    importer.report.index_pending = overlap(importer.queued, queued)


async def import_stream(
    db: Database,
    stream: IO[bytes],
    on_conflict: OnConflict,
    dry_run: bool,
    indexer: FtsIndexer | None = None,
    wait_for_index: bool = False,
) -> ImportReport:
    """Import a JSONL file; with ``fail`` any existing id refuses the whole import (409) before writing.

    With ``wait_for_index`` the call returns only once the background indexer has indexed this import.
    """
    if on_conflict == "fail":
        conflicts = await find_conflicts(db, iter_jsonl(stream))
        if conflicts:
            raise Conflict(
                f"{len(conflicts)} session(s) in the file already exist; nothing was imported.",
                code="session_exists",
                conflicts=conflicts[:MAX_REPORTED_ERRORS],
            )
        stream.seek(0)
    importer = Importer(db, on_conflict, dry_run, indexer)
    report = await importer.run(iter_jsonl(stream))
    await _finish_indexing(importer, wait_for_index)
    return report


async def import_transcripts(
    db: Database,
    sessions_dir: Path,
    on_conflict: OnConflict,
    dry_run: bool,
    indexer: FtsIndexer | None = None,
    wait_for_index: bool = False,
) -> ImportReport:
    """Import the legacy per-session transcript files under ``sessions_dir``."""
    if on_conflict == "fail":
        conflicts = await find_conflicts(db, iter_transcripts(sessions_dir))
        if conflicts:
            raise Conflict(
                f"{len(conflicts)} transcript session(s) already exist; nothing was imported.",
                code="session_exists",
                conflicts=conflicts[:MAX_REPORTED_ERRORS],
            )
    importer = Importer(db, on_conflict, dry_run, indexer)
    report = await importer.run(iter_transcripts(sessions_dir))
    await _finish_indexing(importer, wait_for_index)
    return report
