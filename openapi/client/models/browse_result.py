from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="BrowseResult")


@_attrs_define
class BrowseResult:
    """A recently active root session.

    Attributes:
        last_active (float | None):
        message_count (int):
        preview (str):
        session_id (str):
        source (None | str):
        started_at (float | None):
        title (None | str):
    """

    last_active: float | None
    message_count: int
    preview: str
    session_id: str
    source: None | str
    started_at: float | None
    title: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        last_active: float | None
        last_active = self.last_active

        message_count = self.message_count

        preview = self.preview

        session_id = self.session_id

        source: None | str
        source = self.source

        started_at: float | None
        started_at = self.started_at

        title: None | str
        title = self.title

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "last_active": last_active,
                "message_count": message_count,
                "preview": preview,
                "session_id": session_id,
                "source": source,
                "started_at": started_at,
                "title": title,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_last_active(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        last_active = _parse_last_active(d.pop("last_active"))

        message_count = d.pop("message_count")

        preview = d.pop("preview")

        session_id = d.pop("session_id")

        def _parse_source(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        source = _parse_source(d.pop("source"))

        def _parse_started_at(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        started_at = _parse_started_at(d.pop("started_at"))

        def _parse_title(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        title = _parse_title(d.pop("title"))

        browse_result = cls(
            last_active=last_active,
            message_count=message_count,
            preview=preview,
            session_id=session_id,
            source=source,
            started_at=started_at,
            title=title,
        )

        browse_result.additional_properties = d
        return browse_result

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
