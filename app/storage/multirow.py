"""Many rows into one table with a few multi-row ``INSERT … VALUES`` statements.

``executemany`` runs its statement once per row, and each run hands the interpreter lock back and forth
around SQLite's step: with the server's other threads (the event loop parsing the next batch, the indexers)
asking for it, that exchange cost a bulk insert more than SQLite's own work. One statement per few hundred
rows steps once for all of them.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from app.storage.dialect import dialect_of
from app.storage.sqlite.driver import sqlite3

MAX_VARIABLES = 32766
"""SQLite's limit on the parameters of one statement (the bundled library's default)."""
ROWS_PER_STATEMENT = 500
"""At most this many rows a statement: enough to step rarely, few enough to compile quickly."""


def insert_rows(conn: sqlite3.Connection, head: str, rows: Sequence[Sequence[Any]], tail: str = "") -> None:
    """Run ``{head} VALUES (…), (…) {tail}`` over ``rows`` (each of the same width), in order, a few
    hundred rows a statement. ``head`` is ``INSERT INTO table (columns)``; ``tail`` an ``ON CONFLICT``
    clause, if any."""
    if not rows:
        return
    width = len(rows[0])
    per = max(1, min(ROWS_PER_STATEMENT, MAX_VARIABLES // width))
    one = "(" + ", ".join([dialect_of(conn).p] * width) + ")"
    for start in range(0, len(rows), per):
        part = rows[start : start + per]
        values = ", ".join(itertools.repeat(one, len(part)))
        conn.execute(f"{head} VALUES {values} {tail}", list(itertools.chain.from_iterable(part)))
