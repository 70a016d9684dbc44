from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="RouteKey")


@_attrs_define
class RouteKey:
    """``POST /gateway/route/suspend``: a routed chat.

    Attributes:
        session_key (str):
    """

    session_key: str

    def to_dict(self) -> dict[str, Any]:
        session_key = self.session_key

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "session_key": session_key,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        session_key = d.pop("session_key")

        route_key = cls(
            session_key=session_key,
        )

        return route_key
