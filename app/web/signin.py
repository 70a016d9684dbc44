"""Who may see the web page: one-time sign-in codes and the signed session cookies they open.

A browser cannot send the bearer token with a link or an ``EventSource``, so the page signs a person in
once and then recognises a cookie. The cookie never holds the token: it holds when it was issued, a random
nonce and an HMAC-SHA256 of both under a key derived from the token. Any process that knows the token
checks it without state of its own, so a cookie outlives a restart and works on every replica sharing the
token; a new token ends every cookie at once. The token itself stays where it is (a 0600 file or the
environment) and never enters a URL, a page or a log line.

Sign-out deletes the cookie in the browser, and the process that signed it out refuses that cookie until
it would have expired; nothing is shared, so another replica, or this one after a restart, would still
accept a copy taken before sign-out until then (rotating the token ends them all).

Codes (the banner's link, ``hermes open``) are single-use and short-lived, so a link found later in a
shell's scrollback or a log opens nothing. Single use needs memory, so codes live in this process: a
restart forgets unredeemed ones, which is the safe direction.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
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
# Clocks of replicas differ a little; a cookie issued further in the future than this was not issued here.
CLOCK_SKEW_S = 300
# Unredeemed codes and signed-out cookies kept at once; the oldest goes first, so neither grows memory.
MAX_CODES = 64
MAX_REVOKED = 4096
# Separates this key from any other use of the token (the token is also the API's bearer secret).
_KEY_CONTEXT = b"hermes-sessions web page cookie v1"


def cookie_key(token: str | None) -> bytes:
    """The cookie's signing key: from the API token, else (auth off) random for this process."""
    if token is None:
        return secrets.token_bytes(32)
    return hmac.new(token.encode(), _KEY_CONTEXT, hashlib.sha256).digest()


class SignIns:
    """Outstanding one-time codes of this process, and the signed session cookies of every process."""

    def __init__(
        self,
        token: str | None,
        *,
        clock: Callable[[], float] = time.time,
        code_clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._key = cookie_key(token)
        # Wall time for cookies (other processes check them), a monotonic clock for this process's codes.
        self._clock = clock
        self._code_clock = code_clock
        self._codes: dict[str, float] = {}
        self._revoked: dict[str, float] = {}
        # Codes are minted from the CLI's thread at start-up as well as from request handlers.
        self._lock = threading.Lock()

    def mint_code(self) -> str:
        """A new single-use sign-in code, valid for :data:`CODE_TTL_S`."""
        code = secrets.token_urlsafe(24)
        with self._lock:
            _drop_expired(self._codes, self._code_clock())
            _make_room(self._codes, MAX_CODES)
            self._codes[code] = self._code_clock() + CODE_TTL_S
        return code

    def redeem(self, code: str) -> str | None:
        """A new session cookie for an unexpired code, which is spent; ``None`` for any other code."""
        with self._lock:
            expires = self._codes.pop(code, None)
        if expires is None or expires < self._code_clock():
            return None
        return self.open_session()

    def open_session(self) -> str:
        """A new signed session cookie value, valid for :data:`SESSION_TTL_S`."""
        claim = f"{int(self._clock())}.{secrets.token_urlsafe(16)}"
        return f"{claim}.{self._sign(claim)}"

    def valid(self, value: str | None) -> bool:
        """Whether ``value`` is a cookie signed with this token, unexpired and not signed out here."""
        issued = self._issued(value)
        if issued is None:
            return False
        now = self._clock()
        if not now - SESSION_TTL_S <= issued <= now + CLOCK_SKEW_S:
            return False
        with self._lock:
            return value not in self._revoked

    def close_session(self, value: str | None) -> None:
        """Sign-out: refuse this cookie here from now on (unsigned values are ignored)."""
        issued = self._issued(value)
        if issued is None or value is None:
            return
        with self._lock:
            _drop_expired(self._revoked, self._clock())
            _make_room(self._revoked, MAX_REVOKED)
            self._revoked[value] = issued + SESSION_TTL_S

    def _sign(self, claim: str) -> str:
        mac = hmac.new(self._key, claim.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac).rstrip(b"=").decode()

    def _issued(self, value: str | None) -> int | None:
        """When a correctly signed cookie was issued; ``None`` for anything else."""
        if not value or len(value) > 200 or not value.isascii():
            return None
        claim, _, mac = value.rpartition(".")
        issued, _, _nonce = claim.partition(".")
        if not issued.isdigit() or not hmac.compare_digest(mac, self._sign(claim)):
            return None
        return int(issued)


def _drop_expired(table: dict[str, float], now: float) -> None:
    for key in [k for k, expires in table.items() if expires < now]:
        del table[key]


def _make_room(table: dict[str, float], cap: int) -> None:
    while len(table) >= cap:
        del table[next(iter(table))]
