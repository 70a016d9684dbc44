"""``hermes sessions search QUERY``: the discover mode of ``GET /search``, one hit per conversation."""

from __future__ import annotations

from typing import Any

import typer

from app.cli import formatting as fmt
from app.cli.commands.filters import note_unknown_source
from app.cli.commands.sessions import app
from app.cli.context import get_env
from app.cli.output import JsonlOpt, JsonOpt, emit, pick_format


def _search_lines(data: dict[str, Any]) -> list[str]:
    results = data.get("results") or []
    lines = fmt.indexing_line(data)
    if not results:
        return [*lines, "No matches."]
    for hit in results:
        title = hit.get("title") or fmt.EM_DASH
        when = fmt.relative_time(hit.get("started_at"))
        lines.append(f"{hit['session_id']}  {title}  [{hit.get('source') or '?'}]  {when}")
        if hit.get("snippet"):
            lines.append(f"    {' '.join(str(hit['snippet']).split())}")
    return lines


@app.command("search")
def search(
    ctx: typer.Context,
    query: str = typer.Argument(..., help='Words to find (FTS5 syntax: "phrases", OR, NOT, prefix*)'),
    limit: int = typer.Option(10, "--limit", min=1, max=50, help="Sessions to return (1-50)"),
    source: str | None = typer.Option(None, "--source", help="Only this source"),
    workspace: str | None = typer.Option(
        None,
        "--workspace",
        help="Only sessions in one workspace: part of its git repo root or project dir (case-insensitive)",
    ),
    cwd: str | None = typer.Option(None, "--cwd", help="Only sessions run in this directory or under it"),
    as_json: bool = JsonOpt,
    as_jsonl: bool = JsonlOpt,
) -> None:
    """Full-text search over messages; one result per conversation."""
    out = pick_format(as_json, as_jsonl)
    params: dict[str, Any] = {"q": query, "limit": limit}
    if source:
        note_unknown_source(source)
        params["source"] = source
    if workspace and workspace.strip():
        params["workspace"] = workspace.strip()
    if cwd:
        params["cwd"] = cwd
    data = get_env(ctx).api().get("/search", feature="search", params=params)
    emit(out, data, lambda: _search_lines(data), items=data.get("results") or [])
