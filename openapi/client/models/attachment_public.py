from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="AttachmentPublic")


@_attrs_define
class AttachmentPublic:
    """A stored attachment.

    Attributes:
        filename (None | str):
        id (str):
        media_type (str):
        path (str): Relative to HERMES_HOME: attachments/<sha[:2]>/<sha>
        sha256 (str):
        size (int):
        extracted_text (None | str | Unset): Only for text/* and application/json
    """

    filename: None | str
    id: str
    media_type: str
    path: str
    sha256: str
    size: int
    extracted_text: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        filename: None | str
        filename = self.filename

        id = self.id

        media_type = self.media_type

        path = self.path

        sha256 = self.sha256

        size = self.size

        extracted_text: None | str | Unset
        if isinstance(self.extracted_text, Unset):
            extracted_text = UNSET
        else:
            extracted_text = self.extracted_text

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "filename": filename,
                "id": id,
                "media_type": media_type,
                "path": path,
                "sha256": sha256,
                "size": size,
            }
        )
        if extracted_text is not UNSET:
            field_dict["extracted_text"] = extracted_text

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

        path = d.pop("path")

        sha256 = d.pop("sha256")

        size = d.pop("size")

        def _parse_extracted_text(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        extracted_text = _parse_extracted_text(d.pop("extracted_text", UNSET))

        attachment_public = cls(
            filename=filename,
            id=id,
            media_type=media_type,
            path=path,
            sha256=sha256,
            size=size,
            extracted_text=extracted_text,
        )

        attachment_public.additional_properties = d
        return attachment_public

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
