"""``hermes sessions browse``: pick a session and resume it. A curses picker on a terminal (type to
filter, arrows, Enter, Esc clears then exits); a numbered list with a prompt otherwise."""

from __future__ import annotations

import sys
from typing import Any

import typer

from app.cli import formatting as fmt
from app.cli.commands.resume import resolve_resume, resume
from app.cli.commands.sessions import app, fetch_sessions
from app.cli.context import get_env
from app.cli.output import say

_ESC = 27
_ENTER = (10, 13)
_BACKSPACE = (8, 127)


def numbered_pick(sessions: list[dict[str, Any]]) -> str | None:
    """The agent's fallback: numbered rows, ``Select [1-N]:``; empty, ``q`` or end of input cancels."""
    say("\n  Browse sessions  (enter number to resume, q to cancel)\n")
    for index, session in enumerate(sessions, start=1):
        say(fmt.browse_line(index, session))
    while True:
        typer.echo(f"\n  Select [1-{len(sessions)}]: ", nl=False)
        line = sys.stdin.readline()
        value = line.strip()
        if not line or not value or value.lower() in ("q", "quit", "exit"):
            if not line:
                typer.echo()
            return None
        try:
            index = int(value)
        except ValueError:
            say("  Invalid input. Enter a number or q to cancel.")
            continue
        if 1 <= index <= len(sessions):
            return str(sessions[index - 1]["id"])
        say(f"  Invalid selection. Enter 1-{len(sessions)} or q to cancel.")


def curses_pick(sessions: list[dict[str, Any]]) -> str | None:
    """The interactive picker (needs a terminal on stdin and stdout)."""
    import curses

    def run(screen: Any) -> str | None:
        curses.curs_set(0)
        query, selected, top = "", 0, 0
        while True:
            shown = [s for s in sessions if fmt.browse_matches(s, query)] if query else sessions
            selected = min(selected, max(0, len(shown) - 1))
            height, width = screen.getmaxyx()
            rows = max(1, height - 3)
            top = min(max(top, selected - rows + 1), selected)
            screen.erase()
            header = f" Filter: {query}_   (↑/↓ move, Enter resume, Esc clear/quit)"
            screen.addnstr(0, 0, header, width - 1, curses.A_BOLD)
            for offset, session in enumerate(shown[top : top + rows]):
                line = fmt.browse_line(top + offset + 1, session)
                attr = curses.A_REVERSE if top + offset == selected else curses.A_NORMAL
                screen.addnstr(offset + 2, 0, line, width - 1, attr)
            if not shown:
                screen.addnstr(2, 0, "  No sessions match.", width - 1)
            screen.refresh()
            key = screen.get_wch()
            if key == curses.KEY_UP:
                selected = max(0, selected - 1)
            elif key == curses.KEY_DOWN:
                selected = min(len(shown) - 1, selected + 1)
            elif key in _ENTER or key in ("\n", "\r"):
                if shown:
                    return str(shown[selected]["id"])
            elif key == _ESC or key == "\x1b":
                if not query:
                    return None
                query, selected = "", 0
            elif key in _BACKSPACE or key in ("\b", "\x7f", curses.KEY_BACKSPACE):
                query = query[:-1]
            elif key == "q" and not query:
                return None
            elif isinstance(key, str) and key.isprintable():
                query, selected = query + key, 0

    result: str | None = curses.wrapper(run)
    return result


@app.command("browse")
def browse(
    ctx: typer.Context,
    source: str | None = typer.Option(None, "--source", help="Only this source"),
    limit: int = typer.Option(50, "--limit", min=1, help="How many recent sessions to offer"),
) -> None:
    """Pick a recent session interactively and resume it."""
    env = get_env(ctx)
    sessions = fetch_sessions(env.api(), limit, source)
    if not sessions:
        say("No sessions found.")
        return
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    chosen: str | None = None
    if interactive:
        try:
            chosen = curses_pick(sessions)
        except Exception:  # no usable terminal (TERM unset, tiny window): the agent falls back too
            interactive = False
    if not interactive:
        chosen = numbered_pick(sessions)
    if chosen is None:
        return
    typer.echo(f"Resuming session: {chosen}", err=True)
    resume(env, resolve_resume(env.api(), chosen))
