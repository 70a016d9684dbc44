"""``GET /sessions``: keyset-paginated listing with the agent's visibility and compression-tip projection.

The default order walks ``idx_hs_sessions_started_id`` (started_at DESC, id DESC) and stops after the page,
so preview and ``last_active`` are only computed for the rows returned, whatever the size of the table.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import fields, replace
from operator import attrgetter
from typing import Any, NamedTuple, cast

from app.domain.session_filter import SessionFilter
from app.storage.agent_shape import shape_of
from app.storage.commit_notice import Changes
from app.storage.dialect import Dialect, dialect_of
from app.storage.repos.lineage import LineageWalks, branched_marker_sql, delegate_marker_sql, listable_sql
from app.storage.repos.list_index import SearchFilter, ascii_lower, search_filter
from app.storage.repos.repository import Repository
from app.storage.repos.session_filter import (
    LAST_ACTIVE_SQL,
    Clauses,
    attribute_clauses,
    pinned_sql,
    time_clauses,
)
from app.storage.repos.sessions import (
    public_select_sql,
    row_to_public,
)
from app.storage.rows import USAGE_FIELDS, ListPage, ListQuery, Order, SessionRow, Status
from app.storage.sqlite.driver import sqlite3

Searcher = Callable[[sqlite3.Connection, str, bool], SearchFilter]
"""Builds the SQL filter of a listing's search term (``conn, term, projecting``)."""

# Fields a projected root takes from its compression tip; it keeps its own started_at (and source etc.).
_TIP_FIELDS = (
    "id",
    "title",
    "ended_at",
    "end_reason",
    *USAGE_FIELDS,
    "last_active",
    "preview",
    "model",
    "handoff",
    "has_system_prompt",
)


def _filters(
    d: Dialect, q: ListQuery, search: SearchFilter | None, *, hidden: bool, pinned: str, shown: bool = True
) -> Clauses:
    clauses: list[str] = []
    params: list[Any] = []
    if not q.include_children:
        clauses.append(listable_sql(d, "s"))
    if q.sources:
        clauses.append(f"s.source IN ({','.join([d.p] * len(q.sources))})")
        params.extend(q.sources)
    if q.exclude_sources:
        clauses.append(f"s.source NOT IN ({','.join([d.p] * len(q.exclude_sources))})")
        params.extend(q.exclude_sources)
    if not q.include_archived:
        clauses.append("s.archived = 0")
    if hidden:
        # The agent's own hidden sessions stay out of its lists, and out of ours.
        clauses.append("s.hidden = 0")
    if q.filter.archived is not None:
        clauses.append(f"s.archived = {d.p}")
        params.append(1 if q.filter.archived else 0)
    if q.pinned_only:
        clauses.append(pinned.format(a="s"))
    # With projection a compression-ended root stands for its tip, whose status is only known afterwards;
    # such roots pass the SQL filter and the projected row is checked again in Python.
    projecting = not q.include_children
    if q.status == "active":
        clauses.append(
            "(s.ended_at IS NULL OR s.end_reason = 'compression')" if projecting else "s.ended_at IS NULL"
        )
    elif q.status == "ended":
        clauses.append("s.ended_at IS NOT NULL")
    if search is not None:
        clauses.append(search.clause)
        params.extend(search.params)
    more, values = _session_filter(d, q.filter, projecting and shown)
    return clauses + more, params + values


def _session_filter(d: Dialect, flt: SessionFilter, projecting: bool) -> tuple[list[str], list[Any]]:
    """The agent's filter set. The start-time bounds judge the listed row (a projected root keeps its own
    ``started_at``); every other criterion judges the row as shown, so under projection a compression root
    passes here and its tip is checked by :func:`_shown_row_matches`."""
    clauses, params = time_clauses(d, flt)
    attributes, values = attribute_clauses(d, flt)
    if attributes:
        joined = " AND ".join(attributes)
        clauses.append(f"(({joined}) OR s.end_reason = 'compression')" if projecting else f"({joined})")
        params.extend(values)
    return clauses, params


def _shown_row_matches(conn: sqlite3.Connection, row: sqlite3.Row, item: SessionRow, q: ListQuery) -> bool:
    """Whether a compression root, as shown (its tip's row), meets the filter's criteria."""
    d = dialect_of(conn)
    if row["end_reason"] != "compression":
        return True
    attributes, values = attribute_clauses(d, q.filter)
    if not attributes:
        return True
    found = conn.execute(
        f"SELECT 1 FROM sessions s WHERE s.id = {d.p} AND {' AND '.join(attributes)}", [item["id"], *values]
    ).fetchone()
    return found is not None


def _search_ok(item: SessionRow, needle: str | None) -> bool:
    """Whether the presented row shows ``needle`` (the term with ASCII letters lowered) in its id, title or
    preview, ASCII case folded as LIKE folds it."""
    if needle is None:
        return True
    preview = item["preview"] or ""
    if preview.endswith("...") and len(preview) > 60:
        preview = preview[:-3]  # the ellipsis marks the cut; it is not text of the message
    return any(needle in ascii_lower(text or "") for text in (item["id"], item["title"], preview))


def _status_ok(item: SessionRow, status: Status) -> bool:
    if status == "active":
        return item["ended_at"] is None
    if status == "ended":
        return item["ended_at"] is not None
    return True


class _Window(NamedTuple):
    """The rows a fetch asks for: ``batch`` rows after the position ``after`` (the start when ``None``),
    passing over ``offset`` first."""

    after: dict[str, Any] | None
    batch: int
    offset: int


def _fetch_started(
    conn: sqlite3.Connection, q: ListQuery, filters: Clauses, at: _Window
) -> list[sqlite3.Row]:
    d = dialect_of(conn)
    clauses, params = list(filters[0]), list(filters[1])
    if at.after is not None:
        clauses.append(f"(s.started_at, s.id) < ({d.p}, {d.p})")
        params.extend([at.after["s"], at.after["i"]])
    where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
    select = f"SELECT {public_select_sql(conn)}, s.started_at AS sort_started FROM sessions s"
    rest = f"{where} ORDER BY s.started_at DESC, s.id DESC LIMIT {d.p} OFFSET {d.p}"
    try:
        return conn.execute(
            f"{select}{d.index_hint('idx_hs_sessions_started_id')} {rest}", [*params, at.batch, at.offset]
        ).fetchall()
    except sqlite3.OperationalError as exc:
        if "no such index" not in str(exc):
            raise
        # A file a newer agent migrated before we ever adopted it is served read-only, without our indexes.
        return conn.execute(f"{select} {rest}", [*params, at.batch, at.offset]).fetchall()


def _fetch_last_active(
    conn: sqlite3.Connection, q: ListQuery, filters: Clauses, at: _Window
) -> list[sqlite3.Row]:
    d = dialect_of(conn)
    clauses, params = filters
    where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
    # Effective activity of a listed row is the newest activity anywhere in its compression chain (the
    # agent's rule), so an old conversation continued today sorts first. UNION (not UNION ALL) makes a
    # cyclic chain terminate.
    recurse = (
        ""
        if q.include_children
        else f"""
        UNION
        SELECT c.root_id, child.id FROM chain c
        JOIN sessions parent ON parent.id = c.cur_id
        JOIN sessions child ON child.parent_session_id = c.cur_id
        WHERE parent.end_reason = 'compression'
          AND {branched_marker_sql(d, "child")} IS NULL
          AND {delegate_marker_sql(d, "child")} IS NULL
          AND COALESCE(child.source, '') != 'tool'"""
    )
    keyset = ""
    key_params: list[Any] = []
    if at.after is not None:
        keyset = f"WHERE (r.eff, s.started_at, s.id) < ({d.p}, {d.p}, {d.p})"
        key_params = [at.after["a"], at.after["s"], at.after["i"]]
    sql = f"""
        WITH RECURSIVE chain(root_id, cur_id) AS (
            SELECT s.id, s.id FROM sessions s {where}{recurse}
        ),
        ranked(id, eff) AS (
            SELECT c.root_id, MAX({LAST_ACTIVE_SQL.format(a="cs")})
            FROM chain c JOIN sessions cs ON cs.id = c.cur_id
            GROUP BY c.root_id
        )
        SELECT {public_select_sql(conn)}, s.started_at AS sort_started, r.eff AS sort_active
        FROM ranked r JOIN sessions s ON s.id = r.id
        {keyset}
        ORDER BY r.eff DESC, s.started_at DESC, s.id DESC
        LIMIT {d.p} OFFSET {d.p}
    """
    return conn.execute(sql, [*params, *key_params, at.batch, at.offset]).fetchall()


def _position(row: sqlite3.Row, order: Order) -> dict[str, Any]:
    position: dict[str, Any] = {"s": row["sort_started"], "i": row["id"]}
    if order == "last_active":
        position["a"] = row["sort_active"]
    return position


def _present(walks: LineageWalks, row: sqlite3.Row, project: bool) -> SessionRow:
    """The list item for a row: raw, or (for a compression root) projected onto its tip."""
    conn = walks.conn
    d = dialect_of(conn)
    # Roots are their own lineage root; only children need the walk up.
    root = row["id"] if row["parent_session_id"] is None else walks.lineage_root(row["id"])
    item = row_to_public(row, root)
    if not project or row["end_reason"] != "compression":
        return item
    tip_id = walks.compression_tip(row["id"])
    if tip_id == row["id"]:
        return item
    tip_row = conn.execute(
        f"SELECT {public_select_sql(conn)} FROM sessions s WHERE s.id = {d.p}", (tip_id,)
    ).fetchone()
    if tip_row is None:
        return item
    # The tip's members are copied by name, which a TypedDict cannot check: both are plain dicts here.
    tip = cast(dict[str, Any], row_to_public(tip_row, root))
    cast(dict[str, Any], item).update({key: tip[key] for key in _TIP_FIELDS})
    item["lineage_root_id"] = root
    return item


# The most rows a listing fetches at once, however many the filters drop.
_MOST_BATCH = 400


_CACHE_SIZE = 32
"""Pages a :class:`ListingMemo` keeps (the oldest leaves first)."""
# A query's memo key: its fields but the cursor, as they are (all hashable; the filter set is a frozen
# dataclass). ``astuple`` would deep-copy every field of the filter set on each listing.
_query_key = attrgetter(*(f.name for f in fields(ListQuery) if f.name != "after"))


class ListingMemo:
    """The listing pages of one connection, valid while ``PRAGMA data_version`` is unchanged (it changes when
    any other connection — our writer, the agent — commits), so repeated identical listings cost one
    pragma."""

    __slots__ = ("pages", "version")

    def __init__(self) -> None:
        self.version: int | None = None
        self.pages: OrderedDict[tuple[Any, ...], ListPage] = OrderedDict()


# A total counts every session, far dearer than a page. Another program's commits (the agent appending a
# message) change the file on every message, so a total is reused for up to COUNT_REUSE_S whatever they did;
# every commit of our own writer (each change made through this server) drops all totals at once.
COUNT_REUSE_S = 1.0
_COUNTS_MAX = 64
_counts: dict[tuple[Any, ...], tuple[int, float]] = {}
_counts_lock = threading.Lock()
_counts_generation = 0


def forget_counts() -> None:
    """Drop every reused total: the writer calls it after each commit."""
    global _counts_generation
    with _counts_lock:
        _counts_generation += 1
        _counts.clear()


class SessionListing(Repository):
    """Listing pages and totals, with this connection's memo of pages."""

    __slots__ = ("listings",)

    def __init__(self, conn: sqlite3.Connection, changes: Changes) -> None:
        super().__init__(conn, changes)
        self.listings = ListingMemo()

    def list_sessions(self, q: ListQuery, *, searcher: Searcher = search_filter) -> ListPage:
        """One page: at most ``q.limit`` items, and the position to continue from when more exist.

        Reads ``limit + 1`` matching rows so ``has_more`` is exact; never uses OFFSET or COUNT(*).
        ``searcher`` narrows the rows for ``q.search`` (a backend without this file's search index passes
        its own).
        """
        conn = self.conn
        walks = LineageWalks(conn, self.changes)
        fetch = _fetch_started if q.order == "started" else _fetch_last_active
        project = not q.include_children
        # A status filter or the filter set under projection, and any search, can drop rows after SQL; else
        # one batch suffices.
        refilter = (project and (q.status != "all" or q.filter != SessionFilter())) or q.search is not None
        needle = None if q.search is None else ascii_lower(q.search)
        search = None if q.search is None else searcher(conn, q.search, project)
        shape = shape_of(conn)
        hides = shape.has_session_column("hidden")
        pinned = pinned_sql(shape)
        filters = _filters(self.d, q, search, hidden=hides, pinned=pinned)
        settle = None if search is None else search.settle
        batch = q.limit + 1
        collected: list[tuple[SessionRow, dict[str, Any]]] = []
        after = q.after
        # Without a filter applied after SQL the offset goes to SQL; else shown rows are passed over here.
        sql_offset, skip = (0, q.offset) if refilter else (q.offset, 0)
        while len(collected) <= q.limit:
            rows = fetch(conn, q, filters, _Window(after, batch, sql_offset))
            sql_offset = 0
            if settle is not None:
                # The first fetch says whether the search's own narrowing applied (see SearchFilter.settle).
                if not rows:
                    search = settle()
                    settle, filters = search.settle, _filters(self.d, q, search, hidden=hides, pinned=pinned)
                    continue
                settle = None
            for row in rows:
                item = _present(walks, row, project)
                if refilter and not (
                    _status_ok(item, q.status)
                    and _search_ok(item, needle)
                    and (not project or _shown_row_matches(conn, row, item, q))
                ):
                    continue
                if skip:
                    skip -= 1
                    continue
                collected.append((item, _position(row, q.order)))
                if len(collected) > q.limit:
                    break
            if len(rows) < batch or not rows:
                break
            after = _position(rows[-1], q.order)
            # Rows were dropped: fetch more at a time, since each fetch also repeats the search's narrowing.
            batch = max(batch, min(batch * 2, _MOST_BATCH))
        page = ListPage(items=[item for item, _ in collected[: q.limit]])
        if len(collected) > q.limit:
            page.next_position = collected[q.limit - 1][1]
        return page

    def count_listed_uncached(self, q: ListQuery) -> int:
        """How many rows the listing's SQL admits, each judged by its own columns (the agent's
        ``session_count(exclude_children=True)``): no search, a compression chain counted once, as its
        root."""
        shape = shape_of(self.conn)
        hidden, pinned = shape.has_session_column("hidden"), pinned_sql(shape)
        clauses, params = _filters(
            self.d, replace(q, search=None), None, hidden=hidden, pinned=pinned, shown=False
        )
        where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
        return int(self.conn.execute(f"SELECT COUNT(*) FROM sessions s {where}", params).fetchone()[0])

    def list_sessions_cached(self, q: ListQuery) -> ListPage:
        """:meth:`list_sessions`, memoised in ``listings`` (this connection's own) until the database
        changes. Callers must not mutate the page.

        Run it inside a read transaction: ``PRAGMA data_version`` then names the snapshot the query reads.
        """
        memo = self.listings
        version = self.conn.execute("PRAGMA data_version").fetchone()[0]
        if memo.version != version:
            memo.version = version
            memo.pages = OrderedDict()
        cache = memo.pages
        key = (_query_key(q), tuple(sorted((q.after or {}).items())))
        page = cache.get(key)
        if page is None:
            page = self.list_sessions(q)
            cache[key] = page
            if len(cache) > _CACHE_SIZE:
                cache.popitem(last=False)
        return page

    def count_listed(self, q: ListQuery) -> int:
        """:meth:`count_listed_uncached`, reused for :data:`COUNT_REUSE_S` unless this server wrote
        meanwhile."""
        # One process may serve (or test) several files: the file is part of the key.
        key = (
            self.conn.execute("PRAGMA database_list").fetchone()[2],
            _query_key(replace(q, limit=0, offset=0)),
        )
        now = time.monotonic()
        with _counts_lock:
            found = _counts.get(key)
            if found is not None and now - found[1] < COUNT_REUSE_S:
                return found[0]
            generation = _counts_generation
        count = self.count_listed_uncached(q)
        with _counts_lock:
            if generation == _counts_generation:  # no write of ours landed while counting
                if len(_counts) >= _COUNTS_MAX:
                    _counts.clear()
                _counts[key] = (count, now)
        return count
