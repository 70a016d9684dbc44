"""``hermes sessions export`` / ``import``: every export format of the agent, and JSONL in, streamed, with a
progress bar on a terminal (quiet when piped)."""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypeVar
from urllib.parse import quote, unquote

import orjson
import typer

from app.cli import formatting as fmt_rows
from app.cli import import_plan
from app.cli.api import MAX_BODY_BYTES, Api
from app.cli.commands.common import require_session
from app.cli.commands.filters import Filters, with_filters
from app.cli.commands.sessions import PAGE_MAX, app
from app.cli.context import get_env
from app.cli.errors import ApiError, CliError, ExitCode
from app.cli.import_cursor import ImportCursor
from app.cli.import_plan import Line
from app.cli.output import (
    Format,
    JsonlOpt,
    JsonOpt,
    emit_json,
    emit_jsonl,
    note,
    pick_format,
    say,
    stderr_progress,
)
from app.domain.render_session_file import manifest_entry, verify

if TYPE_CHECKING:
    import httpx
    from rich.progress import Progress

_CHUNK = 64 * 1024
# The agent's export dry run names at most this many sessions.
_DRY_RUN_ROWS = 100
_T = TypeVar("_T")


def _progress(label: str, *, sized: bool = False) -> Progress:
    """A transfer bar on stderr, shown only when stderr is a terminal: done of total when the total is
    known (``sized``), else the bytes done so far (never ``23.9/? MB``)."""
    from rich.progress import BarColumn, DownloadColumn, FileSizeColumn, TextColumn, TransferSpeedColumn

    amount = DownloadColumn() if sized else FileSizeColumn()
    return stderr_progress(TextColumn(label), BarColumn(), amount, TransferSpeedColumn())


def _write_export(api: Api, params: dict[str, Any], sink: IO[bytes], path: str = "/export.jsonl") -> int:
    lines = 0
    with (
        api.stream(path, feature="export", params=params) as response,
        _progress("Exporting") as progress,
    ):
        task = progress.add_task("export", total=None)
        for chunk in response.iter_bytes(_CHUNK):
            sink.write(chunk)
            lines += chunk.count(b"\n")
            progress.advance(task, len(chunk))
    sink.flush()
    return lines


def _to_file(output: str, write: Callable[[IO[bytes]], _T]) -> _T:
    """Write through ``<output>.partial`` so an interrupted export never leaves a half file under its name."""
    path = Path(output)
    partial = path.with_name(path.name + ".partial")
    try:
        with partial.open("wb") as sink:
            result = write(sink)
        partial.replace(path)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise CliError(f"Error: cannot write {output}: {exc.strerror or exc}") from exc
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return result


def _count_progress(label: str, total: int) -> Progress:
    """A bar counting sessions on stderr, shown only when stderr is a terminal."""
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn

    return stderr_progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), hidden=total < 2)


def _usage(message: str) -> CliError:
    return CliError(message, ExitCode.USAGE)


_UPLOAD_UNSUPPORTED = (
    "--upload and --public send a trace to a hosted dataset, which hermes-sessions does not support: "
    "export to a file instead (hermes sessions export --format trace FILE)."
)


@app.command("export")
@with_filters(
    older_help="Only export sessions older than AGE (duration like '5h'/'2d', bare number of days, or an ISO "
    "timestamp)"
)
def export(
    ctx: typer.Context,
    filters: Filters,
    output: str | None = typer.Argument(
        None,
        help="Output path. JSONL: file path (use - for stdout, required). "
        "md/qmd: output directory (default: <hermes home>/session-exports)",
    ),
    fmt: str = typer.Option(
        "jsonl",
        "--format",
        help="Export format: jsonl, md, qmd, html or trace (default: jsonl). 'trace' emits Claude Code JSONL "
        "for the Hugging Face Agent Trace Viewer",
    ),
    only: str | None = typer.Option(
        None,
        "--only",
        help="Export only a filtered view (user-prompts: one prompt record per line for jsonl, "
        "headed sections for md)",
    ),
    redact: bool | None = typer.Option(
        None,
        "--redact/--no-redact",
        help="Redact secrets (API keys, tokens, credentials) from exported content "
        "(default: on for trace, off otherwise)",
    ),
    session_id: str | None = typer.Option(None, "--session-id", help="Session ID or unique prefix to export"),
    lineage: str = typer.Option(
        "single",
        "--lineage",
        help="single or logical: one row or its compression lineage (jsonl, md, qmd, html)",
    ),
    force: bool = typer.Option(False, "--force", help="md/qmd only: overwrite an existing export file"),
    delete_after_verified: bool = typer.Option(
        False,
        "--delete-after-verified",
        help="md/qmd only: after verified export, delete the exported sessions (needs --yes)",
    ),
    dry_run: bool = typer.Option(False, "--dry-run", help="List matching sessions without exporting them"),
    yes: bool = typer.Option(False, "--yes", "-y", help="Skip confirmation"),
    upload: bool = typer.Option(False, "--upload", help="Not supported: traces are written to files"),
    public: bool = typer.Option(False, "--public", help="Not supported: traces are written to files"),
) -> None:
    """Export sessions to JSONL, Markdown, QMD, HTML or Claude Code traces. The filter flags are prune's and
    select as the listing does: archived sessions too, and open ones too (the agent exports ended ones
    only when a filter is given)."""
    if fmt not in _FORMATS:
        raise typer.BadParameter("must be jsonl, md, qmd, html or trace", param_hint="--format")
    if lineage not in ("single", "logical"):
        raise typer.BadParameter("must be single or logical", param_hint="--lineage")
    if only is not None and only != "user-prompts":
        raise typer.BadParameter("the only view is 'user-prompts'", param_hint="--only")
    if upload or public:
        raise _usage(_UPLOAD_UNSUPPORTED)
    if only is not None and fmt not in ("jsonl", "md"):
        raise _usage("--only user-prompts supports --format jsonl or md.")
    if lineage == "logical" and not session_id:
        raise typer.BadParameter("a logical lineage export needs --session-id", param_hint="--lineage")
    selection = filters.request()
    api = get_env(ctx).api()
    params: dict[str, Any] = {"format": fmt}
    if redact is not None:
        params["redact"] = str(redact).lower()
    resolved = require_session(api, session_id) if session_id else None
    if resolved:
        params["session_id"] = resolved
    elif dry_run:
        _dry_run(api, filters)
        return
    if fmt in ("md", "qmd") and not only:
        if output == "-":
            raise _usage(
                "Markdown/QMD export writes files; stdout (-) is only supported with --format jsonl."
            )
        if delete_after_verified and not yes:
            raise _usage("--delete-after-verified requires --yes.")
        out_dir = Path(output).expanduser() if output else get_env(ctx).config.home / "session-exports"
        targets = None if resolved else _targets(api, filters)
        _export_files(
            api, params, out_dir, targets, lineage=lineage, force=force, delete=delete_after_verified
        )
        return
    if not resolved:  # as the agent: --session-id names the session, the filters are not applied
        params |= selection
    if only:
        _export_prompts(api, params | {"only": only}, output)
    elif fmt == "jsonl":
        _export_jsonl(api, params, output, lineage, resolved)
    elif fmt == "html":
        _export_html(api, params | ({"lineage": "logical"} if lineage == "logical" else {}), output)
    else:
        _export_trace(api, get_env(ctx).config.home, params, output, filtered=filters.given())


_FORMATS = ("jsonl", "md", "qmd", "html", "trace")


def _export_jsonl(
    api: Api, params: dict[str, Any], output: str | None, lineage: str, resolved: str | None
) -> None:
    if not output:
        raise _usage("JSONL export requires an output path (use - for stdout).")
    if lineage == "logical":
        params["lineage"] = "logical"
    if output == "-":
        _write_export(api, params, sys.stdout.buffer, "/export")
        return
    count = _to_file(output, lambda sink: _write_export(api, params, sink, "/export"))
    if resolved:
        say(f"Exported 1 session to {output}")
    else:
        say(f"Exported {count} sessions to {output}")


def _export_prompts(api: Api, params: dict[str, Any], output: str | None) -> None:
    if not output or output == "-":
        _write_export(api, params, sys.stdout.buffer, "/export")
        return
    count = _to_file(output, lambda sink: _write_export(api, params, sink, "/export"))
    if params["format"] == "md":  # the records say how many prompts there are; the document does not
        with api.stream("/export", feature="export", params=params | {"format": "jsonl"}) as response:
            count = sum(chunk.count(b"\n") for chunk in response.iter_bytes(_CHUNK))
    say(f"Exported {count} prompt{'' if count == 1 else 's'} to {output}")


class _Counter:
    """Counts a marker in a stream, across chunk boundaries."""

    def __init__(self, marker: bytes) -> None:
        self.marker = marker
        self.count = 0
        self._tail = b""

    def feed(self, chunk: bytes) -> bytes:
        data = self._tail + chunk
        self.count += data.count(self.marker) - self._tail.count(self.marker)
        self._tail = data[-(len(self.marker) - 1) :]
        return chunk


def _export_html(api: Api, params: dict[str, Any], output: str | None) -> None:
    if not output or output == "-":
        raise _usage("HTML export requires an output file path.")
    views = _Counter(b'<div class="session-view')

    def write(sink: IO[bytes]) -> None:
        with (
            api.stream("/export", feature="export", params=params) as response,
            _progress("Exporting") as bar,
        ):
            task = bar.add_task("export", total=None)
            for chunk in response.iter_bytes(_CHUNK):
                sink.write(views.feed(chunk))
                bar.advance(task, len(chunk))

    _to_file(output, write)
    say(f"Exported {views.count} session{'' if views.count == 1 else 's'} to {output} (HTML)")


def _latest_session(api: Api) -> str:
    page = api.get("/sessions", feature="listing sessions", params={"limit": 1})
    if not page["items"]:
        raise CliError("No session found to export. Pass --session-id.", ExitCode.NOT_FOUND)
    return str(page["items"][0]["id"])


def _export_trace(
    api: Api, home: Path, params: dict[str, Any], output: str | None, *, filtered: bool
) -> None:
    if "session_id" not in params and not filtered:
        params["session_id"] = _latest_session(api)  # as the agent: the last thing you did
    if "session_id" in params:
        sid = params["session_id"]
        with api.stream("/export", feature="export", params=params) as response:
            body = response.read()
        if not body:
            raise CliError(f"No transcript to export for session '{sid}'.", ExitCode.NOT_FOUND)
        if not output or output == "-":
            sys.stdout.buffer.write(body)
            sys.stdout.flush()
            return
        _to_file(output, lambda sink: sink.write(body))
        say(f"Exported 1 session trace to {output}")
        return
    out_dir = Path(output).expanduser() if output and output != "-" else home / "session-exports"
    out_dir.mkdir(parents=True, exist_ok=True)
    exported = 0
    current: tuple[str, IO[bytes]] | None = None
    try:
        with (
            api.stream("/export", feature="export", params=params) as response,
            _progress("Exporting") as bar,
        ):
            task = bar.add_task("export", total=None)
            for line in response.iter_lines():
                if not line:
                    continue
                sid = str(orjson.loads(line)["sessionId"])
                if current is None or current[0] != sid:
                    if current is not None:
                        current[1].close()
                    current = (sid, (out_dir / f"{sid}.trace.jsonl").open("wb"))
                    exported += 1
                current[1].write(line.encode() + b"\n")
                bar.advance(task, len(line) + 1)
    finally:
        if current is not None:
            current[1].close()
    say(f"Exported {exported} session trace(s) to {out_dir}")


def _file_name(response: httpx.Response, fallback: str) -> str:
    disposition = response.headers.get("content-disposition", "")
    _, _, encoded = disposition.partition("filename*=UTF-8''")
    return Path(unquote(encoded)).name if encoded else fallback


@dataclass(frozen=True)
class _Written:
    """One session's file: where, how many messages, whether it verified; ``existed``: left alone."""

    path: Path
    total: int = 0
    verified: bool = False
    existed: bool = False


def _export_one_file(api: Api, params: dict[str, Any], out_dir: Path, *, force: bool) -> _Written:
    """Write one session's file and its manifest line (an existing file is kept unless ``force``)."""
    sid = params["session_id"]
    with api.stream("/export", feature="export", params=params) as response:
        path = out_dir / _file_name(response, f"{sid}.{params['format']}")
        if path.exists() and not force:
            return _Written(path, existed=True)
        total = int(response.headers.get("x-hermes-message-count", "0"))
        lineage = response.headers.get("x-hermes-lineage-session-ids", sid).split()

        def write(sink: IO[bytes]) -> None:
            for chunk in response.iter_bytes(_CHUNK):
                sink.write(chunk)

        _to_file(str(path), write)
    data = path.read_bytes()
    entry = manifest_entry(
        {"id": sid},
        str(path),
        params["format"],
        total,
        hashlib.sha256(data).hexdigest(),
        time.time(),
        lineage,
    )
    with (out_dir / "manifest.jsonl").open("a", encoding="utf-8") as manifest:
        manifest.write(json.dumps(entry, ensure_ascii=False, sort_keys=True) + "\n")
    ok, reason = verify(data.decode(), sid, total)
    if not ok:
        note(f"Export verification failed for {path}: {reason}")
    return _Written(path, total, ok)


def _targets(api: Api, filters: Filters) -> list[dict[str, Any]] | None:
    """The sessions ``filters`` select, oldest first, as the listing shows each stored row (children,
    archived and every source included); ``None`` when no filter is given."""
    if not filters.given():
        return None
    params: dict[str, Any] = {
        **filters.request(),
        "include_children": "true",
        "include_archived": "true",
        "exclude_source": "none",
        "limit": PAGE_MAX,
    }
    found: list[dict[str, Any]] = []
    while True:
        page = api.get("/sessions", feature="listing sessions", params=params)
        found += page["items"]
        if not page.get("next_cursor"):
            found.reverse()
            return found
        params["cursor"] = page["next_cursor"]


def _dry_run(api: Api, filters: Filters) -> None:
    """The agent's export dry run: how many sessions would go, and the first hundred (here as a table)."""
    found = _targets(api, filters)
    if found is None:
        raise _usage("--dry-run requires at least one filter.")
    say(f"Would export {len(found)} session(s) ({filters.describe()}).")
    for row in found[:_DRY_RUN_ROWS]:
        say(fmt_rows.prune_row(row))
    if len(found) > _DRY_RUN_ROWS:
        say(f"  ... {len(found) - _DRY_RUN_ROWS} more")


def _delete_exported(api: Api, sid: str) -> None:
    try:
        api.send("DELETE", f"/sessions/{quote(sid, safe='')}", feature="sessions")
    except ApiError as exc:
        if exc.status != 404:
            raise
        say(f"Exported, but session '{sid}' was not deleted because it was not found.")
        return
    say(f"Deleted exported session '{sid}'.")


def _export_files(
    api: Api,
    params: dict[str, Any],
    out_dir: Path,
    targets: list[dict[str, Any]] | None,
    *,
    lineage: str,
    force: bool,
    delete: bool,
) -> None:
    params = params | {"layout": "files", "lineage": lineage}
    if "session_id" in params:
        out_dir.mkdir(parents=True, exist_ok=True)
        sid = params["session_id"]
        written = _export_one_file(api, params, out_dir, force=force)
        if written.existed:
            raise CliError(f"Export already exists: {written.path}. Pass --force to overwrite.")
        say(
            f"Exported 1 session ({written.total} message{'' if written.total == 1 else 's'}) "
            f"to {written.path}"
        )
        if delete:
            if not written.verified:
                raise CliError("Export verification failed; not deleting.")
            _delete_exported(api, sid)
        return
    if targets is None:
        raise _usage(
            "Refusing bulk export without a filter. Pass --session-id or at least one filter "
            "(e.g. --older-than 90, --source telegram)."
        )
    out_dir.mkdir(parents=True, exist_ok=True)  # only once the export is going ahead
    exported = 0
    with _count_progress("Exporting", len(targets)) as bar:
        task = bar.add_task("export", total=len(targets))
        for sid in (str(row["id"]) for row in targets):
            written = _export_one_file(api, params | {"session_id": sid}, out_dir, force=force)
            bar.advance(task)
            if written.existed:
                note(f"Skipping existing export: {written.path}. Pass --force to overwrite.")
                continue
            exported += 1
            if delete and written.verified:
                _delete_exported(api, sid)
    say(f"Exported {exported} session(s) to {out_dir}")


# Counts of an import's answer that add up over the requests of one file.
_SUMMED = (
    "lines",
    "imported",
    "replaced",
    "skipped",
    "failed",
    "messages",
    "linked",
    "detached",
    "message_ids_kept",
    "index_pending",
)
_MAX_ERRORS = 100


def _add(total: dict[str, Any], answer: dict[str, Any], batch: list[Line]) -> dict[str, Any]:
    """``total`` with one request's answer added; its line numbers are the file's."""
    merged = {**total, **{k: int(total.get(k) or 0) + int(answer.get(k) or 0) for k in _SUMMED}}
    errors = list(total.get("errors") or [])
    for issue in answer.get("errors") or []:
        line = issue.get("line")
        if isinstance(line, int) and 1 <= line <= len(batch):
            issue = {**issue, "line": batch[line - 1].number}
        if len(errors) < _MAX_ERRORS:
            errors.append(issue)
    merged["errors"] = errors
    merged["errors_truncated"] = merged["failed"] > len(errors)
    return merged


def _send(api: Api, fd: int, batch: list[Line], params: dict[str, Any]) -> list[tuple[list[Line], Any]]:
    """Import ``batch``; a body the server finds too big goes again in halves. Each part with its answer."""
    try:
        answer = api.request(
            "POST",
            "/import",
            feature="import",
            params=params,
            content=import_plan.body(fd, batch),
            headers={"Content-Type": "application/jsonl"},
        ).json()
    except ApiError as exc:
        if exc.status != 413:
            raise
        if len(batch) == 1:
            raise CliError(
                f"Error: line {batch[0].number} is {batch[0].length / 1e6:.1f} MB, more than the server "
                "accepts in one request (HERMES_MAX_BODY_BYTES on the server).",
            ) from exc
        half = len(batch) // 2
        return _send(api, fd, batch[:half], params) + _send(api, fd, batch[half:], params)
    return [(batch, answer)]


def _check_conflicts(api: Api, fd: int, lines: list[Line], params: dict[str, Any]) -> None:
    """``--on-conflict fail``: every request checks before anything is written (a 409 stops the import)."""
    for batch in import_plan.batches(lines, MAX_BODY_BYTES):
        _send(api, fd, batch, params | {"dry_run": "true"})


def _import_lines(
    api: Api, fd: int, lines: list[Line], params: dict[str, Any], cursor: ImportCursor | None
) -> dict[str, Any]:
    """Send ``lines`` a body at a time from where ``cursor`` says the server got to; the summed report."""
    done = cursor.done if cursor is not None else 0
    report: dict[str, Any] = dict(cursor.report) if cursor is not None and done else {}
    report |= {"dry_run": params["dry_run"] == "true", "on_conflict": params["on_conflict"]}
    total = sum(line.length for line in lines)
    with _progress("Importing", sized=True) as progress:
        task = progress.add_task("import", total=total, completed=sum(line.length for line in lines[:done]))
        for batch in import_plan.batches(lines[done:], MAX_BODY_BYTES):
            for part, answer in _send(api, fd, batch, params):
                report = _add(report, answer, part)
                if cursor is not None:
                    cursor.acknowledge(len(part), report)
                progress.advance(task, sum(line.length for line in part))
    return report


@app.command("import")
def import_(
    ctx: typer.Context,
    file: str = typer.Argument(..., help="A JSONL export (ours or the agent's), or - for stdin"),
    on_conflict: str = typer.Option("skip", "--on-conflict", help="skip, replace or fail on existing ids"),
    dry_run: bool = typer.Option(False, "--dry-run", help="Check the file; write nothing"),
    title_untitled: bool = typer.Option(
        False,
        "--title-untitled",
        help="Give imported sessions without a title an automatic one (by default they stay as they were)",
    ),
    as_json: bool = JsonOpt,
    as_jsonl: bool = JsonlOpt,
) -> None:
    """Import sessions from a JSONL export file of any size: sent a request at a time, parents first, with
    a progress bar; an interrupted import of a file resumes where the server's answers got to."""
    out = pick_format(as_json, as_jsonl)
    if on_conflict not in ("skip", "replace", "fail"):
        raise typer.BadParameter("must be skip, replace or fail", param_hint="--on-conflict")
    env = get_env(ctx)
    api = env.api()
    params = {
        "on_conflict": on_conflict,
        "dry_run": str(dry_run).lower(),
        "title_untitled": str(title_untitled).lower(),
    }
    try:
        # Standard input is kept in a temporary file: the lines are read again in the import's order.
        stream: IO[bytes] = tempfile.TemporaryFile() if file == "-" else Path(file).open("rb")  # noqa: SIM115
    except OSError as exc:
        raise CliError(f"Error: cannot read {file}: {exc.strerror or exc}") from exc
    cursor = None
    with stream:
        if file == "-":
            shutil.copyfileobj(sys.stdin.buffer, stream)
            stream.seek(0)
        lines = import_plan.plan(stream)
        if not lines:
            # As the server's empty_body: an empty file is a mistake (a wrong path, an export that failed).
            name = "standard input" if file == "-" else file
            raise CliError(
                f"Nothing to import: {name} is empty. Give a JSONL export, one session per line.",
                ExitCode.USAGE,
            )
        if file != "-" and not dry_run:
            cursor = ImportCursor.load(env.config.home, Path(file), env.config.url, on_conflict)
            if cursor.done:
                note(f"Resuming the import of {file}: {cursor.done} of {len(lines)} lines were done before.")
        if on_conflict == "fail" and not (cursor is not None and cursor.done):
            _check_conflicts(api, stream.fileno(), lines, params)
        report = _import_lines(api, stream.fileno(), lines, params, cursor)
    if cursor is not None:
        cursor.clear()
    if out is Format.JSON:
        emit_json(report)
    elif out is Format.JSONL:
        emit_jsonl([report])
    else:
        verb = "Would import" if dry_run else "Imported"
        say(
            f"{verb} {report.get('imported', 0)} session(s) ({report.get('messages', 0)} messages); "
            f"replaced {report.get('replaced', 0)}, skipped {report.get('skipped', 0)}, "
            f"failed {report.get('failed', 0)}."
        )
        for issue in report.get("errors") or []:
            where = f"line {issue['line']}" if issue.get("line") is not None else issue.get("file") or "?"
            note(f"  {where}: {issue['code']}: {issue['detail']}")
    if report.get("failed"):
        raise typer.Exit(ExitCode.ERROR)
