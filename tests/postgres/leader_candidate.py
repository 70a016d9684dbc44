"""A replica's candidacy in its own process, for tests/postgres/test_leader.py.

``python -m tests.postgres.leader_candidate URL NAME`` campaigns with the default timing and, during each
term as leader, runs a job that records the term in ``leader_log``: a ``start`` row, a ``beat`` row every
:data:`BEAT_S`, and a ``stop`` row when the job is cancelled (leadership lost while the process lives). The
rows carry the server's ``clock_timestamp()``, so terms of different processes compare on one clock.
"""

from __future__ import annotations

import asyncio
import os
import sys
import uuid

import psycopg

from app.storage.postgres.leader import AdvisoryLeader

BEAT_S = 0.2

LOG_DDL = (
    "CREATE TABLE IF NOT EXISTS leader_log (name text NOT NULL, pid int NOT NULL, term text NOT NULL,"
    " kind text NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp())"
)
_INSERT = "INSERT INTO leader_log (name, pid, term, kind) VALUES (%s, %s, %s, %s)"


async def _term(url: str, name: str) -> None:
    term = uuid.uuid4().hex
    conn = await psycopg.AsyncConnection.connect(url, autocommit=True)

    row = (name, os.getpid(), term)

    try:
        await conn.execute(_INSERT, (*row, "start"))
        while True:
            await conn.execute(_INSERT, (*row, "beat"))
            await asyncio.sleep(BEAT_S)
    finally:
        # On a connection of its own: the cancellation may have interrupted a beat on the other one.
        with psycopg.connect(url, autocommit=True) as last:
            last.execute(_INSERT, (*row, "stop"))
        await conn.close()


def main(url: str, name: str) -> None:
    """Campaign until killed."""
    leader = AdvisoryLeader(url)
    leader.start()
    asyncio.run(leader.while_leading(lambda: _term(url, name)))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
