"""The auto-prune scheduler: the agent's ``maybe_auto_prune_and_vacuum`` run inside the server.

A run is due when ``state_meta['last_auto_prune']`` (the agent's own float marker, so both share one schedule)
is missing, unparseable, or older than ``min_interval_hours``. Exactly one process runs it even when several
servers share the file: the run is claimed by writing a lease row in a write transaction (``BEGIN IMMEDIATE``
serialises the claimers), and the lease expires on its own if its holder dies. A run never raises: failures
are recorded in the status, as the agent's returns ``{"error": ...}``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
import uuid
from dataclasses import dataclass
from typing import Any

import orjson

from app.config_file import AutoPruneConfig
from app.domain.retention import is_due, next_due, parse_marker, vacuum_worth_it
from app.services import maintenance
from app.services.background import cancel_and_wait
from app.storage.leadership import ALWAYS_LEADER, Leadership
from app.storage.protocols import Store, Tx
from app.storage.rows import AUTO_PRUNE_LEASE_KEY, AUTO_PRUNE_STATUS_KEY, LAST_AUTO_PRUNE_KEY, WriterStatus

log = logging.getLogger(__name__)

# A run that has not finished after this long is presumed dead and its lease may be taken over.
LEASE_TTL_S = 6 * 3600.0


@dataclass(frozen=True)
class _Claim:
    due: bool
    reason: str | None


class AutoPruner:
    """Runs auto-prune at start-up and then every ``check_interval_s``, when enabled."""

    def __init__(self, db: Store, config: AutoPruneConfig, leadership: Leadership = ALWAYS_LEADER) -> None:
        self.db = db
        self.config = config
        self.leadership = leadership
        self.holder = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self._task: asyncio.Task[None] | None = None
        self._run_lock = asyncio.Lock()
        # The result of the last run_once in this process (None until one has finished).
        self.last_result: dict[str, Any] | None = None

    # -- lifecycle -------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the periodic task (no-op when ``sessions.auto_prune`` is off); it runs while this process
        leads the replicas."""
        if self.config.enabled and self._task is None:
            self._task = asyncio.get_running_loop().create_task(
                self.leadership.while_leading(self._loop), name="hermes-auto-prune"
            )

    async def stop(self) -> None:
        """Cancel the periodic task and wait for it (a run in progress is abandoned; its lease expires)."""
        await cancel_and_wait(self._task)
        self._task = None

    @property
    def running(self) -> bool:
        """Whether a run is in progress in this process."""
        return self._run_lock.locked()

    async def _loop(self) -> None:
        while True:
            await self.run_once()
            await asyncio.sleep(self.config.check_interval_s)

    # -- one run ---------------------------------------------------------------------------------

    def _claim(self, tx: Tx, now: float) -> _Claim:
        last = parse_marker(tx.maintenance.get_meta(LAST_AUTO_PRUNE_KEY))
        if not is_due(last, now, self.config.min_interval_hours):
            return _Claim(False, "interval")
        lease = _load(tx.maintenance.get_meta(AUTO_PRUNE_LEASE_KEY))
        if lease and lease.get("holder") != self.holder and float(lease.get("expires_at", 0)) > now:
            return _Claim(False, "lease_held")
        lease_row = {"holder": self.holder, "expires_at": now + LEASE_TTL_S}
        tx.maintenance.set_meta(AUTO_PRUNE_LEASE_KEY, orjson.dumps(lease_row).decode())
        return _Claim(True, None)

    def _finish(self, tx: Tx, now: float, status: dict[str, Any]) -> None:
        # Like the agent: the marker records every completed attempt, even one that pruned nothing; a failed
        # attempt leaves it alone so the next check retries (our loop checks hourly, not in a tight loop).
        if "error" not in status:
            tx.maintenance.set_meta(LAST_AUTO_PRUNE_KEY, str(now))
        tx.maintenance.set_meta(AUTO_PRUNE_STATUS_KEY, orjson.dumps(status).decode())
        lease = _load(tx.maintenance.get_meta(AUTO_PRUNE_LEASE_KEY))
        if lease and lease.get("holder") == self.holder:
            tx.maintenance.delete_meta(AUTO_PRUNE_LEASE_KEY)

    async def run_once(self) -> dict[str, Any]:
        """One ``maybe_auto_prune_and_vacuum``: ``{skipped, pruned, vacuumed[, reason][, error]}``."""
        if self._run_lock.locked():
            return {"skipped": True, "pruned": 0, "vacuumed": False, "reason": "running"}
        async with self._run_lock:
            self.last_result = await self._run()
            return self.last_result

    async def _run(self) -> dict[str, Any]:
        result: dict[str, Any] = {"skipped": False, "pruned": 0, "vacuumed": False}
        now = time.time()
        try:
            claim = await self.db.write(lambda tx: self._claim(tx, now))
        except Exception as exc:  # never raise into start-up or the scheduler
            log.warning("auto-prune could not check its schedule: %s", exc)
            return {**result, "error": str(exc)}
        if not claim.due:
            return {**result, "skipped": True, "reason": claim.reason}
        started = time.monotonic()
        try:
            pruned = await maintenance.prune(self.db, self.config.retention_days, None, dry_run=False)
            result["pruned"] = pruned.pruned
            result["messages"] = pruned.messages
            # VACUUM, and the FTS merge with its checkpoint, are upkeep of a SQLite file alone.
            on_file = self.db.files is not None
            if on_file and self.config.vacuum_after_prune and await self._vacuum_worth_it(pruned.pruned):
                await maintenance.vacuum(self.db)
                result["vacuumed"] = True
            elif on_file and _idle(self.db.writer_status()):
                # Idle: merge FTS segments and checkpoint, cheap when already merged.
                await maintenance.optimize(self.db)
                result["optimized"] = True
        except Exception as exc:
            log.warning("auto-prune failed: %s", exc)
            result["error"] = str(exc)
        status = {**result, "run_at": now, "duration_s": round(time.monotonic() - started, 3)}
        try:
            await self.db.write(lambda tx: self._finish(tx, now, status))
        except Exception as exc:
            log.warning("auto-prune could not record its run: %s", exc)
            result.setdefault("error", str(exc))
        if result["pruned"]:
            log.info("auto-prune: pruned %d session(s)%s", result["pruned"], " + VACUUM" * result["vacuumed"])
        return result

    async def _vacuum_worth_it(self, pruned: int) -> bool:
        if pruned <= 0:
            return False
        pages = await self.db.read(lambda tx: tx.maintenance.page_stats())
        return vacuum_worth_it(
            pruned, pages.freelist_count, pages.page_count, self.config.vacuum_min_free_ratio
        )

    # -- status ----------------------------------------------------------------------------------

    async def status(self) -> dict[str, Any]:
        """Configuration, the last run (from state_meta, shared with other processes) and the next one."""

        def read(tx: Tx) -> tuple[str | None, str | None, str | None]:
            return (
                tx.maintenance.get_meta(LAST_AUTO_PRUNE_KEY),
                tx.maintenance.get_meta(AUTO_PRUNE_STATUS_KEY),
                tx.maintenance.get_meta(AUTO_PRUNE_LEASE_KEY),
            )

        marker, raw_status, raw_lease = await self.db.read(read)
        last = parse_marker(marker)
        detail = _load(raw_status) or {}
        # Our detail describes the marker only when written with it (the agent may have run since); a failed
        # run leaves the marker untouched, so its detail is the newer one whenever it carries an error.
        if detail.get("run_at") != last and not (
            detail.get("error") and (last is None or detail["run_at"] > last)
        ):
            detail = {}
        lease = _load(raw_lease)
        now = time.time()
        cfg = self.config
        return {
            "enabled": cfg.enabled,
            "retention_days": cfg.retention_days,
            "vacuum_after_prune": cfg.vacuum_after_prune,
            "min_interval_hours": cfg.min_interval_hours,
            "vacuum_min_free_ratio": cfg.vacuum_min_free_ratio,
            "check_interval_s": cfg.check_interval_s,
            "last_run_at": detail.get("run_at", last),
            "last_run_marker": marker,
            "next_run_at": next_due(last, now, cfg.min_interval_hours) if cfg.enabled else None,
            "pruned": detail.get("pruned"),
            "vacuumed": detail.get("vacuumed"),
            "error": detail.get("error"),
            "running": self.running
            or bool(lease and float(lease.get("expires_at", 0)) > now and lease.get("holder")),
        }


def _load(raw: str | None) -> dict[str, Any] | None:
    if not raw:
        return None
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


def _idle(writer: WriterStatus | None) -> bool:
    """Whether the writer runs and has no job waiting."""
    return writer is not None and writer.queue_depth == 0
