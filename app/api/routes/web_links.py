"""``POST /web/sign-in-links``: a one-time link signing a browser in to the web page (``hermes open``)."""

from __future__ import annotations

from app.api.deps import WebSignIns
from app.api.error_docs import AUTH, EDGE
from app.api.operations import api_router, operation
from app.api.schemas.web import SignInLink
from app.web.signin import CODE_TTL_S

router = api_router("web")


@router.post(
    "/web/sign-in-links",
    **operation("web-sign-in-link", "Make a one-time sign-in link for the web page", SignInLink, AUTH, EDGE),
)
async def make_sign_in_link(signins: WebSignIns) -> SignInLink:
    """A link that signs a browser in to the page at ``/`` once, within 15 minutes. The bearer token is
    what proves the caller may read everything; the link carries a single-use code, never the token."""
    return SignInLink(path=f"/login?code={signins.mint_code()}", expires_in=CODE_TTL_S)
