"""Where output goes: data on stdout, diagnostics on stderr; JSON never escapes non-ASCII."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable
from enum import StrEnum
from typing import TYPE_CHECKING, Any

import typer

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress, ProgressColumn


class Format(StrEnum):
    """How a data command prints its result."""

    TEXT = "text"
    JSON = "json"
    JSONL = "jsonl"


JsonOpt = typer.Option(False, "--json", help="Print one JSON document")
JsonlOpt = typer.Option(False, "--jsonl", help="Print one JSON object per line")


def pick_format(as_json: bool, as_jsonl: bool) -> Format:
    """The chosen output format (``--json`` and ``--jsonl`` exclude each other: usage error)."""
    if as_json and as_jsonl:
        raise typer.BadParameter("use either --json or --jsonl, not both")
    return Format.JSON if as_json else Format.JSONL if as_jsonl else Format.TEXT


def dumps(value: Any) -> str:
    """Compact JSON with non-ASCII characters kept as they are."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def emit_json(value: Any) -> None:
    """One JSON document on stdout."""
    typer.echo(json.dumps(value, ensure_ascii=False, indent=2))


def emit_jsonl(items: Iterable[Any]) -> None:
    """One JSON object per line on stdout."""
    for item in items:
        typer.echo(dumps(item))


def emit(
    out: Format, document: Any, lines: Callable[[], Iterable[str]], items: Iterable[Any] | None = None
) -> None:
    """A data command's result in the chosen format: as ``emit_data`` does, or ``lines()`` for people."""
    if out is Format.TEXT:
        for line in lines():
            say(line)
    else:
        emit_data(out, document, items)


def emit_data(out: Format, document: Any, items: Iterable[Any] | None = None) -> None:
    """``document`` as one JSON document (``--json``), or ``items`` (by default the document alone) as JSON
    lines (``--jsonl``)."""
    if out is Format.JSON:
        emit_json(document)
    else:
        emit_jsonl([document] if items is None else items)


def say(line: str = "") -> None:
    """A result line for people (stdout)."""
    typer.echo(line)


def note(line: str) -> None:
    """A diagnostic line (stderr)."""
    typer.echo(line, err=True)


def err_console() -> Console:
    """A rich console on the current stderr (looked up per call so test runners can capture it)."""
    from rich.console import Console  # rich loads only for a command that draws with it

    return Console(file=sys.stderr, highlight=False)


def stderr_progress(*columns: ProgressColumn | str, hidden: bool = False) -> Progress:
    """A transient progress display on stderr, shown only when stderr is a terminal (and not ``hidden``)."""
    from rich.progress import Progress

    return Progress(
        *columns, console=err_console(), transient=True, disable=hidden or not sys.stderr.isatty()
    )


def confirm(question: str) -> bool:
    """Ask ``question`` (ending in ``[y/N] ``); only ``y``/``yes`` agree. End of input means no, so a
    closed or empty stdin never hangs and never deletes anything."""
    typer.echo(question, nl=False)
    line = sys.stdin.readline()
    if not line:
        typer.echo()
        return False
    return line.strip().lower() in ("y", "yes")
