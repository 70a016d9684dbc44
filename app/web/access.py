"""Who may see the page and who may change things through it.

Reading needs a signed-in browser (the cookie of :mod:`app.web.signin`), on every bind, loopback included:
any local user can reach a loopback port. Changing also needs the header htmx sends, so another site can
never make a signed-in browser change anything (a cross-site form cannot set a header).
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from starlette.responses import RedirectResponse, Response

from app.web.responses import page
from app.web.signin import COOKIE, CSRF_HEADER, SESSION_TTL_S, SignIns

LOGIN_PATH = "/login"


class PageRefused(Exception):
    """A page request refused before any work: not signed in (401), or a change without the header (403)."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


def signins(request: Request) -> SignIns:
    """The process's sign-ins (``app.state.web_signins``)."""
    found: SignIns = request.app.state.web_signins
    return found


def signed_in(request: Request) -> bool:
    """Whether the request comes from a signed-in browser (always, when the server runs without a token)."""
    if request.app.state.api_token is None:
        return True
    return signins(request).valid(request.cookies.get(COOKIE))


async def reader(request: Request) -> None:
    """Dependency of every page and fragment: refuse a browser that is not signed in."""
    if not signed_in(request):
        raise PageRefused(401)


async def changer(request: Request) -> None:
    """Dependency of every change: a signed-in browser, and htmx's header (CSRF)."""
    if not signed_in(request):
        raise PageRefused(401)
    if request.headers.get(CSRF_HEADER) != "true":
        raise PageRefused(403)


def start_session(request: Request, response: Response, key: str) -> None:
    """Give the browser its session cookie: HttpOnly, SameSite=Strict, Secure when served over HTTPS."""
    response.set_cookie(
        COOKIE,
        key,
        max_age=SESSION_TTL_S,
        path="/",
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )


def end_session(request: Request, response: Response) -> None:
    """Forget the browser's session on both sides."""
    signins(request).close_session(request.cookies.get(COOKIE))
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict")


async def _refused(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, PageRefused)
    if exc.status == 403:
        return page("refused.html", status_code=403)
    if request.headers.get(CSRF_HEADER) == "true":
        # htmx follows HX-Redirect with a full navigation; a 303 would be swapped into the page.
        return page("refused.html", status_code=401, headers={"HX-Redirect": LOGIN_PATH})
    if request.method in ("GET", "HEAD"):
        return RedirectResponse(LOGIN_PATH, status_code=303, headers={"Cache-Control": "no-store"})
    return page("refused.html", status_code=401)


def install_refusals(app: FastAPI) -> None:
    """Answer :class:`PageRefused` as the page does (a redirect to the sign-in form, or a short page)."""
    app.add_exception_handler(PageRefused, _refused)
