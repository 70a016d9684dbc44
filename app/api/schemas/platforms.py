"""Request and response models of gateway platform settings."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from app.api.schemas import examples as ex
from app.api.schemas.common import RequestModel, SafeText


class HomeChannel(RequestModel):
    """The chat a platform's handoffs land in (``/sethome`` sets it)."""

    chat_id: SafeText = Field(min_length=1, max_length=256)
    name: SafeText | None = Field(default=None, max_length=256, description="Display name of the chat")


class PlatformUpdate(RequestModel):
    """``PUT /platforms/{platform}``: the platform's complete settings."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.PLATFORM_UPDATE]})

    enabled: bool
    home_channel: HomeChannel | None = None
    threads: bool = Field(default=False, description="Create a dedicated thread per handed-off session")


class PlatformPublic(BaseModel):
    """A platform's gateway settings."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.PLATFORM]})

    platform: str
    enabled: bool
    home_channel: HomeChannel | None
    threads: bool
    updated_at: float | None = Field(description="Last change; null when never configured")


class PlatformList(BaseModel):
    """Every known messaging platform, configured or not."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.PLATFORM_LIST]})

    items: list[PlatformPublic]
