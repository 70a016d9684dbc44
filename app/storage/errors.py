"""The failures storage raises that are not the caller's fault (a lock held too long, I/O trouble).

Background loops catch these to log and retry at their next pass; requests never do (the error handler
translates them).
"""

from __future__ import annotations

from app.storage.sqlite.driver import sqlite3

StorageError: type[Exception] = sqlite3.Error
