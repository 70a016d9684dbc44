"""Drive one build of the agent's ``SessionDB`` on a state.db, in a process of its own.

Run as ``python tests/compat/oracle_driver.py <folder|-> <module> <json-command>``: ``<folder>`` goes first
on ``sys.path`` (``-``: none, i.e. the hermes-agent installed in the venv), then ``<module>``
(``hermes_state``, ``nastech_state``) is imported and its ``SessionDB`` opened on ``command["db"]``. The newer
agents ship the same module names as the venv's 0.19.0, so a process holds exactly one build; that is why
this is a script and not a module the tests import. The answer is one line on stdout: :data:`MARK`, JSON.

This file imports nothing from the project: it runs beside the agent's packages only.
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import json
import sqlite3
import sys
import time
import traceback
from collections.abc import Callable, Coroutine
from pathlib import Path
from types import ModuleType
from typing import Any

MARK = "@@oracle@@ "

TOOL_CALLS = [
    {"id": "call_a", "type": "function", "function": {"name": "read_file", "arguments": '{"path": "a.py"}'}},
    {"id": "call_b", "type": "function", "function": {"name": "grep", "arguments": '{"q": "zeta"}'}},
]

Command = dict[str, Any]
Handler = Callable[[Any, Command], Coroutine[Any, Any, dict[str, Any]]]


async def _call(db: Any, method: str, *args: Any, **kwargs: Any) -> Any:
    """Call a ``SessionDB`` method, awaiting it on the async build (its methods are coroutines)."""
    result = getattr(db, method)(*args, **kwargs)
    return await result if inspect.isawaitable(result) else result


async def fill(db: Any, cmd: Command) -> dict[str, Any]:
    """Sessions of several sources as the agent writes them: a titled cli session with a system prompt, tool
    calls and results; a telegram one with a user; a cron one; an ended one. Each holds a word of its own
    (``<prefix>cli`` ...), so a search tells which session a hit comes from."""
    p = cmd.get("prefix", "o")
    ids = {kind: f"{p}_{kind}" for kind in ("cli", "telegram", "cron", "ended")}
    await _call(db, "create_session", ids["cli"], "cli", model="m-cli", system_prompt=f"{p} system prompt")
    await _call(db, "set_session_title", ids["cli"], f"{p} cli title")
    await _call(db, "append_message", ids["cli"], "user", f"please find {p}cli zebra")
    await _call(db, "append_message", ids["cli"], "assistant", None, tool_calls=TOOL_CALLS)
    await _call(
        db,
        "append_message",
        ids["cli"],
        "tool",
        f"{p}cli result",
        tool_call_id="call_a",
        tool_name="read_file",
    )
    await _call(db, "append_message", ids["cli"], "tool", "no match", tool_call_id="call_b", tool_name="grep")
    await _call(db, "append_message", ids["cli"], "assistant", f"found the {p}cli zebra 東京タワー")
    await _call(db, "create_session", ids["telegram"], "telegram", user_id="u42")
    await _call(db, "append_message", ids["telegram"], "user", f"hola {p}telegram 👋 大阪")
    await _call(db, "create_session", ids["cron"], "cron", model="m-cron")
    await _call(db, "append_message", ids["cron"], "user", f"nightly {p}cron job")
    await _call(db, "append_message", ids["cron"], "assistant", f"{p}cron done")
    await _call(db, "create_session", ids["ended"], "cli")
    await _call(db, "set_session_title", ids["ended"], f"{p} ended title")
    await _call(db, "append_message", ids["ended"], "user", f"an {p}ended chat")
    await _call(db, "end_session", ids["ended"], "user_exit")
    return {"ids": ids}


async def migrate(db: Any, cmd: Command) -> dict[str, Any]:
    """Open and close: what a newer agent does to an older file on its first start. The driver's ``SessionDB``
    is opened lazily by some builds, so read something to make sure the schema work ran."""
    await _call(db, "get_session", "-")
    return {}


async def optimize(db: Any, cmd: Command) -> dict[str, Any]:
    """The agent's ``hermes sessions optimize-storage``: a legacy inline FTS file to the external layout."""
    # No VACUUM: it only shrinks the file, and costs the most of the run.
    return {"result": _jsonable(await _call(db, "optimize_fts_storage", vacuum=cmd.get("vacuum", False)))}


async def list_sessions(db: Any, cmd: Command) -> dict[str, Any]:
    rows = await _call(db, "list_sessions_rich", limit=cmd.get("limit", 200), **cmd.get("filters", {}))
    return {"sessions": _jsonable(rows), "ids": [r["id"] for r in rows]}


async def get_session(db: Any, cmd: Command) -> dict[str, Any]:
    return {"session": _jsonable(await _call(db, "get_session", cmd["id"]))}


async def get_messages(db: Any, cmd: Command) -> dict[str, Any]:
    return {"messages": _jsonable(await _call(db, "get_messages", cmd["id"]))}


async def search(db: Any, cmd: Command) -> dict[str, Any]:
    hits = await _call(db, "search_messages", cmd["q"], **cmd.get("filters", {}))
    return {"hits": _jsonable(hits), "session_ids": sorted({h["session_id"] for h in hits})}


async def rename(db: Any, cmd: Command) -> dict[str, Any]:
    return {"result": _jsonable(await _call(db, "set_session_title", cmd["id"], cmd["title"]))}


async def _flag(db: Any, cmd: Command, method: str) -> dict[str, Any]:
    # 0.19.0 has no pin/archive/hide of its own; nastech has no hide.
    if not hasattr(db, method):
        return {"supported": False}
    return {
        "supported": True,
        "result": _jsonable(await _call(db, method, cmd["id"], cmd.get("value", True))),
    }


async def pin(db: Any, cmd: Command) -> dict[str, Any]:
    return await _flag(db, cmd, "set_session_pinned")


async def archive(db: Any, cmd: Command) -> dict[str, Any]:
    return await _flag(db, cmd, "set_session_archived")


async def hide(db: Any, cmd: Command) -> dict[str, Any]:
    return await _flag(db, cmd, "set_session_hidden")


async def delete(db: Any, cmd: Command) -> dict[str, Any]:
    return {"result": _jsonable(await _call(db, "delete_session", cmd["id"]))}


async def create(db: Any, cmd: Command) -> dict[str, Any]:
    await _call(db, "create_session", cmd["id"], cmd.get("source", "cli"), **cmd.get("fields", {}))
    return {"id": cmd["id"]}


async def append(db: Any, cmd: Command) -> dict[str, Any]:
    ids = []
    for message in cmd["messages"]:
        message = dict(message)
        role, content = message.pop("role"), message.pop("content", None)
        ids.append(await _call(db, "append_message", cmd["id"], role, content, **message))
    return {"ids": _jsonable(ids)}


async def append_loop(db: Any, cmd: Command) -> dict[str, Any]:
    """``n`` single appends as fast as the build goes, for writing beside the server."""
    started = time.perf_counter()
    for i in range(cmd["n"]):
        await _call(db, "append_message", cmd["id"], "user", f"{cmd.get('word', 'loop')} {i}")
    return {"appended": cmd["n"], "seconds": time.perf_counter() - started}


async def integrity(db: Any, cmd: Command) -> dict[str, Any]:
    """FTS5 integrity-check (rank 1: against the content, for external-content tables) of each FTS table the
    file has, and SQLite's own quick_check, through this process's SQLite, outside the ``SessionDB``."""
    return {"checks": fts_integrity(Path(cmd["db"]))}


def fts_integrity(path: Path, dbapi: ModuleType = sqlite3) -> dict[str, str]:
    """``{"messages_fts": "ok", "messages_fts_trigram": "ok", "quick_check": "ok"}`` or the errors, read
    through ``dbapi``: the agent's own ``sqlite3`` here, the server's SQLite library when the test process
    checks a file its server may hold open (two SQLite copies in one process do not see each other's
    locks)."""
    conn = dbapi.connect(path, timeout=30)
    try:
        out: dict[str, str] = {}
        names = [
            r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE name IN (?, ?)", FTS_TABLES)
        ]
        for table in names:
            try:
                conn.execute(f"INSERT INTO {table}({table}, rank) VALUES('integrity-check', 1)")
                out[table] = "ok"
            except dbapi.DatabaseError as exc:
                out[table] = str(exc)
        out["quick_check"] = "; ".join(r[0] for r in conn.execute("PRAGMA quick_check"))
        return out
    finally:
        conn.close()


FTS_TABLES = ("messages_fts", "messages_fts_trigram")

HANDLERS: dict[str, Handler] = {
    "fill": fill,
    "migrate": migrate,
    "optimize": optimize,
    "list": list_sessions,
    "get_session": get_session,
    "get_messages": get_messages,
    "search": search,
    "rename": rename,
    "pin": pin,
    "archive": archive,
    "hide": hide,
    "delete": delete,
    "create": create,
    "append": append,
    "append_loop": append_loop,
    "integrity": integrity,
}


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


async def run(module: Any, cmd: Command) -> dict[str, Any]:
    """One command, or a ``batch`` of them on one ``SessionDB`` (``steps``: commands without ``db``)."""
    db = module.SessionDB(db_path=Path(cmd["db"]))
    try:
        if cmd["op"] == "batch":
            return {
                "results": [
                    await HANDLERS[step["op"]](db, {**step, "db": cmd["db"]}) for step in cmd["steps"]
                ]
            }
        return await HANDLERS[cmd["op"]](db, cmd)
    finally:
        await _call(db, "close")


def main(argv: list[str]) -> int:
    folder, module_name, raw = argv[1], argv[2], argv[3]
    if folder != "-":
        sys.path.insert(0, folder)
    cmd: Command = json.loads(raw)
    try:
        module = importlib.import_module(module_name)
        if folder != "-" and not str(module.__file__).startswith(folder):
            raise RuntimeError(f"{module_name} came from {module.__file__}, not {folder}")
        answer: dict[str, Any] = {"ok": True, "module_file": module.__file__, **asyncio.run(run(module, cmd))}
    except Exception:
        answer = {"ok": False, "error": traceback.format_exc()}
    sys.stdout.write("\n" + MARK + json.dumps(answer, default=str) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
