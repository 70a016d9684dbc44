"""The field rules every write path applies: the API's request bodies, import lines, sync rows and appends.

One rule per kind of field, each answering the same code and sentence wherever the value comes from, so a
value the API refuses is refused by import and sync too (and the reverse):

- timestamps: numbers (not text, not booleans), finite, epoch seconds from 1970 to 9999;
- counts (tokens, messages, tool calls, API calls): integers from 0 to 2^63-1;
- flags (``active``, ``archived``, ``hidden``, ``pinned``): 0 or 1 (JSON ``true``/``false`` are 1 and 0);
- titles: text or null, at most :data:`~app.domain.titles.MAX_TITLE_LENGTH` characters once cleaned as the
  agent cleans them;
- session ids: :func:`app.domain.ids.session_id_problem`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.domain.ids import session_id_problem
from app.domain.json_policy import INT64_MAX, MAX_TIMESTAMP, MIN_TIMESTAMP
from app.domain.titles import TitleTooLong, sanitize_title

TIMESTAMP_OUT_OF_RANGE = "timestamp_out_of_range"
COUNT_OUT_OF_RANGE = "count_out_of_range"
FLAG_NOT_BINARY = "flag_not_binary"
TITLE_NOT_TEXT = "title_not_text"
TITLE_TOO_LONG = "title_too_long"
INVALID_SESSION_ID = "invalid_session_id"

SESSION_TIMESTAMPS = ("started_at", "ended_at", "last_activity_at")
SESSION_COUNTS = (
    "message_count",
    "tool_call_count",
    "input_tokens",
    "output_tokens",
    "cache_read_tokens",
    "cache_write_tokens",
    "reasoning_tokens",
    "api_call_count",
)
SESSION_FLAGS = ("archived", "hidden", "pinned")
MESSAGE_COUNTS = ("token_count",)
MESSAGE_FLAGS = ("active",)


@dataclass(frozen=True)
class FieldProblem:
    """Why one field's value is refused: the field, a stable code and a sentence."""

    field: str
    code: str
    detail: str

    def as_dict(self) -> dict[str, str]:
        """The JSON shape (a sync report entry, an import issue's parts)."""
        return {"field": self.field, "code": self.code, "detail": self.detail}


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _name(field: str) -> str:
    # The sentence names the field itself (``timestamp``), the same on every path; ``field`` says where.
    return field.rpartition(".")[2]


def timestamp_problem(field: str, value: Any) -> FieldProblem | None:
    """Why a timestamp is refused (``None`` is no timestamp, and fine)."""
    # NaN fails both comparisons; integers compare exactly, however large.
    if value is None or (_number(value) and MIN_TIMESTAMP <= value <= MAX_TIMESTAMP):
        return None
    return FieldProblem(
        field,
        TIMESTAMP_OUT_OF_RANGE,
        f"{_name(field)} must be epoch seconds within {MIN_TIMESTAMP:.0f} .. {MAX_TIMESTAMP:.0f}",
    )


def count_problem(field: str, value: Any) -> FieldProblem | None:
    """Why a count is refused (``None``: no count)."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if value is None or (type(value) is int and 0 <= value <= INT64_MAX):
        return None
    return FieldProblem(
        field, COUNT_OUT_OF_RANGE, f"{_name(field)} must be an integer within 0 .. {INT64_MAX}"
    )


def flag_problem(field: str, value: Any) -> FieldProblem | None:
    """Why a 0/1 flag is refused (``None``: the column's default)."""
    if value is None or value in (0, 1):  # True == 1, False == 0, 1.0 == 1
        return None
    return FieldProblem(field, FLAG_NOT_BINARY, f"{_name(field)} must be 0 or 1")


def title_problem(value: Any, field: str = "title") -> FieldProblem | None:
    """Why a title is refused (``None`` clears it)."""
    if value is None:
        return None
    if not isinstance(value, str):
        return FieldProblem(field, TITLE_NOT_TEXT, f"{field} must be text or null")
    try:
        sanitize_title(value)
    except TitleTooLong as exc:
        return FieldProblem(field, TITLE_TOO_LONG, str(exc))
    return None


def id_problem(value: Any, field: str = "id") -> FieldProblem | None:
    """Why a session id is refused."""
    problem = session_id_problem(value) if isinstance(value, str) else "Session id must be text."
    return None if problem is None else FieldProblem(field, INVALID_SESSION_ID, problem)


def session_problem(row: Mapping[str, Any]) -> FieldProblem | None:
    """The first field of a session row (import line, sync row) that breaks a rule, or ``None``.

    Message timestamps of an import line (``messages[i].timestamp``) are judged with the messages."""
    problem = id_problem(row.get("id")) or title_problem(row.get("title"))
    for field in SESSION_TIMESTAMPS:
        problem = problem or timestamp_problem(field, row.get(field))
    for field in SESSION_COUNTS:
        problem = problem or count_problem(field, row.get(field))
    for field in SESSION_FLAGS:
        problem = problem or flag_problem(field, row.get(field))
    return problem


def message_problem(row: Mapping[str, Any], where: str = "") -> FieldProblem | None:
    """The first field of a message (import line's ``messages[i]``, sync row) that breaks a rule, or
    ``None``; ``where`` prefixes the field's name (``messages[3].``)."""
    problem = timestamp_problem(f"{where}timestamp", row.get("timestamp"))
    for field in MESSAGE_COUNTS:
        problem = problem or count_problem(f"{where}{field}", row.get(field))
    for field in MESSAGE_FLAGS:
        problem = problem or flag_problem(f"{where}{field}", row.get(field))
    return problem
