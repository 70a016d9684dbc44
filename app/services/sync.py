"""Sync: a batch of one home's agent file (session rows, message rows with their ids in that file) applied
in one writer transaction.

Sessions upsert (a changed title, end or counter overwrites the stored row; the home's file is the truth
for its sessions). Messages are stored once per origin: the store keeps each synced message's home, file
generation and id in that file under a unique key, and a message it already has is skipped, so a repeated
or resumed sync duplicates nothing. A file that replaced the home's earlier one (or a restored or copied
one) is a generation of its own: its ids start over, and a message at an id another generation delivered is
the same message only when it says the same (session, role, content, time). Stored messages get new ids
here, reach search (in the same transaction for a small batch, through the background indexer for a big
one) and emit ``message.created`` like any append.

Each row is judged by the field rules every write path shares (:mod:`app.domain.field_rules`); a row that
breaks one is set aside and reported (``refused``) while the rest of the batch is stored, so one bad row
never stops a home's sync. A batch whose shape is wrong (its home, sizes, columns) is refused whole.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any, TypeVar

from app.domain import agent_rows, field_rules
from app.domain.field_rules import FieldProblem
from app.domain.sync import SESSION_REFUSED, conflict_title, home_handoff, home_problem, lone_surrogate
from app.errors import InvalidSyncBatch, TrigramMembershipLocked
from app.services.events import EventType, NewEvent, event_row, message_rows
from app.services.transfer import INLINE_INDEX_MESSAGES
from app.storage.protocols import Store, Tx, WriteRejected
from app.storage.rows import KnownOrigin, SessionPut, SyncedRows

_T = TypeVar("_T")

MAX_BATCH_SESSIONS = 1000
MAX_BATCH_MESSAGES = 5000
MAX_FILE_TOKEN_LENGTH = 64


@dataclass(frozen=True)
class SyncBatch:
    """One request: the home, session rows (column → value) and message rows (``message_columns`` order,
    ``id`` being the message's id in the home's file), and the token of that file's generation (``None``:
    a client that knows no generations, generation 0)."""

    home: str
    sessions: list[dict[str, Any]]
    message_columns: list[str]
    message_rows: list[list[Any]]
    file: str | None = None


@dataclass(frozen=True)
class Refused:
    """A row set aside: its session, its message id in the home's file (``None`` for a session row), and
    the rule it broke."""

    session_id: str | None
    message_id: int | None
    field: str
    code: str
    detail: str


@dataclass
class SyncResult:
    """What a batch did."""

    home: str
    sessions_inserted: int = 0
    sessions_updated: int = 0
    sessions_conflicting: list[str] = field(default_factory=list)
    sessions_new: list[str] = field(default_factory=list)
    titles_changed: list[str] = field(default_factory=list)
    parents_linked: int = 0
    messages_inserted: int = 0
    messages_skipped: int = 0
    messages_orphaned: int = 0
    first_message_id: int | None = None
    refused: list[Refused] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """The response body."""
        return asdict(self)


@dataclass(frozen=True)
class _Context:
    session_cols: dict[str, str]
    layout: agent_rows.MessageLayout
    now: float


@dataclass
class _Prepared:
    sessions: list[tuple[dict[str, Any], str | None]]
    origins: list[int]
    rows: list[list[Any]]
    refused: list[Refused]


def _invalid(loc: list[str | int], msg: str) -> InvalidSyncBatch:
    return InvalidSyncBatch([{"loc": ["body", *loc], "msg": msg, "type": "invalid_sync_batch"}])


_BAD_TEXT = "invalid_text"
_ROW_REFUSED = "invalid_row"


def _text_problem(values: Any) -> FieldProblem | None:
    # NUL is kept (the agent's own "\x00json:" content prefix); a lone surrogate cannot be stored anywhere.
    for key, value in values:
        if isinstance(value, str) and lone_surrogate(value):
            return FieldProblem(key, _BAD_TEXT, "text must not contain a lone surrogate")
    return None


def _session_problem(raw: dict[str, Any]) -> FieldProblem | None:
    parent = raw.get("parent_session_id")
    if parent is not None and not isinstance(parent, str):
        return FieldProblem("parent_session_id", _ROW_REFUSED, "parent_session_id must be a string or null")
    return field_rules.session_problem(raw) or _text_problem(raw.items())


def _prepare_session(raw: dict[str, Any], ctx: _Context) -> tuple[dict[str, Any], str | None] | FieldProblem:
    problem = _session_problem(raw)
    if problem is not None:
        return problem
    try:
        values = agent_rows.session_values(raw, ctx.session_cols, ctx.now)
    except agent_rows.RowError as exc:
        return FieldProblem("", _ROW_REFUSED, str(exc))
    values["id"] = raw["id"]
    return home_handoff(values), raw.get("parent_session_id") or None


def _prepare_message(
    raw: dict[str, Any], index: int, ctx: _Context, *, texts_checked: bool
) -> list[Any] | FieldProblem:
    sid = raw["session_id"]
    if not isinstance(sid, str) or not sid:
        return FieldProblem("session_id", _ROW_REFUSED, "session_id must be a non-empty string")
    problem = field_rules.message_problem(raw) or (None if texts_checked else _text_problem(raw.items()))
    if problem is not None:
        return problem
    try:
        return [sid, *ctx.layout.row(raw, index, ctx.now)]
    except agent_rows.RowError as exc:
        return FieldProblem("", _ROW_REFUSED, str(exc))


_SESSION_SET_ASIDE = FieldProblem("session_id", SESSION_REFUSED, "its session row was refused")


def _refused(session_id: Any, message_id: int | None, problem: FieldProblem) -> Refused:
    sid = session_id if isinstance(session_id, str) else None
    return Refused(sid, message_id, problem.field, problem.code, problem.detail)


def _prepare(batch: SyncBatch, ctx: _Context) -> _Prepared:
    problem = home_problem(batch.home)
    if problem is not None:
        raise _invalid(["home"], problem)
    if len(batch.sessions) > MAX_BATCH_SESSIONS:
        raise _invalid(["sessions"], f"at most {MAX_BATCH_SESSIONS} sessions per batch")
    if len(batch.message_rows) > MAX_BATCH_MESSAGES:
        raise _invalid(["messages", "rows"], f"at most {MAX_BATCH_MESSAGES} messages per batch")
    named: set[str] = set()
    sessions: list[tuple[dict[str, Any], str | None]] = []
    refused: list[Refused] = []
    set_aside: set[str] = set()
    for i, raw in enumerate(batch.sessions):
        sid = raw.get("id")
        if isinstance(sid, str):
            if sid in named:
                raise _invalid(["sessions", i, "id"], f"session {sid} appears more than once in the batch")
            named.add(sid)
        prepared = _prepare_session(raw, ctx)
        if isinstance(prepared, FieldProblem):
            refused.append(_refused(sid, None, prepared))
            if isinstance(sid, str):
                set_aside.add(sid)
        else:
            sessions.append(prepared)
    columns = batch.message_columns
    if batch.message_rows and ("id" not in columns or "session_id" not in columns):
        raise _invalid(["messages", "columns"], "columns must include id and session_id")
    if len(set(columns)) != len(columns):
        raise _invalid(["messages", "columns"], "columns must be distinct")
    width = len(columns)
    # One search over all the batch's text finds no lone surrogate in nearly every batch, sparing a look at
    # each value; only a batch holding one judges its rows one by one.
    texts_checked = not lone_surrogate(
        "\n".join(v for row in batch.message_rows for v in row if type(v) is str)
    )
    seen: set[int] = set()
    origins: list[int] = []
    rows: list[list[Any]] = []
    for i, row in enumerate(batch.message_rows):
        loc: list[str | int] = ["messages", "rows", i]
        if len(row) != width:
            raise _invalid(loc, f"a row must have {width} values, one per column")
        raw = dict(zip(columns, row, strict=True))
        origin = raw["id"]
        if type(origin) is not int or not 0 < origin <= agent_rows.INT64_MAX:
            raise _invalid([*loc, "id"], "id must be a positive 64-bit integer")
        if origin in seen:
            continue
        seen.add(origin)
        if isinstance(raw["session_id"], str) and raw["session_id"] in set_aside:
            refused.append(_refused(raw["session_id"], origin, _SESSION_SET_ASIDE))
            continue
        values = _prepare_message(raw, i, ctx, texts_checked=texts_checked)
        if isinstance(values, FieldProblem):
            refused.append(_refused(raw["session_id"], origin, values))
            continue
        origins.append(origin)
        rows.append(values)
    return _Prepared(sessions, origins, rows, refused)


def _plan_sessions(
    tx: Tx, home: int, label: str, prepared: _Prepared, result: SyncResult
) -> list[SessionPut]:
    """The session rows of the batch this home may write, with the titles they take here."""
    ids = [values["id"] for values, _ in prepared.sessions]
    homes = tx.sync.session_homes(ids)
    wanted = {title for values, _ in prepared.sessions if isinstance(title := values.get("title"), str)}
    # Who holds the titles the batch may take, looked up once; kept current as the loop assigns them, so
    # each session sees the titles of the ones before it as if they had been written one by one.
    held = tx.sync.titles_held(sorted(wanted | {conflict_title(t, label) for t in wanted}), ids)
    owned = {sid: title for title, sid in held.items()}
    puts: list[SessionPut] = []
    for planned, parent in prepared.sessions:
        values = dict(planned)  # a second, isolating pass plans again from the rows as sent
        sid = values["id"]
        update = sid in homes
        if update and homes[sid] != home:
            result.sessions_conflicting.append(sid)  # created here, or another home's: never overwritten
            continue
        title = values.get("title")
        if isinstance(title, str) and held.get(title) not in (None, sid):
            renamed = conflict_title(title, label)
            values["title"] = renamed if held.get(renamed) in (None, sid) else None
            result.titles_changed.append(sid)
        if "title" in values:
            _retitle(held, owned, sid, values["title"])
        puts.append(SessionPut(values, parent, update))
    return puts


def _put_sessions(
    tx: Tx, home: int, puts: list[SessionPut], result: SyncResult, events: list[NewEvent], *, isolate: bool
) -> set[str]:
    """Write ``puts`` (with ``isolate``, each in a savepoint of its own, setting aside the ones the store
    refuses); the ids of those set aside."""
    if isolate:
        # The store's order (updates first, see put_sessions), so each row finds the titles as planned.
        ordered = [put for put in puts if put.update] + [put for put in puts if not put.update]
        refused = _isolated(tx, ordered, lambda part: tx.sync.put_sessions(home, part), result, _put_refused)
        gone = {put.values["id"] for put, _ in refused}
        puts = [put for put in puts if put.values["id"] not in gone]
    else:
        gone = set()
        if puts:
            tx.sync.put_sessions(home, puts)
    now = time.time()
    for put in puts:
        sid = put.values["id"]
        if put.update:
            result.sessions_updated += 1
        else:
            result.sessions_inserted += 1
            result.sessions_new.append(sid)
        events.append(event_row(EventType.session_updated, sid, {"session_id": sid, "fields": ["sync"]}, now))
    if puts:
        result.parents_linked += tx.sync.link_waiting_parents(home, [put.values["id"] for put in puts])
    return gone


_Rejection = WriteRejected | TrigramMembershipLocked
"""What the store refuses one row with while the transaction goes on."""


def _rejection(exc: _Rejection) -> FieldProblem:
    if isinstance(exc, WriteRejected):
        return FieldProblem("", exc.reason, exc.detail)
    return FieldProblem("source", exc.code, exc.detail)


def _put_refused(put: SessionPut, exc: _Rejection) -> Refused:
    return _refused(put.values["id"], None, _rejection(exc))


def _message_refused(pair: tuple[int, list[Any]], exc: _Rejection) -> Refused:
    number, row = pair
    return _refused(row[0], number, _rejection(exc))


def _isolated(
    tx: Tx,
    items: list[_T],
    write: Callable[[list[_T]], object],
    result: SyncResult,
    refusal: Callable[[_T, _Rejection], Refused],
) -> list[tuple[_T, Refused]]:
    """Write ``items`` in order, each run in a savepoint of its own: a run the store refuses is halved until
    the items it refuses stand alone; those are set aside (listed in ``result.refused``) and returned."""
    try:
        with tx.savepoint():
            write(items)
    except (WriteRejected, TrigramMembershipLocked) as exc:
        if len(items) == 1:
            refused = refusal(items[0], exc)
            result.refused.append(refused)
            return [(items[0], refused)]
        cut = len(items) // 2
        return [
            *_isolated(tx, items[:cut], write, result, refusal),
            *_isolated(tx, items[cut:], write, result, refusal),
        ]
    return []


def _retitle(held: dict[str, str], owned: dict[str, str], sid: str, title: Any) -> None:
    """Record that ``sid`` now holds ``title`` (``None``: no title), giving up the one it held."""
    old = owned.pop(sid, None)
    if old is not None and held.get(old) == sid:
        del held[old]
    if isinstance(title, str):
        held[title] = sid
        owned[sid] = title


def _delivered(
    known: list[KnownOrigin], file_id: int, columns: list[str]
) -> Callable[[int, list[Any]], bool]:
    """Whether the store holds the message at an origin id of generation ``file_id``: one this generation
    delivered, or an identical one (a restored or copied file's shared history) another generation did."""
    own = {k.origin_id for k in known if k.file_id == file_id}
    said: dict[int, set[tuple[Any, ...]]] = {}
    for k in known:
        if k.message is not None:
            said.setdefault(k.origin_id, set()).add(k.message)
    # A stored row's (session_id, role, content, timestamp), as the batch's rows hold them.
    at = [0, *(1 + columns.index(c) for c in ("role", "content", "timestamp"))]

    def delivered(origin: int, row: list[Any]) -> bool:
        return origin in own or (origin in said and tuple(row[i] for i in at) in said[origin])

    return delivered


def _put_messages(
    tx: Tx,
    origin: tuple[int, int],
    prepared: _Prepared,
    columns: list[str],
    result: SyncResult,
    events: list[NewEvent],
    refused_sessions: set[str] | None = None,
) -> None:
    """Store the batch's messages not stored before; with ``refused_sessions`` (the isolating pass), those
    of these sessions are set aside with them and each message the store refuses is set aside alone."""
    if not prepared.origins:
        return
    home, file_id = origin
    known = tx.sync.known_origins(home, file_id, min(prepared.origins), max(prepared.origins))
    delivered = _delivered(known, file_id, columns)
    homes = tx.sync.session_homes(sorted({row[0] for row in prepared.rows}))
    origins: list[int] = []
    rows: list[list[Any]] = []
    for number, row in zip(prepared.origins, prepared.rows, strict=True):
        if delivered(number, row):
            result.messages_skipped += 1
        elif refused_sessions is not None and row[0] in refused_sessions:
            result.refused.append(_refused(row[0], number, _SESSION_SET_ASIDE))
        elif homes.get(row[0], -1) != home:
            result.messages_orphaned += 1  # its session is not stored, or is not this home's
        else:
            origins.append(number)
            rows.append(row)
    if not rows:
        return
    index_inline = len(rows) <= INLINE_INDEX_MESSAGES
    stored: list[tuple[int, list[Any]]] = []

    def insert(part: list[tuple[int, list[Any]]]) -> None:
        part_rows = [row for _, row in part]
        synced = SyncedRows([number for number, _ in part], part_rows, columns, file_id)
        ids = tx.sync.insert_messages(home, synced, index_inline=index_inline)
        stored.extend(zip(ids, part_rows, strict=True))

    pairs = list(zip(origins, rows, strict=True))
    if refused_sessions is None:
        insert(pairs)
    else:
        # A refused part raises before its rows are listed, so ``stored`` holds only what stayed.
        _isolated(tx, pairs, insert, result, _message_refused)
    if not stored:
        return
    result.first_message_id = stored[0][0]
    result.messages_inserted = len(stored)
    role = columns.index("role") + 1
    by_session: dict[str, list[dict[str, Any]]] = {}
    for new_id, row in stored:
        by_session.setdefault(row[0], []).append({"id": new_id, "role": row[role]})
    now = time.time()
    for sid, items in by_session.items():
        events.extend(message_rows(sid, items, now))


async def apply_batch(db: Store, batch: SyncBatch) -> SyncResult:
    """Validate ``batch`` (422 ``invalid_sync_batch``, nothing written) and apply it in one writer job."""
    session_cols, message_cols, defaults = await db.read(
        lambda tx: (
            tx.transfer.table_columns("sessions"),
            tx.transfer.table_columns("messages"),
            tx.transfer.message_defaults(),
        )
    )
    ctx = _Context(session_cols, agent_rows.MessageLayout(message_cols, defaults), time.time())
    prepared = await asyncio.to_thread(_prepare, batch, ctx)
    columns = ctx.layout.names

    def job(tx: Tx) -> SyncResult:
        try:
            with tx.savepoint():
                return apply(tx, isolate=False)
        except (WriteRejected, TrigramMembershipLocked):
            return isolating(tx)

    def isolating(tx: Tx) -> SyncResult:
        # A row the store refused (a constraint of a newer agent's schema, a session that may not change
        # kind): the batch again, each part in a savepoint of its own, setting aside only such rows.
        try:
            with tx.savepoint():
                return apply(tx, isolate=True)
        except WriteRejected as exc:
            raise _invalid([], exc.detail) from exc  # not a row's: nothing of the batch is written

    def apply(tx: Tx, *, isolate: bool) -> SyncResult:
        result = SyncResult(home=batch.home, refused=list(prepared.refused))
        # The batch's events go in with one statement (on PostgreSQL each one is a round trip under the
        # event-order lock).
        events: list[NewEvent] = []
        home = tx.sync.home_id(batch.home)
        file_id = 0 if batch.file is None else tx.sync.file_id(home, batch.file)
        puts = _plan_sessions(tx, home, batch.home, prepared, result)
        gone = _put_sessions(tx, home, puts, result, events, isolate=isolate)
        _put_messages(tx, (home, file_id), prepared, columns, result, events, gone if isolate else None)
        tx.events.insert_many(events)
        return result

    return await db.write(job, bulk=True)
