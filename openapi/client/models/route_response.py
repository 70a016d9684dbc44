from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.route_response_entry import RouteResponseEntry


T = TypeVar("T", bound="RouteResponse")


@_attrs_define
class RouteResponse:
    """Where the message goes.

    Attributes:
        created (bool):
        entry (RouteResponseEntry):
        notice (None | str):
        reset_reason (None | str):
        session_id (str):
        session_key (str):
    """

    created: bool
    entry: RouteResponseEntry
    notice: None | str
    reset_reason: None | str
    session_id: str
    session_key: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created = self.created

        entry = self.entry.to_dict()

        notice: None | str
        notice = self.notice

        reset_reason: None | str
        reset_reason = self.reset_reason

        session_id = self.session_id

        session_key = self.session_key

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created": created,
                "entry": entry,
                "notice": notice,
                "reset_reason": reset_reason,
                "session_id": session_id,
                "session_key": session_key,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.route_response_entry import RouteResponseEntry

        d = dict(src_dict)
        created = d.pop("created")

        entry = RouteResponseEntry.from_dict(d.pop("entry"))

        def _parse_notice(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        notice = _parse_notice(d.pop("notice"))

        def _parse_reset_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reset_reason = _parse_reset_reason(d.pop("reset_reason"))

        session_id = d.pop("session_id")

        session_key = d.pop("session_key")

        route_response = cls(
            created=created,
            entry=entry,
            notice=notice,
            reset_reason=reset_reason,
            session_id=session_id,
            session_key=session_key,
        )

        route_response.additional_properties = d
        return route_response

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
