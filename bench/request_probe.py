"""One build's server app driven in process over ASGI, for ``bench/request_costs.py``.

Run as ``python bench/request_probe.py CONFIG_JSON`` with the build's source first on ``PYTHONPATH``: it
imports only that build's ``app`` and the standard library, starts the app's lifespan on the store the
config names, then answers commands on stdin, one JSON line each, with one JSON line on stdout:

- ``{"op": "export", "calls": N, "profile": bool}``: ``GET /export.jsonl?session_id=...`` going round the
  config's sessions;
- ``{"op": "append", "calls": N, "clients": C, "profile": bool}``: single-message appends from ``C``
  concurrent coroutines, each on a session of its own.

Each answer: the process's CPU seconds (every thread, ``time.process_time``) and its render workers' (child
processes), SQL statements executed, response bytes, and with ``profile`` the Python function calls of
every thread (one ``cProfile`` per thread) and the functions whose call counts are largest. No network,
no client process: what the figures count is the server's own work, so they move far less with the
machine's load than the wall or CPU time of a real server does (calls and statements not at all).
"""

from __future__ import annotations

import asyncio
import cProfile
import gc
import json
import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

TOKEN = "bench-token"


class GcClock:
    """Seconds the cyclic garbage collector ran, per generation (``gc.callbacks``): work no call count sees,
    and it grows with the objects the app keeps outside ``gc.freeze()``."""

    def __init__(self) -> None:
        self.seconds = [0.0, 0.0, 0.0]
        self.runs = [0, 0, 0]
        self._started = 0.0
        gc.callbacks.append(self._tick)

    def _tick(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.thread_time()
        else:
            self.seconds[info["generation"]] += time.thread_time() - self._started
            self.runs[info["generation"]] += 1


class Counters:
    """What the process did while a slice ran: SQL statements, and in a profiling probe the profilers of
    every thread (each enabled when its thread starts, read without stopping it)."""

    def __init__(self) -> None:
        self.statements = 0
        self.texts: dict[str, int] = {}
        self.profiles: list[cProfile.Profile] = []
        self.lock = threading.Lock()

    def count(self, sql: object = None) -> None:
        self.statements += 1
        if self.profiles:
            text = " ".join(str(sql).split())
            self.texts[text] = self.texts.get(text, 0) + 1

    def start_profiling(self) -> None:
        """Profile this thread and every thread started from now on."""
        threading.setprofile(self._thread_hook)
        self._thread_hook()

    def _thread_hook(self, *_: Any) -> None:
        # The first event of a new thread: a profiler of its own replaces this hook.
        profile = cProfile.Profile()
        with self.lock:
            self.profiles.append(profile)
        profile.enable()

    def call_counts(self) -> dict[str, int]:
        """Calls so far per function (``file:name``) and per caller pair (``caller -> callee``), all
        threads; this thread's profiler is off meanwhile, so the count does not count itself."""
        with self.lock:
            profiles = list(self.profiles)
        mine = profiles[0]  # start_profiling's, this (the event loop's) thread's
        mine.disable()
        raw: dict[Any, int] = {}
        for profile in profiles:
            for entry in profile.getstats():  # type: ignore[attr-defined]
                raw[entry.code] = raw.get(entry.code, 0) + entry.callcount
                for sub in entry.calls or ():
                    pair = (entry.code, sub.code)
                    raw[pair] = raw.get(pair, 0) + sub.callcount
        mine.enable()
        return raw


COUNTERS = Counters()
GC = GcClock()


def _count_sqlite() -> None:
    """Every SQLite connection the app opens from now on counts the statements it runs."""
    try:
        from app.storage.sqlite.driver import sqlite3 as driver
    except ImportError:
        from app.storage.sqlite_driver import sqlite3 as driver  # type: ignore[no-redef]
    connect = driver.connect

    def counted(*args: Any, **kwargs: Any) -> Any:
        conn = connect(*args, **kwargs)
        conn.set_trace_callback(COUNTERS.count)
        return conn

    driver.connect = counted


def _count_psycopg() -> None:
    """Every psycopg cursor execution counts as a statement (``executemany`` as one per row)."""
    import psycopg

    execute, executemany = psycopg.Cursor.execute, psycopg.Cursor.executemany

    def counted_execute(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        COUNTERS.count(query)
        return execute(self, query, *args, **kwargs)

    def counted_many(self: Any, query: Any, params_seq: Any, **kwargs: Any) -> Any:
        rows = list(params_seq)
        COUNTERS.statements += len(rows)
        return executemany(self, query, rows, **kwargs)

    psycopg.Cursor.execute = counted_execute  # type: ignore[method-assign]
    psycopg.Cursor.executemany = counted_many  # type: ignore[method-assign]


async def call(
    app: Any, method: str, path: str, query: bytes = b"", body: bytes = b"", keep: list[bytes] | None = None
) -> tuple[int, int]:
    """One request straight into the ASGI app: its status and the number of body bytes it answered (the
    bytes themselves appended to ``keep``)."""
    headers = [
        (b"host", b"127.0.0.1:8643"),
        (b"authorization", f"Bearer {TOKEN}".encode()),
        (b"accept", b"*/*"),
    ]
    if body:
        headers += [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query,
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 40000),
        "server": ("127.0.0.1", 8643),
        "state": {},
    }
    done = asyncio.Event()
    sent_body = False
    status = 0
    size = 0

    async def receive() -> dict[str, Any]:
        nonlocal sent_body
        if not sent_body:
            sent_body = True
            return {"type": "http.request", "body": body, "more_body": False}
        await done.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status, size
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            size += len(message.get("body", b""))
            if keep is not None:
                keep.append(message.get("body", b""))
            if not message.get("more_body", False):
                done.set()

    await app(scope, receive, send)
    done.set()
    return status, size


def _children_cpu_s() -> float:
    """CPU seconds of this process's live children (the export render workers)."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    me = str(os.getpid())
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if fields[1] == me:
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def _named(key: Any) -> str:
    """``file:function`` for a code object or a builtin's name, ``a -> b`` for a caller pair."""
    if isinstance(key, tuple):
        return f"{_named(key[0])} -> {_named(key[1])}"
    return key if isinstance(key, str) else f"{Path(key.co_filename).name}:{key.co_name}"


async def measure(run: Callable[[], Any], calls: int) -> dict[str, Any]:
    """Run ``run()`` once, counting what the process did meanwhile."""
    COUNTERS.statements = 0
    COUNTERS.texts = {}
    profiling = bool(COUNTERS.profiles)
    gc_seconds, gc_runs = sum(GC.seconds), list(GC.runs)
    children = _children_cpu_s()
    calls_before = COUNTERS.call_counts() if profiling else {}
    cpu = time.process_time()
    wall = time.perf_counter()
    answered = await run()
    wall = time.perf_counter() - wall
    cpu = time.process_time() - cpu
    calls_after = COUNTERS.call_counts() if profiling else {}
    children = _children_cpu_s() - children
    out: dict[str, Any] = {
        "cpu_s": cpu / calls,
        "children_cpu_s": children / calls,
        "wall_s": wall / calls,
        "statements": COUNTERS.statements / calls,
        "bytes": answered / calls,
        "gc_s": (sum(GC.seconds) - gc_seconds) / calls,
        "gc_full_runs": GC.runs[2] - gc_runs[2],
        "gc_oldest_objects": len(gc.get_objects(generation=2)),
    }
    if profiling:
        per_function = {
            _named(key): (n - calls_before.get(key, 0)) / calls
            for key, n in calls_after.items()
            if n != calls_before.get(key, 0)
        }
        out["calls"] = sum(n for name, n in per_function.items() if " -> " not in name)
        out["functions"] = per_function
        out["sql"] = {text: n / calls for text, n in COUNTERS.texts.items()}
    return out


async def main(config: dict[str, Any]) -> None:
    os.environ["HERMES_HOME"] = config["home"]
    os.environ["HERMES_API_TOKEN"] = TOKEN
    if config.get("profile"):
        COUNTERS.start_profiling()
    if config.get("database_url"):
        os.environ["HERMES_DATABASE_URL"] = config["database_url"]
        _count_psycopg()
    else:
        os.environ.pop("HERMES_DATABASE_URL", None)
        _count_sqlite()
    from app.main import create_app
    from app.settings import Settings

    app = create_app(Settings())
    # As ``hermes serve`` does once the app is built, where the build has it.
    try:
        from app.runtime import tune_for_serving
    except ImportError:
        pass
    else:
        tune_for_serving()
    bodies: list[bytes] = [b.encode() for b in config.get("bodies", [])]
    async with app.router.lifespan_context(app):
        sessions: list[str] = []
        export_paths = [quote(sid) for sid in config.get("export_sessions", [])]
        print(json.dumps({"ready": True}), flush=True)
        loop = asyncio.get_running_loop()
        while True:
            line = await loop.run_in_executor(None, sys.stdin.readline)
            if not line:
                return
            command = json.loads(line)
            calls = int(command["calls"])
            if command["op"] == "export":

                async def exports(n: int = calls) -> int:
                    size = 0
                    for index in range(n):
                        sid = export_paths[index % len(export_paths)]
                        status, got = await call(app, "GET", "/export.jsonl", f"session_id={sid}".encode())
                        assert status == 200, status
                        size += got
                    return size

                result = await measure(exports, calls)
            elif command["op"] == "append":
                clients = int(command["clients"])
                while len(sessions) < clients:
                    made: list[bytes] = []
                    status, _ = await call(
                        app, "POST", "/sessions", body=b'{"source":"cli","model":"bench"}', keep=made
                    )
                    assert status == 201, status
                    sessions.append(str(json.loads(b"".join(made))["id"]))
                per_client = calls // clients

                async def appends(n: int = per_client, c: int = clients) -> int:
                    async def client(index: int) -> int:
                        path = f"/sessions/{sessions[index]}/messages"
                        size = 0
                        for i in range(n):
                            body = bodies[(index * 250 + i) % len(bodies)]
                            status, got = await call(app, "POST", path, body=body)
                            assert status == 201, status
                            size += got
                        return size

                    return sum(await asyncio.gather(*(client(i) for i in range(c))))

                result = await measure(appends, per_client * clients)
            else:
                raise ValueError(command)
            print(json.dumps(result), flush=True)


if __name__ == "__main__":
    asyncio.run(main(json.loads(Path(sys.argv[1]).read_text())))
