"""``hermes sessions sync``: push an agent's ``state.db`` to a sessions server, incrementally and
idempotently, once or in a ``--watch`` loop.

The file is read read-only in short transactions (:mod:`app.storage.agent_file`) and validated before
anything is sent. Each run sends the messages past the cursor, in batches of ``--batch-size`` messages
on ``--parallel`` lanes (:mod:`app.cli.sync_lanes`: a lineage's batches in order on one lane; memory holds a
few batches a lane), each with the rows of its sessions that changed since the last acknowledged run, then
the other changed sessions; the cursor (:mod:`app.cli.sync_cursor`) moves after each acknowledged batch.
The server knows each message by its home and its id in this file, so a re-run after a crash duplicates
nothing.
"""

from __future__ import annotations

import socket
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson
import typer

from app.cli.api import MAX_BODY_BYTES, Api, make_http_client
from app.cli.commands.sessions import app
from app.cli.context import get_env
from app.cli.errors import CliError, ExitCode
from app.cli.output import err_console, note, say
from app.cli.sync_cursor import CursorUnreadable, SyncCursor, cursor_lock, cursor_path
from app.cli.sync_lanes import Batch, Lanes, lineage_key
from app.domain.sync import SESSION_REFUSED, default_home, home_problem, row_digest, same_file

if TYPE_CHECKING:
    from rich.progress import Progress

    from app.storage.agent_file import AgentFile, Check

SESSIONS_PER_BATCH = 500
DEFAULT_LANES = 2
DEFAULT_BATCH = 4000
"""Messages a request: each batch costs the server a fixed share (a transaction, its statements, the
request), which bigger batches spread thinner; the server takes up to 5,000."""


# A batch's answer counts under these keys: a number, or a list whose length counts.
_COUNTED = (
    "sessions_inserted",
    "sessions_updated",
    "messages_inserted",
    "messages_skipped",
    "messages_orphaned",
)
_LISTED = ("sessions_conflicting", "refused")


class Totals(Counter[str]):
    """What the server reported over one run (or a whole ``--watch``): the answers' counts by key, and
    ``batches``."""

    def add(self, answer: dict[str, Any]) -> None:
        """Count one batch's answer."""
        self["batches"] += 1
        self.update({key: int(answer.get(key, 0)) for key in _COUNTED})
        self.update({key: len(answer.get(key) or []) for key in _LISTED})

    def sent_anything(self) -> bool:
        """Whether the run sent a batch."""
        return self["batches"] > 0

    def line(self, home: str, url: str, seconds: float) -> str:
        """The summary line."""
        parts = [
            f"{self['sessions_inserted']} new and {self['sessions_updated']} updated sessions",
            f"{self['messages_inserted']} new messages",
        ]
        if self["messages_skipped"]:
            parts.append(f"{self['messages_skipped']} already there")
        if self["messages_orphaned"] or self["sessions_conflicting"]:
            parts.append(
                f"{self['sessions_conflicting']} sessions and {self['messages_orphaned']} messages not taken "
                "(their id belongs to another home or a session created there)"
            )
        if self["refused"]:
            parts.append(f"{self['refused']} rows set aside (`hermes sessions sync --report` says why)")
        return f"Synced {home} to {url}: {', '.join(parts)} in {seconds:.1f}s."


def _encode(value: Any) -> Any:
    # A BLOB value (the agent stores none): its bytes as text, rather than refusing the whole file.
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    raise TypeError(f"cannot send a {type(value).__name__}")


@dataclass(eq=False)
class Syncer:
    """One home syncing to one server."""

    api: Api
    source: AgentFile
    cursor: SyncCursor
    batch_size: int
    lanes: int = DEFAULT_LANES
    _synced_version: int | None = field(default=None, init=False)

    def _post(self, sessions: list[dict[str, Any]], rows: list[tuple[Any, ...]]) -> list[dict[str, Any]]:
        """Send one batch (split in two while its body is too big); the answers."""
        batch: dict[str, Any] = {
            "home": self.cursor.home,
            "sessions": sessions,
            "messages": {"columns": self.source.message_columns, "rows": rows},
        }
        if self.cursor.token is not None:
            batch["file"] = self.cursor.token
        body = orjson.dumps(batch, default=_encode)
        if len(body) > MAX_BODY_BYTES:
            if sessions and rows:
                return [*self._post(sessions, []), *self._post([], rows)]
            if len(sessions) > 1:
                cut = len(sessions) // 2
                return [*self._post(sessions[:cut], []), *self._post(sessions[cut:], [])]
            if len(rows) > 1:
                cut = len(rows) // 2
                return [*self._post([], rows[:cut]), *self._post([], rows[cut:])]
        response = self.api.request(
            "POST",
            "/sync/batches",
            feature="sync",
            content=body,
            headers={"Content-Type": "application/json"},
        )
        answer: dict[str, Any] = response.json()
        return [answer]

    def _send_sessions(self, session_ids: list[str], digests: dict[str, str], totals: Totals) -> set[str]:
        """Send these sessions' rows without messages, :data:`SESSIONS_PER_BATCH` a batch, each acknowledged
        in the cursor as it is answered; those the server did not hold before."""
        new: set[str] = set()
        for start in range(0, len(session_ids), SESSIONS_PER_BATCH):
            sessions = self.source.session_rows(session_ids[start : start + SESSIONS_PER_BATCH])
            answers = self._post(sessions, [])
            for answer in answers:
                totals.add(answer)
                new.update(answer.get("sessions_new") or [])
            self._set_aside(sessions, [], answers)
            self.cursor.acknowledge({row["id"]: digests[row["id"]] for row in sessions}, None)
            self.cursor.save()
        return new

    def _send_back(self, session_ids: list[str], up_to: int, totals: Totals) -> None:
        """Send again the messages up to ``up_to`` of sessions the server lost (pruned or deleted there after
        it took them); the server stores those it no longer has."""
        from app.storage.agent_file import iter_session_pages

        for rows in iter_session_pages(self.source, session_ids, up_to, self.batch_size):
            answers = self._post([], rows)
            for answer in answers:
                totals.add(answer)
            self._set_aside([], rows, answers)
        self.cursor.save()

    def _send_fixed(self, totals: Totals) -> None:
        """Send again the messages the server set aside whose row changed in the file since (fixed at home);
        one refused with its session comes back with that session instead (:meth:`_send_back`)."""
        recorded = {
            row["message_id"]: row.get("digest")
            for row in self.cursor.refused
            if type(row.get("message_id")) is int and row.get("code") != SESSION_REFUSED
        }
        if not recorded:
            return
        at = self.source.message_columns.index("id")
        rows = [
            row for row in self.source.message_rows(sorted(recorded)) if row_digest(row) != recorded[row[at]]
        ]
        for start in range(0, len(rows), self.batch_size):
            part = rows[start : start + self.batch_size]
            answers = self._post([], part)
            for answer in answers:
                totals.add(answer)
            self._set_aside([], part, answers)
        self.cursor.save()

    def _set_aside(
        self, sessions: list[dict[str, Any]], rows: Sequence[Sequence[Any]], answers: list[dict[str, Any]]
    ) -> None:
        """Record the rows the answers set aside, each message with the digest of the row as sent (a later
        run sends it again once the row changed)."""
        at = self.source.message_columns.index("id")
        sent = {int(row[at]): row for row in rows}
        refused = []
        for answer in answers:
            for row in answer.get("refused") or []:
                message = sent.get(row.get("message_id"))
                refused.append(row if message is None else {**row, "digest": row_digest(message)})
        self.cursor.set_aside([row["id"] for row in sessions], list(sent), refused)

    def _know_file(self) -> None:
        """Make sure the cursor is a position in the file read now: another file at the path (deleted and
        created again, restored, copied from another machine) starts a new generation from its first row."""
        cursor = self.cursor
        mark, rows_now, handed_out = self.source.mark(cursor.mark.rows if cursor.mark else ())
        fresh = cursor.last_message_id == 0 and not cursor.sessions
        if cursor.mark is None:
            other = fresh or handed_out < cursor.last_message_id
        else:
            other = not same_file(cursor.mark, mark, rows_now, handed_out, cursor.last_message_id)
        if other:
            if not fresh:
                note(
                    f"{self.source.path} is not the file synced before (replaced, restored or copied): "
                    "syncing it from its first message as a new generation of this home."
                )
            cursor.start_generation(mark)
        elif cursor.mark is None or not cursor.mark.rows:
            cursor.adopt(mark)  # a cursor older than file marks, or a file that had no messages yet
        else:
            return
        cursor.save()

    def _mark_tail(self) -> None:
        """Add the last acknowledged row to the file's mark: a file restored in place shows itself by
        another message at that id, even with as many messages written since."""
        cursor = self.cursor
        if cursor.mark is None or not cursor.last_message_id:
            return
        _, tail, _ = self.source.mark([cursor.last_message_id])
        cursor.adopt(cursor.mark.with_tail(tail))
        cursor.save()

    def _post_batch(self, batch: Batch) -> list[dict[str, Any]]:
        """One lane's batch: its sessions (more than :data:`SESSIONS_PER_BATCH`: the first ones alone), the
        last of them with its rows; the answers."""
        ahead = max(0, len(batch.sessions) - SESSIONS_PER_BATCH)
        answers: list[dict[str, Any]] = []
        for start in range(0, ahead, SESSIONS_PER_BATCH):
            answers += self._post(batch.sessions[start : min(start + SESSIONS_PER_BATCH, ahead)], [])
        return [*answers, *self._post(batch.sessions[ahead:], batch.rows)]

    def run_once(self, progress: Progress | None = None) -> Totals:
        """Send what changed since the cursor; the server's counts. A round on a file nobody committed to
        since the last complete round reads nothing more (``--watch`` on an idle agent)."""
        totals = Totals()
        if self.source.replaced():
            self.source.reopen()
            self._synced_version = None
        version = self.source.data_version()
        if version == self._synced_version:
            return totals
        # Runs of this home against this server take turns, each starting from where the last one left.
        with cursor_lock(self.cursor.path):
            self.cursor = self.cursor.reloaded()
            self._know_file()
            self._send_changes(totals, progress)
            self._mark_tail()
        self._synced_version = version
        return totals

    def _send_changes(self, totals: Totals, progress: Progress | None) -> None:
        snap = self.source.snapshot()
        changed = [sid for sid, digest in snap.digests.items() if self.cursor.sessions.get(sid) != digest]
        after = self.cursor.last_message_id
        # Changed sessions the server took before go first, alone: one it no longer has (pruned there, then
        # continued here) gets back the messages this file still has of it, before any newer one, so its
        # messages and counts agree again.
        taken = [sid for sid in changed if sid in self.cursor.sessions]
        lost = self._send_sessions(taken, snap.digests, totals) if taken else set()
        if lost:
            self._send_back([sid for sid in taken if sid in lost], after, totals)
        self._send_fixed(totals)
        sent = set(taken)
        changed = [sid for sid in changed if sid not in sent]
        task = None
        if progress is not None:
            total = self.source.count_messages(after, snap.max_message_id)
            task = progress.add_task("sync", total=total or None)
        from app.storage.agent_file import iter_pages

        waiting = dict.fromkeys(changed)  # ordered set: the changed sessions not sent yet

        def due(session: str) -> bool:
            # Each changed session goes with the first batch holding its messages, so the server stores and
            # indexes a session and its messages in one transaction rather than once empty, then again.
            return waiting.pop(session, False) is None

        def acknowledged(batch: Batch, answers: list[dict[str, Any]], position: int) -> None:
            for answer in answers:
                totals.add(answer)
            self._set_aside(batch.sessions, batch.rows, answers)
            self.cursor.acknowledge({row["id"]: snap.digests[row["id"]] for row in batch.sessions}, position)
            self.cursor.save()
            if progress is not None and task is not None:
                progress.advance(task, len(batch.rows))

        columns = self.source.message_columns
        lanes = Lanes(
            self.lanes,
            self.batch_size,
            id_at=columns.index("id"),
            session_at=columns.index("session_id"),
            key_of=lineage_key(snap.parents),
            session_rows=self.source.session_rows,
            post=self._post_batch,
            acknowledged=acknowledged,
            start=after,
        )
        try:
            for rows in iter_pages(self.source, after, snap.max_message_id, self.batch_size):
                lanes.deal(rows, due)
            lanes.finish()
        finally:
            lanes.close()
        self._send_sessions(list(waiting), snap.digests, totals)
        gone = set(self.cursor.sessions) - set(snap.digests)
        if gone:
            self.cursor.forget(gone)
            self.cursor.save()


def _progress() -> Progress:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    return Progress(
        TextColumn("Syncing"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("messages"),
        TimeRemainingColumn(),
        console=err_console(),
        transient=True,
        disable=not sys.stderr.isatty(),
    )


def _open_source(path: Path, check: Check) -> AgentFile:
    # Imported here: only this command reads a SQLite file, and every other one starts faster without it.
    from app.storage.agent_file import AgentFile, AgentFileError

    try:
        return AgentFile(path).open(check=check)
    except AgentFileError as exc:
        code = ExitCode.NOT_FOUND if exc.problem == "missing" else ExitCode.BAD_SOURCE
        raise CliError(f"Error: cannot sync: {exc.detail} Nothing was sent.", code) from exc


def _load_cursor(hermes_home: Path, home: str, url: str) -> SyncCursor:
    path = cursor_path(hermes_home, home, url)
    try:
        return SyncCursor.load(path, home, url)
    except CursorUnreadable as exc:
        note(f"Starting over: {exc} (the server skips what it already has).")
        return SyncCursor(path, home, url)


@app.command("sync")
def sync(
    ctx: typer.Context,
    source: Path | None = typer.Option(
        None, "--from", help="The agent's state file to read (default: $HERMES_HOME/state.db); never written"
    ),
    to: str | None = typer.Option(
        None, "--to", help="The sessions server to push to (default: HERMES_URL, else the local server)"
    ),
    token: str | None = typer.Option(
        None,
        "--token",
        help="Bearer token of that server (default: HERMES_API_TOKEN, else $HERMES_HOME/api_token)",
    ),
    home: str | None = typer.Option(
        None, "--home", help="Label of this home on the server (default: hostname:path of the file)"
    ),
    watch: bool = typer.Option(False, "--watch", help="Keep syncing every --interval seconds until Ctrl-C"),
    interval: float = typer.Option(2.0, "--interval", min=0.05, help="Seconds between --watch rounds"),
    batch_size: int = typer.Option(
        DEFAULT_BATCH,
        "--batch-size",
        min=1,
        max=5000,
        help="Messages per request (memory holds a few batches a lane)",
    ),
    parallel: int = typer.Option(
        DEFAULT_LANES,
        "--parallel",
        min=1,
        max=4,
        help="Batches in flight at once, each lineage's sessions and messages in order within one",
    ),
    full_check: bool = typer.Option(
        False,
        "--full-check",
        help="Check the whole file's integrity first, the agent's search indexes too (the first sync checks "
        "the tables it reads, later ones the sessions table; damaged pages met while reading are refused)",
    ),
    report: bool = typer.Option(
        False,
        "--report",
        help="List the rows the server set aside for this home (and why) instead of syncing; exit 0",
    ),
) -> None:
    """Push new and changed sessions and messages of an agent's state file to a sessions server.

    Incremental (a cursor under $HERMES_HOME/sync/ remembers what the server acknowledged) and idempotent
    (a re-run, or one after a crash, stores nothing twice). The file is validated first (integrity, schema
    version): a damaged, foreign or too new file is refused before anything is sent.
    """
    env = get_env(ctx)
    config = env.config
    path = (source or config.home / "state.db").expanduser()
    label = home if home is not None else default_home(socket.gethostname(), str(path.resolve()))
    problem = home_problem(label)
    if problem is not None:
        raise CliError(f"Error: --home: {problem}.", ExitCode.USAGE)
    if to is None and token is None:
        url = config.url
    else:
        target = replace(
            config,
            url=(to or config.url).rstrip("/"),
            token=token or config.token,
            token_source="--token" if token else config.token_source,
        )
        url = target.url
    cursor = _load_cursor(config.home, label, url)
    if report:
        _report(cursor, label, url)
        return
    first_sync = cursor.last_message_id == 0 and not cursor.sessions
    agent_file = _open_source(path, "whole" if full_check else "read" if first_sync else "sessions")
    from app.storage.agent_file import AgentFileError

    try:
        if to is None and token is None:
            api = env.api()
        else:
            http = make_http_client(target)
            ctx.call_on_close(http.close)
            api = Api(http, url, target.auth_advice())
        _run(Syncer(api, agent_file, cursor, batch_size, parallel), label, url, watch, interval)
    except AgentFileError as exc:
        message = f"Error: sync stopped: {exc.detail} What the server acknowledged stays."
        raise CliError(message, ExitCode.BAD_SOURCE) from exc
    finally:
        agent_file.close()


def _report(cursor: SyncCursor, label: str, url: str) -> None:
    if not cursor.refused:
        say(f"Nothing of {label} is set aside on {url}.")
        return
    say(
        f"{len(cursor.refused)} rows of {label} set aside on {url} (fix them in the file to send them again):"
    )
    for row in cursor.refused:
        message = row.get("message_id")
        where = f"session {row.get('session_id')}" + (f", message {message}" if message is not None else "")
        field = f" {row['field']}" if row.get("field") else ""
        say(f"  {where}:{field} {row.get('code')}: {row.get('detail')}")


def _run(syncer: Syncer, label: str, url: str, watch: bool, interval: float) -> None:
    started = time.monotonic()
    if not watch:
        with _progress() as progress:
            totals = syncer.run_once(progress)
        say(totals.line(label, url, time.monotonic() - started))
        return
    overall = Totals()
    try:
        while True:
            round_started = time.monotonic()
            try:
                totals = syncer.run_once()
            except CliError as exc:
                # The server away or busy: the next round resumes from the cursor. Anything else stops,
                # a server whose own file is read-only too (waiting would not change it).
                busy = getattr(exc, "status", None) == 503 and exc.exit_code != ExitCode.READ_ONLY
                transient = exc.exit_code == ExitCode.UNREACHABLE or busy
                if not transient:
                    raise
                note(f"{exc.message} (retrying in {interval:g}s)")
            else:
                overall.update(totals)
                if totals.sent_anything():
                    say(totals.line(label, url, time.monotonic() - round_started))
            time.sleep(interval)
    except KeyboardInterrupt:
        say(overall.line(label, url, time.monotonic() - started))
