"""Raw-socket HTTP for edge tests: send bytes a well-behaved client never would, read what comes back."""

from __future__ import annotations

import socket

import httpx

# Far above every deadline the edge tests configure: a connection the server holds beyond this fails.
READ_TIMEOUT_S = 15.0


def connect(base_url: str) -> socket.socket:
    """A TCP connection to ``http://host:port`` with the edge tests' read timeout."""
    host, port = base_url.removeprefix("http://").rsplit(":", 1)
    return socket.create_connection((host, int(port)), timeout=READ_TIMEOUT_S)


def read_until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (a timeout fails the test)."""
    chunks = []
    try:
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    except ConnectionResetError:
        pass  # a close with unread request bytes is a reset after the answer; keep what arrived
    return b"".join(chunks)


def parse(raw: bytes) -> httpx.Response:
    """Parse the first response in ``raw`` (Content-Length framed) into an ``httpx.Response``."""
    head, _, rest = raw.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = [(name.strip(), value.strip()) for name, _, value in (line.partition(":") for line in lines)]
    length = int(dict((k.lower(), v) for k, v in headers).get("content-length", len(rest)))
    return httpx.Response(int(status_line.split()[1]), headers=headers, content=rest[:length])


def exchange(base_url: str, request: bytes) -> httpx.Response:
    """Send ``request`` on a fresh connection and parse the answer; the server must close afterwards."""
    with connect(base_url) as sock:
        sock.sendall(request)
        return parse(read_until_closed(sock))
