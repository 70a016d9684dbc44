"""``hermes sessions …``: list, browse, show, rename, delete, export, import, prune, stats, insights,
search. Messages follow the agent's CLI (reference §3.2-3.5)."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import typer
from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TransferSpeedColumn

from app.cli import formatting as fmt
from app.cli.api import Api
from app.cli.commands.common import require_session
from app.cli.context import get_env
from app.cli.errors import ApiError, CliError, ExitCode
from app.cli.output import (
    Format,
    JsonlOpt,
    JsonOpt,
    confirm,
    emit_json,
    emit_jsonl,
    err_console,
    note,
    pick_format,
    say,
)

app = typer.Typer(help="List, inspect, export and maintain sessions.", no_args_is_help=True)

PAGE_MAX = 200
_CHUNK = 64 * 1024


def fetch_sessions(api: Api, limit: int, source: str | None) -> list[dict[str, Any]]:
    """Up to ``limit`` sessions, newest first (the server hides tool/subagent unless asked by source)."""
    items: list[dict[str, Any]] = []
    params: dict[str, Any] = {"source": source} if source else {}
    cursor: str | None = None
    while len(items) < limit:
        page_params = {**params, "limit": min(PAGE_MAX, limit - len(items))}
        if cursor:
            page_params["cursor"] = cursor
        page = api.get("/sessions", feature="listing sessions", params=page_params)
        items.extend(page["items"])
        cursor = page.get("next_cursor")
        if not cursor:
            break
    return items[:limit]


@app.command("list")
def list_sessions(
    ctx: typer.Context,
    source: str | None = typer.Option(None, "--source", help="Only this source (e.g. cli, telegram, tool)"),
    limit: int = typer.Option(20, "--limit", min=1, help="How many sessions to show"),
    as_json: bool = JsonOpt,
    as_jsonl: bool = JsonlOpt,
) -> None:
    """List recent sessions (titled layout when any has a title)."""
    out = pick_format(as_json, as_jsonl)
    sessions = fetch_sessions(get_env(ctx).api(), limit, source)
    if out is Format.JSON:
        emit_json(sessions)
    elif out is Format.JSONL:
        emit_jsonl(sessions)
    else:
        for line in fmt.session_list_lines(sessions):
            say(line)


def _field_lines(session: dict[str, Any]) -> list[str]:
    shown = (
        "id",
        "title",
        "source",
        "model",
        "parent_session_id",
        "started_at",
        "ended_at",
        "end_reason",
        "last_active",
        "message_count",
        "tool_call_count",
        "input_tokens",
        "output_tokens",
        "estimated_cost_usd",
        "archived",
        "preview",
    )
    lines = []
    for key in shown:
        value = session.get(key)
        if key.endswith(("_at", "_active")) and isinstance(value, int | float):
            value = (
                f"{time.strftime('%Y-%m-%d %H:%M:%S', time.localtime(value))} ({fmt.relative_time(value)})"
            )
        lines.append(f"{key + ':':<20}{'' if value is None else value}")
    return lines


@app.command("show")
def show(
    ctx: typer.Context,
    session: str = typer.Argument(..., help="Session id or unique id prefix"),
    as_json: bool = JsonOpt,
    as_jsonl: bool = JsonlOpt,
) -> None:
    """Show one session's details."""
    out = pick_format(as_json, as_jsonl)
    api = get_env(ctx).api()
    session_id = require_session(api, session)
    data = api.get(f"/sessions/{_quote(session_id)}", feature="sessions")
    if out is Format.JSON:
        emit_json(data)
    elif out is Format.JSONL:
        emit_jsonl([data])
    else:
        for line in _field_lines(data):
            say(line)


def _quote(session_id: str) -> str:
    from urllib.parse import quote

    return quote(session_id, safe="")


@app.command("rename")
def rename(
    ctx: typer.Context,
    session: str = typer.Argument(..., help="Session id or unique id prefix"),
    title: list[str] = typer.Argument(..., help="The new title (several words are joined with spaces)"),
) -> None:
    """Set a session's title."""
    text = " ".join(title)
    if not text.strip():
        raise CliError("Error: title cannot be empty or whitespace-only.", ExitCode.USAGE)
    if "\n" in text or "\r" in text:
        raise CliError("Error: title cannot contain newlines.", ExitCode.USAGE)
    api = get_env(ctx).api()
    session_id = require_session(api, session)
    try:
        updated = api.send(
            "PATCH", f"/sessions/{_quote(session_id)}", feature="sessions", json={"title": text}
        )
    except ApiError as exc:
        if exc.code.startswith("title_") or exc.code == "invalid_title":
            raise CliError(f"Error: {exc.message}", exc.exit_code) from exc
        raise
    say(f"Session '{session_id}' renamed to: {updated.get('title')}")


@app.command("delete")
def delete(
    ctx: typer.Context,
    session: str = typer.Argument(..., help="Session id or unique id prefix"),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask for confirmation"),
) -> None:
    """Delete a session and all its messages."""
    api = get_env(ctx).api()
    session_id = require_session(api, session)
    if not yes and not confirm(f"Delete session '{session_id}' and all its messages? [y/N] "):
        say("Cancelled.")
        return
    api.send("DELETE", f"/sessions/{_quote(session_id)}", feature="sessions")
    say(f"Deleted session '{session_id}'.")


def _progress(label: str, total: int | None) -> Progress:
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
        _progress("Exporting", None) as progress,
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
) -> None:
    """Export sessions with their messages as JSONL (one session per line)."""
    api = get_env(ctx).api()
    params: dict[str, Any] = {}
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
    with _progress("Importing", size) as progress:
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
    if out is not Format.TEXT:
        (emit_json if out is Format.JSON else lambda r: emit_jsonl([r]))(report)
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


@app.command("prune")
def prune(
    ctx: typer.Context,
    older_than: int = typer.Option(90, "--older-than", min=0, help="Age in days (of the session start)"),
    source: str | None = typer.Option(None, "--source", help="Only sessions of this source"),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask for confirmation"),
    dry_run: bool = typer.Option(False, "--dry-run", help="List what would be deleted; delete nothing"),
    as_json: bool = JsonOpt,
    as_jsonl: bool = JsonlOpt,
) -> None:
    """Delete ended sessions older than N days (open sessions are never pruned)."""
    out = pick_format(as_json, as_jsonl)
    api = get_env(ctx).api()
    body: dict[str, Any] = {"older_than_days": older_than, "dry_run": dry_run}
    if source:
        body["source"] = source
    if not dry_run and not yes:
        where = f" from '{source}'" if source else ""
        if not confirm(f"Delete all ended sessions older than {older_than} days{where}? [y/N] "):
            say("Cancelled.")
            return
    result = api.send("POST", "/maintenance/prune", feature="prune", json=body)
    if out is Format.JSON:
        emit_json(result)
    elif out is Format.JSONL:
        emit_jsonl([result])
    elif dry_run:
        for session_id in result.get("ids") or []:
            say(session_id)
        say(f"Would prune {result['pruned']} session(s).")
    else:
        say(f"Pruned {result['pruned']} session(s).")


@app.command("stats")
def stats(ctx: typer.Context, as_json: bool = JsonOpt, as_jsonl: bool = JsonlOpt) -> None:
    """Session and message counts and the database size."""
    out = pick_format(as_json, as_jsonl)
    data = get_env(ctx).api().get("/stats", feature="stats")
    if out is Format.JSON:
        emit_json(data)
    elif out is Format.JSONL:
        emit_jsonl([data])
    else:
        for line in fmt.stats_lines(data):
            say(line)


def _insights_lines(data: dict[str, Any]) -> list[str]:
    totals = data["totals"]
    scope = f" ({data['source']})" if data.get("source") else ""
    lines = [
        f"Last {data['days']} days{scope}",
        f"  Sessions: {totals['sessions']}   Messages: {totals['messages']}",
        f"  Tokens: {totals['input_tokens']} in, {totals['output_tokens']} out   "
        f"Cost: ${totals['cost_usd']:.2f}",
    ]
    if data.get("by_model"):
        lines.append("By model:")
        lines += [
            f"  {row['model'] or '?':<30} {row['sessions']:>6} sessions  ${row['cost_usd']:.2f}"
            for row in data["by_model"]
        ]
    if data.get("by_source"):
        lines.append("By source:")
        lines += [f"  {row['source']:<30} {row['sessions']:>6} sessions" for row in data["by_source"]]
    if data.get("top_tools"):
        lines.append("Top tools:")
        lines += [f"  {row['tool']:<30} {row['calls']:>6} calls" for row in data["top_tools"]]
    return lines


@app.command("insights")
def insights(
    ctx: typer.Context,
    days: int = typer.Option(30, "--days", min=1, help="Window in days"),
    source: str | None = typer.Option(None, "--source", help="Only this source"),
    as_json: bool = JsonOpt,
    as_jsonl: bool = JsonlOpt,
) -> None:
    """Token and cost usage by model and source, and the most used tools."""
    out = pick_format(as_json, as_jsonl)
    params: dict[str, Any] = {"days": days}
    if source:
        params["source"] = source
    data = get_env(ctx).api().get("/insights", feature="insights", params=params)
    if out is Format.JSON:
        emit_json(data)
    elif out is Format.JSONL:
        emit_jsonl([data])
    else:
        for line in _insights_lines(data):
            say(line)


def _search_lines(data: dict[str, Any]) -> list[str]:
    results = data.get("results") or []
    if not results:
        return ["No matches."]
    lines = []
    for hit in results:
        title = hit.get("title") or fmt.EM_DASH
        when = fmt.relative_time(hit.get("started_at"))
        lines.append(f"{hit['session_id']}  {title}  [{hit.get('source') or '?'}]  {when}")
        if hit.get("snippet"):
            lines.append(f"    {' '.join(str(hit['snippet']).split())}")
    return lines


@app.command("search")
def search(
    ctx: typer.Context,
    query: str = typer.Argument(..., help='Words to find (FTS5 syntax: "phrases", OR, NOT, prefix*)'),
    limit: int = typer.Option(10, "--limit", min=1, max=50, help="Sessions to return (1-50)"),
    source: str | None = typer.Option(None, "--source", help="Only this source"),
    as_json: bool = JsonOpt,
    as_jsonl: bool = JsonlOpt,
) -> None:
    """Full-text search over messages; one result per conversation."""
    out = pick_format(as_json, as_jsonl)
    params: dict[str, Any] = {"q": query, "limit": limit}
    if source:
        params["source"] = source
    data = get_env(ctx).api().get("/search", feature="search", params=params)
    if out is Format.JSON:
        emit_json(data)
    elif out is Format.JSONL:
        emit_jsonl(data.get("results") or [])
    else:
        for line in _search_lines(data):
            say(line)
