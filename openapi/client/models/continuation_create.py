from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.message_create import MessageCreate


T = TypeVar("T", bound="ContinuationCreate")


@_attrs_define
class ContinuationCreate:
    """Body of ``POST /sessions/{id}/continuations`` (all optional).

    Attributes:
        messages (list[MessageCreate] | Unset): The compressed conversation to start from (summary + tail), at most
            1000, each as in POST /sessions/{id}/messages
        system_prompt (None | str | Unset): System prompt of the continuation
    """

    messages: list[MessageCreate] | Unset = UNSET
    system_prompt: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        messages: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.messages, Unset):
            messages = []
            for messages_item_data in self.messages:
                messages_item = messages_item_data.to_dict()
                messages.append(messages_item)

        system_prompt: None | str | Unset
        if isinstance(self.system_prompt, Unset):
            system_prompt = UNSET
        else:
            system_prompt = self.system_prompt

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if messages is not UNSET:
            field_dict["messages"] = messages
        if system_prompt is not UNSET:
            field_dict["system_prompt"] = system_prompt

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.message_create import MessageCreate

        d = dict(src_dict)
        _messages = d.pop("messages", UNSET)
        messages: list[MessageCreate] | Unset = UNSET
        if _messages is not UNSET:
            messages = []
            for messages_item_data in _messages:
                messages_item = MessageCreate.from_dict(messages_item_data)

                messages.append(messages_item)

        def _parse_system_prompt(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        system_prompt = _parse_system_prompt(d.pop("system_prompt", UNSET))

        continuation_create = cls(
            messages=messages,
            system_prompt=system_prompt,
        )

        return continuation_create
