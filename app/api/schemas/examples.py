"""Example bodies for the OpenAPI document: what integrators see beside each schema, taken from a real
session (shortened). The models carry them in ``json_schema_extra``; a contract test validates each one
against its schema, since schemathesis sends the request examples."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import orjson

from app.domain.gateway_entries import new_entry

# The example session's times and counters, shown the same way by the API and the export.
_TIMES_AND_COUNTS: dict[str, Any] = {
    "started_at": 1767608070.002,
    "ended_at": None,
    "end_reason": None,
    "message_count": 2,
    "tool_call_count": 1,
    "input_tokens": 0,
    "output_tokens": 0,
    "cache_read_tokens": 0,
    "cache_write_tokens": 0,
    "reasoning_tokens": 0,
}

SESSION: dict[str, Any] = {
    "id": "20260105_101500_a1b2c3",
    "title": "Refactor the search ranking",
    "source": "cli",
    "user_id": None,
    "model": "anthropic/claude-sonnet-4",
    "model_config": None,
    "parent_session_id": None,
    **_TIMES_AND_COUNTS,
    "estimated_cost_usd": None,
    "actual_cost_usd": None,
    "api_call_count": 0,
    "archived": False,
    "pinned": False,
    "home": None,
    "session_key": None,
    "chat_id": None,
    "chat_type": None,
    "thread_id": None,
    "handoff": None,
    "has_system_prompt": True,
    "preview": "Why does search rank old sessions first?",
    "last_active": 1767608112.5,
    "lineage_root_id": "20260105_101500_a1b2c3",
    "title_source": "user",
}

SESSION_PAGE: dict[str, Any] = {"items": [SESSION], "next_cursor": None, "has_more": False}

RESOLVED_SESSION: dict[str, Any] = {**SESSION, "matched_by": "prefix", "requested": "20260105_101500_a1b2c3"}

SESSION_LINEAGE: dict[str, Any] = {
    "items": [
        {
            **SESSION,
            "ended_at": 1767608070.952,
            "end_reason": "branched",
            "handoff": {"state": "completed", "platform": "telegram", "error": None},
        }
    ]
}

_TOOL_CALLS: list[dict[str, Any]] = [
    {
        "id": "call_1",
        "type": "function",
        "function": {"name": "search_files", "arguments": '{"pattern": "bm25"}'},
    }
]

# The question's columns as every view shows them, in column order; the export adds its other stored
# columns around and after them.
_QUESTION_ID: dict[str, Any] = {
    "id": 1,
    "session_id": "20260105_101500_a1b2c3",
    "role": "user",
    "content": "Why does search rank old sessions first?",
    "tool_call_id": None,
    "tool_calls": None,
    "tool_name": None,
}
_QUESTION_TURN: dict[str, Any] = {
    "timestamp": 1767608100.0,
    "token_count": None,
    "finish_reason": None,
    "reasoning": None,
    "reasoning_content": None,
    "reasoning_details": None,
}
_QUESTION: dict[str, Any] = {
    **_QUESTION_ID,
    **_QUESTION_TURN,
    "attachments": [],
    "active": True,
    "compacted": False,
}

# How the answer differs from the question, wherever a message is shown (API, search, export).
_ANSWER: dict[str, Any] = {
    "id": 2,
    "role": "assistant",
    "content": "Because bm25 ties are broken by rowid.",
    "tool_calls": _TOOL_CALLS,
    "timestamp": 1767608112.5,
    "token_count": 12,
    "finish_reason": "stop",
}

MESSAGE: dict[str, Any] = {**_QUESTION, **_ANSWER}

MESSAGE_ITEMS: dict[str, Any] = {"items": [_QUESTION, MESSAGE]}

MESSAGE_PAGE: dict[str, Any] = {**MESSAGE_ITEMS, "next_cursor": None, "has_more": False}

REWIND_RESULT: dict[str, Any] = {
    "session_id": "20260105_111500_e7f8a9",
    "rewound_count": 2,
    "new_head_id": None,
    "rewind_count": 1,
    "message_count": 2,
    "target_message": {**_QUESTION, "id": 3, "session_id": "20260105_111500_e7f8a9", "active": False},
}

ATTACHMENT: dict[str, Any] = {
    "id": "att_d38edad64cd880dcd1b94917b4922470",
    "sha256": "d38edad64cd880dcd1b94917b492247014f0810e7f3f7637c4e30291cc3de78e",
    "size": 27,
    "media_type": "text/plain",
    "filename": "notes.txt",
    "path": "attachments/d3/d38edad64cd880dcd1b94917b492247014f0810e7f3f7637c4e30291cc3de78e",
    "extracted_text": "remember the bm25 tie-break",
}

RECAP: dict[str, Any] = {
    "entries": [
        {"role": "user", "text": "Why does search rank old sessions first?"},
        {"role": "assistant", "text": "Because bm25 ties are broken by rowid. [1 tool call: search_files]"},
    ],
    "omitted": 0,
}

_SEARCH_QUESTION: dict[str, Any] = {
    "id": 1,
    "role": "user",
    "content": "Why does search rank old sessions first?",
    "timestamp": 1767608100.0,
}
_SEARCH_ANSWER: dict[str, Any] = {
    "id": 2,
    "role": "assistant",
    "content": "Because bm25 ties are broken by rowid.",
    "timestamp": 1767608112.5,
    "tool_calls": _TOOL_CALLS,
}
_SEARCH_WINDOW = [_SEARCH_QUESTION, {**_SEARCH_ANSWER, "anchor": True}]
_SESSION_META: dict[str, Any] = {
    "title": "Refactor the search ranking",
    "source": "cli",
    "model": "anthropic/claude-sonnet-4",
    "started_at": 1767608070.002,
}

DISCOVER: dict[str, Any] = {
    "mode": "discover",
    "query": "bm25",
    "results": [
        {
            "session_id": "20260105_101500_a1b2c3",
            "title": "Refactor the search ranking",
            "source": "cli",
            "model": "anthropic/claude-sonnet-4",
            "started_at": 1767608070.002,
            "snippet": 'Because >>>bm25<<< ties are broken by rowid.  [{"id": "call_1", "type": '
            '"function", "function": {"name": "search_files", "arguments": "{\\"pattern\\": '
            '\\">>>bm25<<<\\"}"}}]',
            "match_message_id": 2,
            "matched_role": "assistant",
            "bookend_start": [],
            "messages": _SEARCH_WINDOW,
            "bookend_end": [],
            "messages_before": 1,
            "messages_after": 0,
        }
    ],
    "count": 1,
    "scan_capped": False,
}

SCROLL: dict[str, Any] = {
    "mode": "scroll",
    "session_id": "20260105_101500_a1b2c3",
    "around_message_id": 2,
    "session_meta": _SESSION_META,
    "window": 5,
    "messages": _SEARCH_WINDOW,
    "messages_before": 1,
    "messages_after": 0,
}

READ: dict[str, Any] = {
    "mode": "read",
    "session_id": "20260105_101500_a1b2c3",
    "session_meta": _SESSION_META,
    "message_count": 2,
    "truncated": False,
    "messages": [_SEARCH_QUESTION, _SEARCH_ANSWER],
}

BROWSE: dict[str, Any] = {
    "mode": "browse",
    "results": [
        {
            "session_id": "20260105_101500_a1b2c3",
            "title": "Refactor the search ranking",
            "source": "cli",
            "started_at": 1767608070.002,
            "last_active": 1767608112.5,
            "message_count": 2,
            "preview": "Why does search rank old sessions first?",
        }
    ],
    "count": 1,
    "message": "Showing 1 most recent sessions. Pass a query= to search, or session_id+around_message_id to "
    "scroll.",
}

STATS: dict[str, Any] = {
    "sessions": 1,
    "messages": 2,
    "by_source": {"cli": 1},
    "database_bytes": 282624,
    "wal_bytes": 0,
    "freelist_bytes": 0,
    "fts_bytes": None,
    "page_size": 4096,
    "page_count": 69,
    "indexing": {"pending_messages": 0},
}

_TOTALS: dict[str, Any] = {
    "sessions": 1,
    "messages": 2,
    "input_tokens": 0,
    "output_tokens": 0,
    "cache_read_tokens": 0,
    "cache_write_tokens": 0,
    "reasoning_tokens": 0,
    "cost_usd": 0.0,
}

INSIGHTS: dict[str, Any] = {
    "days": 30,
    "source": None,
    "since": 1765016100.0,
    "until": 1767608160.0,
    "totals": _TOTALS,
    "by_day": [{**_TOTALS, "day": "2026-01-05"}],
    "by_model": [{**_TOTALS, "model": "anthropic/claude-sonnet-4"}],
    "by_source": [{**_TOTALS, "source": "cli"}],
    "top_tools": [{"tool": "search_files", "calls": 1}],
    "activity_by_hour": [{"hour": 10, "messages": 2}],
    "activity_by_weekday": [{"weekday": 1, "messages": 2}],
}

PRUNE_OUT: dict[str, Any] = {
    "dry_run": True,
    "kept_open": 1,
    "kept_pinned": 0,
    "pruned": 1,
    "messages": 2,
    "cutoff": 1767608070.285,
    "reclaimable_bytes": 1843,
    "ids": ["20251001_080000_0a1b2c"],
    "candidates": [
        {
            "id": "20251001_080000_0a1b2c",
            "source": "cli",
            "title": "Fix the flaky upload test",
            "model": "anthropic/claude-sonnet-4",
            "started_at": 1759305600.0,
            "ended_at": 1759307400.0,
            "message_count": 2,
            "archived": False,
        }
    ],
}

ARCHIVE_OUT: dict[str, Any] = {
    "dry_run": False,
    "archived": 1,
    "ids": ["20251001_080000_0a1b2c"],
    "candidates": None,
}

REPAIR_OUT: dict[str, Any] = {
    "path": "/home/ada/.hermes/state.db",
    "healthy": False,
    "problems": ["messages_fts: 3 message(s) missing from the search index"],
    "check_only": False,
    "repaired": True,
    "strategy": "index_missing:messages_fts",
    "backup_path": "/home/ada/.hermes/backups/state-20260105T101500123456Z.db",
    "error": None,
    "sessions": 41,
}

OPTIMIZE: dict[str, Any] = {
    "fts_optimized": ["messages_fts", "messages_fts_trigram"],
    "checkpoint": {"busy": 0, "log_frames": 0, "checkpointed_frames": 0},
    "database_bytes_before": 4096,
    "wal_bytes_before": 877592,
    "database_bytes": 282624,
    "wal_bytes": 0,
}

VACUUM: dict[str, Any] = {
    "fts_optimized": ["messages_fts", "messages_fts_trigram"],
    "database_bytes_before": 282624,
    "wal_bytes_before": 0,
    "database_bytes": 282624,
    "wal_bytes": 0,
    "reclaimed_bytes": 0,
    "duration_s": 0.049,
}

BACKUP: dict[str, Any] = {
    "name": "state-20260105T101530000000Z.db",
    "path": "/home/me/.hermes/backups/state-20260105T101530000000Z.db",
    "bytes": 282624,
    "created_at": 1767608070.402,
}

AUTO_PRUNE_STATUS: dict[str, Any] = {
    "enabled": False,
    "retention_days": 90.0,
    "vacuum_after_prune": True,
    "min_interval_hours": 24.0,
    "vacuum_min_free_ratio": 0.25,
    "check_interval_s": 3600.0,
    "last_run_at": None,
    "last_run_marker": None,
    "next_run_at": None,
    "pruned": None,
    "vacuumed": None,
    "error": None,
    "running": False,
}

AUTO_PRUNE_RUN: dict[str, Any] = {
    "skipped": False,
    "pruned": 0,
    "vacuumed": False,
    "reason": None,
    "messages": 0,
    "optimized": True,
    "error": None,
}

PLATFORM: dict[str, Any] = {
    "platform": "telegram",
    "enabled": True,
    "home_channel": {"chat_id": "-1001234567890", "name": "Hermes home"},
    "threads": True,
    "updated_at": 1767608070.513,
}

PLATFORM_LIST: dict[str, Any] = {
    "items": [
        {"platform": "discord", "enabled": False, "home_channel": None, "threads": False, "updated_at": None},
        PLATFORM,
    ]
}

HANDOFF_QUEUED: dict[str, Any] = {
    "session_id": "20260105_101500_a1b2c3",
    "title": "Refactor the search ranking",
    "state": "pending",
    "platform": "telegram",
    "error": None,
    "worker": None,
    "thread": None,
    "requested_at": 1767608070.527,
    "updated_at": 1767608070.527,
    "home_channel": {"chat_id": "-1001234567890", "name": "Hermes home"},
}

HANDOFF_CLAIMED: dict[str, Any] = {
    "session_id": "20260105_101500_a1b2c3",
    "title": "Refactor the search ranking",
    "state": "running",
    "platform": "telegram",
    "error": None,
    "worker": "gateway-1",
    "thread": None,
    "requested_at": 1767608070.527,
    "updated_at": 1767608070.532,
    "home_channel": {"chat_id": "-1001234567890", "name": "Hermes home"},
    "threads": True,
}

HANDOFF: dict[str, Any] = {
    "session_id": "20260105_101500_a1b2c3",
    "title": "Refactor the search ranking",
    "state": "completed",
    "platform": "telegram",
    "error": None,
    "worker": "gateway-1",
    "thread": {"chat_id": "-1001234567890", "thread_id": "77", "name": "Refactor the search ranking"},
    "requested_at": 1767608070.527,
    "updated_at": 1767608070.537,
}

IMPORT_RESULT: dict[str, Any] = {
    "dry_run": False,
    "on_conflict": "skip",
    "lines": 1,
    "imported": 1,
    "replaced": 0,
    "skipped": 0,
    "failed": 0,
    "messages": 2,
    "linked": 0,
    "detached": 0,
    "message_ids_kept": 2,
    "index_pending": 0,
    "errors": [],
    "errors_truncated": False,
}

READY: dict[str, Any] = {
    "status": "ready",
    "checks": {
        "database": True,
        "schema_supported": True,
        "disk_free": True,
        "migrations_at_head": True,
        "writer_alive": True,
    },
    "backend": "sqlite",
    "sqlite_version": "3.40.1",
    "postgresql_version": None,
    "schema_revision": "0021_pg_cjk_search_path",
    "agent_schema_version": 22,
    "tested_schema_version": 22,
    "reason": None,
}

_EXPORT_QUESTION: dict[str, Any] = {
    **_QUESTION_ID,
    "effect_disposition": None,
    **_QUESTION_TURN,
    "codex_reasoning_items": None,
    "codex_message_items": None,
    "platform_message_id": None,
    "observed": 0,
    "active": 1,
    "compacted": 0,
    "api_content": None,
}

# One line of `GET /export.jsonl` (and of an import file): every stored column of a session, its messages.
EXPORT_SESSION: dict[str, Any] = {
    "id": "20260105_101500_a1b2c3",
    "source": "cli",
    "user_id": None,
    "session_key": None,
    "chat_id": None,
    "chat_type": None,
    "thread_id": None,
    "display_name": None,
    "origin_json": None,
    "expiry_finalized": 0,
    "model": "anthropic/claude-sonnet-4",
    "model_config": None,
    "system_prompt": "You are Hermes.",
    "parent_session_id": None,
    **_TIMES_AND_COUNTS,
    "cwd": None,
    "git_branch": None,
    "git_repo_root": None,
    "billing_provider": None,
    "billing_base_url": None,
    "billing_mode": None,
    "estimated_cost_usd": None,
    "actual_cost_usd": None,
    "cost_status": None,
    "cost_source": None,
    "pricing_version": None,
    "title": "Refactor the search ranking",
    "api_call_count": 0,
    "handoff_state": None,
    "handoff_platform": None,
    "handoff_error": None,
    "compression_failure_cooldown_until": None,
    "compression_failure_error": None,
    "compression_fallback_streak": 0,
    "profile_name": None,
    "rewind_count": 0,
    "archived": 0,
    "last_active": 1767608112.5,
    "messages": [
        _EXPORT_QUESTION,
        {**_EXPORT_QUESTION, **_ANSWER},
    ],
}
EXPORT_LINE = orjson.dumps(EXPORT_SESSION).decode() + "\n"

HEALTH: dict[str, Any] = {"status": "ok"}
NOT_READY: dict[str, Any] = {
    **READY,
    "status": "not_ready",
    "checks": {**READY["checks"], "disk_free": False},
    "reason": "Failed checks: disk_free.",
}

# Request bodies (schemathesis sends these, so each is one a server can accept).
SESSION_CREATE: dict[str, Any] = {
    "source": "cli",
    "title": "Refactor the search ranking",
    "model": "anthropic/claude-sonnet-4",
    "system_prompt": "You are Hermes.",
}
SESSION_UPDATE: dict[str, Any] = {"title": "Search ranking: tie-breaks", "archived": False}
SESSION_END: dict[str, Any] = {"end_reason": "user_exit"}
USAGE_UPDATE: dict[str, Any] = {
    "input_tokens": 1200,
    "output_tokens": 340,
    "cache_read_tokens": 800,
    "api_call_count": 1,
    "estimated_cost_usd": 0.0087,
    "model": "anthropic/claude-sonnet-4",
    "billing_provider": "openrouter",
}
MESSAGE_CREATE: dict[str, Any] = {"role": "user", "content": "Why does search rank old sessions first?"}
MESSAGE_BATCH: dict[str, Any] = {
    "messages": [
        {"role": "user", "content": "Why does search rank old sessions first?"},
        {
            "role": "assistant",
            "content": "Because bm25 ties are broken by rowid.",
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "search_files", "arguments": '{"pattern": "bm25"}'},
                }
            ],
            "token_count": 12,
            "finish_reason": "stop",
        },
    ]
}
REWIND_REQUEST: dict[str, Any] = {"message_id": 1}
CONTINUATION_CREATE: dict[str, Any] = {
    "system_prompt": "You are Hermes.",
    "messages": [
        {"role": "user", "content": "[Summary of the earlier conversation] bm25 ties break by rowid."}
    ],
}
FORK_CREATE: dict[str, Any] = {"message_id": 2, "title": "Search ranking: try recency boost"}
HANDOFF_REQUEST: dict[str, Any] = {"session_id": "20260105_101500_a1b2c3", "platform": "telegram"}
HANDOFF_CLAIM: dict[str, Any] = {"platform": "telegram", "worker": "gateway-1"}
HANDOFF_COMPLETE: dict[str, Any] = {
    "thread": {"chat_id": "-1001234567890", "thread_id": "77", "name": "Refactor the search ranking"}
}
HANDOFF_FAIL: dict[str, Any] = {"error": "Telegram answered 403: the bot was removed from the chat."}
PLATFORM_UPDATE: dict[str, Any] = {
    "enabled": True,
    "home_channel": {"chat_id": "-1001234567890", "name": "Hermes home"},
    "threads": True,
}
SEARCH_BODY: dict[str, Any] = {"q": "bm25 tie-break", "limit": 3, "sort": "relevance"}
PRUNE_IN: dict[str, Any] = {"older_than_days": 90, "source": "cli", "dry_run": True}
REPAIR_IN: dict[str, Any] = {"check_only": True, "backup": True}
ARCHIVE_IN: dict[str, Any] = {"newer_than": "5h", "source": "cli", "title": "codex", "dry_run": True}

# Gateway routing: a Telegram direct chat, as the routes answer it.
ROUTE_MESSAGE: dict[str, Any] = {
    "platform": "telegram",
    "chat_type": "dm",
    "chat_id": "123456789",
    "chat_name": "Jordan",
    "user_id": "123456789",
    "user_name": "Jordan",
}

ROUTE_ORIGIN: dict[str, Any] = {
    "platform": "telegram",
    "chat_id": "123456789",
    "chat_name": "Jordan",
    "chat_type": "dm",
    "user_id": "123456789",
    "user_name": "Jordan",
    "thread_id": None,
    "chat_topic": None,
}

ROUTE_ENTRY: dict[str, Any] = new_entry(
    "agent:main:telegram:dm:123456789",
    "20260105_101500_5f3a9c2e",
    datetime(2026, 1, 5, 10, 15, 0, 195797),
    origin=ROUTE_ORIGIN,
    display_name="Jordan",
    platform="telegram",
    chat_type="dm",
)

ROUTE_RESPONSE: dict[str, Any] = {
    "session_key": "agent:main:telegram:dm:123456789",
    "session_id": "20260105_101500_5f3a9c2e",
    "created": True,
    "reset_reason": None,
    "notice": None,
    "entry": ROUTE_ENTRY,
}

ROUTE_KEY: dict[str, Any] = {"session_key": "agent:main:telegram:dm:123456789"}
ROUTE_TURN: dict[str, Any] = {"session_key": "agent:main:telegram:dm:123456789", "last_prompt_tokens": 1830}
ROUTE_RESET: dict[str, Any] = {"session_key": "agent:main:telegram:dm:123456789", "title": "Flight to Lisbon"}
ROUTE_SWITCH: dict[str, Any] = {"session_key": "agent:main:telegram:dm:123456789", "ref": "20260104_0900"}

ROUTE_TURN_ENTRY: dict[str, Any] = {
    **ROUTE_ENTRY,
    "updated_at": "2026-01-05T10:16:42.238903",
    "last_prompt_tokens": 1830,
}
ROUTE_SUSPENDED_ENTRY: dict[str, Any] = {**ROUTE_ENTRY, "suspended": True}

ROUTE_RESET_RESULT: dict[str, Any] = {
    "session_key": "agent:main:telegram:dm:123456789",
    "session_id": "20260105_102000_8568eb91",
    "previous_session_id": "20260105_101500_5f3a9c2e",
    "reply": "✨ New session started: Flight to Lisbon",
    "entry": {
        **ROUTE_ENTRY,
        "session_id": "20260105_102000_8568eb91",
        "created_at": "2026-01-05T10:20:00.268079",
        "updated_at": "2026-01-05T10:20:00.268079",
        "is_fresh_reset": True,
    },
}

ROUTE_SWITCH_RESULT: dict[str, Any] = {
    "session_key": "agent:main:telegram:dm:123456789",
    "session_id": "20260104_090000_d4e5f6",
    "previous_session_id": "20260105_101500_5f3a9c2e",
    "switched": True,
    "reply": "↻ Resumed session **Trip planning** (4 messages). Conversation restored.",
    "entry": {
        **ROUTE_ENTRY,
        "session_id": "20260104_090000_d4e5f6",
        "created_at": "2026-01-05T10:21:00.284255",
        "updated_at": "2026-01-05T10:21:00.284255",
    },
}

ROUTE_PAGE: dict[str, Any] = {"items": [ROUTE_ENTRY], "next_cursor": None, "has_more": False}

RESET_POLICY: dict[str, Any] = {
    "mode": "idle",
    "at_hour": 4,
    "idle_minutes": 720,
    "notify": True,
    "notify_exclude_platforms": ["api_server", "webhook"],
    "bg_process_max_age_hours": 24,
}

GATEWAY_CONFIG: dict[str, Any] = {
    "session_reset": RESET_POLICY,
    "reset_by_type": {"group": {**RESET_POLICY, "mode": "daily"}},
    "reset_by_platform": {},
    "group_sessions_per_user": True,
    "thread_sessions_per_user": False,
    "write_sessions_json": True,
    "multiplex_profiles": False,
}

GATEWAY_CONFIG_UPDATE: dict[str, Any] = {
    "session_reset": {"mode": "idle", "idle_minutes": 720},
    "reset_by_type": {"group": {"mode": "daily", "at_hour": 4}},
}

HANDOFF_COMPLETED: dict[str, Any] = {
    **HANDOFF,
    "session_key": "agent:main:telegram:thread:-1001234567890:77",
    "previous_session_id": "20260105_101507_3b7e1d40",
    "synthetic_turn": '[Session was just handed off from CLI ("Refactor the search ranking") to this '
    "channel. The full prior conversation history is loaded above. Briefly confirm you're working here and "
    "summarize what we were working on, so the user can continue from this device.]",
}

SYNC_BATCH: dict[str, Any] = {
    "home": "laptop:/home/me/.hermes/state.db",
    "sessions": [
        {
            "id": "20260105_101500_a1b2c3",
            "source": "cli",
            "model": "anthropic/claude-sonnet-4",
            "title": "Refactor the search ranking",
            "started_at": 1767607500.0,
            "message_count": 2,
        }
    ],
    "messages": {
        "columns": ["id", "session_id", "role", "content", "timestamp"],
        "rows": [
            [41, "20260105_101500_a1b2c3", "user", "Why is ranking slow?", 1767607501.0],
            [42, "20260105_101500_a1b2c3", "assistant", "The snippet pass reads every match.", 1767607509.0],
        ],
    },
}

SYNC_RESULT: dict[str, Any] = {
    "home": "laptop:/home/me/.hermes/state.db",
    "sessions_inserted": 1,
    "sessions_updated": 0,
    "sessions_new": ["20260105_093000_a1b2c3"],
    "sessions_conflicting": [],
    "titles_changed": [],
    "parents_linked": 0,
    "messages_inserted": 2,
    "messages_skipped": 0,
    "messages_orphaned": 0,
    "first_message_id": 1207,
    "refused": [],
}
