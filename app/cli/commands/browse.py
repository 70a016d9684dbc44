"""``hermes sessions browse``: pick a session and resume it. A curses picker on a terminal (type to
filter, arrows, Enter, Esc clears then exits); a numbered list with a prompt otherwise."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

import typer

from app.cli import formatting as fmt
from app.cli.commands.resume import resolve_resume, resume
from app.cli.commands.sessions import app, fetch_sessions
from app.cli.context import get_env
from app.cli.output import say


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


@dataclass
class Picker:
    """State of the interactive picker, kept apart from curses so its key handling is testable.

    Keys: ``up``, ``down``, ``enter``, ``esc``, ``backspace`` or one printable character.
    """

    sessions: list[dict[str, Any]]
    query: str = ""
    selected: int = 0
    done: bool = False
    chosen: str | None = None

    def shown(self) -> list[dict[str, Any]]:
        """The sessions matching the filter."""
        if not self.query:
            return self.sessions
        return [s for s in self.sessions if fmt.browse_matches(s, self.query)]

    def press(self, key: str) -> None:
        """Apply one key: move, filter, select (Enter), clear the filter then quit (Esc, or q unfiltered)."""
        shown = self.shown()
        if key == "up":
            self.selected = max(0, self.selected - 1)
        elif key == "down":
            self.selected = max(0, min(len(shown) - 1, self.selected + 1))
        elif key == "enter":
            if shown:
                self.done, self.chosen = True, str(shown[min(self.selected, len(shown) - 1)]["id"])
        elif key == "esc" or (key == "q" and not self.query):
            if self.query and key == "esc":
                self.query, self.selected = "", 0
            else:
                self.done = True
        elif key == "backspace":
            self.query, self.selected = self.query[:-1], 0
        elif len(key) == 1 and key.isprintable():
            self.query, self.selected = self.query + key, 0


def _key_name(key: int | str) -> str:
    import curses

    names = {
        curses.KEY_UP: "up",
        curses.KEY_DOWN: "down",
        curses.KEY_ENTER: "enter",
        curses.KEY_BACKSPACE: "backspace",
        "\n": "enter",
        "\r": "enter",
        "\x1b": "esc",
        "\b": "backspace",
        "\x7f": "backspace",
    }
    return names.get(key, key if isinstance(key, str) else "")


def curses_pick(sessions: list[dict[str, Any]]) -> str | None:
    """The interactive picker (needs a terminal on stdin and stdout)."""
    import curses

    picker = Picker(sessions)

    def run(screen: Any) -> None:
        curses.curs_set(0)
        top = 0
        while not picker.done:
            shown = picker.shown()
            height, width = screen.getmaxyx()
            rows = max(1, height - 3)
            top = min(max(top, picker.selected - rows + 1), picker.selected)
            screen.erase()
            header = f" Filter: {picker.query}_   (↑/↓ move, Enter resume, Esc clear/quit)"
            screen.addnstr(0, 0, header, width - 1, curses.A_BOLD)
            for offset, session in enumerate(shown[top : top + rows]):
                attr = curses.A_REVERSE if top + offset == picker.selected else curses.A_NORMAL
                screen.addnstr(offset + 2, 0, fmt.browse_line(top + offset + 1, session), width - 1, attr)
            if not shown:
                screen.addnstr(2, 0, "  No sessions match.", width - 1)
            screen.refresh()
            picker.press(_key_name(screen.get_wch()))

    curses.wrapper(run)
    return picker.chosen


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
