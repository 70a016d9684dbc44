"""The dashboard's response bodies, built from what the services answer."""

from __future__ import annotations

from typing import Any

from app.services.dashboard import ListedRow, SearchHit
from app.services.maintenance import PruneResult
from app.services.transfer import ImportReport
from app.storage.rows import SessionRow

# The dashboard counts a session as live while it is open and was active this recently.
ACTIVE_WINDOW_S = 300
# Row fields a listing leaves out unless ``full=1``: the system prompt alone can be tens of KB per row.
HEAVY_FIELDS = ("system_prompt", "model_config")


def listed(row: ListedRow, now: float, *, full: bool, profile: str | None) -> dict[str, Any]:
    """A listing row: the session's columns, ``last_active``, ``preview``, ``is_active`` and ``archived``
    as a boolean (a projected compression root also names its ``_lineage_root_id``)."""
    out = dict(row.columns)
    out["last_active"] = row.item["last_active"]
    out["preview"] = row.item["preview"]
    if row.lineage_root is not None:
        out["_lineage_root_id"] = row.lineage_root
    out["is_active"] = out["ended_at"] is None and now - out["last_active"] < ACTIVE_WINDOW_S
    if profile is not None:
        out["profile"] = profile
        out["is_default_profile"] = True
    out["archived"] = bool(out.get("archived"))
    if not full:
        for key in HEAVY_FIELDS:
            out.pop(key, None)
    return out


def search_result(hit: SearchHit) -> dict[str, Any]:
    """One search result, keys in the dashboard's order."""
    return {
        "snippet": hit.snippet,
        "role": hit.role,
        "source": hit.source,
        "model": hit.model,
        "session_started": hit.session_started,
        "session_id": hit.session_id,
        "lineage_root": hit.lineage_root,
    }


def changed(session: SessionRow, *, archived: bool | None, pinned: bool | None) -> dict[str, Any]:
    """A PATCH's answer: the title now, and each flag that was asked for."""
    out: dict[str, Any] = {"ok": True, "title": session["title"] or ""}
    if archived is not None:
        out["archived"] = archived
    if pinned is not None:
        out["pinned"] = pinned
    return out


def pruned(result: PruneResult, *, dry_run: bool) -> dict[str, Any]:
    """A prune's answer; a dry run also lists what it would delete, oldest first."""
    if not dry_run:
        return {"ok": True, "removed": result.pruned}
    found = result.candidates
    return {
        "ok": True,
        "removed": 0,
        "matched": len(found),
        "oldest_started_at": found[0].started_at if found else None,
        "newest_started_at": found[-1].started_at if found else None,
        "sessions": [
            {
                "id": c.id,
                "source": c.source,
                "title": c.title,
                "model": c.model,
                "started_at": c.started_at,
                "message_count": c.message_count,
            }
            for c in found
        ],
    }


def imported(report: ImportReport) -> dict[str, Any]:
    """An import's answer: ``ok`` when every session went in or was already there."""
    return {
        "ok": report.failed == 0,
        "imported": report.imported,
        "skipped": report.skipped,
        "detached": report.detached,
        "errors": [issue.as_dict() for issue in report.errors],
    }
