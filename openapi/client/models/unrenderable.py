from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.unrenderable_detail import UnrenderableDetail


T = TypeVar("T", bound="Unrenderable")


@_attrs_define
class Unrenderable:
    """Stands in for a stored value (written by another writer) that JSON responses cannot carry: nested
    deeper than 200 levels, an integer beyond 64 bits, or text that decodes to a lone surrogate.

        Attributes:
            unrenderable (UnrenderableDetail): Why a stored value is not rendered, and the stored text itself.
    """

    unrenderable: UnrenderableDetail
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        unrenderable = self.unrenderable.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "unrenderable": unrenderable,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.unrenderable_detail import UnrenderableDetail

        d = dict(src_dict)
        unrenderable = UnrenderableDetail.from_dict(d.pop("unrenderable"))

        unrenderable = cls(
            unrenderable=unrenderable,
        )

        unrenderable.additional_properties = d
        return unrenderable

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
