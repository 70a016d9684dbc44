from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="IndexingStatus")


@_attrs_define
class IndexingStatus:
    """Deferred full-text indexing of bulk imports (in `GET /stats`, and in search while non-zero).

    Attributes:
        pending_messages (int): imported messages still waiting for the background indexer (an upper bound: messages
            deleted or edited meanwhile still count); search and the agent's own search miss them until then
    """

    pending_messages: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        pending_messages = self.pending_messages

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "pending_messages": pending_messages,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        pending_messages = d.pop("pending_messages")

        indexing_status = cls(
            pending_messages=pending_messages,
        )

        indexing_status.additional_properties = d
        return indexing_status

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
