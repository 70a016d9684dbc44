"""What a JSON document must respect before anything of it is stored: one policy for every body and line.

- nesting: at most :data:`MAX_DEPTH` levels of objects and arrays, the document itself counted as one. Stored
  JSON is rendered back inside envelopes (a message in a page, a session line in an export) by orjson,
  whose serializer refuses 255 levels; a bound well below that keeps every stored value renderable.
- integers: within SQLite's INTEGER (int64), so a value never turns into REAL or fails to bind;
- numbers: finite.

Timestamps and the other fields with a meaning are judged by :mod:`app.domain.field_rules`.

The walk is iterative, so a document of any depth is judged without recursion. Parsing uses orjson
(depth-limited, fast). orjson turns integers beyond 64 bits into floats, so a document holding a float that
could have been such an integer is parsed again exactly before it is judged.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

import orjson

MAX_DEPTH = 128
INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
# Epoch seconds from 1970-01-01 to 9999-12-31T23:59:59Z: what datetime (and so every client) can represent.
MIN_TIMESTAMP = 0.0
MAX_TIMESTAMP = 253_402_300_799.0

JSON_TOO_DEEP = "json_too_deep"
INTEGER_OUT_OF_RANGE = "integer_out_of_range"
NUMBER_NOT_FINITE = "number_not_finite"

Location = tuple[str | int, ...]


@dataclass(frozen=True)
class Violation:
    """The first place a document breaks the policy: a stable code, a sentence, and where."""

    code: str
    detail: str
    loc: Location = ()


def _too_deep(loc: Location, limit: int = MAX_DEPTH) -> Violation:
    return Violation(JSON_TOO_DEEP, f"JSON may nest at most {limit} levels of objects and arrays.", loc)


class _LongLiteral:
    """An integer literal too long to be in range, kept as its text: Python refuses to convert integer text
    beyond 4,300 digits (``sys.get_int_max_str_digits``), and no literal that long is an int64 anyway."""

    __slots__ = ("shown",)

    def __init__(self, text: str) -> None:
        self.shown = f"an integer of {len(text.lstrip('-'))} digits"


# Longer than any int64 in decimal (19 digits and a sign), so a longer literal is out of range.
_LONGEST_INT64 = 20


def _parse_int(text: str) -> int | _LongLiteral:
    return _LongLiteral(text) if len(text) > _LONGEST_INT64 else int(text)


# Where a node sits, as a linked list (key, parent) built in O(1) per node; a loc is rebuilt only for a
# violation.
_Trail = tuple[str | int, "_Trail"] | None


def _loc(trail: _Trail) -> Location:
    keys: list[str | int] = []
    while trail is not None:
        key, trail = trail
        keys.append(key)
    return tuple(reversed(keys))


def _walk(value: Any, limit: int = MAX_DEPTH) -> tuple[Violation | None, bool]:
    """The first violation in a parsed value (exact JSON types, as a parser makes them), and whether it
    holds a float orjson could have made from an integer beyond 64 bits (see :func:`check`). Only
    containers are pushed; scalars are judged in their parent's loop, text with one type test."""
    wide = False
    stack: list[tuple[Any, int, _Trail]] = [([value], 0, None)]
    while stack:
        node, depth, trail = stack.pop()
        if depth > limit:
            return _too_deep(_loc(trail), limit), wide
        if depth < limit and type(node) is list and len(node) > 1 and _plain_rows(node):
            continue
        for key, child in node.items() if type(node) is dict else enumerate(node):
            kind = type(child)
            if kind is str:
                continue
            if kind is dict or kind is list:
                stack.append((child, depth + 1, (key, trail) if depth else None))
            elif kind is int:
                if not INT64_MIN <= child <= INT64_MAX:
                    return _out_of_range(str(child), key, trail, depth), wide
            elif kind is _LongLiteral:
                return _out_of_range(child.shown, key, trail, depth), wide
            elif kind is float:
                if not math.isfinite(child):
                    return _not_finite(key, trail, depth), wide
                wide = wide or (abs(child) >= 2**63 and child.is_integer())
    return None, wide


_ROW_SCALARS = frozenset({str, type(None), bool, int, float})
_TEXT_LIKE = frozenset({str, type(None), bool})


def _plain_rows(node: list[Any]) -> bool:
    """Whether ``node`` is a table (lists of one width, sync's message rows) of scalars the walk would pass
    without a violation or a wide float, judged a column at a time at C speed; ``False`` sends it through the
    walk's own loop, which finds the first violation."""
    if set(map(type, node)) != {list} or len(set(map(len, node))) != 1:
        return False
    for column in zip(*node, strict=True):
        kinds = set(map(type, column))
        if kinds <= _TEXT_LIKE:
            continue
        if not kinds <= _ROW_SCALARS:
            return False
        if int in kinds:
            ints = [v for v in column if type(v) is int]
            if min(ints) < INT64_MIN or max(ints) > INT64_MAX:
                return False
        if float in kinds:
            floats = [v for v in column if type(v) is float]
            if not all(map(math.isfinite, floats)) or max(map(abs, floats)) >= 2**63:
                return False
    return True


def _child_loc(key: str | int, trail: _Trail, depth: int) -> Location:
    # The root is walked as the only child of a list at depth 0, which has no place of its own.
    return _loc((key, trail)) if depth else ()


def _out_of_range(value: str, key: str | int, trail: _Trail, depth: int) -> Violation:
    return Violation(
        INTEGER_OUT_OF_RANGE,
        f"Integers must be within -2^63 .. 2^63-1, not {value}.",
        _child_loc(key, trail, depth),
    )


def _not_finite(key: str | int, trail: _Trail, depth: int) -> Violation:
    return Violation(
        NUMBER_NOT_FINITE, "Numbers must be finite (no NaN, no Infinity).", _child_loc(key, trail, depth)
    )


EXPORT_LINE_ENVELOPE = 2
"""Levels an export line adds around a stored value beyond what the append body that stored it had
(session line > messages > message, against the appended message object), so a value the API accepted
always imports again."""


def check(value: Any, source: bytes | str, *, envelope: int = 0) -> Violation | None:
    """The first policy violation in ``value``, which orjson parsed from ``source``, or ``None``.

    ``envelope`` raises the depth bound by the levels the document wraps around its stored values.
    """
    limit = MAX_DEPTH + envelope
    violation, wide = _walk(value, limit)
    if violation is None and wide:
        # The depth is bounded now, so the recursive stdlib parser is safe; it keeps integers exact.
        violation = _walk(json.loads(source, parse_int=_parse_int), limit)[0]
    return violation


def loads(data: bytes | str) -> tuple[Any, Violation | None]:
    """Parse one JSON document and judge it: ``(value, None)``, or ``(None, violation)``.

    What orjson refuses besides depth (lone surrogates, NaN, a byte order mark, ...) is left to the standard
    library, the parser of record for what counts as JSON; it raises ``json.JSONDecodeError`` for text that
    is not JSON (bytes that are not UTF-8 included).
    """
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        if str(exc).startswith("depth limit exceeded"):
            return None, _too_deep(())
        try:
            value = json.loads(data, parse_int=_parse_int)
        except RecursionError:
            return None, _too_deep(())
        except UnicodeDecodeError as err:
            raise json.JSONDecodeError(f"the body is not UTF-8 text ({err.reason})", "", err.start) from err
        violation = _walk(value)[0]
    else:
        violation = check(value, data)
    return (None, violation) if violation is not None else (value, None)
