"""The web page's one JSON operation: a one-time sign-in link for ``hermes open``."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class SignInLink(BaseModel):
    """A link that signs one browser in to the web page, once."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"path": "/login?code=Jx2v0bq6c7l1o5mYk3WZ3o9Qf1r4s8tU", "expires_in": 900}]
        }
    )

    path: str = Field(description="Path and query of the link, on this server (append it to the base URL)")
    expires_in: int = Field(description="Seconds until the link stops working; it works only once")
