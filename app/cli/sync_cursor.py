"""Where ``hermes sessions sync`` got to, per home and server: a small JSON file of ours under
``$HERMES_HOME/sync/``.

It holds the highest message id the server acknowledged and a digest of each session row it acknowledged, so
the next run sends only newer messages and the sessions whose row changed. It is replaced atomically (a
temporary file, fsync, rename) after each acknowledged batch: a crash leaves the previous state, and the
server skips what it already has, so resuming from an older cursor costs time, never duplicates.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

CURSOR_VERSION = 1
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def cursor_path(hermes_home: Path, home: str, url: str) -> Path:
    """The cursor file of one home syncing to one server: a readable slug plus a hash of both."""
    digest = hashlib.sha256(f"{home}\n{url.rstrip('/')}".encode()).hexdigest()[:16]
    slug = _UNSAFE.sub("-", home).strip("-")[:40] or "home"
    return hermes_home / "sync" / f"{slug}-{digest}.json"


class CursorUnreadable(ValueError):
    """The cursor file exists but is not one of ours (the caller starts over: the server skips repeats)."""


@dataclass
class SyncCursor:
    """What the server acknowledged for one home."""

    path: Path
    home: str
    url: str
    last_message_id: int = 0
    sessions: dict[str, str] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path, home: str, url: str) -> SyncCursor:
        """The stored cursor, or a fresh one when there is none; :class:`CursorUnreadable` when the file is
        damaged or belongs to another home or server."""
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return cls(path, home, url)
        except (OSError, ValueError) as exc:
            raise CursorUnreadable(f"{path}: {exc}") from exc
        if (
            not isinstance(raw, dict)
            or raw.get("version") != CURSOR_VERSION
            or raw.get("home") != home
            or raw.get("url") != url
            or type(raw.get("last_message_id")) is not int
            or not isinstance(raw.get("sessions"), dict)
            or not all(isinstance(k, str) and isinstance(v, str) for k, v in raw["sessions"].items())
        ):
            raise CursorUnreadable(f"{path} is not a sync cursor of {home} to {url}")
        return cls(path, home, url, raw["last_message_id"], dict(raw["sessions"]))

    def save(self) -> None:
        """Replace the file atomically with the current state."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        body = json.dumps(
            {
                "version": CURSOR_VERSION,
                "home": self.home,
                "url": self.url,
                "last_message_id": self.last_message_id,
                "sessions": self.sessions,
            },
            separators=(",", ":"),
        )
        fd, tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", dir=self.path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(body)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
