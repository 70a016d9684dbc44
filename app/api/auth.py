"""Bearer-token authentication: the token comes from HERMES_API_TOKEN or a 0600 file made on first start."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from app.errors import InvalidToken, MissingToken
from app.settings import Settings
from app.storage.files import make_private_dirs
from app.web.signin import COOKIE, SignIns

_bearer = HTTPBearer(auto_error=False, description="Token from $HERMES_HOME/api_token or HERMES_API_TOKEN")


def load_or_create_token(path: Path) -> str:
    """Read the token file, creating it (mode 0600, never world-readable) when absent."""
    make_private_dirs(path.parent)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        # Read through a link (a secrets mount may provide the file), but never write through one.
        token = path.read_text(encoding="utf-8").strip()
        if token:
            return token
        fd = os.open(path, os.O_WRONLY | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    token = secrets.token_urlsafe(32)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(token + "\n")
    os.chmod(path, 0o600)
    return token


def resolve_token(settings: Settings) -> str | None:
    """The token this server accepts, or ``None`` when auth is disabled (loopback only)."""
    if settings.auth_disabled:
        return None
    if settings.api_token is not None:
        return settings.api_token.get_secret_value()
    return load_or_create_token(settings.token_path)


async def require_token(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> None:
    """Reject the request unless it carries the server's bearer token (compared in constant time)."""
    expected: str | None = request.app.state.api_token
    if expected is None:
        return
    if credentials is None and request.method in _READS and _page_signed_in(request):
        return
    if credentials is None or credentials.scheme.lower() != "bearer":
        raise MissingToken()
    if not token_matches(credentials.credentials.encode(), expected):
        raise InvalidToken()


# The web page's browsers read through the JSON API too (its event stream, its exports) with their cookie;
# they change things only through the page's own routes, which also want htmx's header (CSRF).
_READS = frozenset({"GET", "HEAD"})


def _page_signed_in(request: Request) -> bool:
    signins: SignIns = request.app.state.web_signins
    return signins.valid(request.cookies.get(COOKIE))


def authorization_accepted(header: bytes | None, expected: str | None) -> bool:
    """Whether a raw ``Authorization`` header passes (always, when auth is off); for pure-ASGI code."""
    if expected is None:
        return True
    if header is None:
        return False
    scheme, _, credentials = header.partition(b" ")
    return scheme.lower() == b"bearer" and token_matches(credentials, expected)


def token_matches(presented: bytes, expected: str) -> bool:
    """Constant-time comparison of a presented token with the server's."""
    return secrets.compare_digest(presented, expected.encode())
