"""What an agent's state.db looks like, and what that allows us to write.

The agent adds columns on every open from whatever its build declares, so two builds at one schema version
differ: the version number is not a column list. :func:`inspect` reads the shape itself (``PRAGMA
table_info``, and the triggers, views and FTS tables in ``sqlite_master``) and holds it against what we know
(:mod:`app.storage.agent_objects`). A file is writable when every ``NOT NULL`` column without a default of a
table we write is one we write, and every trigger and view on ``sessions`` and ``messages`` is one we know;
anything else is served read-only, and :attr:`AgentShape.problems` names what we did not recognise.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from app.storage import agent_objects
from app.storage.hermes_ddl import FTS_TABLES, FTS_TRIGGERS, SCHEMA_VERSION
from app.storage.hermes_schema import declared_columns
from app.storage.sqlite.connection import split_statements
from app.storage.sqlite.driver import sqlite3

_WRITTEN_TABLES = ("sessions", "messages", "gateway_routing", "session_model_usage")
"""The agent's tables we insert rows into (``system_prompts`` too, where it exists)."""


@dataclass(frozen=True)
class AgentShape:
    """One reading of the file's shape; compare :attr:`cookie` to tell whether it is still current."""

    cookie: int
    """SQLite's schema cookie (``PRAGMA schema_version``): it changes with every change of the schema."""
    version: int | None
    """The agent's ``schema_version`` (``None``: a new file, or one no agent has stamped)."""
    session_columns: frozenset[str] = frozenset()
    message_columns: frozenset[str] = frozenset()
    fts: str = "none"
    """``inline``, ``external`` or ``none``."""
    system_prompts: bool = False
    """The agent keeps prompts once each in ``system_prompts`` (schema 25 on)."""
    trigram_reads_sessions: bool = False
    """The trigram index's triggers read ``sessions.source`` (schema 29 on): a session's source must not
    change once it has messages."""
    trigram_reads_delegate: bool = False
    """... and ``model_config``'s ``_delegate_from`` (schema 30)."""
    own_fts_upkeep: bool = False
    """The FTS triggers are schema 22's, exactly: the only layout we may index, merge or suspend ourselves."""
    problems: tuple[str, ...] = field(default=())
    """What makes the file read-only for us (empty when we may write it)."""

    @property
    def writable(self) -> bool:
        """Whether every object we would touch is one we know."""
        return not self.problems

    @property
    def adoptable(self) -> bool:
        """Whether our start brings the file to schema 22 (an older or unstamped file), as before."""
        return self.version is None or self.version <= SCHEMA_VERSION

    def has_session_column(self, name: str) -> bool:
        """Whether ``sessions`` has ``name`` (a newer agent's column)."""
        return name in self.session_columns

    def describe(self) -> str:
        """A sentence for a log line or a readiness check."""
        version = "unversioned" if self.version is None else f"agent schema {self.version}"
        layout = {"inline": "inline FTS", "external": "external-content FTS", "none": "no FTS"}[self.fts]
        return f"{version}, {layout}"


V22_SHAPE = AgentShape(
    cookie=-1,
    version=SCHEMA_VERSION,
    session_columns=frozenset(declared_columns()["sessions"]),
    message_columns=frozenset(declared_columns()["messages"]),
    fts="inline",
    own_fts_upkeep=True,
)
"""The shape of a file we adopted: what connections without a watched file (tests, PostgreSQL) assume."""


@cache
def _own_objects() -> frozenset[tuple[str, str]]:
    """Our own triggers on the agent's tables, normalized as :func:`agent_objects.normalize` does."""
    # Imported here: own_schema loads SQLAlchemy and SQLModel, which a process that never reads a file's
    # shape (an export render worker) should not pay for at start.
    from app.storage.own_schema import LIST_SEARCH_INDEX_SQL, cleanup_triggers_sql

    found: set[tuple[str, str]] = set()
    for script in (LIST_SEARCH_INDEX_SQL, cleanup_triggers_sql()):
        for sql in split_statements(script):
            words = sql.split()
            if words[1] == "TRIGGER":
                found.add((words[5] if words[2] == "IF" else words[2], agent_objects.normalize(sql)))
    return frozenset(found)


def schema_cookie(conn: sqlite3.Connection) -> int:
    """SQLite's schema cookie: cheap (the file header), and it moves with every DDL statement."""
    return int(conn.execute("PRAGMA schema_version").fetchone()[0])


def _columns(conn: sqlite3.Connection, table: str) -> list[tuple[str, bool, bool, bool]]:
    """(name, not null, has default, primary key) of each column of ``table``."""
    return [
        (str(r[1]), bool(r[3]), r[4] is not None, bool(r[5]))
        for r in conn.execute(f'PRAGMA table_info("{table}")')
    ]


def _version(conn: sqlite3.Connection) -> int | None:
    try:
        row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
    except sqlite3.OperationalError:
        return None
    return None if row is None or row[0] is None else int(row[0])


def inspect(conn: sqlite3.Connection) -> AgentShape:
    """Read the file's shape (a handful of catalogue reads, whatever the file's size)."""
    cookie = schema_cookie(conn)
    version = _version(conn)
    problems: list[str] = []
    declared = declared_columns()
    for table in _WRITTEN_TABLES:
        ours = set(declared[table])
        for name, not_null, has_default, pk in _columns(conn, table):
            if not_null and not has_default and not pk and name not in ours:
                problems.append(f"column {table}.{name} (NOT NULL, no default, not one we write)")
    catalogue = conn.execute(
        "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE type IN ('trigger', 'view', 'table')"
    ).fetchall()
    known = agent_objects.known_objects()
    own = _own_objects()
    families: list[agent_objects.Family] = []
    triggers: set[tuple[str, str]] = set()
    fts_layouts: set[str] = set()
    tables: set[str] = set()
    # A file at schema 22 or older is brought to 22 at open, its FTS objects rebuilt where the agent would
    # rebuild them: only what adoption leaves alone can stop us.
    adoptable = version is None or version <= SCHEMA_VERSION
    for kind, name, table, sql in catalogue:
        if kind == "trigger" and table in ("sessions", "messages"):
            triggers.add((name, agent_objects.normalize(sql or "")))
        if adoptable and (name in FTS_TABLES or name in FTS_TRIGGERS):
            continue
        if kind == "table":
            tables.add(name)
            if name in FTS_TABLES:
                layout = agent_objects.FTS_TABLE_SQL.get(agent_objects.normalize(sql or ""))
                if layout is None:
                    problems.append(f"FTS table {name} of an unknown layout")
                else:
                    fts_layouts.add(layout)
            continue
        on_ours = table in ("sessions", "messages") or (kind == "view" and _reads_agent_rows(sql or ""))
        if not on_ours:
            continue
        key = (name, agent_objects.normalize(sql or ""))
        if key in own:
            continue
        family = known.get(key)
        if family is None:
            problems.append(f"{kind} {name}")
        else:
            families.append(family)
    if adoptable:
        fts_layouts = {"inline"}
    if len(fts_layouts) > 1:
        problems.append("FTS tables of two layouts")
    fts = next(iter(fts_layouts), "none")
    mixed = {f.fts for f in families if f.fts != "display"} - {fts}
    if mixed:
        problems.append(f"{' and '.join(sorted(mixed))} FTS triggers on an {fts} index")
    return AgentShape(
        cookie=cookie,
        version=version,
        session_columns=frozenset(c[0] for c in _columns(conn, "sessions")),
        message_columns=frozenset(c[0] for c in _columns(conn, "messages")),
        fts=fts,
        system_prompts="system_prompts" in tables,
        trigram_reads_sessions=any(f.reads_sessions for f in families),
        trigram_reads_delegate=any(f.reads_delegate for f in families),
        own_fts_upkeep=(version is None or version <= SCHEMA_VERSION)
        and fts == "inline"
        and agent_objects.v22_objects() <= triggers,
        problems=tuple(problems),
    )


def shape_of(conn: object) -> AgentShape:
    """The current shape of the file ``conn`` serves; a connection without a watched file (a test's, or
    PostgreSQL's, whose schema is ours) is taken to hold schema 22."""
    watch = getattr(conn, "watch", None)
    if watch is None:
        return V22_SHAPE
    shape: AgentShape = watch.check(conn)
    return shape


def system_prompt_sql(shape: AgentShape, alias: str) -> str:
    """A session's system prompt: the agent's deduplicated one where it keeps them, else the inline column
    (which also still holds prompts written before the file was migrated, or by an older writer)."""
    if not shape.system_prompts:
        return f"{alias}.system_prompt"
    return (
        f"COALESCE((SELECT sp.prompt FROM system_prompts sp WHERE sp.hash = {alias}.system_prompt_hash),"
        f" {alias}.system_prompt)"
    )


def agent_pins(shape: AgentShape) -> bool:
    """Whether the agent's own ``pinned`` column is the truth (else our ``hs_session_pins``)."""
    return shape.has_session_column("pinned")


def _reads_agent_rows(sql: str) -> bool:
    text = sql.lower()
    return " messages" in text or " sessions" in text
