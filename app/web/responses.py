"""How the page answers: HTML with a strict Content-Security-Policy, never cached."""

from __future__ import annotations

from typing import Any

from starlette.responses import HTMLResponse, Response

from app.web.templating import render

# No inline script or style can run even if some text slipped through unescaped; no framing (clickjacking).
CSP = "default-src 'self'; frame-ancestors 'none'"
PAGE_HEADERS = {
    "Content-Security-Policy": CSP,
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


def page(
    template: str, status_code: int = 200, headers: dict[str, str] | None = None, **values: Any
) -> Response:
    """``template`` rendered with ``values`` as an HTML response carrying the page headers."""
    return html_response(render(template, **values), status_code, headers)


def html_response(html: str, status_code: int = 200, headers: dict[str, str] | None = None) -> Response:
    """``html`` as a response carrying the page headers."""
    return HTMLResponse(html, status_code=status_code, headers={**PAGE_HEADERS, **(headers or {})})
