from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.unrenderable_detail_reason import UnrenderableDetailReason

T = TypeVar("T", bound="UnrenderableDetail")


@_attrs_define
class UnrenderableDetail:
    """Why a stored value is not rendered, and the stored text itself.

    Attributes:
        raw (str): The stored JSON text, unchanged
        reason (UnrenderableDetailReason):
    """

    raw: str
    reason: UnrenderableDetailReason
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        raw = self.raw

        reason = self.reason.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "raw": raw,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        raw = d.pop("raw")

        reason = UnrenderableDetailReason(d.pop("reason"))

        unrenderable_detail = cls(
            raw=raw,
            reason=reason,
        )

        unrenderable_detail.additional_properties = d
        return unrenderable_detail

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
