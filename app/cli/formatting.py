"""Pure text formatting of the agent's CLI output: no I/O here."""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

EM_DASH = "—"


def relative_time(ts: float | None, now: float | None = None) -> str:
    """The agent's ``_relative_time``: integer-truncated buckets, a local date past 7 days."""
    if not ts:
        return "?"
    delta = (time.time() if now is None else now) - ts
    if delta < 60:
        return "just now"
    if delta < 3600:
        return f"{int(delta / 60)}m ago"
    if delta < 86400:
        return f"{int(delta / 3600)}h ago"
    if delta < 172800:
        return "yesterday"
    if delta < 604800:
        return f"{int(delta / 86400)}d ago"
    return datetime.fromtimestamp(ts).strftime("%Y-%m-%d")


def _preview(session: Mapping[str, Any]) -> str:
    return str(session.get("preview") or "")


def workspace_key(session: Mapping[str, Any]) -> str | None:
    """The agent's workspace of a session: its git repository root, else its working directory."""
    for key in ("git_repo_root", "cwd"):
        value = str(session.get(key) or "").strip()
        if value:
            return value
    return None


def in_workspace(session: Mapping[str, Any], needle: str) -> bool:
    """``--workspace NEEDLE``: a case-insensitive substring of the workspace path, or its exact basename."""
    key = (workspace_key(session) or "").lower()
    wanted = needle.strip().lower()
    return bool(key) and (wanted in key or wanted == os.path.basename(key.rstrip("/\\")))


def _workspace_label(session: Mapping[str, Any]) -> str:
    key = workspace_key(session)
    return (os.path.basename(key.rstrip("/\\")) or key) if key else EM_DASH


def _workspace_lines(sessions: Sequence[Mapping[str, Any]], now: float | None) -> list[str]:
    """The agent's layouts with a Workspace column (title or preview, workspace basename)."""
    titled = any(s.get("title") for s in sessions)
    if titled:
        lines = [f"{'Title':<28} {'Workspace':<18} {'Last Active':<13} ID", "─" * 110]
    else:
        lines = [f"{'Preview':<38} {'Workspace':<18} {'Last Active':<13} {'Src':<6} ID", "─" * 100]
    for s in sessions:
        active = relative_time(s.get("last_active"), now)
        ws = _workspace_label(s)[:16]
        if titled:
            title = str(s["title"])[:26] if s.get("title") else EM_DASH
            lines.append(f"{title:<28} {ws:<18} {active:<13} {s['id']}")
        else:
            source = s.get("source") or ""
            lines.append(f"{_preview(s)[:36]:<38} {ws:<18} {active:<13} {source:<6} {s['id']}")
    return lines


def session_list_lines(
    sessions: Sequence[Mapping[str, Any]], now: float | None = None, *, workspace: bool = False
) -> list[str]:
    """``hermes sessions list``: the titled layout when any row has a title, else the preview layout; a
    Workspace column when filtering by workspace or when any row has one (as the agent since 0.19)."""
    if not sessions:
        return ["No sessions found."]
    if workspace or any(workspace_key(s) for s in sessions):
        return _workspace_lines(sessions, now)
    if any(s.get("title") for s in sessions):
        lines = [f"{'Title':<32} {'Preview':<40} {'Last Active':<13} ID", "─" * 110]
        for s in sessions:
            title = str(s["title"])[:30] if s.get("title") else EM_DASH
            active = relative_time(s.get("last_active"), now)
            lines.append(f"{title:<32} {_preview(s)[:38]:<40} {active:<13} {s['id']}")
        return lines
    lines = [f"{'Preview':<50} {'Last Active':<13} {'Src':<6} ID", "─" * 95]
    for s in sessions:
        active = relative_time(s.get("last_active"), now)
        lines.append(f"{_preview(s)[:48]:<50} {active:<13} {s.get('source') or '':<6} {s['id']}")
    return lines


def browse_label(session: Mapping[str, Any]) -> str:
    """Picker label: title, else preview, else id; longer than 50 → 47 characters + ``...``."""
    title = str(session.get("title") or "").strip()
    label = title or _preview(session).strip() or str(session["id"])
    return label[:47] + "..." if len(label) > 50 else label


def browse_line(index: int, session: Mapping[str, Any], now: float | None = None) -> str:
    """One row of the numbered (non-TTY) browse list."""
    active = relative_time(session.get("last_active"), now)
    source = str(session.get("source") or "")[:6]
    return f"  {index:>3}. {browse_label(session):<50}  {active:<10}  {source}"


def browse_matches(session: Mapping[str, Any], query: str) -> bool:
    """Type-to-filter: case-insensitive substring of title, preview, id or source."""
    needle = query.lower()
    fields = (session.get("title"), session.get("preview"), session.get("id"), session.get("source"))
    return any(needle in str(value).lower() for value in fields if value)


def _mb(n: float) -> str:
    return f"{n / (1024 * 1024):.1f} MB"


def indexing_line(answer: Mapping[str, Any]) -> list[str]:
    """``N messages still being indexed`` when an answer's ``indexing`` says search does not see them yet."""
    pending = int((answer.get("indexing") or {}).get("pending_messages") or 0)
    if not pending:
        return []
    return [
        f"{pending} message{'' if pending == 1 else 's'} still being indexed: search does not find them yet."
    ]


def stats_lines(stats: Mapping[str, Any]) -> list[str]:
    """``hermes sessions stats``: totals, every source present (most sessions first), and the size on disk
    including the WAL. The agent lists only cli, telegram, discord, whatsapp and slack, and leaves the WAL
    out: a store with cron, api_server or signal sessions then seems to lose some."""
    by_source: Mapping[str, int] = stats.get("by_source") or {}
    lines = [f"Total sessions: {stats['sessions']}", f"Total messages: {stats['messages']}"]
    present = sorted((item for item in by_source.items() if item[1] > 0), key=lambda kv: (-kv[1], kv[0]))
    lines += [f"  {src}: {count} sessions" for src, count in present]
    db_bytes, wal_bytes = int(stats["database_bytes"]), int(stats.get("wal_bytes") or 0)
    size = f"Database size: {_mb(db_bytes + wal_bytes)}"
    if wal_bytes:
        size += f" (state.db {_mb(db_bytes)} + WAL {_mb(wal_bytes)})"
    lines.append(size)
    return lines + indexing_line(stats)


def format_epoch(ts: float | None) -> str:
    """The agent's short local time (``2026-07-05 14:30``), ``-`` when unknown."""
    if ts is None:
        return "-"
    return datetime.fromtimestamp(ts).strftime("%Y-%m-%d %H:%M")


def prune_row(session: Mapping[str, Any]) -> str:
    """One candidate of a prune or archive preview or dry run, in the agent's columns (id, start, source,
    model, message count, title) with the age beside the start."""
    title = str(session.get("title") or "")[:36]
    model = str(session.get("model") or "-").split("/")[-1][:24]
    started = format_epoch(session.get("started_at"))
    age = relative_time(session.get("started_at"))
    source = str(session.get("source") or "")
    count = int(session.get("message_count") or 0)
    return f"  {session['id']}  {started:<17} {age:<10} {source:<10} {model:<24} {count:>4} msgs  {title}"


def duration(seconds: float) -> str:
    """``39s``, ``1m 6s``, ``1h 48m 26s``: leading zero units left out."""
    total = max(0, int(seconds))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}h {minutes}m {secs}s"
    if minutes:
        return f"{minutes}m {secs}s"
    return f"{secs}s"


def exit_epilogue(session_id: str, seconds: float, messages: int, users: int, tool_calls: int) -> list[str]:
    """What the CLI prints when a session is closed."""
    return [
        "Resume this session with:",
        f"  hermes --resume {session_id}",
        "",
        f"{'Session:':<16}{session_id}",
        f"{'Duration:':<16}{duration(seconds)}",
        f"{'Messages:':<16}{messages} ({users} user, {tool_calls} tool calls)",
    ]


def resume_banner(session_id: str, title: str | None, users: int, total: int) -> str:
    """``↻ Resumed session <id> "<title>" (<U> user message(s), <T> total messages)``."""
    title_part = f' "{title}"' if title else ""
    plural = "s" if users != 1 else ""
    return (
        f"↻ Resumed session {session_id}{title_part} ({users} user message{plural}, {total} total messages)"
    )


def count_roles(messages: Iterable[Mapping[str, Any]]) -> tuple[int, int]:
    """(user messages, all messages) of a loaded conversation."""
    users = total = 0
    for message in messages:
        total += 1
        users += message.get("role") == "user"
    return users, total
