"""``hermes sessions prune`` / ``optimize`` / ``vacuum`` / ``backup`` / ``stats`` / ``insights``
(reference §3.4-3.5; prune and optimize in the words of hermes-agent 0.19.0)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

import typer
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from app.cli import formatting as fmt
from app.cli.api import Api
from app.cli.commands.sessions import app
from app.cli.context import get_env
from app.cli.errors import ApiError, CliError
from app.cli.output import (
    Format,
    JsonlOpt,
    JsonOpt,
    confirm,
    emit,
    emit_json,
    emit_jsonl,
    err_console,
    pick_format,
    say,
)
from app.domain.retention import parse_older_than

# (body key, the agent's words in describe_filters) of the filters the server takes.
_DESCRIBE: tuple[tuple[str, str], ...] = (
    ("source", "source '{}'"),
    ("title", "title contains '{}'"),
    ("end_reason", "end reason '{}'"),
    ("min_messages", ">= {} messages"),
    ("max_messages", "<= {} messages"),
    ("model", "model contains '{}'"),
    ("provider", "provider '{}'"),
    ("branch", "git branch contains '{}'"),
)
# The agent shows at most this many candidates above its confirmation question.
PREVIEW_ROWS = 15


def describe_filters(body: dict[str, Any], cutoff: float | None) -> str:
    """The agent's ``describe_filters`` for what this prune matches."""
    parts = [f"started before {fmt.format_epoch(cutoff)}"] if cutoff is not None else []
    parts += [words.format(body[key]) for key, words in _DESCRIBE if body.get(key) is not None]
    return ", ".join(parts) if parts else "no filters (all ended sessions)"


def _upper_bound(older_than: str | None, before: str | None) -> str | None:
    """``--older-than`` and ``--before`` both bound the start from above; the tighter one wins, sent as an
    explicit UTC time when both are given (the value as typed otherwise, so ``90`` still means days)."""
    now = time.time()
    bounds: list[tuple[float, str]] = []
    for flag, value in (("--older-than", older_than), ("--before", before)):
        if value is None:
            continue
        try:
            bounds.append((parse_older_than(value, now), value))
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint=flag) from None
    if not bounds:
        return None
    if len(bounds) == 1:
        return bounds[0][1]
    return datetime.fromtimestamp(min(bounds)[0], UTC).isoformat()


def busy(label: str) -> Progress:
    """A spinner with elapsed time on stderr while one long request runs; nothing when stderr is piped."""
    return Progress(
        SpinnerColumn(),
        TextColumn(label),
        TimeElapsedColumn(),
        console=err_console(),
        transient=True,
        disable=not sys.stderr.isatty(),
    )


def _run_busy(label: str, call: Callable[[], Any]) -> Any:
    with busy(label) as progress:
        progress.add_task(label, total=None)
        return call()


def _emit(out: Format, data: dict[str, Any]) -> None:
    if out is Format.JSON:
        emit_json(data)
    else:
        emit_jsonl([data])


def _details(api: Api, ids: list[str]) -> list[dict[str, Any]]:
    rows = []
    for session_id in ids:
        try:
            rows.append(api.get(f"/sessions/{quote(session_id, safe='')}", feature="sessions"))
        except ApiError as exc:
            if exc.status != 404:  # pruned or deleted meanwhile: leave it out of the table
                raise
    return rows


@app.command("prune")
def prune(
    ctx: typer.Context,
    older_than: str | None = typer.Option(
        None,
        "--older-than",
        metavar="AGE",
        help="Delete sessions older than AGE — days if bare number, or a duration like '5h'/'2d'/'1w', or "
        "an ISO timestamp (bare prune with no filters defaults to 90 days; any filter matches all ages)",
    ),
    before: str | None = typer.Option(
        None,
        "--before",
        metavar="TIME",
        help="Only match sessions started before TIME (duration ago like '5h', or ISO timestamp)",
    ),
    source: str | None = typer.Option(None, "--source", help="Only match sessions from this source"),
    title: str | None = typer.Option(
        None, "--title", help="Only match sessions whose title contains this substring"
    ),
    end_reason: str | None = typer.Option(
        None, "--end-reason", help="Only match sessions with this end reason"
    ),
    min_messages: int | None = typer.Option(
        None, "--min-messages", min=0, help="Only match sessions with >= N messages"
    ),
    max_messages: int | None = typer.Option(
        None, "--max-messages", min=0, help="Only match sessions with <= N messages"
    ),
    model: str | None = typer.Option(
        None, "--model", help="Only match sessions whose model name contains this substring"
    ),
    provider: str | None = typer.Option(
        None, "--provider", help="Only match sessions billed through this provider"
    ),
    branch: str | None = typer.Option(
        None, "--branch", help="Only match sessions whose git branch contains this substring"
    ),
    include_archived: bool = typer.Option(
        False, "--include-archived", help="Also delete archived sessions (excluded by default)"
    ),
    dry_run: bool = typer.Option(False, "--dry-run", help="List matching sessions without changing anything"),
    yes: bool = typer.Option(False, "--yes", "-y", help="Skip confirmation"),
    as_json: bool = JsonOpt,
    as_jsonl: bool = JsonlOpt,
) -> None:
    """Delete old ended sessions (filterable by time window, source, title, ...); open sessions are never
    pruned. Shows what matches and asks before deleting."""
    out = pick_format(as_json, as_jsonl)
    bound = _upper_bound(older_than, before)
    filters = {
        key: value
        for key, value in (
            ("source", source),
            ("title", title),
            ("model", model),
            ("provider", provider),
            ("branch", branch),
            ("end_reason", end_reason),
            ("min_messages", min_messages),
            ("max_messages", max_messages),
        )
        if value is not None
    }
    body: dict[str, Any] = {**filters, "include_archived": include_archived}
    if bound is not None:
        body["older_than"] = bound
    elif filters:
        # As the agent since 0.19: any filter, --source included, matches every age (the server keeps its
        # 90-day default for a lone source); the preview and the question below are the safety net.
        body["older_than_days"] = 0
    api = get_env(ctx).api()
    preview = api.send("POST", "/maintenance/prune", feature="prune", json={**body, "dry_run": True})
    ids: list[str] = list(preview.get("ids") or [])
    cutoff = preview.get("cutoff") if (bound is not None or not filters) else None
    described = describe_filters(body, cutoff)
    if out is not Format.TEXT and dry_run:
        _emit(out, preview)
        return
    if not ids:
        if out is Format.TEXT:
            say(f"No sessions match ({described}).")
        else:
            _emit(out, preview)
        return
    span = ""
    if dry_run or not yes:
        shown_ids = ids if dry_run else ids[:PREVIEW_ROWS]
        ends = _details(api, [ids[0], ids[-1]])
        span = f"oldest {fmt.format_epoch(ends[0].get('started_at') if ends else None)}, newest " + (
            fmt.format_epoch(ends[-1].get("started_at") if ends else None)
        )
        say(f"{len(ids)} session(s) match ({described}; {span}):")
        for row in _details(api, shown_ids):
            say(fmt.prune_row(row))
        if len(ids) > len(shown_ids):
            say(f"  … and {len(ids) - len(shown_ids)} more")
        size = int(preview["reclaimable_bytes"]) / 1048576
        say(f"  {preview['messages']} message(s) in all; about {size:.1f} MB of stored content.")
        if dry_run:
            say("Dry run — nothing deleted.")
            return
    if not yes and not confirm(f"Delete these {len(ids)} session(s) ({span})? [y/N] "):
        say("Cancelled.")
        return
    label = f"Pruning {len(ids)} session(s)…"
    result = _run_busy(
        label,
        lambda: api.send("POST", "/maintenance/prune", feature="prune", json={**body, "dry_run": False}),
    )
    if out is Format.TEXT:
        say(f"Pruned {result['pruned']} session(s).")
    else:
        _emit(out, result)


def _total(data: dict[str, Any], suffix: str = "") -> float:
    return (int(data[f"database_bytes{suffix}"]) + int(data[f"wal_bytes{suffix}"])) / (1024 * 1024)


@app.command("optimize")
def optimize(
    ctx: typer.Context,
    no_vacuum: bool = typer.Option(
        False, "--no-vacuum", help="Only merge FTS segments and checkpoint the WAL (quick; no rewrite)"
    ),
    as_json: bool = JsonOpt,
    as_jsonl: bool = JsonlOpt,
) -> None:
    """Reclaim disk space: merge FTS5 segments + VACUUM (no data change)."""
    out = pick_format(as_json, as_jsonl)
    api = get_env(ctx).api()
    if out is Format.TEXT:
        say(
            "Optimizing session store (FTS merge + VACUUM)…"
            if not no_vacuum
            else "Optimizing session store (FTS merge)…"
        )
    path = "/maintenance/optimize" if no_vacuum else "/maintenance/vacuum"
    try:
        data = _run_busy("Optimizing…", lambda: api.send("POST", path, feature="optimize"))
    except ApiError as exc:
        raise CliError(f"Error: optimization failed: {exc.message}", exc.exit_code) from exc
    if out is not Format.TEXT:
        _emit(out, data)
        return
    before, after = _total(data, "_before"), _total(data)
    say(f"Optimized {len(data.get('fts_optimized') or [])} FTS index(es).")
    say(f"Database size: {before:.1f} MB -> {after:.1f} MB (reclaimed {before - after:.1f} MB)")


@app.command("vacuum")
def vacuum(ctx: typer.Context, as_json: bool = JsonOpt, as_jsonl: bool = JsonlOpt) -> None:
    """VACUUM state.db (after an FTS merge and a WAL checkpoint): the file shrinks by its free pages."""
    out = pick_format(as_json, as_jsonl)
    api = get_env(ctx).api()
    data = _run_busy("Vacuuming…", lambda: api.send("POST", "/maintenance/vacuum", feature="vacuum"))
    if out is not Format.TEXT:
        _emit(out, data)
        return
    before, after = _total(data, "_before"), _total(data)
    say(
        f"Vacuumed in {float(data['duration_s']):.1f} s: {before:.1f} MB -> {after:.1f} MB "
        f"(reclaimed {int(data['reclaimed_bytes']) / 1048576:.1f} MB)."
    )


@app.command("backup")
def backup(ctx: typer.Context, as_json: bool = JsonOpt, as_jsonl: bool = JsonlOpt) -> None:
    """Write a consistent copy of state.db to $HERMES_HOME/backups/ (VACUUM INTO, mode 0600)."""
    out = pick_format(as_json, as_jsonl)
    api = get_env(ctx).api()
    data = _run_busy("Backing up…", lambda: api.send("POST", "/maintenance/backup", feature="backup"))
    if out is not Format.TEXT:
        _emit(out, data)
        return
    say(f"Backed up state.db to {data['path']} ({int(data['bytes']) / 1048576:.1f} MB).")


@app.command("stats")
def stats(ctx: typer.Context, as_json: bool = JsonOpt, as_jsonl: bool = JsonlOpt) -> None:
    """Session and message counts and the database size."""
    out = pick_format(as_json, as_jsonl)
    data = get_env(ctx).api().get("/stats", feature="stats")
    emit(out, data, lambda: fmt.stats_lines(data))


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
    emit(out, data, lambda: _insights_lines(data))
