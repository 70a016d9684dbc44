"""Liveness and readiness probes (no auth, so orchestrators and the CLI can probe freely)."""

from __future__ import annotations

import shutil

from fastapi import Response
from pydantic import BaseModel, ConfigDict, Field

from app.api.deps import DB
from app.api.operations import api_router
from app.api.schemas import examples as ex
from app.storage import migrate
from app.storage.agent_objects import NEWEST_KNOWN_SCHEMA

router = api_router("health")

MIN_FREE_DISK_BYTES = 64 * 1024 * 1024


class Health(BaseModel):
    """Liveness answer."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.HEALTH]})

    status: str


class Readiness(BaseModel):
    """Readiness answer with the individual checks."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.READY]})

    status: str = Field(
        description="`ready`; `read_only` (200: reads are served, every write is refused with 503 "
        "`agent_file_read_only`, because state.db holds objects this build does not know; `reason` names "
        "them); or `not_ready` (503)"
    )
    checks: dict[str, bool]
    backend: str = Field(description="The storage engine: `sqlite` (state.db) or `postgresql`")
    sqlite_version: str | None = Field(
        description="The SQLite library's version on `sqlite`; null on `postgresql`"
    )
    postgresql_version: str | None = Field(
        default=None, description="The PostgreSQL server's version on `postgresql`; null on `sqlite`"
    )
    schema_revision: str | None
    agent_schema_version: int | None = Field(description="The agent schema version of state.db")
    tested_schema_version: int = Field(
        description="The newest agent schema version whose files this build knows how to write"
    )
    agent_file: str | None = Field(
        default=None, description="What state.db is, as a sentence (its agent schema and FTS layout)"
    )
    reason: str | None = Field(default=None, description="Why the server is not fully ready, as a sentence")


@router.get("/healthz", name="health-live", summary="Liveness probe", response_model=Health)
async def healthz() -> Health:
    """The process is up and its event loop answers. Never touches the database."""
    return Health(status="ok")


@router.get(
    "/readyz",
    name="health-ready",
    summary="Readiness probe",
    response_model=Readiness,
    responses={
        503: {
            "model": Readiness,
            "description": "Not ready: `status` is `not_ready`, `reason` says why",
            "content": {"application/json": {"example": ex.NOT_READY}},
        }
    },
)
async def readyz(db: DB, response: Response) -> Readiness:
    """The database answers, migrations are at head, the writer is alive and the disk under state.db has
    room (no disk check on a store without a local file). A file that a newer agent migrated is served
    read-only: 200 with status ``read_only`` and the reason, since reads still work (the writer and our
    migrations are then deliberately absent)."""

    try:
        revision = await db.schema_revision()
        reachable = True
    except Exception:  # any failure means not ready
        revision, reachable = None, False
    refusal = db.refusal()
    checks = {"database": reachable, "schema_supported": refusal is None}
    if db.files is not None:
        checks["disk_free"] = shutil.disk_usage(db.files.path.parent).free >= MIN_FREE_DISK_BYTES
    if refusal is None:
        writer = db.writer_status()
        checks["migrations_at_head"] = revision == migrate.head_revision()
        checks["writer_alive"] = writer is not None and writer.alive
    failed = [name for name, ok in checks.items() if not ok and name != "schema_supported"]
    if failed:
        status, reason = "not_ready", f"Failed checks: {', '.join(failed)}."
        response.status_code = 503
    elif refusal is not None:
        status, reason = "read_only", refusal.detail
    else:
        status, reason = "ready", None
    return Readiness(
        status=status,
        checks=checks,
        backend=db.backend,
        sqlite_version=db.engine_version if db.backend == "sqlite" else None,
        postgresql_version=db.engine_version if db.backend == "postgresql" else None,
        schema_revision=revision,
        agent_schema_version=db.agent_schema_version,
        tested_schema_version=NEWEST_KNOWN_SCHEMA,
        agent_file=db.describe_file(),
        reason=reason,
    )
