"""The agent's shared filter flags (``hermes sessions list|prune|archive``), declared once.

:func:`with_filters` adds the flags to a command and hands it one :class:`Filters` instead of twenty-odd
parameters. Time values are checked here with the agent's words; a naive ISO time is the user's local time
(the agent's reading), so it is sent to the server with the local offset attached.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

import typer

from app.cli import formatting as fmt
from app.cli.errors import CliError, ExitCode
from app.cli.output import note
from app.domain.session_filter import (
    EmptyTimeWindow,
    InvalidTimeValue,
    TimeBounds,
    duration_seconds,
    time_window,
)
from app.domain.sources import Source, suggest_source

F = TypeVar("F", bound=Callable[..., Any])

_TIME_FLAGS = ("older_than", "newer_than", "before", "after")

# The agent's numeric ranges: a ``min_`` criterion (>=) and a ``max_`` one (<=) over the same quantity.
_BOUNDS = (("min", ">="), ("max", "<="))


def _bounds(quantity: str, kind: type, help_text: str) -> tuple[tuple[str, type, None, str], ...]:
    """The two flags of a range; ``help_text`` takes the comparison."""
    return tuple((f"{end}_{quantity}", kind, None, help_text.format(op)) for end, op in _BOUNDS)


def _bounds_words(quantity: str, words: str) -> tuple[tuple[str, str], ...]:
    """The two describe_filters phrases of a range; ``words`` keeps its ``{}`` for the value."""
    return tuple((f"{end}_{quantity}", f"{op} {words}") for end, op in _BOUNDS)


# (name, type, metavar, help) in the agent's order and words; ``older_than``'s help is per command.
_FLAGS: tuple[tuple[str, type, str | None, str], ...] = (
    ("older_than", str, "AGE", ""),
    (
        "newer_than",
        str,
        "AGE",
        "Only match sessions started within the last AGE (e.g. '5h', '2d') or after an ISO timestamp",
    ),
    (
        "before",
        str,
        "TIME",
        "Only match sessions started before TIME (duration ago like '5h', or ISO timestamp like "
        "'2026-07-05 14:30')",
    ),
    (
        "after",
        str,
        "TIME",
        "Only match sessions started at/after TIME (duration ago like '5h', or ISO timestamp)",
    ),
    ("source", str, None, "Only match sessions from this source"),
    ("title", str, None, "Only match sessions whose title contains this substring"),
    ("end_reason", str, None, "Only match sessions with this end reason"),
    ("cwd", str, None, "Only match sessions whose working directory is under this path"),
    *_bounds("messages", int, "Only match sessions with {} N messages"),
    (
        "model",
        str,
        None,
        "Only match sessions whose model name contains this substring (e.g. 'sonnet', 'gpt-5', 'hermes')",
    ),
    (
        "provider",
        str,
        None,
        "Only match sessions billed through this provider (e.g. openrouter, anthropic, nous)",
    ),
    ("user", str, None, "Only match sessions from this user ID"),
    ("chat_id", str, None, "Only match sessions from this chat/channel ID"),
    ("chat_type", str, None, "Only match sessions with this chat type (e.g. dm, group)"),
    ("branch", str, None, "Only match sessions whose git branch contains this substring"),
    *_bounds("tokens", int, "Only match sessions with {} N total tokens (input+output)"),
    *_bounds("cost", float, "Only match sessions costing {} N USD (actual or estimated)"),
    *_bounds("tool_calls", int, "Only match sessions with {} N tool calls"),
)

# The agent's describe_filters words, in its order, for the criteria (time bounds come first).
_WORDS: tuple[tuple[str, str], ...] = (
    ("source", "source '{}'"),
    ("title", "title contains '{}'"),
    ("end_reason", "end reason '{}'"),
    ("cwd", "cwd under '{}'"),
    *_bounds_words("messages", "{} messages"),
    ("model", "model contains '{}'"),
    ("provider", "provider '{}'"),
    ("user", "user '{}'"),
    ("chat_id", "chat '{}'"),
    ("chat_type", "chat type '{}'"),
    ("branch", "git branch contains '{}'"),
    *_bounds_words("tokens", "{} tokens"),
    *_bounds_words("cost", "${}"),
    *_bounds_words("tool_calls", "{} tool calls"),
)


@dataclass(frozen=True)
class Filters:
    """The filter flags given (``None`` where absent)."""

    values: dict[str, Any]

    def given(self, *, time: bool = True) -> bool:
        """Whether any filter is set (``time=False``: any besides the four time flags)."""
        return any(v is not None for k, v in self.values.items() if time or k not in _TIME_FLAGS)

    def with_older_than(self, value: str) -> Filters:
        """These filters with ``--older-than`` set (the agent's bare-prune default)."""
        return Filters({**self.values, "older_than": value})

    def window(self) -> tuple[float | None, float | None]:
        """``(started_before, started_after)`` in epoch seconds, as the server will read them; a bad value
        stops the command with the agent's words."""
        bounds = TimeBounds(**{k: _localized(self.values[k]) for k in _TIME_FLAGS})
        try:
            return time_window(bounds, datetime.now().timestamp(), lambda name: "--" + name.replace("_", "-"))
        except InvalidTimeValue as exc:
            raise CliError(f"Error: {exc}", ExitCode.USAGE) from None
        except EmptyTimeWindow as exc:
            raise CliError(
                "Error: Empty time window: the --after/--newer-than bound "
                f"({fmt.format_epoch(exc.started_after)}) is not earlier than the --before/--older-than "
                f"bound ({fmt.format_epoch(exc.started_before)}).",
                ExitCode.USAGE,
            ) from None

    def request(self) -> dict[str, Any]:
        """The filters as the API takes them (absent ones left out; naive times with the local offset)."""
        self.window()
        note_unknown_source(self.values.get("source"))
        return {
            k: (_localized(v) if k in _TIME_FLAGS else v) for k, v in self.values.items() if v is not None
        }

    def describe(self) -> str:
        """The agent's ``describe_filters`` for these filters."""
        before, after = self.window()
        parts = [f"started before {fmt.format_epoch(before)}"] if before is not None else []
        if after is not None:
            parts.append(f"started after {fmt.format_epoch(after)}")
        parts += [
            words.format(self.values[key]) for key, words in _WORDS if self.values.get(key) not in (None, "")
        ]
        return ", ".join(parts) if parts else "no filters (all ended sessions)"


def note_unknown_source(source: str | None) -> None:
    """Say on stderr which source a mistyped ``--source`` probably means (the filter still applies as typed:
    a session may carry a source of its own)."""
    if source is None or source in Source.__members__:
        return
    meant = suggest_source(source)
    guess = f"; did you mean {meant}?" if meant else f". Sources: {', '.join(s.value for s in Source)}."
    note(f"Note: no session source is called '{source}'{guess}")


def _localized(value: str | None) -> str | None:
    """A naive ISO time as the user's local time, with its offset; anything else as typed."""
    if value is None or duration_seconds(value) is not None:
        return value
    try:
        moment = datetime.fromisoformat(value.strip())
    except ValueError:
        return value  # the window check reports it
    return (moment.astimezone() if moment.tzinfo is None else moment).isoformat()


def with_filters(*, older_help: str, source: bool = True) -> Callable[[F], F]:
    """Add the filter flags to a command; it receives them as ``filters: Filters``. ``source=False`` leaves
    ``--source`` to the command (the listing's own, repeatable one)."""
    flags = [f for f in _FLAGS if source or f[0] != "source"]

    def decorate(command: F) -> F:
        signature = inspect.signature(command)
        own = [p for p in signature.parameters.values() if p.name != "filters"]
        added = [
            inspect.Parameter(
                name,
                inspect.Parameter.KEYWORD_ONLY,
                default=typer.Option(
                    None,
                    "--" + name.replace("_", "-"),
                    metavar=metavar,
                    help=older_help if name == "older_than" else text,
                ),
                annotation=kind | None,
            )
            for name, kind, metavar, text in flags
        ]
        names = {name for name, *_ in flags}

        @functools.wraps(command)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            values = {name: kwargs.pop(name) for name in names}
            return command(*args, filters=Filters(values), **kwargs)

        wrapper.__signature__ = signature.replace(parameters=[*own, *added])  # type: ignore[attr-defined]
        hints = {k: v for k, v in inspect.get_annotations(command, eval_str=True).items() if k != "filters"}
        wrapper.__annotations__ = {**hints, **{p.name: p.annotation for p in added}}
        return wrapper  # type: ignore[return-value]

    return decorate
