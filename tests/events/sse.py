"""A small SSE client for tests: a background reader that parses frames into a queue."""

from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import orjson

from app.cli.events import hang_up
from tests.conftest import TOKEN


@dataclass
class Frame:
    """One parsed frame: an event (``id``/``event``/``data``) or a comment / retry line."""

    id: int | None = None
    event: str | None = None
    data: Any = None
    comment: str | None = None
    retry: int | None = None


@dataclass
class SseStream:
    """Frames of one open stream, in arrival order."""

    frames: queue.Queue[Frame] = field(default_factory=queue.Queue)
    status: int | None = None
    headers: dict[str, str] = field(default_factory=dict)
    _client: httpx.Client | None = None
    _response: httpx.Response | None = None
    _opened: threading.Event = field(default_factory=threading.Event)

    def events(self, n: int, timeout: float = 10.0) -> list[Frame]:
        """The next ``n`` events (comments skipped); fails if they do not arrive in time."""
        got: list[Frame] = []
        deadline = time.monotonic() + timeout
        while len(got) < n:
            frame = self.frames.get(timeout=max(0.01, deadline - time.monotonic()))
            if frame.event is not None:
                got.append(frame)
        return got

    def quiet(self, seconds: float) -> list[Frame]:
        """Events that arrive within ``seconds`` (expected: none)."""
        got: list[Frame] = []
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                frame = self.frames.get(timeout=left)
            except queue.Empty:
                break
            if frame.event is not None:
                got.append(frame)
        return got

    def close(self) -> None:
        """Drop the connection."""
        if self._response is not None:
            hang_up(self._response)
        if self._client is not None:
            self._client.close()


def _parse(lines: list[str]) -> Frame:
    frame = Frame()
    for line in lines:
        if line.startswith(":"):
            frame.comment = line[1:].strip()
            continue
        name, _, value = line.partition(": ")
        if name == "id":
            frame.id = int(value)
        elif name == "event":
            frame.event = value
        elif name == "data":
            frame.data = orjson.loads(value)
        elif name == "retry":
            frame.retry = int(value)
    return frame


def open_stream(base_url: str, path: str, headers: dict[str, str] | None = None) -> SseStream:
    """Connect and return once the server has answered (the ``retry`` frame arrived)."""
    stream = SseStream()
    client = httpx.Client(
        base_url=base_url,
        headers={"Authorization": f"Bearer {TOKEN}", **(headers or {})},
        timeout=httpx.Timeout(10.0, read=60.0),
    )
    stream._client = client

    def run() -> None:
        try:
            with client.stream("GET", path) as response:
                stream._response = response
                stream.status = response.status_code
                stream.headers = dict(response.headers)
                stream._opened.set()
                pending: list[str] = []
                for line in response.iter_lines():
                    if line == "":
                        if pending:
                            stream.frames.put(_parse(pending))
                        pending = []
                    else:
                        pending.append(line)
        except (httpx.HTTPError, RuntimeError):  # RuntimeError: closed from the test thread mid-read
            stream._opened.set()

    threading.Thread(target=run, daemon=True).start()
    assert stream._opened.wait(10), "stream did not open"
    if stream.status == 200:
        first = stream.frames.get(timeout=10)
        assert first.retry == 2000, first
    return stream
