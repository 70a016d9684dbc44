"""Whether ``hermes serve`` can reach its PostgreSQL database, asked once before it listens, so a wrong
host, port, role, password or database is one line saying which instead of a failed start-up's traceback."""

from __future__ import annotations

import os

import psycopg
from psycopg.conninfo import conninfo_to_dict

from app.storage.postgres.dedicated import CONNECT_TIMEOUT_S


def connection_problem(url: str) -> str | None:
    """``HOST:PORT: why`` when no connection to ``url`` can be made, else ``None``."""
    params = conninfo_to_dict(url)
    try:
        conn = psycopg.connect(url, connect_timeout=params.get("connect_timeout") or CONNECT_TIMEOUT_S)
    except psycopg.Error as exc:
        host = params.get("host") or os.environ.get("PGHOST") or "localhost"
        port = params.get("port") or os.environ.get("PGPORT") or "5432"
        return f"{host}:{port}: {_reason(str(exc))}"
    conn.close()
    return None


def _reason(message: str) -> str:
    """The server's or the network's own words, without libpq's framing: ``role "x" does not exist``,
    ``Connection refused``. With several addresses tried, the last one's reason."""
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    if not lines:
        return "the connection failed"
    framed = [line for line in lines if "failed: " in line] or lines[:1]
    return framed[-1].rsplit("failed: ", 1)[-1].removeprefix("FATAL:").strip() or lines[0]
