"""``hermes sessions prune`` / ``archive`` / ``repair`` / ``optimize`` / ``vacuum`` / ``backup`` / ``stats`` /
``insights`` (prune, archive, repair and optimize in the words of hermes-agent 0.19.0)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import typer

from app.cli import formatting as fmt
from app.cli.api import Api
from app.cli.commands.filters import Filters, with_filters
from app.cli.commands.sessions import app
from app.cli.context import get_env
from app.cli.errors import ApiError, CliError, ExitCode
from app.cli.output import (
    Format,
    JsonlOpt,
    JsonOpt,
    confirm,
    emit,
    emit_data,
    pick_format,
    say,
    stderr_progress,
)

if TYPE_CHECKING:
    from rich.progress import Progress

# The agent shows at most this many candidates above its confirmation question.
PREVIEW_ROWS = 15
# Sessions per request once confirmed: each answer advances the progress bar.
CHUNK = 100


def busy(label: str) -> Progress:
    """A spinner with elapsed time on stderr while one long request runs; nothing when stderr is piped."""
    from rich.progress import SpinnerColumn, TextColumn, TimeElapsedColumn

    return stderr_progress(SpinnerColumn(), TextColumn(label), TimeElapsedColumn())


def _run_busy(label: str, call: Callable[[], Any]) -> Any:
    with busy(label) as progress:
        progress.add_task(label, total=None)
        return call()


def _post_busy(ctx: typer.Context, out: Format, label: str, operation: str) -> dict[str, Any] | None:
    """``POST /maintenance/<operation>`` under a spinner: the answer for text output, or ``None`` once it
    has been printed as JSON."""
    api = get_env(ctx).api()
    data: dict[str, Any] = _run_busy(
        label, lambda: api.send("POST", f"/maintenance/{operation}", feature=operation)
    )
    if out is not Format.TEXT:
        emit_data(out, data)
        return None
    return data


@dataclass(frozen=True)
class _Bulk:
    """What differs between prune and archive: the endpoint, the words, the count key."""

    path: str
    feature: str
    verb: str
    done_word: str
    count_key: str


_PRUNE = _Bulk("/maintenance/prune", "prune", "Delete", "deleted", "pruned")
_ARCHIVE = _Bulk("/maintenance/archive", "archive", "Archive", "archived", "archived")


def _in_chunks(bulk: _Bulk, api: Api, body: dict[str, Any], ids: list[str]) -> dict[str, Any]:
    """Send the confirmed ``ids`` a chunk at a time, with a progress bar on a terminal (quiet when piped);
    the merged answer."""
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    total: dict[str, Any] = {"dry_run": False, bulk.count_key: 0}
    with stderr_progress(
        TextColumn(f"{bulk.verb.rstrip('e')}ing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()
    ) as progress:
        task = progress.add_task(bulk.feature, total=len(ids))
        for start in range(0, len(ids), CHUNK):
            part = ids[start : start + CHUNK]
            answer = api.send(
                "POST", bulk.path, feature=bulk.feature, json={**body, "session_ids": part, "dry_run": False}
            )
            for key, value in answer.items():
                if isinstance(value, int) and not isinstance(value, bool):
                    total[key] = total.get(key, 0) + value
            progress.advance(task, len(part))
    return total


def _say_kept(preview: dict[str, Any]) -> None:
    """The sessions the criteria match that prune leaves alone, and why (a prune answer says)."""
    reasons = [
        f"{n} {why}"
        for n, why in ((preview.get("kept_open"), "open"), (preview.get("kept_pinned"), "pinned"))
        if n
    ]
    if reasons:
        kept = int(preview.get("kept_open") or 0) + int(preview.get("kept_pinned") or 0)
        say(f"  Keeps {kept} more matching session(s): {', '.join(reasons)} (never pruned).")


def _bulk(
    bulk: _Bulk, api: Api, body: dict[str, Any], described: str, out: Format, dry_run: bool, yes: bool
) -> dict[str, Any] | None:
    """The agent's prune/archive dialogue: the matches, oldest first, with their span; the question; then
    the work in chunks. The answer, or ``None`` when nothing was done."""
    preview = api.send("POST", bulk.path, feature=bulk.feature, json={**body, "dry_run": True})
    found: list[dict[str, Any]] = list(preview.get("candidates") or [])
    if out is not Format.TEXT and dry_run:
        emit_data(out, preview)
        return None
    if not found:
        if out is Format.TEXT:
            say(f"No sessions match ({described}).")
            _say_kept(preview)
        else:
            emit_data(out, preview)
        return None
    oldest, newest = fmt.format_epoch(found[0]["started_at"]), fmt.format_epoch(found[-1]["started_at"])
    span = f"oldest {oldest}, newest {newest}"
    if dry_run or not yes:
        shown = found if dry_run else found[:PREVIEW_ROWS]
        say(f"{len(found)} session(s) match ({described}; {span}):")
        for row in shown:
            say(fmt.prune_row(row))
        if len(found) > len(shown):
            say(f"  … and {len(found) - len(shown)} more")
        if bulk is _PRUNE:
            size = int(preview["reclaimable_bytes"]) / 1048576
            say(f"  {preview['messages']} message(s) in all; about {size:.1f} MB of stored content.")
            _say_kept(preview)
        if dry_run:
            say(f"Dry run — nothing {bulk.done_word}.")
            return None
    if not yes and not confirm(f"{bulk.verb} these {len(found)} session(s) ({span})? [y/N] "):
        say("Cancelled.")
        return None
    return _in_chunks(bulk, api, body, [row["id"] for row in found])


@app.command("prune")
@with_filters(
    older_help="Delete sessions older than AGE — days if bare number, or a duration like '5h'/'2d'/'1w', or "
    "an ISO timestamp (bare prune with no filters defaults to 90 days; any filter matches all ages)"
)
def prune(
    ctx: typer.Context,
    filters: Filters,
    include_archived: bool = typer.Option(
        False, "--include-archived", help="Also delete archived sessions (excluded by default)"
    ),
    dry_run: bool = typer.Option(False, "--dry-run", help="List matching sessions without changing anything"),
    yes: bool = typer.Option(False, "--yes", "-y", help="Skip confirmation"),
    as_json: bool = JsonOpt,
    as_jsonl: bool = JsonlOpt,
) -> None:
    """Delete old sessions (filterable by time window, source, title, ...); open and pinned sessions are
    never pruned. Shows what matches and asks before deleting."""
    out = pick_format(as_json, as_jsonl)
    if not filters.given():
        filters = filters.with_older_than("90")  # the agent's default for a truly bare prune
    body: dict[str, Any] = {**filters.request(), "include_archived": include_archived}
    if filters.window()[0] is None:
        # As the agent since 0.19: any filter, --source included, matches every age (the server keeps its
        # 90-day default for a lone source); the preview and the question are the safety net.
        body["older_than_days"] = 0
    result = _bulk(_PRUNE, get_env(ctx).api(), body, filters.describe(), out, dry_run, yes)
    if result is None:
        return
    if out is Format.TEXT:
        say(f"Pruned {result['pruned']} session(s).")
    else:
        emit_data(out, result)


@app.command("archive")
@with_filters(
    older_help="Only archive sessions older than AGE (duration like '5h'/'2d', bare number of days, or ISO "
    "timestamp)"
)
def archive(
    ctx: typer.Context,
    filters: Filters,
    dry_run: bool = typer.Option(False, "--dry-run", help="List matching sessions without changing anything"),
    yes: bool = typer.Option(False, "--yes", "-y", help="Skip confirmation"),
    as_json: bool = JsonOpt,
    as_jsonl: bool = JsonlOpt,
) -> None:
    """Bulk-archive (soft-hide) sessions matching filters — no deletion. Pinned sessions are left alone."""
    out = pick_format(as_json, as_jsonl)
    if not filters.given():
        raise CliError(
            "Refusing to archive every ended session: pass at least one filter (e.g. --newer-than 5h, "
            "--source cli, --title codex).",
            ExitCode.USAGE,
        )
    result = _bulk(_ARCHIVE, get_env(ctx).api(), filters.request(), filters.describe(), out, dry_run, yes)
    if result is None:
        return
    if out is Format.TEXT:
        say(
            f"Archived {result['archived']} session(s). They're hidden from listings but fully recoverable "
            "(nothing was deleted)."
        )
    else:
        emit_data(out, result)


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
        emit_data(out, data)
        return
    before, after = _total(data, "_before"), _total(data)
    say(f"Optimized {len(data.get('fts_optimized') or [])} FTS index(es).")
    say(f"Database size: {before:.1f} MB -> {after:.1f} MB (reclaimed {before - after:.1f} MB)")


@app.command("vacuum")
def vacuum(ctx: typer.Context, as_json: bool = JsonOpt, as_jsonl: bool = JsonlOpt) -> None:
    """VACUUM state.db (after an FTS merge and a WAL checkpoint): the file shrinks by its free pages."""
    data = _post_busy(ctx, pick_format(as_json, as_jsonl), "Vacuuming…", "vacuum")
    if data is None:
        return
    before, after = _total(data, "_before"), _total(data)
    say(
        f"Vacuumed in {float(data['duration_s']):.1f} s: {before:.1f} MB -> {after:.1f} MB "
        f"(reclaimed {int(data['reclaimed_bytes']) / 1048576:.1f} MB)."
    )


@app.command("backup")
def backup(ctx: typer.Context, as_json: bool = JsonOpt, as_jsonl: bool = JsonlOpt) -> None:
    """Write a consistent copy of state.db to $HERMES_HOME/backups/ (VACUUM INTO, mode 0600)."""
    data = _post_busy(ctx, pick_format(as_json, as_jsonl), "Backing up…", "backup")
    if data is None:
        return
    say(f"Backed up state.db to {data['path']} ({int(data['bytes']) / 1048576:.1f} MB).")


@app.command("repair")
def repair(
    ctx: typer.Context,
    check_only: bool = typer.Option(
        False, "--check-only", help="Only report whether the database opens cleanly; do not modify it"
    ),
    no_backup: bool = typer.Option(
        False, "--no-backup", help="Skip the timestamped backup copy (not recommended)"
    ),
    as_json: bool = JsonOpt,
    as_jsonl: bool = JsonlOpt,
) -> None:
    """Check state.db (integrity, search index, a test write) and repair what is found; sessions and
    messages are preserved. A backup is made first."""
    out = pick_format(as_json, as_jsonl)
    api = get_env(ctx).api()

    body = {"check_only": check_only, "backup": not no_backup}
    result = _run_busy(
        "Checking…" if check_only else "Checking and repairing…",
        lambda: api.send("POST", "/maintenance/repair", feature="repair", json=body),
    )
    if out is not Format.TEXT:
        emit_data(out, result)
    elif result["healthy"]:
        say(f"✓ {result['path']} opens cleanly — no repair needed.")
    else:
        say(f"✗ {result['path']} does not open cleanly: {'; '.join(result['problems'][:3])}")
        if not check_only:
            _repair_lines(result)
    if not result["healthy"] and (check_only or not result["repaired"]):
        raise typer.Exit(ExitCode.ERROR)


def _repair_lines(result: dict[str, Any]) -> None:
    say("Repairing (a backup copy is made first)…")
    if result["repaired"]:
        if result.get("backup_path"):
            say(f"  backup: {result['backup_path']}")
        say(f"  strategy: {result.get('strategy')}")
        say(f"✓ Repaired — {result['sessions']} sessions recovered.")
        return
    say(f"✗ Repair failed: {result.get('error')}")
    if result.get("backup_path"):
        say(f"  A backup is preserved at: {result['backup_path']}")
    say("  Keep state.db and the backup; do not delete them.")


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
