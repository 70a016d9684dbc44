"""``hermes sessions prune`` / ``stats`` / ``insights`` (reference §3.4-3.5)."""

from __future__ import annotations

from typing import Any

import typer

from app.cli import formatting as fmt
from app.cli.commands.sessions import app
from app.cli.context import get_env
from app.cli.output import Format, JsonlOpt, JsonOpt, confirm, emit_json, emit_jsonl, pick_format, say


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
