"""A tiny real chat-completions server on loopback whose behaviour each test chooses."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Behaviour:
    """What the server answers: a status, a raw body or a title, after an optional delay."""

    title: str = "Quarterly Report Review"
    status: int = 200
    raw_body: bytes | None = None
    delay_s: float = 0.0
    requests: list[dict[str, Any]] = field(default_factory=list)
    served: threading.Event = field(default_factory=threading.Event)


class _Handler(BaseHTTPRequestHandler):
    behaviour: Behaviour

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        b = self.server.behaviour  # type: ignore[attr-defined]
        b.requests.append({"path": self.path, "auth": self.headers.get("Authorization"), "body": body})
        time.sleep(b.delay_s)
        payload = b.raw_body
        if payload is None:
            payload = json.dumps(
                {"choices": [{"index": 0, "message": {"role": "assistant", "content": b.title}}]}
            ).encode()
        try:
            self.send_response(b.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
        except OSError:
            pass  # the client gave up (timeout test)
        finally:
            b.served.set()

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""


@contextmanager
def chat_server(behaviour: Behaviour) -> Iterator[str]:
    """Serve ``behaviour`` on a free loopback port; yields the base URL (``http://127.0.0.1:N/v1``)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    server.behaviour = behaviour  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()
