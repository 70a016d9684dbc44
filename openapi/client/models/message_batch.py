from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.message_create import MessageCreate


T = TypeVar("T", bound="MessageBatch")


@_attrs_define
class MessageBatch:
    """Several messages appended in one transaction (all or nothing).

    Attributes:
        messages (list[MessageCreate]):
    """

    messages: list[MessageCreate]

    def to_dict(self) -> dict[str, Any]:
        messages = []
        for messages_item_data in self.messages:
            messages_item = messages_item_data.to_dict()
            messages.append(messages_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "messages": messages,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.message_create import MessageCreate

        d = dict(src_dict)
        messages = []
        _messages = d.pop("messages")
        for messages_item_data in _messages:
            messages_item = MessageCreate.from_dict(messages_item_data)

            messages.append(messages_item)

        message_batch = cls(
            messages=messages,
        )

        return message_batch
