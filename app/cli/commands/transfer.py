"""``hermes sessions export`` / ``import``: JSONL streamed both ways, with a progress bar on a terminal."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import typer
from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TransferSpeedColumn

from app.cli.api import Api
from app.cli.commands.common import require_session
from app.cli.commands.sessions import app
from app.cli.context import get_env
from app.cli.errors import CliError, ExitCode
from app.cli.output import (
    Format,
    JsonlOpt,
    JsonOpt,
    emit_json,
    emit_jsonl,
    err_console,
    note,
    pick_format,
    say,
)

_CHUNK = 64 * 1024


def _progress(label: str) -> Progress:
    """A transfer bar on stderr, shown only when stderr is a terminal."""
    return Progress(
        TextColumn(label),
        BarColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
        console=err_console(),
        transient=True,
        disable=not sys.stderr.isatty(),
    )


def _write_export(api: Api, params: dict[str, Any], sink: IO[bytes]) -> int:
    lines = 0
    with (
        api.stream("/export.jsonl", feature="export", params=params) as response,
        _progress("Exporting") as progress,
    ):
        task = progress.add_task("export", total=None)
        for chunk in response.iter_bytes(_CHUNK):
            sink.write(chunk)
            lines += chunk.count(b"\n")
            progress.advance(task, len(chunk))
    sink.flush()
    return lines


@app.command("export")
def export(
    ctx: typer.Context,
    output: str = typer.Argument(..., help="Output file (JSONL), or - for stdout"),
    source: str | None = typer.Option(None, "--source", help="Only sessions of this source"),
    session_id: str | None = typer.Option(None, "--session-id", help="Only this session (id or prefix)"),
    lineage: str | None = typer.Option(
        None,
        "--lineage",
        metavar="logical",
        help="logical: the session's whole compression lineage as one record (needs --session-id)",
    ),
) -> None:
    """Export sessions with their messages as JSONL (one session per line)."""
    if lineage is not None and lineage != "logical":
        raise typer.BadParameter("the only lineage mode is 'logical'", param_hint="--lineage")
    if lineage and not session_id:
        raise typer.BadParameter("a logical lineage export needs --session-id", param_hint="--lineage")
    api = get_env(ctx).api()
    params: dict[str, Any] = {"lineage": "true"} if lineage else {}
    if source:
        params["source"] = source
    if session_id:
        params["session_id"] = require_session(api, session_id)
    if output == "-":
        _write_export(api, params, sys.stdout.buffer)
        return
    path = Path(output)
    partial = path.with_name(path.name + ".partial")
    try:
        with partial.open("wb") as sink:
            count = _write_export(api, params, sink)
        partial.replace(path)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise CliError(f"Error: cannot write {output}: {exc.strerror or exc}") from exc
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    if session_id:
        say(f"Exported 1 session to {output}")
    else:
        say(f"Exported {count} sessions to {output}")


def _upload(stream: IO[bytes], size: int | None) -> Iterator[bytes]:
    with _progress("Importing") as progress:
        task = progress.add_task("import", total=size)
        while chunk := stream.read(_CHUNK):
            progress.advance(task, len(chunk))
            yield chunk


@app.command("import")
def import_(
    ctx: typer.Context,
    file: str = typer.Argument(..., help="A JSONL export (ours or the agent's), or - for stdin"),
    on_conflict: str = typer.Option("skip", "--on-conflict", help="skip, replace or fail on existing ids"),
    dry_run: bool = typer.Option(False, "--dry-run", help="Check the file; write nothing"),
    as_json: bool = JsonOpt,
    as_jsonl: bool = JsonlOpt,
) -> None:
    """Import sessions from a JSONL export file."""
    out = pick_format(as_json, as_jsonl)
    if on_conflict not in ("skip", "replace", "fail"):
        raise typer.BadParameter("must be skip, replace or fail", param_hint="--on-conflict")
    api = get_env(ctx).api()
    params = {"on_conflict": on_conflict, "dry_run": str(dry_run).lower()}
    headers = {"Content-Type": "application/jsonl"}
    try:
        stream: IO[bytes] = sys.stdin.buffer if file == "-" else Path(file).open("rb")  # noqa: SIM115
    except OSError as exc:
        raise CliError(f"Error: cannot read {file}: {exc.strerror or exc}") from exc
    with stream:
        size = None if file == "-" else Path(file).stat().st_size
        response = api.request(
            "POST",
            "/import",
            feature="import",
            params=params,
            content=_upload(stream, size),
            headers=headers,
        )
    report = response.json()
    if out is Format.JSON:
        emit_json(report)
    elif out is Format.JSONL:
        emit_jsonl([report])
    else:
        verb = "Would import" if dry_run else "Imported"
        say(
            f"{verb} {report['imported']} session(s) ({report['messages']} messages); "
            f"replaced {report['replaced']}, skipped {report['skipped']}, failed {report['failed']}."
        )
        for issue in report.get("errors") or []:
            where = f"line {issue['line']}" if issue.get("line") is not None else issue.get("file") or "?"
            note(f"  {where}: {issue['code']}: {issue['detail']}")
    if report.get("failed"):
        raise typer.Exit(ExitCode.ERROR)
