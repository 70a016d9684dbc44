"""Which store a process opens: the agent's SQLite file, or the PostgreSQL database a URL names.

``HERMES_DATABASE_URL`` unset (the default) opens ``$HERMES_HOME/state.db`` (:class:`Database`); a
``postgresql://`` URL opens the ``app.storage.postgres`` package's store, imported only then, so a
SQLite-only install never loads a PostgreSQL driver.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from urllib.parse import urlsplit, urlunsplit

from app.settings import Settings
from app.storage.protocols import Store
from app.storage.sqlite.store import Database

POSTGRES_PACKAGE = "app.storage.postgres"


class BackendUnavailable(RuntimeError):
    """The store the settings ask for cannot be opened by this installation (start-up refuses)."""


class StoreUnreachable(RuntimeError):
    """The database the settings name does not accept a connection; the message is one line saying why."""


def open_store(settings: Settings) -> Store:
    """The opened store ``settings`` select; the caller closes it."""
    if settings.database_url is None:
        return Database(settings).open()
    store: Store = postgres_backend(settings.database_url).open_postgres_store(settings)
    return store


def postgres_backend(url: str) -> ModuleType:
    """The PostgreSQL backend package, imported now (``BackendUnavailable`` when it cannot be), so that
    ``hermes serve`` can refuse before it starts listening."""
    try:
        return importlib.import_module(POSTGRES_PACKAGE)
    except ImportError as exc:
        raise BackendUnavailable(
            f"HERMES_DATABASE_URL names a PostgreSQL database ({redacted_url(url)}), but this installation "
            f"cannot open one ({exc}). Install hermes-sessions with its PostgreSQL support, or unset "
            "HERMES_DATABASE_URL to serve $HERMES_HOME/state.db."
        ) from exc


def check_reachable(settings: Settings) -> None:
    """Raise :class:`StoreUnreachable` when the PostgreSQL database the settings name refuses a connection
    (a SQLite file is always reachable: opening it is the test)."""
    if settings.database_url is None:
        return
    url = settings.database_url
    reason = postgres_backend(url).connection_problem(url)
    if reason is not None:
        raise StoreUnreachable(f"cannot connect to PostgreSQL at {reason}")


def redacted_url(url: str) -> str:
    """``url`` without its password, for logs and messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if ":" in host:  # an IPv6 literal keeps its brackets
        host = f"[{host}]"
    netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port is not None else "")
    return urlunsplit(parts._replace(netloc=netloc))


def describe(settings: Settings) -> str:
    """Where the store lives, as start-up prints it."""
    if settings.database_url is None:
        return str(settings.db_path)
    return redacted_url(settings.database_url)
