"""Decoding JSON text stored by someone else (the agent, another process, an older build) into a value
every response and export line can encode. No I/O.

Our own writes are bounded by the request policy, but ``state.db`` is shared: a row may hold JSON nested
deeper than orjson encodes (it refuses 255 levels, and the value sits a few levels down in a response), an
integer beyond 64 bits, or a ``\\udXXX`` escape that decodes to a lone surrogate (not UTF-8). Such a value is
not rendered; in its place readers get an *unrenderable marker*, an object with the stored text unchanged::

    {"unrenderable": {"reason": "nesting_too_deep" | "integer_out_of_range" | "invalid_unicode",
                      "raw": "<the stored JSON text>"}}

so one bad row is reported where it sits and never fails the page, the list or the stream around it.

The checks cost two ``str.count`` and two regex scans of the stored text (C speed); the value is walked
only when the text could hold a problem.
"""

from __future__ import annotations

import json
import re
from typing import Any

# Deepest stored value rendered. Responses put a value at most ~6 levels down (search windows, lineage
# export segments) and orjson refuses 255 levels in all; the request policy admits 128.
MAX_RENDER_DEPTH = 200
# What orjson encodes: signed 64-bit and unsigned 64-bit integers.
MIN_RENDER_INT = -(2**63)
MAX_RENDER_INT = 2**64 - 1

UNRENDERABLE_KEY = "unrenderable"
NESTING_TOO_DEEP = "nesting_too_deep"
INTEGER_OUT_OF_RANGE = "integer_out_of_range"
INVALID_UNICODE = "invalid_unicode"

# 20 digits in a row can exceed 2**64 - 1; fewer cannot.
_LONG_DIGITS = re.compile(r"\d{20}")
# A surrogate escape: the only way JSON text that is valid UTF-8 decodes to a lone surrogate.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def unrenderable(reason: str, raw: str) -> dict[str, Any]:
    """The marker standing in for a stored value that cannot be rendered."""
    return {UNRENDERABLE_KEY: {"reason": reason, "raw": raw}}


def is_unrenderable(value: Any) -> bool:
    """Whether ``value`` is an unrenderable marker (see the module docstring)."""
    return isinstance(value, dict) and len(value) == 1 and isinstance(value.get(UNRENDERABLE_KEY), dict)


def load_stored(raw: str) -> Any:
    """``raw`` JSON text decoded (Python's ``json``, as the agent decodes it), or the unrenderable marker.

    Raises ``ValueError`` for text that is not JSON at all: callers keep their own fallback for that (the
    agent's: raw content text, ``[]`` for ``tool_calls``).
    """
    try:
        value = json.loads(raw)
    except RecursionError:
        return unrenderable(NESTING_TOO_DEEP, raw)
    reason = _problem(value, raw)
    return value if reason is None else unrenderable(reason, raw)


def may_be_unrenderable(raw: str) -> bool:
    """Whether ``raw`` could hold a value :func:`load_stored` reports (cheap scans; no decoding). When this
    is false, any JSON decoder gives the value ``load_stored`` would."""
    return (
        raw.count("[") + raw.count("{") > MAX_RENDER_DEPTH
        or _LONG_DIGITS.search(raw) is not None
        or _SURROGATE_ESCAPE.search(raw) is not None
    )


def _problem(value: Any, raw: str) -> str | None:
    deep = raw.count("[") + raw.count("{") > MAX_RENDER_DEPTH
    big = _LONG_DIGITS.search(raw) is not None
    surrogates = _SURROGATE_ESCAPE.search(raw) is not None
    if not (deep or big or surrogates):
        return None
    return _walk(value, check_depth=deep, check_ints=big, check_text=surrogates)


def _walk(value: Any, *, check_depth: bool, check_ints: bool, check_text: bool) -> str | None:
    # Iterative: the value may be nested far deeper than Python's recursion limit allows a walk.
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            if check_depth and depth > MAX_RENDER_DEPTH:
                return NESTING_TOO_DEEP
            if check_text and any(_SURROGATE.search(key) for key in item):
                return INVALID_UNICODE
            stack.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            if check_depth and depth > MAX_RENDER_DEPTH:
                return NESTING_TOO_DEEP
            stack.extend((child, depth + 1) for child in item)
        elif isinstance(item, str):
            if check_text and _SURROGATE.search(item):
                return INVALID_UNICODE
        elif check_ints and isinstance(item, int) and not MIN_RENDER_INT <= item <= MAX_RENDER_INT:
            return INTEGER_OUT_OF_RANGE
    return None


def renderable(value: Any, depth: int = 1) -> Any:
    """``value`` (an already decoded response body) with each part orjson cannot encode replaced by the
    unrenderable marker: containers deeper than ``MAX_RENDER_DEPTH``, integers beyond 64 bits, text with
    lone surrogates, bytes. Used only after a plain encode failed, so its cost never touches a normal
    response."""
    if isinstance(value, dict):
        if depth > MAX_RENDER_DEPTH:
            return unrenderable(NESTING_TOO_DEEP, _raw_text(value))
        return {_key(k): renderable(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        if depth > MAX_RENDER_DEPTH:
            return unrenderable(NESTING_TOO_DEEP, _raw_text(value))
        return [renderable(v, depth + 1) for v in value]
    if isinstance(value, str):
        return unrenderable(INVALID_UNICODE, json.dumps(value)) if _SURROGATE.search(value) else value
    if isinstance(value, bytes | bytearray | memoryview):
        return unrenderable(INVALID_UNICODE, bytes(value).decode("utf-8", "backslashreplace"))
    if (
        isinstance(value, int)
        and not isinstance(value, bool)
        and not MIN_RENDER_INT <= value <= MAX_RENDER_INT
    ):
        return unrenderable(INTEGER_OUT_OF_RANGE, str(value))
    return value


def _key(key: Any) -> str:
    if not isinstance(key, str):
        return str(key)
    return json.dumps(key)[1:-1] if _SURROGATE.search(key) else key


def _raw_text(value: Any) -> str:
    try:
        return json.dumps(value)
    except (RecursionError, TypeError, ValueError):
        return ""


# The largest value an INTEGER counter holds (SQLite's int64); counters saturate here.
MAX_COUNTER = 2**63 - 1


def stored_counter(value: Any) -> int:
    """A counter column as stored, as an int in ``0..MAX_COUNTER``.

    The agent's counters are INTEGER, but an increment past int64 makes SQLite store a REAL (even ``Inf``),
    and other writers may leave NULL or text: those read as the nearest counter value, never an error.
    """
    if type(value) is int and 0 <= value < MAX_COUNTER:
        return value  # the stored form of nearly every counter: the checks below are for the rest
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0
    if value != value or value <= 0:  # NaN, zero, negatives
        return 0
    if value >= MAX_COUNTER:
        return MAX_COUNTER
    return int(value)


# A JSON string token, or a run of anything but whitespace and quotes: joining every match drops exactly
# the whitespace between tokens.
_JSON_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[^ \t\n\r"]+')


def minified(raw: str) -> str:
    """JSON text ``raw`` without the whitespace between its tokens, every token kept as written (numbers in
    their stored form, string escapes as they are): what SQLite's ``json()`` writes for it. ``raw`` must
    be valid JSON."""
    if " " not in raw and "\n" not in raw and "\t" not in raw and "\r" not in raw:
        return raw
    return "".join(_JSON_TOKEN.findall(raw))
