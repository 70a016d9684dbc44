"""Export chunks rendered in worker processes, so an export can use more than one core.

Rendering a chunk is CPU-bound Python and SQLite work that saturates one core. More reader *threads* do not
help: the sqlite3 module releases the GIL around every row it steps, so two threads hand it back and forth per
row (more CPU, no wall-time gain; docs/benchmarks.md).
Worker *processes* (``app/storage/sqlite/render_worker.py``), each with its own read-only connection, do.
They are plain subprocesses of a small entry module, not ``multiprocessing`` children: those re-import the
host program's main module (a script embedding the app without a ``__main__`` guard would run again) and the
whole web stack with it. Started on the first export, kept for the next ones, stopped with the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import pickle
import queue
import subprocess
import sys
import threading
from pathlib import Path

from app.storage.rows import ChunkPlan, ExportFilter, RenderedChunk
from app.storage.sqlite.render_worker import read_frame, write_frame


class WorkerDied(RuntimeError):
    """A render worker exited (killed, out of memory); the export that needed it fails, the next one gets
    a new worker."""


class _Worker:
    def __init__(self, path: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "app.storage.sqlite.render_worker", str(path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )

    def render(self, flt: ExportFilter, plan: ChunkPlan) -> RenderedChunk:
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            write_frame(self.process.stdin, pickle.dumps((flt, plan), protocol=pickle.HIGHEST_PROTOCOL))
            frame = read_frame(self.process.stdout)
        except OSError:  # the pipe broke: the worker is gone
            frame = None
        if frame is None:
            raise WorkerDied(f"export render worker exited with {self.process.wait()}")
        result = pickle.loads(frame)
        if isinstance(result, BaseException):
            raise result
        assert isinstance(result, RenderedChunk)
        return result

    def close(self) -> None:
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()


class RenderPool:
    """``workers`` render processes; each render runs in the default thread pool while its worker works."""

    def __init__(self, path: Path, workers: int) -> None:
        self.path = path
        self.workers = workers
        self._idle: queue.SimpleQueue[_Worker] = queue.SimpleQueue()
        self._all: list[_Worker] = []
        self._lock = threading.Lock()
        self._closed = False

    def _take(self) -> _Worker:
        while True:
            try:
                return self._idle.get_nowait()
            except queue.Empty:
                pass
            with self._lock:
                if self._closed:
                    raise RuntimeError("the export render pool is closed")
                if len(self._all) < self.workers:
                    worker = _Worker(self.path)
                    self._all.append(worker)
                    return worker
            try:
                # Bounded wait: a worker that dies frees its slot without ever coming back to the queue.
                return self._idle.get(timeout=0.5)
            except queue.Empty:
                continue

    def _render(self, flt: ExportFilter, plan: ChunkPlan) -> RenderedChunk:
        worker = self._take()
        try:
            result = worker.render(flt, plan)
        except WorkerDied:
            with self._lock:
                if worker in self._all:
                    self._all.remove(worker)
            raise
        except BaseException:
            self._idle.put(worker)
            raise
        self._idle.put(worker)
        return result

    async def render(self, flt: ExportFilter, plan: ChunkPlan) -> RenderedChunk:
        """Render one chunk in a worker process."""
        return await asyncio.get_running_loop().run_in_executor(None, self._render, flt, plan)

    def close(self) -> None:
        """Stop every worker (each finishes the chunk it is rendering first)."""
        with self._lock:
            self._closed = True
            workers, self._all = self._all, []
        for worker in workers:
            worker.close()
