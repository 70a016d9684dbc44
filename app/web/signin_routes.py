"""Signing in and out: a one-time link (the banner's, ``hermes open``'s) or the API token, typed in."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Form, Request
from starlette.responses import RedirectResponse, Response

from app.api.auth import token_matches
from app.api.json_body import PolicyRoute
from app.web.access import changer, end_session, signed_in, signins, start_session
from app.web.responses import page

# PolicyRoute: a JSON body sent here instead of a form is judged like any other (app.api.json_body).
router = APIRouter(include_in_schema=False, route_class=PolicyRoute)

# Long enough for any token this server makes or accepts; a longer field is not a token.
MAX_TOKEN_CHARS = 4096


def _home(request: Request, key: str) -> Response:
    response = RedirectResponse("/", status_code=303, headers={"Cache-Control": "no-store"})
    start_session(request, response, key)
    return response


@router.get("/login", name="web-login")
async def login_page(request: Request, code: str | None = None) -> Response:
    """The sign-in form; with ``code``, redeem a one-time link instead (it works once)."""
    if code is not None:
        key = signins(request).redeem(code)
        if key is not None:
            return _home(request, key)
        return page(
            "login.html", status_code=401, problem="This sign-in link was used already or has expired."
        )
    if signed_in(request):
        return RedirectResponse("/", status_code=303)
    return page("login.html", problem=None)


@router.post("/login", name="web-login-token")
async def login_with_token(
    request: Request, token: Annotated[str, Form(max_length=MAX_TOKEN_CHARS)] = ""
) -> Response:
    """Exchange the API token for a browser session; the token itself is never stored in the browser."""
    expected: str | None = request.app.state.api_token
    if expected is not None and not token_matches(token.strip().encode(), expected):
        return page("login.html", status_code=401, problem="That is not this server's API token.")
    return _home(request, signins(request).open_session())


@router.post("/logout", name="web-logout", dependencies=[Depends(changer)])
async def logout(request: Request) -> Response:
    """End the browser's session; htmx then loads the sign-in form."""
    response = Response(status_code=204, headers={"HX-Redirect": "/login"})
    end_session(request, response)
    return response
