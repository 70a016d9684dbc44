"""Leader election among replicas: one session-level advisory lock, held on a dedicated connection.

**One key for all job families.** The jobs (auto-prune, expiry finalisation, the indexer, the event-log
prune) are light and all write through the same database, so spreading them over replicas would buy nothing
but a connection and an election per family, and one leader is easier to reason about (and to find:
``pg_locks`` shows one advisory lock). Advisory locks are per database, so servers of different databases on
one cluster elect their leaders independently.

**Acquiring.** A candidate's thread calls ``pg_try_advisory_lock`` every :attr:`LeaderTiming.retry_s`. The
server releases a session's locks when the session ends, so a leader killed with ``kill -9`` (its socket
closed by the kernel) frees the lock at once, and a leader whose host vanished frees it once the server's
TCP keepalives give up on it (:mod:`app.storage.postgres.dedicated`).

**Never two at once.** The leader proves its session alive every :attr:`LeaderTiming.check_s` (``SELECT 1``
on the lock's connection; the lock lives exactly as long as that session). Without a proof for
:attr:`LeaderTiming.lease_s` it stops leading, whatever its thread is stuck on, and closes the connection.
A new leader waits :attr:`LeaderTiming.settle_s` (longer than the lease plus the jobs' polling) before its
jobs start: the old leader's last proof predates the new leader's lock, so the old leader's jobs are
cancelled before the new leader's begin, even when the old one is alive but cut off from its session
(``pg_terminate_backend``, a network partition). The jobs stay idempotent anyway.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

import psycopg

from app.storage.leadership import Job, supervise
from app.storage.postgres.dedicated import advisory_key, close_quietly, connect_dedicated

log = logging.getLogger(__name__)

LEADER_LOCK_KEY: Final = advisory_key("hermes-sessions:leader")
"""The advisory lock key the leader holds (a namespaced name hashed to a bigint)."""

APPLICATION_NAME: Final = "hermes-leader"


@dataclass(frozen=True)
class LeaderTiming:
    """The election's clocks; the defaults take over from a dead leader within ``retry_s + settle_s``."""

    retry_s: float = 5.0
    """How often a candidate tries the lock."""
    check_s: float = 1.0
    """How often the leader proves its session alive."""
    lease_s: float = 3.0
    """How long the leader goes on leading without a proof."""
    settle_s: float = 4.5
    """How long a new leader waits before its jobs start."""
    poll_s: float = 0.25
    """How often the jobs' supervisor looks at the standing."""

    def __post_init__(self) -> None:
        if self.settle_s <= self.lease_s + self.poll_s:
            raise ValueError("settle_s must exceed lease_s + poll_s, or two leaders' jobs could overlap")
        if self.check_s >= self.lease_s:
            raise ValueError("check_s must be shorter than lease_s, or a healthy leader would step down")


Connect = Callable[[], psycopg.Connection[tuple[Any, ...]]]


class AdvisoryLeader:
    """This replica's candidacy: a thread that takes the lock when it can and keeps proving it holds it."""

    def __init__(
        self,
        url: str,
        *,
        timing: LeaderTiming | None = None,
        key: int = LEADER_LOCK_KEY,
        connect: Connect | None = None,
    ) -> None:
        self.timing = timing or LeaderTiming()
        self.key = key
        self._connect = connect or (lambda: connect_dedicated(url, APPLICATION_NAME))
        self._conn: psycopg.Connection[tuple[Any, ...]] | None = None
        # Monotonic instants, written by the thread and read by the event loop (floats: atomic in CPython).
        self._held_since: float | None = None
        self._last_proof = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="hermes-leader", daemon=True)
        self.terms = 0
        """How many times this process has taken the lock."""

    # -- lifecycle -------------------------------------------------------------------------------

    def start(self) -> None:
        """Start campaigning."""
        self._thread.start()

    def stop(self) -> None:
        """Stop campaigning and release the lock, so another replica takes over at its next try. Stop the
        jobs' supervisors first: they would otherwise run on for up to ``poll_s`` after the release."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()

    # -- standing --------------------------------------------------------------------------------

    @property
    def holds_lock(self) -> bool:
        """Whether this process holds the lock as of its last proof (jobs may still be settling)."""
        return self._held_since is not None and time.monotonic() - self._last_proof < self.timing.lease_s

    @property
    def leading(self) -> bool:
        """Whether this process may run jobs now: it holds the lock, proved it within the lease, and has
        held it for longer than the settling time."""
        held = self._held_since
        now = time.monotonic()
        return (
            held is not None
            and now - self._last_proof < self.timing.lease_s
            and now - held >= self.timing.settle_s
        )

    async def while_leading(self, job: Job) -> None:
        """Run ``job()`` during each of this process's terms as leader (see :func:`supervise`)."""
        await supervise(lambda: self.leading, job, self.timing.poll_s)

    # -- the thread ------------------------------------------------------------------------------

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                if self._held_since is None:
                    wait = 0.0 if self._campaign() else self.timing.retry_s
                else:
                    self._prove()
                    wait = self.timing.check_s
                self._stop.wait(wait)
        finally:
            self._release()

    def _campaign(self) -> bool:
        """One try at the lock; whether it was taken."""
        try:
            if self._conn is None or self._conn.closed:
                self._conn = self._connect()
            asked = time.monotonic()
            row = self._conn.execute("SELECT pg_try_advisory_lock(%s)", (self.key,)).fetchone()
        except psycopg.Error as exc:
            log.debug("leader candidacy: lock not tried: %s", exc)
            self._drop()
            return False
        if not (row and row[0]):
            return False
        self._last_proof = asked
        self._held_since = asked
        self.terms += 1
        log.info("this replica leads (advisory lock %d)", self.key)
        return True

    def _prove(self) -> None:
        """Show the lock's session is alive, or step down."""
        asked = time.monotonic()
        conn = self._conn
        try:
            if conn is None:
                raise psycopg.OperationalError("no connection")
            conn.execute("SELECT 1")
        except psycopg.Error as exc:
            log.warning("leadership lost: %s", exc)
            self._drop()
            return
        if time.monotonic() - asked >= self.timing.lease_s:
            # The lease already ran out while waiting: the jobs have stopped; start over as a candidate.
            log.warning("leadership given up: the session answered too late")
            self._drop()
            return
        self._last_proof = asked

    def _drop(self) -> None:
        """Forget the lock and its connection (closing the session releases the lock if it still held)."""
        self._held_since = None
        conn, self._conn = self._conn, None
        close_quietly(conn)

    def _release(self) -> None:
        conn = self._conn
        if conn is not None and self._held_since is not None:
            try:
                conn.execute("SELECT pg_advisory_unlock(%s)", (self.key,))
            except psycopg.Error as exc:
                log.debug("advisory lock not released explicitly (closing releases it): %s", exc)
        self._drop()
