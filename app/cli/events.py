"""A background listener on a server-sent event stream that only says "something happened".

Commands that wait for a state change re-read the state themselves (events do not cover changes the
agent makes through its own ``SessionDB``); the listener just lets them re-read at once instead of at
the next poll. Any failure ends the listener quietly: polling carries on without it.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import httpx

# Longer than the server's 15 s keep-alive, so a silent but healthy stream is never cut.
_READ_TIMEOUT_S = 60.0


class EventListener:
    """Sets :attr:`wake` whenever an event of one of ``types`` arrives on ``path``."""

    def __init__(self, http: httpx.Client, path: str, types: frozenset[str]) -> None:
        self.wake = threading.Event()
        self._http = http
        self._path = path
        self._wanted = {f"event: {t}" for t in types}
        self._response: httpx.Response | None = None
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._run, name="hermes-cli-events", daemon=True)

    def start(self) -> EventListener:
        """Connect in the background."""
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop listening (closing the connection ends the blocked read)."""
        self._closed.set()
        response = self._response
        if response is not None:
            with contextlib.suppress(Exception):
                hang_up(response)

    def _run(self) -> None:
        import httpx

        timeout = httpx.Timeout(10.0, read=_READ_TIMEOUT_S)
        try:
            with self._http.stream("GET", self._path, timeout=timeout) as response:
                self._response = response
                if response.status_code != 200 or self._closed.is_set():
                    return
                for line in response.iter_lines():
                    if self._closed.is_set():
                        return
                    if line in self._wanted:
                        self.wake.set()
        except Exception:
            return  # any failure just leaves the caller polling


def hang_up(response: httpx.Response) -> None:
    """Close a streamed response that another thread is blocked reading.

    Closing the socket alone would not send the FIN while a ``recv`` is in progress (the kernel keeps the
    file open), so the server would go on streaming; ``shutdown`` ends the connection for both sides.
    """
    network = response.extensions.get("network_stream")
    sock = network.get_extra_info("socket") if network is not None else None
    if isinstance(sock, socket.socket):
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
    response.close()
