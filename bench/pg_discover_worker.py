"""Discover on PostgreSQL as another build runs it: ``bench/pg_search.py --baseline`` starts this module as
a process of its own, with that build's checkout first on ``sys.path``, on the database it has loaded.

Arguments: the build's checkout, the database URL, a scratch home, the number of timed calls. Each line on
stdin is a JSON query string; the answer on stdout is the median milliseconds of that build's ``discover``
for it (the same warm-up and timing as this tree's side, :func:`timed`). Only what both builds offer is
imported: ``SearchRequest``, ``discover``, ``Settings`` and ``PgStore.read_sync``.
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


def _serve(build: Path, url: str, home: Path, runs: int) -> None:
    sys.path.insert(0, str(build))
    from app.services.search import SearchRequest, discover
    from app.settings import Settings
    from app.storage.postgres.store import PgStore

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
    _serve(Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3]), int(sys.argv[4]))
