"""``hermes sessions prune`` / ``stats`` / ``insights`` (reference §3.4-3.5)."""

from __future__ import annotations

import time
from typing import Any

import typer

from app.cli import formatting as fmt
from app.cli.commands.sessions import app
from app.cli.context import get_env
from app.cli.output import Format, JsonlOpt, JsonOpt, confirm, emit_json, emit_jsonl, pick_format, say
from app.domain.retention import parse_older_than

_FILTER_LABELS = (
    ("title", "title"),
    ("model", "model"),
    ("provider", "provider"),
    ("branch", "branch"),
    ("end_reason", "end reason"),
    ("min_messages", "at least messages"),
    ("max_messages", "at most messages"),
)


def _prune_question(older_than: str | None, source: str | None, filters: dict[str, Any]) -> str:
    where = f" from '{source}'" if source else ""
    if not filters:
        # The agent's own prompt (reference §3.4) when only an age and a source are given.
        days = older_than if older_than is not None else "90"
        age = f"{days} days" if days.replace(".", "", 1).isdigit() else days
        return f"Delete all ended sessions older than {age}{where}? [y/N] "
    criteria = ", ".join(f"{label} {filters[key]!r}" for key, label in _FILTER_LABELS if key in filters)
    age = f"older than {older_than}" if older_than is not None else "of any age"
    return f"Delete all ended sessions {age}{where} matching {criteria}? [y/N] "


@app.command("prune")
def prune(
    ctx: typer.Context,
    older_than: str | None = typer.Option(
        None,
        "--older-than",
        help="Age of the session start: 30m, 5h, 2d, 1w, a number of days, or an ISO date. "
        "Default 90 days, or any age when a filter below is given",
    ),
    source: str | None = typer.Option(None, "--source", help="Only sessions of this source"),
    title: str | None = typer.Option(None, "--title", help="Title contains this (case-insensitive)"),
    model: str | None = typer.Option(None, "--model", help="Model contains this (case-insensitive)"),
    provider: str | None = typer.Option(None, "--provider", help="Billing provider (case-insensitive)"),
    branch: str | None = typer.Option(None, "--branch", help="Git branch contains this (case-insensitive)"),
    end_reason: str | None = typer.Option(None, "--end-reason", help="Ended with this reason"),
    min_messages: int | None = typer.Option(None, "--min-messages", min=0, help="At least N messages"),
    max_messages: int | None = typer.Option(None, "--max-messages", min=0, help="At most N messages"),
    include_archived: bool = typer.Option(False, "--include-archived", help="Also prune archived sessions"),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask for confirmation"),
    dry_run: bool = typer.Option(False, "--dry-run", help="List what would be deleted; delete nothing"),
    as_json: bool = JsonOpt,
    as_jsonl: bool = JsonlOpt,
) -> None:
    """Delete ended sessions older than an age and/or matching filters (open sessions are never pruned)."""
    out = pick_format(as_json, as_jsonl)
    if older_than is not None:
        try:
            parse_older_than(older_than, time.time())
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--older-than") from None
    filters = {
        key: value
        for key, value in (
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
    body: dict[str, Any] = {**filters, "dry_run": dry_run, "include_archived": include_archived}
    if older_than is not None:
        body["older_than"] = older_than
    if source:
        body["source"] = source
    if not dry_run and not yes and not confirm(_prune_question(older_than, source, filters)):
        say("Cancelled.")
        return
    api = get_env(ctx).api()
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
