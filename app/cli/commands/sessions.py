"""``hermes sessions``: the group, and list, show, rename, delete. Messages follow the agent's CLI
(reference §3.2, §3.4). browse, export/import, prune/stats/insights and search live in sibling modules."""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import quote

import typer

from app.cli import formatting as fmt
from app.cli.api import Api
from app.cli.commands.common import require_session
from app.cli.context import get_env
from app.cli.errors import ApiError, CliError, ExitCode
from app.cli.output import Format, JsonlOpt, JsonOpt, confirm, emit_json, emit_jsonl, pick_format, say

app = typer.Typer(
    help="List, inspect, export and maintain sessions.", no_args_is_help=True, rich_markup_mode=None
)

PAGE_MAX = 200


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
