from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="RouteReset")


@_attrs_define
class RouteReset:
    """``POST /gateway/route/reset``: ``/new [title]``.

    Attributes:
        session_key (str):
        title (None | str | Unset):
    """

    session_key: str
    title: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        session_key = self.session_key

        title: None | str | Unset
        if isinstance(self.title, Unset):
            title = UNSET
        else:
            title = self.title

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "session_key": session_key,
            }
        )
        if title is not UNSET:
            field_dict["title"] = title

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        session_key = d.pop("session_key")

        def _parse_title(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))

        route_reset = cls(
            session_key=session_key,
            title=title,
        )

        return route_reset
