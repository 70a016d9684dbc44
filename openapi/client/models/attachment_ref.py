from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AttachmentRef")


@_attrs_define
class AttachmentRef:
    """An attachment referenced by a message.

    Attributes:
        filename (None | str):
        id (str):
        media_type (str):
        sha256 (str):
        size (int):
    """

    filename: None | str
    id: str
    media_type: str
    sha256: str
    size: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        filename: None | str
        filename = self.filename

        id = self.id

        media_type = self.media_type

        sha256 = self.sha256

        size = self.size

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "filename": filename,
                "id": id,
                "media_type": media_type,
                "sha256": sha256,
                "size": size,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_filename(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        filename = _parse_filename(d.pop("filename"))

        id = d.pop("id")

        media_type = d.pop("media_type")

        sha256 = d.pop("sha256")

        size = d.pop("size")

        attachment_ref = cls(
            filename=filename,
            id=id,
            media_type=media_type,
            sha256=sha256,
            size=size,
        )

        attachment_ref.additional_properties = d
        return attachment_ref

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
