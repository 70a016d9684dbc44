"""Who may use the dashboard API: the dashboard's token headers carrying our API token, or the web page's
signed-in browser.

The dashboard takes ``X-Hermes-Session-Token: T`` or ``Authorization: Bearer T``; both are checked here
against our token. A browser signed in to the web page (its cookie) may read; a change from it also needs
the header the page's own changes carry, as on the page, so another site can never make it change anything.
"""

from __future__ import annotations

from fastapi import Request

from app.api.auth import token_matches
from app.api.dashboard.errors import UNAUTHORIZED, DashboardError
from app.web.access import signins
from app.web.signin import COOKIE, CSRF_HEADER

TOKEN_HEADER = "x-hermes-session-token"
_READS = frozenset({"GET", "HEAD"})


def presented_token(session_token: str | None, authorization: str | None) -> bytes | None:
    """The token a request presents: the dashboard's own header first, else a bearer token."""
    if session_token and session_token.strip():
        return session_token.strip().encode()
    scheme, _, credentials = (authorization or "").partition(" ")
    if scheme.lower() == "bearer" and credentials.strip():
        return credentials.strip().encode()
    return None


def token_accepted(presented: bytes | None, expected: str | None) -> bool:
    """Whether the presented token is ours (always, when the server runs without one)."""
    return expected is None or (presented is not None and token_matches(presented, expected))


def _browser_allowed(request: Request) -> bool:
    if not signins(request).valid(request.cookies.get(COOKIE)):
        return False
    return request.method in _READS or request.headers.get(CSRF_HEADER) == "true"


async def dashboard_auth(request: Request) -> None:
    """Refuse the request (401 ``Unauthorized``, the dashboard's body) unless it carries our token or comes
    from a signed-in browser; nothing is refused when the server runs without a token."""
    presented = presented_token(request.headers.get(TOKEN_HEADER), request.headers.get("authorization"))
    if token_accepted(presented, request.app.state.api_token):
        return
    if presented is None and _browser_allowed(request):
        return
    raise DashboardError(401, UNAUTHORIZED)
