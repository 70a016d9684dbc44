"""Rules of ``hermes sessions sync`` that need no I/O: home labels, the digest that tells a changed session
row, and the title a synced session takes when another session here already holds its own."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import orjson

from app.domain.handoff import HandoffState
from app.domain.titles import MAX_TITLE_LENGTH

MAX_HOME_LENGTH = 512
SESSION_REFUSED = "session_refused"
"""The code of a message set aside because its session row was (it comes back with that row)."""
_SURROGATE = re.compile("[\ud800-\udfff]")


def default_home(hostname: str, path: str) -> str:
    """The label of a home nobody named: host and file path (``laptop:/home/me/.hermes/state.db``)."""
    return f"{hostname}:{path}"


def home_problem(label: str) -> str | None:
    """Why a home label is refused, or ``None``."""
    if not label.strip():
        return "the home label must not be empty"
    if len(label) > MAX_HOME_LENGTH:
        return f"the home label is longer than {MAX_HOME_LENGTH} characters"
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in label) or _SURROGATE.search(label):
        return "the home label must not contain control characters"
    return None


def row_digest(values: Iterable[Any]) -> str:
    """A short digest of one row's values in column order: a changed title, end or counter changes it."""
    encoded = orjson.dumps([v.hex() if isinstance(v, bytes) else v for v in values])
    return hashlib.blake2b(encoded, digest_size=12).hexdigest()


FIRST_ROWS = 4
"""How many of a file's first message rows its mark keeps a digest of."""


@dataclass(frozen=True)
class FileMark:
    """What stays true of a synced file only while it is the same file: its device and inode, and a digest
    of some of its message rows by id (its first ones, and the last one the server acknowledged). A file
    deleted and created again, restored from a backup or copied from another machine under the same home
    label differs in one of them, or has handed out fewer ids than the cursor acknowledged."""

    device: int
    inode: int
    rows: dict[int, str]

    def with_tail(self, tail: dict[int, str]) -> FileMark:
        """This mark keeping its first rows and, of the later ones, only ``tail``."""
        first = dict(sorted(self.rows.items())[:FIRST_ROWS])
        return FileMark(self.device, self.inode, first | tail)


def same_file(recorded: FileMark, now: FileMark, rows_now: dict[int, str], sequence: int, acked: int) -> bool:
    """Whether the file marked ``now`` is the one ``recorded`` marked: same device and inode, every first row
    recorded that is still there unchanged (``rows_now``: the digests of those ids now; the agent may
    delete old sessions), and ids handed out (``sequence``) at least up to the ``acked`` message id."""
    return (
        (recorded.device, recorded.inode) == (now.device, now.inode)
        and sequence >= acked
        and all(rows_now.get(i, digest) == digest for i, digest in recorded.rows.items())
    )


def home_handoff(values: dict[str, Any]) -> dict[str, Any]:
    """A synced session row as the hub stores it: a handoff pending at its home is the home's gateway's to
    claim, so the hub holds none pending (an agent's gateway running on the hub's file lists pending
    handoffs straight from the sessions table, and would claim it too). The home's next sync carries the
    handoff on (running, completed, failed)."""
    if values.get("handoff_state") == HandoffState.pending:
        return {**values, "handoff_state": None}
    return values


def lone_surrogate(text: str) -> bool:
    """Whether ``text`` holds a lone surrogate (no store can keep one; SQLite text is UTF-8)."""
    return _SURROGATE.search(text) is not None


def conflict_title(title: str, home: str) -> str:
    """The title of a synced session whose own title another session here already holds: the title with its
    home in brackets, the title shortened so the whole stays within the length limit."""
    suffix = f" [{home}]"
    room = MAX_TITLE_LENGTH - len(suffix)
    if room < 1:
        suffix = f" [{home[: MAX_TITLE_LENGTH // 2]}]"
        room = MAX_TITLE_LENGTH - len(suffix)
    return title[:room].rstrip() + suffix
