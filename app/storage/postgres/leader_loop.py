"""A thread that does one kind of upkeep on a connection of its own, only while this replica leads.

Each pass reports how much it did: the next pass comes after :attr:`LeaderLoop.busy_s` while there was
work, and the pause doubles up to :attr:`LeaderLoop.idle_s` while there is none. A lost connection is made
again after :data:`RETRY_S`; a database that refuses the privilege the upkeep needs stops the thread with
one warning (the upkeep is then left to whatever does it otherwise). Passes never reach a request.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any, Final

import psycopg
from psycopg import errors as pg_errors

from app.storage.postgres.dedicated import close_quietly, connect_dedicated

log = logging.getLogger(__name__)

RETRY_S: Final = 2.0
"""The pause after the database could not be reached."""

Connect = Callable[[], psycopg.Connection[tuple[Any, ...]]]


class LeaderLoop:
    """Runs :meth:`_pass` on a dedicated connection while ``is_leading()``; subclasses say what a pass does,
    what it is called (:attr:`what`) and what happens without the privilege (:attr:`without_privilege`)."""

    what = "upkeep"
    """Names the upkeep in the thread's name (``hermes-<what>``) and in log lines."""
    without_privilege = "left undone"
    """What the warning says becomes of the upkeep when the database refuses the privilege."""
    application_name = "hermes-upkeep"
    """Names the connection in ``pg_stat_activity``."""
    BUSY_S = 1.0
    """The pause after a pass that did something (unless the constructor is given another)."""
    IDLE_S = 5.0
    """The longest pause, reached by doubling while passes find nothing to do."""

    def __init__(
        self,
        url: str,
        is_leading: Callable[[], bool],
        *,
        busy_s: float | None = None,
        idle_s: float | None = None,
        connect: Connect | None = None,
    ) -> None:
        self.is_leading = is_leading
        self.busy_s = self.BUSY_S if busy_s is None else busy_s
        self.idle_s = self.IDLE_S if idle_s is None else idle_s
        self._connect = connect or (lambda: connect_dedicated(url, self.application_name))
        self._conn: psycopg.Connection[tuple[Any, ...]] | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"hermes-{self.what}", daemon=True)
        self.passes = 0
        """Passes made."""
        self.done = 0
        """The work the passes did, in :meth:`_pass`'s units."""

    def start(self) -> None:
        """Start the thread."""
        self._thread.start()

    def stop(self) -> None:
        """Stop the thread (a pass under way finishes first) and close its connection."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()

    @property
    def running(self) -> bool:
        """Whether the thread is still at work (it ends when stopped, or without the privilege)."""
        return self._thread.is_alive()

    def next_wait(self, wait: float, done: int) -> float:
        """The pause after a pass that did ``done`` units of work: :attr:`busy_s` while there was some, else
        twice the last pause, up to :attr:`idle_s`."""
        return self.busy_s if done else min(self.idle_s, wait * 2)

    def _pass(self, conn: psycopg.Connection[tuple[Any, ...]]) -> int:
        """One pass of the upkeep on ``conn``; the work it did (0: nothing to do)."""
        raise NotImplementedError

    def _run(self) -> None:
        wait = self.busy_s
        try:
            while not self._stop.wait(wait):
                if not self.is_leading():
                    wait = self.busy_s
                    continue
                try:
                    if self._conn is None or self._conn.closed:
                        self._conn = self._connect()
                    done = self._pass(self._conn)
                    self.passes += 1
                    self.done += done
                except pg_errors.InsufficientPrivilege as exc:
                    log.warning("%s: %s (%s)", self.what, self.without_privilege, exc)
                    return
                except psycopg.Error as exc:
                    log.debug("%s not done: %s", self.what, exc)
                    self._drop()
                    wait = RETRY_S
                    continue
                except Exception:
                    # Not foreseen: say so with the traceback, and try again later.
                    log.exception("%s failed", self.what)
                    self._drop()
                    wait = RETRY_S
                    continue
                wait = self.next_wait(wait, done)
        finally:
            self._drop()

    def _drop(self) -> None:
        conn, self._conn = self._conn, None
        close_quietly(conn)
