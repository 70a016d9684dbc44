from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="HandoffRequest")


@_attrs_define
class HandoffRequest:
    """``POST /handoff``.

    Attributes:
        platform (str):
        session_id (str):
        busy (bool | Unset): The requesting agent is mid-turn: refuse with 409 agent_busy (the server cannot know)
            Default: False.
    """

    platform: str
    session_id: str
    busy: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        platform = self.platform

        session_id = self.session_id

        busy = self.busy

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "platform": platform,
                "session_id": session_id,
            }
        )
        if busy is not UNSET:
            field_dict["busy"] = busy

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        platform = d.pop("platform")

        session_id = d.pop("session_id")

        busy = d.pop("busy", UNSET)

        handoff_request = cls(
            platform=platform,
            session_id=session_id,
            busy=busy,
        )

        return handoff_request
