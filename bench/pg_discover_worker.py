"""Discover on PostgreSQL as another build runs it: ``bench/pg_search.py --baseline`` starts this module as
a process of its own, with that build's checkout first on ``sys.path``, on the database it has loaded.

Arguments: the build's checkout, the database URL, a scratch home, the number of timed calls, and the agent
file to load into that (empty) database first. The load uses the build's own migrations and corpus loader
(``tests.postgres.search_corpus.create_pg_store``; a database at a newer build's revision is one the older
build cannot open), then merges the GIN pending lists and analyzes, as ``bench/pg_search.py`` does on its
side, and says it is ready. Each line on stdin is then a JSON query string; the answer on stdout is the
median milliseconds of that build's ``discover`` for it (the same warm-up and timing as this tree's side,
:func:`timed`). Only what both builds offer is imported: ``SearchRequest``, ``discover``, ``Settings``,
``PgStore.read_sync`` and the corpus loader.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

# Enough untimed calls to warm every pooled connection (statements are prepared per connection after
# five uses), as a server under load has them.
WARMUP = 25


def timed(fn: Callable[[], object], runs: int) -> float:
    """Median milliseconds of ``fn`` over ``runs`` calls after :data:`WARMUP` untimed ones."""
    for _ in range(WARMUP):
        fn()
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def _load(state_db: Path, url: str) -> None:
    from app.storage.postgres.search_schema import PENDING_LIST_INDEXES
    from tests.postgres.search_corpus import create_pg_store

    with create_pg_store(state_db, url) as conn:
        for index in PENDING_LIST_INDEXES:
            conn.execute("SELECT gin_clean_pending_list(%s::regclass)", (index,))
        conn.execute("ANALYZE")


def _serve(build: Path, url: str, home: Path, runs: int, state_db: Path) -> None:
    sys.path.insert(0, str(build))
    from app.services.search import SearchRequest, discover
    from app.settings import Settings
    from app.storage.postgres.store import PgStore

    _load(state_db, url)
    print(json.dumps("ready"), flush=True)

    def call(tx: Any, q: str) -> object:
        return discover(tx, SearchRequest(q=q))

    store = PgStore(Settings(home=home, api_token="bench", database_url=url)).open()
    try:
        for line in sys.stdin:
            query = json.loads(line)
            print(json.dumps(timed(partial(store.read_sync, partial(call, q=query)), runs)), flush=True)
    finally:
        store.close()


if __name__ == "__main__":
    _serve(Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3]), int(sys.argv[4]), Path(sys.argv[5]))
