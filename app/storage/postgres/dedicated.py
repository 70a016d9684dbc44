"""Long-lived connections outside the pool: the leader's lock and the events listener each hold one.

Both must notice a dead peer within seconds, whichever side died: the client side sends TCP keepalives and
gives up on unacknowledged data (``tcp_user_timeout``), and the server is told to do the same on its side
of the session, so a replica whose host vanished (no FIN, no RST) loses its session, and with it its
advisory lock, long before the default two hours of TCP keepalive. Session-level state (an advisory lock,
``LISTEN``) needs a real server session: point the URL at PostgreSQL itself, not at a transaction-mode
PgBouncer.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any, Final

import psycopg
from psycopg.conninfo import conninfo_to_dict

from app.storage.postgres.connection import with_options

log = logging.getLogger(__name__)

KEEPALIVE_IDLE_S: Final = 5
KEEPALIVE_INTERVAL_S: Final = 2
KEEPALIVE_COUNT: Final = 3
USER_TIMEOUT_MS: Final = 10_000
CONNECT_TIMEOUT_S: Final = 5

_SERVER_SIDE = (
    f"-c tcp_keepalives_idle={KEEPALIVE_IDLE_S} -c tcp_keepalives_interval={KEEPALIVE_INTERVAL_S} "
    f"-c tcp_keepalives_count={KEEPALIVE_COUNT} -c tcp_user_timeout={USER_TIMEOUT_MS}"
)


def connect_dedicated(url: str, application_name: str) -> psycopg.Connection[tuple[Any, ...]]:
    """An autocommit connection to ``url`` that detects a dead peer on both ends; ``application_name``
    names it in ``pg_stat_activity``."""
    conninfo = with_options(
        url,
        _SERVER_SIDE,
        application_name=application_name,
        keepalives=1,
        keepalives_idle=KEEPALIVE_IDLE_S,
        keepalives_interval=KEEPALIVE_INTERVAL_S,
        keepalives_count=KEEPALIVE_COUNT,
        tcp_user_timeout=USER_TIMEOUT_MS,
        connect_timeout=conninfo_to_dict(url).get("connect_timeout") or CONNECT_TIMEOUT_S,
    )
    return psycopg.connect(conninfo, autocommit=True)


def close_quietly(conn: psycopg.Connection[Any] | None) -> None:
    """Close ``conn`` (if any); a session already gone only gets a debug line."""
    if conn is None:
        return
    try:
        conn.close()
    except psycopg.Error as exc:
        log.debug("dedicated connection not closed cleanly: %s", exc)


def advisory_key(name: str) -> int:
    """The bigint advisory lock key of a namespaced ``name`` (stable across processes and versions)."""
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big", signed=True)
