"""One SQLite library in the test process: the bundled one the server runs on.

Two copies of SQLite in one process must never open the same file: each keeps its own table of the POSIX
locks it holds, so one copy closing a descriptor drops the other's locks, and the file corrupts. The server
runs on ``pysqlite3``'s SQLite; the tests' own checks name it (``from app.storage.sqlite.driver import
sqlite3``), and code that says ``import sqlite3`` in this process (the real agent's ``hermes_state``) gets it
from here. Newer agents used as oracles run in processes of their own, on the interpreter's SQLite, like a
real agent beside the server.
Loaded by ``-p tests.one_sqlite`` before any test module imports ``sqlite3``.
"""

from __future__ import annotations

import sys

import pysqlite3
from pysqlite3 import dbapi2

sys.modules["sqlite3"] = pysqlite3
sys.modules["sqlite3.dbapi2"] = dbapi2
