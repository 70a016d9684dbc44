"""Where ``hermes sessions sync`` got to, per home and server: a small JSON file of ours under
``$HERMES_HOME/sync/``.

It holds the highest message id the server acknowledged and a digest of each session row it acknowledged, so
the next run sends only newer messages and the sessions whose row changed. It is replaced atomically (a
temporary file, fsync, rename) after each acknowledged batch: a crash leaves the previous state, and the
server skips what it already has, so resuming from an older cursor costs time, never duplicates.
(``$HERMES_HOME/sync/<name>.json`` is the position, ``<name>.sessions.json`` the digests and
``<name>.sessions.log`` the digests acknowledged since, ``<name>.refused.json`` the rows the server set aside,
``<name>.lock`` what a run holds.)

The position also records which file it is a position in (:class:`~app.domain.sync.FileMark`) and the token
of that file's generation on the server: a run that finds another file at the path (replaced, restored,
copied) starts over under a new token, so the server keeps that file's messages apart from the earlier
one's. Runs of one home against one server take turns on the lock file, each reading the cursor the one
before it left.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import re
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.domain.sync import FileMark

CURSOR_VERSION = 1
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def cursor_path(hermes_home: Path, home: str, url: str) -> Path:
    """The cursor file of one home syncing to one server: a readable slug plus a hash of both."""
    digest = hashlib.sha256(f"{home}\n{url.rstrip('/')}".encode()).hexdigest()[:16]
    slug = _UNSAFE.sub("-", home).strip("-")[:40] or "home"
    return hermes_home / "sync" / f"{slug}-{digest}.json"


class CursorUnreadable(ValueError):
    """The cursor file exists but is not one of ours (the caller starts over: the server skips repeats)."""


def write_atomically(path: Path, body: str) -> None:
    """Replace ``path`` with ``body`` at once (temporary file, fsync, rename): a crash leaves the old one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(body)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def append_line(path: Path, line: str) -> None:
    """Append ``line`` and a newline to ``path`` and fsync it."""
    with path.open("a", encoding="utf-8") as fh:
        fh.write(line + "\n")
        fh.flush()
        os.fsync(fh.fileno())


def _read(path: Path) -> dict[str, Any] | None:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise CursorUnreadable(f"{path}: {exc}") from exc
    if not isinstance(raw, dict):
        raise CursorUnreadable(f"{path} is not a sync cursor")
    return raw


@contextlib.contextmanager
def cursor_lock(path: Path) -> Iterator[None]:
    """Hold the lock of the cursor at ``path`` (waiting for a run that holds it) for the block."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path.with_suffix(".lock"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def new_token() -> str:
    """The token of a new generation of a home's file on the server."""
    return uuid.uuid4().hex


def _mark_of(raw: Any) -> FileMark | None:
    if not isinstance(raw, dict):
        return None
    device, inode, rows = raw.get("device"), raw.get("inode"), raw.get("rows")
    if type(device) is not int or type(inode) is not int or not isinstance(rows, dict):
        return None
    try:
        return FileMark(device, inode, {int(k): str(v) for k, v in rows.items()})
    except ValueError:
        return None


def _mark_json(mark: FileMark) -> dict[str, Any]:
    return {
        "device": mark.device,
        "inode": mark.inode,
        "rows": {str(k): v for k, v in mark.rows.items()},
    }


def _report_key(row: dict[str, Any]) -> tuple[Any, Any]:
    return row.get("session_id"), row.get("message_id")


@dataclass
class SyncCursor:
    """What the server acknowledged for one home.

    Two files: the position (``<name>.json``, rewritten after every batch) and the session digests
    (``<name>.sessions.json``), so a long run of message batches never rewrites the digests of every
    session. A batch that carried sessions appends their digests to a journal beside the digests
    (``<name>.sessions.log``, one JSON line each, ``null`` for a session forgotten), which is folded into
    the digests once it holds as many as they do: a first sync, where every batch carries new sessions,
    writes each digest a few times in all rather than once per batch after it. Each file is replaced
    atomically or appended to with one line and an fsync (a torn last line is ignored); either one being a
    batch behind the other only makes the next run re-send what the server then skips."""

    path: Path
    home: str
    url: str
    last_message_id: int = 0
    sessions: dict[str, str] = field(default_factory=dict)
    token: str | None = None
    mark: FileMark | None = None
    refused: list[dict[str, Any]] = field(default_factory=list)
    _sessions_dirty: bool = field(default=False, repr=False)
    _changed: dict[str, str | None] = field(default_factory=dict, repr=False)
    _folded: int = field(default=0, repr=False)
    _journaled: int | None = field(default=None, repr=False)
    _refused_dirty: bool = field(default=False, repr=False)

    @property
    def sessions_path(self) -> Path:
        """The file of the session digests."""
        return self.path.with_name(self.path.stem + ".sessions.json")

    @property
    def journal_path(self) -> Path:
        """The journal of the digests acknowledged since :attr:`sessions_path` was written."""
        return self.path.with_name(self.path.stem + ".sessions.log")

    @property
    def refused_path(self) -> Path:
        """The file of the rows the server set aside (``hermes sessions sync --report``)."""
        return self.path.with_name(self.path.stem + ".refused.json")

    def reloaded(self) -> SyncCursor:
        """The cursor as stored now (another run may have moved it), fresh when the files are unreadable."""
        try:
            return SyncCursor.load(self.path, self.home, self.url)
        except CursorUnreadable:
            return SyncCursor(self.path, self.home, self.url)

    def start_generation(self, mark: FileMark) -> None:
        """Start over on a file the cursor never saw: a new token, nothing acknowledged, no rows set aside."""
        self.token = new_token()
        self.mark = mark
        self.last_message_id = 0
        self.sessions = {}
        self.refused = []
        self._sessions_dirty = self._refused_dirty = True
        self._journaled = None  # the digests are written whole

    def adopt(self, mark: FileMark) -> None:
        """Record ``mark`` as the file's (its first rows as they are now)."""
        self.mark = mark

    def set_aside(self, sessions: list[str], messages: list[int], refused: list[dict[str, Any]]) -> None:
        """Record what a batch's answer set aside, and forget earlier refusals of the session rows and the
        messages (by id) it carried and the server did not set aside again."""
        sent = {(sid, None) for sid in sessions}
        carried = set(messages)

        def resent(row: dict[str, Any]) -> bool:
            message = row.get("message_id")
            return _report_key(row) in sent if message is None else message in carried

        if not refused and not any(resent(row) for row in self.refused):
            return
        kept = {_report_key(row): row for row in self.refused if not resent(row)}
        kept.update((_report_key(row), row) for row in refused)
        self.refused = list(kept.values())
        self._refused_dirty = True

    @classmethod
    def load(cls, path: Path, home: str, url: str) -> SyncCursor:
        """The stored cursor, or a fresh one when there is none; :class:`CursorUnreadable` when a file is
        damaged or belongs to another home or server."""
        cursor = cls(path, home, url)
        position = _read(path)
        digests = _read(cursor.sessions_path)
        for raw, where in ((position, path), (digests, cursor.sessions_path)):
            if raw is not None and (
                raw.get("version") != CURSOR_VERSION or raw.get("home") != home or raw.get("url") != url
            ):
                raise CursorUnreadable(f"{where} is not a sync cursor of {home} to {url}")
        if position is not None:
            if type(position.get("last_message_id")) is not int:
                raise CursorUnreadable(f"{path} has no last_message_id")
            cursor.last_message_id = position["last_message_id"]
            token = position.get("token")
            cursor.token = token if isinstance(token, str) else None
            cursor.mark = _mark_of(position.get("file"))
        report = _read(cursor.refused_path)
        if report is not None and isinstance(report.get("rows"), list):
            cursor.refused = [row for row in report["rows"] if isinstance(row, dict)]
        if digests is not None:
            sessions = digests.get("sessions")
            if not isinstance(sessions, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in sessions.items()
            ):
                raise CursorUnreadable(f"{cursor.sessions_path} holds no session digests")
            cursor.sessions = dict(sessions)
            cursor._folded = len(sessions)
            cursor._journaled = cursor._replay()
        return cursor

    def _replay(self) -> int | None:
        """Apply the journal to :attr:`sessions`; how many digests it holds (``None``: the digests are to be
        written whole at the next save, the journal ending in a torn line)."""
        try:
            lines = self.journal_path.read_bytes().splitlines()
        except FileNotFoundError:
            return 0
        except OSError as exc:
            raise CursorUnreadable(f"{self.journal_path}: {exc}") from exc
        count = 0
        for line in lines:
            try:
                entry = json.loads(line)
            except ValueError:
                return None  # a line cut short by a crash; what it held is sent again
            if not isinstance(entry, dict) or not all(
                isinstance(k, str) and (v is None or isinstance(v, str)) for k, v in entry.items()
            ):
                raise CursorUnreadable(f"{self.journal_path} holds no session digests")
            for sid, digest in entry.items():
                if digest is None:
                    self.sessions.pop(sid, None)
                else:
                    self.sessions[sid] = digest
            count += len(entry)
        return count

    def acknowledge(self, sessions: dict[str, str], last_message_id: int | None) -> None:
        """Record what the server acknowledged: these session digests, and messages up to that id."""
        if sessions:
            self.sessions.update(sessions)
            self._changed.update(sessions)
            self._sessions_dirty = True
        if last_message_id is not None:
            self.last_message_id = last_message_id

    def forget(self, session_ids: set[str]) -> None:
        """Drop the digests of sessions no longer in the file."""
        for sid in session_ids:
            self.sessions.pop(sid, None)
            self._changed[sid] = None
        self._sessions_dirty = self._sessions_dirty or bool(session_ids)

    def save(self) -> None:
        """Replace the files atomically with the current state (the digests only when they changed)."""
        head = {"version": CURSOR_VERSION, "home": self.home, "url": self.url}
        if self._sessions_dirty:
            self._save_digests(head)
            self._sessions_dirty = False
        if self._refused_dirty:
            write_atomically(self.refused_path, json.dumps({**head, "rows": self.refused}))
            self._refused_dirty = False
        position: dict[str, Any] = {**head, "last_message_id": self.last_message_id, "token": self.token}
        if self.mark is not None:
            position["file"] = _mark_json(self.mark)
        write_atomically(self.path, json.dumps(position))

    def _save_digests(self, head: dict[str, Any]) -> None:
        # The changes go to the journal while it stays smaller than the digests it extends; then the
        # digests are written whole and the journal starts over.
        journaled = self._journaled
        if journaled is not None and journaled + len(self._changed) <= self._folded:
            append_line(self.journal_path, json.dumps(self._changed))
            self._journaled = journaled + len(self._changed)
        else:
            write_atomically(self.sessions_path, json.dumps({**head, "sessions": self.sessions}))
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.journal_path)
            self._folded, self._journaled = len(self.sessions), 0
        self._changed = {}
