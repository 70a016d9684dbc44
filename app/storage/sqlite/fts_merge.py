"""Incremental merging of the agent's FTS5 indexes between group commits.

FTS5 merges its segments inside whichever write transaction crosses its work counter: every 64 leaf pages
written, a commit also merges 64 pages per level of the index. On the 500k-message trigram index that put a
20-80 ms merge inside about one group commit in sixty (``bench/append.py``), and every append queued behind it
waited. The writer therefore spends a small, bounded merge quantum after each group commit, once its callers
are answered; the merges a commit would have triggered find little left to do. A quantum with nothing to merge
costs ~0.02 ms. The indexes stay what the agent expects: merging is FTS5's own maintenance command.
"""

from __future__ import annotations

from app.storage.hermes_ddl import FTS_TABLES
from app.storage.sqlite.driver import sqlite3

# Pages merged per index per quantum: a few milliseconds of work, so a request that arrives
# during a quantum waits little, while quanta after every commit keep up with the segments commits add.
MERGE_PAGES = 64


def merge_quantum(conn: sqlite3.Connection) -> None:
    """Merge up to ``MERGE_PAGES`` pages in each FTS index (the caller owns the transaction)."""
    for table in FTS_TABLES:
        conn.execute(f"INSERT INTO {table}({table}, rank) VALUES('merge', ?)", (MERGE_PAGES,))
