"""Parsing of import lines into rows ready to store (``orjson``, validation, one row per message).

No database access (legacy transcripts are read from their files here). The importer runs it on a
worker thread, one batch ahead of the writer.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import IO, Any

import orjson

from app.domain import agent_rows, field_rules, json_policy
from app.domain.agent_rows import Prepared
from app.domain.text import find_invalid_char
from app.services.export import EXPORT_ERROR_KEY
from app.storage import files

# A writer job carries about this many messages (or sessions): big enough to amortise the commit, small
# enough that live appends queued behind it wait only milliseconds.
IMPORT_BATCH_MESSAGES = 4000
IMPORT_BATCH_SESSIONS = 200


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
class Record:
    """One line (or transcript file): its parsed object, or why it could not be used."""

    ref: dict[str, Any]
    raw: dict[str, Any] | None = None
    issue: ImportIssue | None = None


@dataclass
class Batch:
    """What the parser thread hands the writer: sessions to write, and the lines it could not use."""

    items: list[Prepared] = field(default_factory=list)
    issues: list[ImportIssue] = field(default_factory=list)
    lines: int = 0
    messages: int = 0
    eof: bool = False


def _line_bad_text(raw: dict[str, Any]) -> str | None:
    # A message's content may open with the agent's own \x00json: prefix: that is how the agent stores
    # structured content, and how an export writes such content when it cannot be decoded (stored as is).
    messages = raw.get("messages")
    if not isinstance(messages, list):
        return _has_bad_text(raw)
    problem = _has_bad_text({k: v for k, v in raw.items() if k != "messages"})
    for message in messages:
        if problem is not None:
            return problem
        if not isinstance(message, dict):
            problem = _has_bad_text(message)
            continue
        content = message.get("content")
        if isinstance(content, str) and content.startswith(agent_rows.CONTENT_JSON_PREFIX):
            problem = _has_bad_text(content[len(agent_rows.CONTENT_JSON_PREFIX) :]) or _has_bad_text(
                {k: v for k, v in message.items() if k != "content"}
            )
        else:
            problem = _has_bad_text(message)
    return problem


def _export_error(raw: dict[str, Any]) -> str | None:
    """The detail of an export's final error record (see ``app.services.export.error_record``), or ``None``
    when ``raw`` is a session line."""
    if set(raw) != {EXPORT_ERROR_KEY} or not isinstance(raw[EXPORT_ERROR_KEY], dict):
        return None
    detail = raw[EXPORT_ERROR_KEY].get("detail")
    return detail if isinstance(detail, str) else "The export ended with an error record."


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


_EXPECTED = "an export is UTF-8 JSON, one session per line"


def _not_json(line: bytes, exc: orjson.JSONDecodeError) -> str:
    """Why ``line`` is not JSON; orjson calls any byte that is not UTF-8 a surrogate, which misleads."""
    try:
        line.decode("utf-8")
    except UnicodeDecodeError as bad:
        where = f"byte {line[bad.start]:#04x} at column {bad.start + 1}"
        return f"not valid JSON: the line is not UTF-8 text ({where}); {_EXPECTED}"
    return f"not valid JSON: {exc}"


def iter_jsonl(stream: IO[bytes]) -> Iterator[Record]:
    """One record per non-blank line of a JSONL file (the agent's export or ours)."""
    for number, line in enumerate(stream, start=1):
        if not line.strip():
            continue
        ref = {"line": number}
        try:
            raw = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            yield Record(ref, issue=ImportIssue("invalid_json", _not_json(line, exc), line=number))
            continue
        if not isinstance(raw, dict):
            yield Record(
                ref, issue=ImportIssue("invalid_line", "each line must be one session object", line=number)
            )
            continue
        export_error = _export_error(raw)
        if export_error is not None:
            # Not a session: the export that wrote this file could not write all of its store.
            why = f"the export this file came from did not write everything: {export_error}"
            yield Record(ref, issue=ImportIssue("export_incomplete", why, line=number))
            continue
        violation = json_policy.check(raw, line, envelope=json_policy.EXPORT_LINE_ENVELOPE)
        if violation is not None:
            sid = raw.get("id") if isinstance(raw.get("id"), str) else None
            yield Record(ref, issue=ImportIssue(violation.code, violation.detail, number, None, sid))
            continue
        # JSON can spell NUL only as an escape, so the scan runs only for lines that contain one.
        if b"\\u0000" in line:
            problem = _line_bad_text(raw)
            if problem:
                sid = raw.get("id") if isinstance(raw.get("id"), str) else None
                yield Record(
                    ref, issue=ImportIssue("invalid_text", f"text contains {problem}", number, None, sid)
                )
                continue
        yield Record(ref, raw=raw)


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


def iter_transcripts(sessions_dir: Path, home: Path) -> Iterator[Record]:
    """Legacy ``$HERMES_HOME/sessions/<id>.jsonl`` transcripts (one message dict per line) as sessions.

    The first ``session_meta`` row (written by the gateway) gives the platform and model; it is kept as a
    message, as the gateway stores it in state.db too. ISO timestamps from old versions become epoch seconds.
    Only regular files inside ``home`` are read: an entry that resolves outside it (``outside_home``), or
    that is a directory, FIFO, device or dangling link (``not_a_regular_file``), is reported and skipped.
    """
    if not os.path.lexists(sessions_dir):
        return
    real_dir = files.resolve_inside(home, sessions_dir)
    if real_dir is None:
        yield _skipped(sessions_dir.name, "outside_home", f"{sessions_dir} resolves outside $HERMES_HOME")
        return
    if not real_dir.is_dir():
        return
    for path in sorted(real_dir.glob("*.jsonl")):
        target = files.resolve_inside(home, path)
        if target is None:
            yield _skipped(path.name, "outside_home", f"{path.name} resolves outside $HERMES_HOME")
            continue
        fh = files.open_regular(target)
        if fh is None:
            yield _skipped(path.name, "not_a_regular_file", f"{path.name} is {files.describe(path)}")
            continue
        with fh:
            record = _transcript(path, fh)
        yield record


def _skipped(name: str, code: str, why: str) -> Record:
    return Record({"file": name}, issue=ImportIssue(code, f"{why}; not read.", file=name))


def _transcript(path: Path, fh: IO[bytes]) -> Record:
    ref = {"file": path.name}
    messages: list[dict[str, Any]] = []
    for number, line in enumerate(fh, start=1):
        if not line.strip():
            continue
        try:
            msg = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            return Record(
                ref, issue=ImportIssue("invalid_json", _not_json(line, exc), number, path.name, path.stem)
            )
        if not isinstance(msg, dict):
            return Record(
                ref,
                issue=ImportIssue("invalid_line", "each line must be a message object", number, path.name),
            )
        msg["timestamp"] = _timestamp(msg.get("timestamp"))
        messages.append(msg)
    meta = next((m for m in messages if m.get("role") == "session_meta"), {})
    stamps = [m["timestamp"] for m in messages if m.get("timestamp") is not None]
    mtime = os.fstat(fh.fileno()).st_mtime
    raw: dict[str, Any] = {
        "id": path.stem,
        "source": meta.get("platform") or "import",
        "model": meta.get("model") if isinstance(meta.get("model"), str) else None,
        "started_at": min(stamps) if stamps else mtime,
        "ended_at": max(stamps) if stamps else mtime,
        "messages": [{k: v for k, v in m.items() if k != "tools"} for m in messages],
    }
    return Record(ref, raw=raw)


def prepare(
    record: Record, session_cols: dict[str, str], layout: agent_rows.MessageLayout, now: float
) -> Prepared | ImportIssue:
    """Validate one session line and build its session row and message rows."""
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
    problem = field_rules.session_problem({**raw, "id": sid}) or next(
        filter(None, (field_rules.message_problem(m, f"messages[{i}].") for i, m in enumerate(messages))),
        None,
    )
    if problem is not None:
        where = f"{problem.field.rpartition('.')[0]}: " if "." in problem.field else ""
        return ImportIssue(problem.code, where + problem.detail, line, file, sid)
    try:
        session = agent_rows.session_values(raw, session_cols, now)
        session["id"] = sid
        default_ts = session["started_at"]
        values = [layout.row(m, i, default_ts) for i, m in enumerate(messages)]
    except agent_rows.RowError as exc:
        return ImportIssue("invalid_session", str(exc), line, file, sid)
    # Counters come from the line when it has them (the agent's export does), else from its messages.
    session.setdefault("message_count", len(messages))
    if "tool_call_count" not in session:
        session["tool_call_count"] = sum(agent_rows.tool_call_count(m.get("tool_calls")) for m in messages)
    ids = [m.get("id") for m in messages]
    keep = all(isinstance(i, int) and not isinstance(i, bool) and 0 < i <= agent_rows.INT64_MAX for i in ids)
    if keep:
        kept_ids: list[int] | None = [int(i) for i in ids if isinstance(i, int)]
        rows = [[mid, sid, *row] for mid, row in zip(ids, values, strict=True)]
    else:
        kept_ids, rows = None, [[sid, *row] for row in values]
    return Prepared(record.ref, sid, session, rows, kept_ids, parent or None)


@dataclass(frozen=True)
class ParseContext:
    """What parsing needs from the store, read once per import."""

    session_cols: dict[str, str]
    message_cols: dict[str, str]
    message_defaults: dict[str, Any]
    now: float


def parse_records(
    records: Iterator[Record], ctx: ParseContext, layout: agent_rows.MessageLayout
) -> Iterator[Prepared | ImportIssue]:
    """Each record prepared, or the issue that stops it."""
    for record in records:
        if record.issue is not None:
            yield record.issue
            continue
        yield prepare(record, ctx.session_cols, layout, ctx.now)
