"""Import of JSONL (the agent's ``hermes sessions export`` line format) and legacy transcripts.

Lines are parsed on a worker thread (:mod:`app.services.import_parse`) one group of sessions ahead of the
writer, which stores a group per writer job, each session inside its own SAVEPOINT: a bad line is reported
by number and nothing of that session is written, while the other lines go in.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncGenerator, Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any, Literal

from app.domain.agent_rows import MessageLayout
from app.domain.id_runs import Run, overlap
from app.errors import ImportWouldOverwrite
from app.services.fts_indexer import FtsIndexer
from app.services.import_parse import (
    IMPORT_BATCH_MESSAGES,
    IMPORT_BATCH_SESSIONS,
    Batch,
    ImportIssue,
    ParseContext,
    Prepared,
    Record,
    iter_jsonl,
    iter_transcripts,
    parse_records,
)
from app.services.titling.worker import AutoTitler
from app.storage.protocols import Store, Tx, WriteRejected

OnConflict = Literal["skip", "replace", "fail"]

# An import no bigger than this (one writer job) is indexed inline; bigger ones defer to the indexer.
INLINE_INDEX_MESSAGES = 1000
MAX_REPORTED_ERRORS = 100


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
            **asdict(self),
            "errors": [e.as_dict() for e in self.errors],
            "errors_truncated": self.failed > len(self.errors),
        }


class _DryRun(Exception):
    """Raised at the end of a dry-run writer job so everything it did rolls back."""

    def __init__(self, outcome: Any) -> None:
        super().__init__("dry run")
        self.outcome = outcome


@dataclass
class _Outcome:
    kind: Literal["imported", "replaced", "skipped", "failed"]
    prepared: Prepared
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
        self, db: Store, on_conflict: OnConflict, dry_run: bool, indexer: FtsIndexer | None = None
    ) -> None:
        self.db = db
        self.on_conflict = on_conflict
        self.dry_run = dry_run
        self.indexer = indexer
        self.report = ImportReport(dry_run=dry_run, on_conflict=on_conflict)
        self._pending_parents: dict[str, str] = {}
        self.imported: set[str] = set()
        """The sessions this run imported or replaced."""
        self.queued: list[Run] = []
        self._message_columns: list[str] = []

    async def run(self, batches: Callable[[ParseContext], AsyncGenerator[Batch, None]]) -> ImportReport:
        """Import every batch ``batches(ctx)`` yields; returns the report."""
        ctx = await self.db.read(
            lambda tx: ParseContext(
                tx.transfer.table_columns("sessions"),
                tx.transfer.table_columns("messages"),
                tx.transfer.message_defaults(),
                time.time(),
            )
        )
        self._message_columns = MessageLayout(ctx.message_cols, ctx.message_defaults).names
        first = True
        async with contextlib.aclosing(batches(ctx)) as stream:
            async for batch in stream:
                self.report.lines += batch.lines
                for issue in batch.issues:
                    self.report.add_issue(issue)
                if batch.items:
                    inline = first and batch.eof and batch.messages <= INLINE_INDEX_MESSAGES
                    for outcome in await self._write(batch.items, inline):
                        self._count(outcome)
                first = False
        await self._resolve_pending()
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
        self.imported.add(prepared.session_id)
        if outcome.deferred and prepared.parent_id is not None:
            self._pending_parents[prepared.session_id] = prepared.parent_id

    def _import_one(self, tx: Tx, item: Prepared, message_columns: list[str]) -> _Outcome:
        exists = tx.sessions.session_exists(item.session_id)
        if exists and self.on_conflict != "replace":
            if self.on_conflict == "fail":
                issue = ImportIssue(
                    "session_exists", "a session with this id already exists", session_id=item.session_id
                )
                issue.line, issue.file = item.ref.get("line"), item.ref.get("file")
                return _Outcome("failed", item, issue=issue)
            return _Outcome("skipped", item)
        kept = tx.transfer.insert_session(item, message_columns, replace=exists)
        linked = deferred = False
        if item.parent_id is not None:
            linked = tx.transfer.link_parent(item.session_id, item.parent_id)
            deferred = not linked
        elif exists:
            tx.transfer.detach_parent(item.session_id)
        return _Outcome("replaced" if exists else "imported", item, linked, deferred, kept)

    async def _write(self, batch: list[Prepared], inline: bool) -> list[_Outcome]:
        message_columns = self._message_columns

        def job(tx: Tx) -> tuple[list[_Outcome], list[Run]]:
            outcomes: list[_Outcome] = []
            queued: list[Run] = []
            with tx.transfer.fts_triggers_suspended() as unindexed:
                for item in batch:
                    try:
                        with tx.savepoint():
                            outcome = self._import_one(tx, item, message_columns)
                    except WriteRejected as exc:
                        # Only this session rolled back; a lost transaction (disk full, I/O) is not caught
                        # here and the writer reports it.
                        ref = item.ref
                        issue = ImportIssue(
                            exc.reason, exc.detail, ref.get("line"), ref.get("file"), item.session_id
                        )
                        outcome = _Outcome("failed", item, issue=issue)
                    outcomes.append(outcome)
                written = [o.prepared.session_id for o in outcomes if o.kind in ("imported", "replaced")]
                if unindexed and written and not self.dry_run:
                    if inline:
                        tx.transfer.index_sessions(unindexed, written)
                    else:
                        queued = tx.indexing.imported_runs(written)
                        tx.indexing.queue_runs(queued)
            if self.dry_run:
                raise _DryRun(outcomes)
            return outcomes, queued

        try:
            outcomes, queued = await self.db.write(job, bulk=True)
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

        def job(tx: Tx) -> int:
            linked = 0
            for child, parent in pending.items():
                if self.dry_run:
                    linked += parent in self.imported or tx.sessions.session_exists(parent)
                else:
                    linked += tx.transfer.link_parent(child, parent)
            return linked

        linked = await (self.db.read(job) if self.dry_run else self.db.write(job))
        self.report.linked += linked
        self.report.detached += len(pending) - linked


def _full(batch: Batch) -> bool:
    return batch.messages >= IMPORT_BATCH_MESSAGES or len(batch.items) >= IMPORT_BATCH_SESSIONS


async def thread_batches(records: Iterator[Record], ctx: ParseContext) -> AsyncGenerator[Batch, None]:
    """Batches parsed on a worker thread, the next one while the caller writes the current one."""
    results = parse_records(records, ctx, MessageLayout(ctx.message_cols, ctx.message_defaults))

    def next_batch() -> Batch:
        batch = Batch()
        for result in results:
            batch.lines += 1
            if isinstance(result, ImportIssue):
                batch.issues.append(result)
                continue
            batch.items.append(result)
            batch.messages += len(result.rows)
            if _full(batch):
                return batch
        batch.eof = True
        return batch

    parsing: asyncio.Future[Batch] | None = asyncio.ensure_future(asyncio.to_thread(next_batch))
    try:
        while parsing is not None:
            batch = await parsing
            parsing = None if batch.eof else asyncio.ensure_future(asyncio.to_thread(next_batch))
            yield batch
    finally:
        if parsing is not None:  # the caller stopped (a write failed): let the parser finish with the stream
            with contextlib.suppress(Exception):
                await parsing


async def find_conflicts(db: Store, records: Iterator[Record]) -> list[dict[str, Any]]:
    """Lines whose session id already exists (the ``on_conflict=fail`` pre-check; nothing is written)."""

    def ids() -> list[tuple[dict[str, Any], str]]:
        out: list[tuple[dict[str, Any], str]] = []
        for record in records:
            sid = record.raw.get("id") if record.raw is not None else None
            if isinstance(sid, str) and sid.strip():
                out.append((record.ref, sid.strip()))
        return out

    refs = await asyncio.to_thread(ids)
    existing = await db.read(lambda tx: tx.transfer.existing_ids([sid for _, sid in refs]))
    return [{**ref, "session_id": sid} for ref, sid in refs if sid in existing]


async def _finish_indexing(importer: Importer, wait_for_index: bool) -> None:
    # index_pending: this import's messages still queued for the background indexer when it answers.
    if not importer.queued:
        return
    up_to = max(last for _, last in importer.queued)
    if wait_for_index and importer.indexer is not None:
        await importer.indexer.wait_indexed(up_to)
    queued = await importer.db.read(lambda tx: tx.indexing.queued_runs(up_to))
    importer.report.index_pending = overlap(importer.queued, queued)


async def _title_requested(importer: Importer, titler: AutoTitler | None) -> None:
    # Imported history keeps the titles it came with; asked to, the untitled ones are titled as live
    # sessions are after their first exchange.
    if titler is not None and not importer.dry_run:
        await titler.title_requested(sorted(importer.imported))


@dataclass(frozen=True)
class ImportRun:
    """How an import runs: ``on_conflict`` (``fail``: any existing id refuses the whole import, 409, before
    writing), ``dry_run``, the background ``indexer`` and ``wait_for_index`` (the call returns only once the
    indexer has indexed this import), and a ``titler`` that queues the untitled imported sessions for an
    automatic title."""

    on_conflict: OnConflict
    dry_run: bool
    indexer: FtsIndexer | None = None
    wait_for_index: bool = False
    titler: AutoTitler | None = None


async def import_stream(db: Store, stream: IO[bytes], run: ImportRun) -> ImportReport:
    """Import a JSONL file."""
    if run.on_conflict == "fail":
        await _refuse_conflicts(db, iter_jsonl(stream))
        stream.seek(0)
    return await _import(db, run, lambda ctx: thread_batches(iter_jsonl(stream), ctx))


async def import_transcripts(db: Store, home: Path, sessions_dir: Path, run: ImportRun) -> ImportReport:
    """Import the legacy per-session transcript files under ``sessions_dir`` (regular files inside
    ``home`` only; others are reported)."""
    if run.on_conflict == "fail":
        await _refuse_conflicts(db, iter_transcripts(sessions_dir, home), transcripts=True)
    return await _import(db, run, lambda ctx: thread_batches(iter_transcripts(sessions_dir, home), ctx))


async def _refuse_conflicts(db: Store, records: Iterator[Record], *, transcripts: bool = False) -> None:
    conflicts = await find_conflicts(db, records)
    if conflicts:
        raise ImportWouldOverwrite(conflicts[:MAX_REPORTED_ERRORS], len(conflicts), transcripts=transcripts)


async def _import(
    db: Store, run: ImportRun, batches: Callable[[ParseContext], AsyncGenerator[Batch, None]]
) -> ImportReport:
    importer = Importer(db, run.on_conflict, run.dry_run, run.indexer)
    report = await importer.run(batches)
    await _finish_indexing(importer, run.wait_for_index)
    await _title_requested(importer, run.titler)
    return report
