"""A multilingual search corpus written by the real agent into SQLite, and copied row for row (same ids)
into a PostgreSQL database migrated to head (the server's own schema, search columns and indexes)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import psycopg

from app.storage.postgres import migrate
from app.storage.postgres.connection import configure
from app.storage.sqlite.driver import sqlite3

_SESSION_COLUMNS = (
    "id",
    "source",
    "model",
    "parent_session_id",
    "started_at",
    "ended_at",
    "end_reason",
    "message_count",
    "title",
)
_MESSAGE_COLUMNS = (
    "id",
    "session_id",
    "role",
    "content",
    "tool_call_id",
    "tool_calls",
    "tool_name",
    "timestamp",
    "active",
    "compacted",
)

_TOOL_CALLS = [
    {
        "id": "call_1",
        "type": "function",
        "function": {"name": "terminal", "arguments": json.dumps({"command": "pytest -x tests/test_api.py"})},
    }
]

# (session id, source, turns); a turn is (role, content) or the fields of append_message.
CORPUS: list[tuple[str, str, list[Any]]] = [
    (
        "en-fox",
        "cli",
        [("user", "The quick brown fox jumps over the lazy dog"), ("assistant", "Foxes are quick.")],
    ),
    ("en-dog", "cli", [("user", "My dog is lazy today"), ("assistant", "Dogs rest a lot, that is fine.")]),
    (
        "en-k8s",
        "telegram",
        [("user", "Deploy the kubernetes cluster with helm charts"), ("assistant", "Done.")],
    ),
    (
        "en-tool",
        "cli",
        [
            ("user", "Run the API tests please"),
            {"role": "assistant", "content": "Running them.", "tool_calls": _TOOL_CALLS},
            {
                "role": "tool",
                "content": "3 passed in 0.2s",
                "tool_call_id": "call_1",
                "tool_name": "terminal",
            },
            ("assistant", "All three tests passed."),
        ],
    ),
    (
        "de-tram",
        "cli",
        [("user", "Die Straßenbahn fährt über die Brücke nach München"), ("assistant", "Gute Fahrt!")],
    ),
    (
        "de-cake",
        "discord",
        [("user", "Ich möchte einen Kuchen backen, mit wenig Zucker"), ("assistant", "Gerne.")],
    ),
    (
        "fr-cafe",
        "cli",
        [("user", "Le café est très chaud ce matin à Paris"), ("assistant", "Attention, ça brûle.")],
    ),
    (
        "fr-lib",
        "cli",
        [("user", "Où est la bibliothèque ? Elle est fermée le dimanche."), ("assistant", "Oui.")],
    ),
    ("zh-db", "cli", [("user", "我们今天讨论数据库的性能优化问题"), ("assistant", "好的，先看索引。")]),
    ("zh-seg", "cli", [("user", "中文分词是一个困难的问题"), ("assistant", "可以用三元组索引。")]),
    ("zh-migrate", "cli", [("user", "数据库迁移脚本已经完成"), ("assistant", "请检查日志。")]),
    (
        "ja-weather",
        "cli",
        [("user", "東京の天気は晴れです。明日は雨が降るでしょう。"), ("assistant", "傘を持って。")],
    ),
    ("ja-design", "cli", [("user", "データベースの設計について話しましょう"), ("assistant", "はい。")]),
    (
        "vi-lang",
        "cli",
        [("user", "Tiếng Việt là ngôn ngữ chính thức của Việt Nam"), ("assistant", "Đúng vậy.")],
    ),
    (
        "vi-code",
        "cli",
        [("user", "Tôi muốn học lập trình Python"), ("assistant", "Bắt đầu với asyncio nhé.")],
    ),
    (
        "code-py",
        "cli",
        [
            ("user", "def foo_bar(x): return x.strip()  # see utils/helpers.py"),
            ("assistant", "Use str.strip."),
        ],
    ),
    (
        "code-sql",
        "cli",
        [("user", "SELECT * FROM users WHERE email = 'user@example.com';"), ("assistant", "OK")],
    ),
    ("short-go", "cli", [("user", "Go is a language and C is too"), ("assistant", "x y z, it is OK")]),
    ("emoji", "cli", [("user", "Great job 🎉 on the release"), ("assistant", "Thanks 🙏")]),
    (
        "mixed",
        "cli",
        [("user", "The 数据库 benchmark, in English and 中文"), ("assistant", "Mixed text works.")],
    ),
    (
        "cron-report",
        "cron",
        [("user", "nightly backup report for the database"), ("assistant", "Backup done.")],
    ),
    (
        "zh-tool",
        "cli",
        [
            ("user", "run the lookup"),
            {"role": "tool", "content": "done", "tool_call_id": "call_2", "tool_name": "搜索"},
        ],
    ),
    ("hidden-tool", "tool", [("user", "the quick fox in a hidden source"), ("assistant", "hidden")]),
]

# Queries in every operator, over every language of the corpus.
QUERIES = [
    "fox",
    "Fox",
    "quick fox",
    "quick AND fox",
    "quick OR kubernetes",
    "fox NOT lazy",
    "lazy NOT fox",
    "fox OR dog NOT lazy",
    '"lazy dog"',
    '"dog lazy"',
    "kube*",
    "fo*",
    "Straßenbahn",
    "uber",
    "über",
    "münchen",
    "munchen",
    "cafe",
    "café",
    "très",
    "bibliothèque",
    "Tiếng",
    '"Việt Nam"',
    "python",
    "pytest",
    "terminal",
    "tests/test_api.py",
    "foo_bar",
    "x.strip",
    "utils/helpers.py",
    "user@example.com",
    "a",
    "go",
    "OK",
    "is a",
    "C",
    "数据库",
    "数据库 性能",
    "数据库 OR 東京",
    "数据库 NOT 迁移",
    "中文",
    "问题",
    "東京",
    "データベース",
    "天気",
    "数",
    "库",
    "🎉",
    # A caseless term of two characters, scanned column by column, found only in a tool's name.
    "搜索",
    "nightly",
    "NOT fox",
    "fox NOT",
    "AND",
    '""',
    "(fox)",
    "-fox",
    "fox -dog",
    "*",
    "quick OR",
    "zzzz",
]


# Queries PostgreSQL answers with a strict superset: ``unaccent`` folds letters with two diacritics
# (Vietnamese ``ế``, ``ệ``), which ``unicode61``'s ``remove_diacritics=1`` keeps, and ``ß``.
SUPERSET_QUERIES = {"tieng viet": {"vi-lang"}, "strassenbahn": {"de-tram"}}


def load_agent(agent: Any) -> None:
    """Write :data:`CORPUS` through the real agent (its ids, its encoding of tool calls)."""
    for session_id, source, turns in CORPUS:
        agent.create_session(session_id, source, model="test-model")
        for turn in turns:
            fields = {"role": turn[0], "content": turn[1]} if isinstance(turn, tuple) else dict(turn)
            agent.append_message(session_id, **fields)


def create_pg_store(state_db: Path, url: str) -> psycopg.Connection[Any]:
    """The database at ``url`` migrated to head and filled from ``state_db``; an open autocommit connection
    to it, set up as the store sets up its pool's (NUL-safe text)."""
    migrate.upgrade(url)
    conn = psycopg.connect(url, autocommit=True)
    configure(conn)
    copy_to_pg(state_db, conn)
    return conn


def copy_to_pg(state_db: Path, conn: psycopg.Connection[Any]) -> None:
    """Every session and message of ``state_db`` into ``conn``'s tables, ids kept (``COPY``)."""
    source = sqlite3.connect(state_db)
    try:
        with conn.cursor() as cur:
            for table, columns in (("sessions", _SESSION_COLUMNS), ("messages", _MESSAGE_COLUMNS)):
                names = ", ".join(columns)
                with cur.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
                    for row in source.execute(f"SELECT {names} FROM {table} ORDER BY rowid"):
                        copy.write_row(row)
            # Identity values continue after the copied ids, as the agent's AUTOINCREMENT would.
            cur.execute(
                "SELECT setval(pg_get_serial_sequence('messages', 'id'), COALESCE(MAX(id), 1)) FROM messages"
            )
    finally:
        source.close()
