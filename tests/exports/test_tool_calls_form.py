"""Export lines copy stored ``tool_calls`` JSON as stored (minified, numbers in their stored form) whichever
path writes the line: SQLite's ``json()`` in rendered rows, :func:`minified` in rows encoded in Python
(every row on PostgreSQL, and rows SQLite does not render), so a line is the same bytes on both backends."""

from __future__ import annotations

import json
from pathlib import Path

import hermes_state
import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain.stored_json import minified
from app.storage.commit_notice import Changes
from app.storage.repos.export_repo import Export
from app.storage.rows import LINE_CLOSED, ExportCursor, ExportFilter, join_chunk
from app.storage.sqlite.driver import sqlite3

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20,
)
_SEPARATORS = st.sampled_from([(", ", ": "), (",", ":"), (" ,\n", " :\t")])


@settings(max_examples=400, deadline=None)
@given(_VALUES, st.sampled_from([None, 0, 2]), st.booleans(), _SEPARATORS)
def test_minified_is_what_sqlite_json_writes(
    value: object, indent: int | None, ascii_only: bool, sep: tuple[str, str]
) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only, separators=sep)
    conn = sqlite3.connect(":memory:")
    try:
        (written,) = conn.execute("SELECT json(?)", (text,)).fetchone()
    finally:
        conn.close()
    assert minified(text) == written


# Numbers whose stored form is not the one orjson writes for their value, in the agent's json.dumps layout.
_TOOL_CALLS = [
    [{"id": "c", "score": 5e-05, "n": 10, "ratio": 1.0, "big": 1e20}],
    [{"id": "d", "function": {"name": "f", "arguments": '{"x": 0.10}'}, "weights": [0.1, 2.5e-08]}],
]


def _store(home: Path) -> Path:
    db = hermes_state.SessionDB(db_path=home / "state.db")
    db.create_session("plain", "cli")
    db.create_session("structured", "cli")
    for calls in _TOOL_CALLS:
        db.append_message("plain", "assistant", content="x", tool_calls=calls)
        # Structured content sends the whole row down the Python path on SQLite too.
        db.append_message(
            "structured", "assistant", content=[{"type": "text", "text": "y"}], tool_calls=calls
        )
    db.close()
    path = home / "state.db"
    with sqlite3.connect(path) as conn:
        # Stored by hand: the forms json.dumps never writes but SQLite copies as they are.
        conn.execute(
            "INSERT INTO messages (session_id, role, content, tool_calls, timestamp)"
            " VALUES ('plain', 'assistant', 'z', '[ {\"v\" : 1E3 , \"w\":-0.0} ]', 1.0)"
        )
    return path


def _export(path: Path, *, sql_render: bool) -> bytes:
    conn = sqlite3.connect(path)
    export = Export(conn, Changes())
    out = bytearray()
    cursor: ExportCursor | None = ExportCursor()
    line = LINE_CLOSED
    try:
        while cursor is not None:
            plan = export.plan_chunk(ExportFilter(), cursor, max_sessions=8, max_messages=100)
            data, line = join_chunk(line, export.render_chunk(ExportFilter(), plan, sql_render=sql_render))
            out += data
            cursor = plan.next
    finally:
        conn.close()
    return bytes(out)


def test_both_paths_copy_stored_numbers(tmp_path: Path) -> None:
    path = _store(tmp_path)
    rendered = _export(path, sql_render=True)
    assert rendered == _export(path, sql_render=False)
    assert b'"score":5e-05' in rendered and b'"ratio":1.0' in rendered and b'"big":1e+20' in rendered
    assert b'[{"v":1E3,"w":-0.0}]' in rendered
    lines = {line["id"]: line for line in map(orjson.loads, rendered.splitlines())}
    # Same bytes in a row SQLite renders and in a row it leaves to Python.
    plain, structured = lines["plain"]["messages"], lines["structured"]["messages"]
    assert [m["tool_calls"] for m in plain[:2]] == [m["tool_calls"] for m in structured] == _TOOL_CALLS
