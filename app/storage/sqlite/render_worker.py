"""Entry point of an export render worker: ``python -m app.storage.sqlite.render_worker STATE_DB``.

Reads length-prefixed pickled ``(ExportFilter, ChunkPlan)`` requests on stdin and answers each with a
length-prefixed pickled ``RenderedChunk`` (or the exception it raised) on stdout, one short read transaction
per chunk, until stdin closes. Every store starts its own workers, so it imports only the storage code it
needs: not the web application, and not SQLAlchemy, SQLModel or asyncio
(``tests/lifecycle/test_export_workers.py`` holds it). The pipes carry only what our own server process wrote,
so pickle is safe here.
"""

from __future__ import annotations

import pickle
import struct
import sys
from pathlib import Path
from typing import IO

from app.storage.commit_notice import Changes
from app.storage.repos.export import ExportChunks
from app.storage.sqlite.connection import open_connection

HEADER = struct.Struct("!I")


def read_frame(stream: IO[bytes]) -> bytes | None:
    """One length-prefixed frame, or ``None`` at end of stream."""
    head = stream.read(HEADER.size)
    if len(head) < HEADER.size:
        return None
    (size,) = HEADER.unpack(head)
    data = stream.read(size)
    if len(data) < size:
        return None
    return data


def write_frame(stream: IO[bytes], data: bytes) -> None:
    """Write one length-prefixed frame and flush it."""
    stream.write(HEADER.pack(len(data)))
    stream.write(data)
    stream.flush()


def serve(path: Path, requests: IO[bytes], answers: IO[bytes]) -> None:
    """Render chunks until ``requests`` ends."""
    conn = open_connection(path, query_only=True)
    export = ExportChunks(conn, Changes())
    try:
        while (frame := read_frame(requests)) is not None:
            flt, plan = pickle.loads(frame)
            try:
                conn.execute("BEGIN")
                try:
                    with export.small_page_cache():
                        result: object = export.render_chunk(flt, plan)
                finally:
                    conn.execute("COMMIT")
            except Exception as exc:  # the server re-raises it for the export that asked
                result = exc
            write_frame(answers, pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL))
    finally:
        conn.close()


if __name__ == "__main__":
    serve(Path(sys.argv[1]), sys.stdin.buffer, sys.stdout.buffer)
