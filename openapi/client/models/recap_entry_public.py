from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.recap_entry_public_role import RecapEntryPublicRole

T = TypeVar("T", bound="RecapEntryPublic")


@_attrs_define
class RecapEntryPublic:
    """One recap line.

    Attributes:
        role (RecapEntryPublicRole):
        text (str):
    """

    role: RecapEntryPublicRole
    text: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        role = self.role.value

        text = self.text

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "role": role,
                "text": text,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        role = RecapEntryPublicRole(d.pop("role"))

        text = d.pop("text")

        recap_entry_public = cls(
            role=role,
            text=text,
        )

        recap_entry_public.additional_properties = d
        return recap_entry_public

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
