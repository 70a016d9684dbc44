"""Liveness and readiness probes (no auth, so orchestrators and the CLI can probe freely)."""

from __future__ import annotations

import shutil
import sqlite3

from fastapi import APIRouter, Response
from pydantic import BaseModel

from app.api.deps import DB
from app.api.json_body import PolicyRoute
from app.storage import migrate

router = APIRouter(tags=["health"], route_class=PolicyRoute)

MIN_FREE_DISK_BYTES = 64 * 1024 * 1024


class Health(BaseModel):
    """Liveness answer."""

    status: str


class Readiness(BaseModel):
    """Readiness answer with the individual checks."""

    status: str
    checks: dict[str, bool]
    sqlite_version: str
    schema_revision: str | None


@router.get("/healthz", name="health-live", response_model=Health)
async def healthz() -> Health:
    """The process is up and its event loop answers. Never touches the database."""
    return Health(status="ok")


@router.get("/readyz", name="health-ready", response_model=Readiness, responses={503: {"model": Readiness}})
async def readyz(db: DB, response: Response) -> Readiness:
    """The database answers, migrations are at head, the writer is alive and the disk has room."""

    def probe(conn: sqlite3.Connection) -> str | None:
        conn.execute("SELECT 1").fetchone()
        row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        return None if row is None else str(row[0])

    try:
        revision: str | None = await db.read(probe)
        reachable = True
    except Exception:  # any failure means not ready
        revision, reachable = None, False
    checks = {
        "database": reachable,
        "migrations_at_head": revision == migrate.head_revision(),
        "writer_alive": db.writer is not None and db.writer.alive,
        "disk_free": shutil.disk_usage(db.path.parent).free >= MIN_FREE_DISK_BYTES,
    }
    ready = all(checks.values())
    if not ready:
        response.status_code = 503
    return Readiness(
        status="ready" if ready else "not_ready",
        checks=checks,
        sqlite_version=sqlite3.sqlite_version,
        schema_revision=revision,
    )
