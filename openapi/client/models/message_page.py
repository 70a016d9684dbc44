from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.message_public import MessagePublic


T = TypeVar("T", bound="MessagePage")


@_attrs_define
class MessagePage:
    """A page of messages in id order.

    Attributes:
        has_more (bool):
        items (list[MessagePublic]):
        next_cursor (None | str):
        anchor_id (int | None | Unset): With around: the anchor message id
        messages_after (int | None | Unset): With around: neighbours returned after
        messages_before (int | None | Unset): With around: neighbours returned before
    """

    has_more: bool
    items: list[MessagePublic]
    next_cursor: None | str
    anchor_id: int | None | Unset = UNSET
    messages_after: int | None | Unset = UNSET
    messages_before: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        has_more = self.has_more

        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)

        next_cursor: None | str
        next_cursor = self.next_cursor

        anchor_id: int | None | Unset
        if isinstance(self.anchor_id, Unset):
            anchor_id = UNSET
        else:
            anchor_id = self.anchor_id

        messages_after: int | None | Unset
        if isinstance(self.messages_after, Unset):
            messages_after = UNSET
        else:
            messages_after = self.messages_after

        messages_before: int | None | Unset
        if isinstance(self.messages_before, Unset):
            messages_before = UNSET
        else:
            messages_before = self.messages_before

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "has_more": has_more,
                "items": items,
                "next_cursor": next_cursor,
            }
        )
        if anchor_id is not UNSET:
            field_dict["anchor_id"] = anchor_id
        if messages_after is not UNSET:
            field_dict["messages_after"] = messages_after
        if messages_before is not UNSET:
            field_dict["messages_before"] = messages_before

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.message_public import MessagePublic

        d = dict(src_dict)
        has_more = d.pop("has_more")

        items = []
        _items = d.pop("items")
        for items_item_data in _items:
            items_item = MessagePublic.from_dict(items_item_data)

            items.append(items_item)

        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("next_cursor"))

        def _parse_anchor_id(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        anchor_id = _parse_anchor_id(d.pop("anchor_id", UNSET))

        def _parse_messages_after(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        messages_after = _parse_messages_after(d.pop("messages_after", UNSET))

        def _parse_messages_before(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        messages_before = _parse_messages_before(d.pop("messages_before", UNSET))

        message_page = cls(
            has_more=has_more,
            items=items,
            next_cursor=next_cursor,
            anchor_id=anchor_id,
            messages_after=messages_after,
            messages_before=messages_before,
        )

        message_page.additional_properties = d
        return message_page

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
