"""``hermes sessions``: the group, and list, show, rename, delete. Messages follow the agent's CLI;
browse, export/import, prune/stats/insights and search live in sibling modules."""

from __future__ import annotations

import itertools
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from enum import StrEnum
from typing import Any
from urllib.parse import quote

import typer

from app.cli import formatting as fmt
from app.cli import transcript
from app.cli.api import Api
from app.cli.commands.common import require_session, resolve_exact_or_prefix
from app.cli.commands.filters import Filters, note_unknown_source, with_filters
from app.cli.commands.resume import resolve_continue
from app.cli.context import get_env
from app.cli.errors import ApiError, CliError, ExitCode
from app.cli.output import (
    Format,
    JsonlOpt,
    JsonOpt,
    confirm,
    emit,
    emit_json,
    emit_jsonl,
    note,
    pick_format,
    say,
)

app = typer.Typer(
    help="List, inspect, export and maintain sessions.", no_args_is_help=True, rich_markup_mode=None
)

PAGE_MAX = 200
# Messages per request when a transcript is read.
MESSAGE_PAGE = 200


def fetch_sessions(
    api: Api,
    limit: int,
    source: str | None,
    keep: Callable[[dict[str, Any]], bool] | None = None,
    search: str | None = None,
    filters: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """Up to ``limit`` sessions, newest first (the server hides tool/subagent unless asked by source);
    ``search`` is the server's ``q`` (id, title or preview substring), ``filters`` the agent's filter set as
    the API takes it; with ``keep``, only those it accepts, reading on until ``limit`` are found or the store
    is exhausted."""
    items: list[dict[str, Any]] = []
    params: dict[str, Any] = {**(filters or {}), **({"source": source} if source else {})}
    if search:
        params["q"] = search
    cursor: str | None = None
    while len(items) < limit:
        wanted = PAGE_MAX if keep is not None else min(PAGE_MAX, limit - len(items))
        page_params = {**params, "limit": wanted}
        if cursor:
            page_params["cursor"] = cursor
        page = api.get("/sessions", feature="listing sessions", params=page_params)
        items.extend(s for s in page["items"] if keep is None or keep(s))
        cursor = page.get("next_cursor")
        if not cursor:
            break
    return items[:limit]


@app.command("list")
@with_filters(
    older_help="Only list sessions older than AGE (duration like '5h'/'2d', bare number of days, or an ISO "
    "timestamp)",
    source=False,
)
def list_sessions(
    ctx: typer.Context,
    filters: Filters,
    source: str | None = typer.Option(None, "--source", help="Only this source (e.g. cli, telegram, tool)"),
    limit: int = typer.Option(20, "--limit", min=1, help="How many sessions to show"),
    workspace: str | None = typer.Option(
        None,
        "--workspace",
        metavar="NEEDLE",
        help="Only sessions in one workspace: a git repo root or project dir "
        "(matched by path substring or basename).",
    ),
    search: str | None = typer.Option(
        None,
        "--search",
        "-q",
        metavar="TEXT",
        help="Only sessions whose id, title or preview contains TEXT "
        "(ASCII letters in either case; % and _ literal).",
    ),
    as_json: bool = JsonOpt,
    as_jsonl: bool = JsonlOpt,
) -> None:
    """List recent sessions (titled layout when any has a title); the filter flags are prune's."""
    out = pick_format(as_json, as_jsonl)
    note_unknown_source(source)
    needle = (workspace or "").strip()
    keep = (lambda s: fmt.in_workspace(s, needle)) if needle else None
    sessions = fetch_sessions(
        get_env(ctx).api(), limit, source, keep, search=search or None, filters=filters.request()
    )
    emit(out, sessions, lambda: fmt.session_list_lines(sessions, workspace=bool(needle)), items=sessions)


def _field_lines(session: dict[str, Any]) -> list[str]:
    shown = (
        "id",
        "title",
        "title_source",
        "source",
        "model",
        "pinned",
        "home",
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
        "cwd",
        "git_branch",
        "git_repo_root",
        "profile_name",
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


def iter_messages(api: Api, session_id: str) -> Iterator[dict[str, Any]]:
    """The session's active messages in order, a page of the API's message paging at a time."""
    params: dict[str, Any] = {"limit": MESSAGE_PAGE}
    while True:
        page = api.get(f"/sessions/{_quote(session_id)}/messages", feature="messages", params=params)
        yield from page["items"]
        if not page.get("next_cursor"):
            return
        params["cursor"] = page["next_cursor"]


class ShowFormat(StrEnum):
    """How ``show --messages`` prints the transcript."""

    TEXT = "text"
    MD = "md"


def _page_out(lines: Iterator[str], pager: bool) -> None:
    """Through ``$PAGER`` (``less -FRX``) on a terminal, fed as pages arrive, so quitting the pager stops
    the reading; straight to stdout, line by line, when piped."""
    if not (pager and sys.stdout.isatty() and sys.stdin.isatty()):
        for line in lines:
            say(line)
        return
    try:
        proc = subprocess.Popen(
            shlex.split(os.environ.get("PAGER") or "less -FRX"),
            stdin=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )
    except (OSError, ValueError):
        for line in lines:
            say(line)
        return
    assert proc.stdin is not None
    try:
        for line in lines:
            proc.stdin.write(f"{line}\n")
        proc.stdin.close()
    except BrokenPipeError:
        pass  # the user left the pager: stop reading pages
    finally:
        proc.wait()


def _lineage_lines(chain: list[dict[str, Any]], shown: str) -> list[str]:
    """One line per segment of the compression chain, root first, the shown session marked."""
    lines = [f"lineage:            {len(chain)} segment{'' if len(chain) == 1 else 's'}, root first"]
    for n, segment in enumerate(chain, 1):
        mark = "*" if segment["id"] == shown else " "
        started = time.strftime("%Y-%m-%d %H:%M", time.localtime(segment["started_at"]))
        lines.append(
            f" {mark}{n:>3}. {segment['id']}  {started}  {int(segment.get('message_count') or 0)} messages  "
            f"{segment.get('end_reason') or 'open'}  {segment.get('title') or ''}".rstrip()
        )
    return lines


def _resolve_shown(api: Api, ref: str) -> str:
    """The session ``show`` prints: an exact id or unique prefix as named, a title as ``-c`` resolves it
    (its lineage's newest ``title #N``, followed to the compression tip)."""
    session_id = resolve_exact_or_prefix(api, ref)
    if session_id is not None:
        return session_id
    resolved = resolve_continue(api, ref)
    if resolved.get("requested") != resolved["id"]:
        note(f"Session {resolved['requested']} was compressed into {resolved['id']}; showing the latter.")
    return str(resolved["id"])


@app.command("show")
def show(
    ctx: typer.Context,
    session: str = typer.Argument(..., help="Session id, unique id prefix or title (resolved as -c does)"),
    lineage: bool = typer.Option(
        False, "--lineage", help="The whole compression chain: its segments, or with --messages all of them"
    ),
    messages: bool = typer.Option(False, "--messages", "-m", help="Print the transcript"),
    tools: bool = typer.Option(False, "--tools", help="With --messages: show tool calls and results"),
    form: ShowFormat = typer.Option(ShowFormat.TEXT, "--format", help="With --messages: text or md"),
    pager: bool = typer.Option(True, "--pager/--no-pager", help="Page the transcript on a terminal"),
    as_json: bool = JsonOpt,
    as_jsonl: bool = JsonlOpt,
) -> None:
    """Show one session's details, or with --messages its transcript (paged on a terminal)."""
    out = pick_format(as_json, as_jsonl)
    if (tools or form is not ShowFormat.TEXT) and not messages:
        raise typer.BadParameter("--tools and --format go with --messages")
    if form is not ShowFormat.TEXT and out is not Format.TEXT:
        raise typer.BadParameter("use either --format md or --json/--jsonl, not both")
    api = get_env(ctx).api()
    session_id = _resolve_shown(api, session)
    data = api.get(f"/sessions/{_quote(session_id)}", feature="sessions")
    chain: list[dict[str, Any]] = []
    if lineage:
        chain = api.get(f"/sessions/{_quote(session_id)}/lineage", feature="lineage")["items"]
        data = {**data, "lineage": chain}
    if messages:
        segments = [str(s["id"]) for s in chain] if lineage else [session_id]
        stream = itertools.chain.from_iterable(iter_messages(api, sid) for sid in segments)
        if out is Format.JSON:
            emit_json({**data, "messages": list(stream)})
        elif out is Format.JSONL:
            emit_jsonl(stream)
        elif form is ShowFormat.MD:
            _page_out(transcript.markdown_lines(data, stream, tools=tools), pager)
        else:
            lines = itertools.chain(
                transcript.transcript_header(data), transcript.text_lines(stream, tools=tools)
            )
            _page_out(lines, pager)
        return
    emit(out, data, lambda: _field_lines(data) + (_lineage_lines(chain, session_id) if lineage else []))


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


def _set_pin(ctx: typer.Context, session: str, pinned: bool) -> str:
    api = get_env(ctx).api()
    session_id = require_session(api, session)
    api.send("PUT" if pinned else "DELETE", f"/sessions/{_quote(session_id)}/pin", feature="pins")
    return session_id


@app.command("pin")
def pin(
    ctx: typer.Context,
    session: str = typer.Argument(..., help="Session id or unique id prefix"),
) -> None:
    """Pin a session: prune, auto-prune and archive never touch it."""
    session_id = _set_pin(ctx, session, True)
    say(f"Pinned session '{session_id}': prune, auto-prune and archive will keep it.")


@app.command("unpin")
def unpin(
    ctx: typer.Context,
    session: str = typer.Argument(..., help="Session id or unique id prefix"),
) -> None:
    """Remove a session's pin."""
    say(f"Unpinned session '{_set_pin(ctx, session, False)}'.")
