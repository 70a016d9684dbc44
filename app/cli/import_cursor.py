"""Where an interrupted ``hermes sessions import`` got to: a small JSON file of ours under
``$HERMES_HOME/import/``, one per file and server.

It counts the lines of the import's order (:func:`app.cli.import_plan.plan`) the server acknowledged and
the report so far; it is replaced atomically after each acknowledged request and removed when the import
completes. It belongs to the file as it was (path, size, modification time): a changed file starts over.
A request lost to the interruption is sent again; the server skips the sessions it already stored, so a
resumed import duplicates nothing.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.cli.sync_cursor import write_atomically

CURSOR_VERSION = 1


@dataclass
class ImportCursor:
    """The acknowledged part of one import of one file into one server."""

    path: Path
    identity: dict[str, Any]
    done: int = 0
    """Lines of the import's order the server acknowledged."""
    report: dict[str, Any] = field(default_factory=dict)
    """The sums of the acknowledged answers."""

    @classmethod
    def load(cls, hermes_home: Path, file: Path, url: str, on_conflict: str) -> ImportCursor:
        """The cursor of importing ``file`` into ``url``: the stored one if it is for this very file,
        else a fresh one."""
        stat = file.stat()
        identity = {
            "version": CURSOR_VERSION,
            "file": str(file.resolve()),
            "size": stat.st_size,
            "mtime_ns": stat.st_mtime_ns,
            "url": url.rstrip("/"),
            "on_conflict": on_conflict,
        }
        digest = hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:16]
        cursor = cls(hermes_home / "import" / f"{file.name[:40]}-{digest}.json", identity)
        with contextlib.suppress(OSError, ValueError):
            stored = json.loads(cursor.path.read_text(encoding="utf-8"))
            if isinstance(stored, dict) and stored.get("identity") == identity:
                done, report = stored.get("done"), stored.get("report")
                if type(done) is int and done >= 0 and isinstance(report, dict):
                    cursor.done, cursor.report = done, report
        return cursor

    def acknowledge(self, lines: int, report: dict[str, Any]) -> None:
        """Record ``lines`` more lines acknowledged, with the running report, on disk."""
        self.done += lines
        self.report = report
        write_atomically(
            self.path, json.dumps({"identity": self.identity, "done": self.done, "report": self.report})
        )

    def clear(self) -> None:
        """The import completed: nothing to resume."""
        self.path.unlink(missing_ok=True)
