"""``hermes sessions import`` of a file of any size: its lines in parents-first order, cut into request
bodies under the server's body limit.

An export lists sessions newest first, so a compression child comes before its parent. One request links a
child to a parent later in its own body, but not to one a later request brings; so the lines are sent
parents first (by their depth in the file's own lineages, then in file order) and each child finds its
parent stored. The order depends on the file alone, so an interrupted import resumes by counting lines of
the same order (:mod:`app.cli.import_cursor`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any

import orjson


@dataclass(frozen=True, slots=True)
class Line:
    """One non-blank line of the file: its number (from 1) and where its bytes are."""

    number: int
    offset: int
    length: int


def _ids(raw: bytes) -> tuple[str | None, str | None]:
    """The session id and parent id a line names (``None`` for a line the server will report as bad)."""
    try:
        record: Any = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None, None
    if not isinstance(record, dict):
        return None, None
    sid, parent = record.get("id"), record.get("parent_session_id")
    return (sid if isinstance(sid, str) else None), (parent if isinstance(parent, str) else None)


def _depths(ids: list[str | None], parents: list[str | None]) -> list[int]:
    """How many ancestors each line has among the file's own lines (a cycle counts as no ancestor)."""
    index = {sid: i for i, sid in reversed(list(enumerate(ids))) if sid is not None}
    depth: list[int | None] = [None] * len(ids)
    for start in range(len(ids)):
        chain: list[int] = []
        seen: set[int] = set()
        at: int | None = start
        while at is not None and depth[at] is None and at not in seen:
            seen.add(at)
            chain.append(at)
            parent = parents[at]
            at = index.get(parent) if parent is not None else None
        known = -1 if at is None or at in seen else depth[at]
        assert known is not None
        for i in reversed(chain):
            known += 1
            depth[i] = known
    return [d or 0 for d in depth]


def plan(stream: IO[bytes]) -> list[Line]:
    """Every non-blank line of ``stream`` (read from its start), parents before their children."""
    lines: list[Line] = []
    ids: list[str | None] = []
    parents: list[str | None] = []
    offset = 0
    for number, raw in enumerate(stream, 1):
        if raw.strip():
            lines.append(Line(number, offset, len(raw)))
            sid, parent = _ids(raw)
            ids.append(sid)
            parents.append(parent)
        offset += len(raw)
    depth = _depths(ids, parents)
    return [lines[i] for i in sorted(range(len(lines)), key=lambda i: (depth[i], i))]


def batches(lines: list[Line], budget: int) -> Iterator[list[Line]]:
    """Consecutive runs of ``lines`` whose bytes stay within ``budget`` (a longer line goes alone)."""
    batch: list[Line] = []
    size = 0
    for line in lines:
        if batch and size + line.length + 1 > budget:
            yield batch
            batch, size = [], 0
        batch.append(line)
        size += line.length + 1
    if batch:
        yield batch


def body(fd: int, batch: list[Line]) -> bytes:
    """The request body of ``batch``: its lines read from the file ``fd``, each ending in a newline."""
    parts = []
    for line in batch:
        raw = os.pread(fd, line.length, line.offset)
        parts.append(raw if raw.endswith(b"\n") else raw + b"\n")
    return b"".join(parts)
