"""Who may see the web page: one-time sign-in codes and the browser sessions they open.

A browser cannot send the bearer token with a link or an ``EventSource``, so the page signs a person in
once and then recognises a cookie. The cookie holds a random session key, never the token: the token
stays where it is (a 0600 file or the environment) and never enters a URL, a page or a log line. Codes
(the banner's link, ``hermes open``) are single-use and short-lived, so a link found later in a shell's
scrollback or a log opens nothing.

Both live in this process's memory: a restart signs everybody out, which is the safe direction.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable

COOKIE = "hermes_page"
# htmx sends it on every request it makes; a cross-site form or image cannot set a header, and a
# cross-site script would need a CORS preflight this server never grants.
CSRF_HEADER = "hx-request"
CODE_TTL_S = 15 * 60
SESSION_TTL_S = 7 * 24 * 3600
# Unredeemed codes kept at once; the oldest goes first, so minting many cannot grow memory.
MAX_CODES = 64
MAX_SESSIONS = 1024


class SignIns:
    """Outstanding one-time codes and open browser sessions, each with its expiry."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._codes: dict[str, float] = {}
        self._sessions: dict[str, float] = {}
        # Codes are minted from the CLI's thread at start-up as well as from request handlers.
        self._lock = threading.Lock()

    def mint_code(self) -> str:
        """A new single-use sign-in code, valid for :data:`CODE_TTL_S`."""
        code = secrets.token_urlsafe(24)
        with self._lock:
            _drop_expired(self._codes, self._clock())
            _make_room(self._codes, MAX_CODES)
            self._codes[code] = self._clock() + CODE_TTL_S
        return code

    def redeem(self, code: str) -> str | None:
        """A new session key for an unexpired code, which is spent; ``None`` for any other code."""
        with self._lock:
            expires = self._codes.pop(code, None)
        if expires is None or expires < self._clock():
            return None
        return self.open_session()

    def open_session(self) -> str:
        """A new browser session key, valid for :data:`SESSION_TTL_S`."""
        key = secrets.token_urlsafe(32)
        with self._lock:
            _drop_expired(self._sessions, self._clock())
            _make_room(self._sessions, MAX_SESSIONS)
            self._sessions[key] = self._clock() + SESSION_TTL_S
        return key

    def valid(self, key: str | None) -> bool:
        """Whether ``key`` names an open, unexpired session."""
        if not key:
            return False
        with self._lock:
            expires = self._sessions.get(key)
        # Dict lookups are not constant-time, but the key is 256 random bits: guessing is the only attack.
        return expires is not None and expires >= self._clock()

    def close_session(self, key: str | None) -> None:
        """End a session (sign-out); unknown keys are ignored."""
        if key:
            with self._lock:
                self._sessions.pop(key, None)


def _drop_expired(table: dict[str, float], now: float) -> None:
    for key in [k for k, expires in table.items() if expires < now]:
        del table[key]


def _make_room(table: dict[str, float], cap: int) -> None:
    while len(table) >= cap:
        del table[next(iter(table))]
