from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="RouteSwitch")


@_attrs_define
class RouteSwitch:
    """``POST /gateway/route/switch``: ``/resume <ref>``.

    Attributes:
        ref (str): Id, id prefix or title
        session_key (str):
    """

    ref: str
    session_key: str

    def to_dict(self) -> dict[str, Any]:
        ref = self.ref

        session_key = self.session_key

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "ref": ref,
                "session_key": session_key,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        ref = d.pop("ref")

        session_key = d.pop("session_key")

        route_switch = cls(
            ref=ref,
            session_key=session_key,
        )

        return route_switch
