"""Path parameters shared by several routes, described for the integrators who read the OpenAPI document."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path

SessionId = Annotated[
    str,
    Path(
        description="A session id, exactly as stored (e.g. `20260105_101500_a1b2c3`); "
        "`GET /sessions/resolve` turns a prefix or a title into one"
    ),
]
