from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.message_create_role import MessageCreateRole
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.message_create_content_type_2 import MessageCreateContentType2
    from ..models.message_create_tool_calls_type_0_item import MessageCreateToolCallsType0Item


T = TypeVar("T", bound="MessageCreate")


@_attrs_define
class MessageCreate:
    """One message to append.

    Attributes:
        role (MessageCreateRole):
        attachments (list[str] | None | Unset): Ids of uploaded attachments to reference
        content (list[Any] | MessageCreateContentType2 | None | str | Unset): Text, or multimodal parts (a list/object
            stored with the agent's JSON encoding)
        finish_reason (None | str | Unset):
        reasoning (None | str | Unset): Assistant only; empty is not stored
        reasoning_content (None | str | Unset): Assistant only; empty is not stored
        reasoning_details (Any | Unset): Assistant only; any JSON
        timestamp (float | None | Unset): Epoch seconds within 0 .. 253402300799 (year 9999); default now (strictly
            increasing)
        token_count (int | None | Unset):
        tool_call_id (None | str | Unset):
        tool_calls (list[MessageCreateToolCallsType0Item] | None | Unset): OpenAI-style tool calls; counted into
            tool_call_count on assistant rows
        tool_name (None | str | Unset):
    """

    role: MessageCreateRole
    attachments: list[str] | None | Unset = UNSET
    content: list[Any] | MessageCreateContentType2 | None | str | Unset = UNSET
    finish_reason: None | str | Unset = UNSET
    reasoning: None | str | Unset = UNSET
    reasoning_content: None | str | Unset = UNSET
    reasoning_details: Any | Unset = UNSET
    timestamp: float | None | Unset = UNSET
    token_count: int | None | Unset = UNSET
    tool_call_id: None | str | Unset = UNSET
    tool_calls: list[MessageCreateToolCallsType0Item] | None | Unset = UNSET
    tool_name: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.message_create_content_type_2 import MessageCreateContentType2

        role = self.role.value

        attachments: list[str] | None | Unset
        if isinstance(self.attachments, Unset):
            attachments = UNSET
        elif isinstance(self.attachments, list):
            attachments = self.attachments

        else:
            attachments = self.attachments

        content: dict[str, Any] | list[Any] | None | str | Unset
        if isinstance(self.content, Unset):
            content = UNSET
        elif isinstance(self.content, list):
            content = self.content

        elif isinstance(self.content, MessageCreateContentType2):
            content = self.content.to_dict()
        else:
            content = self.content

        finish_reason: None | str | Unset
        if isinstance(self.finish_reason, Unset):
            finish_reason = UNSET
        else:
            finish_reason = self.finish_reason

        reasoning: None | str | Unset
        if isinstance(self.reasoning, Unset):
            reasoning = UNSET
        else:
            reasoning = self.reasoning

        reasoning_content: None | str | Unset
        if isinstance(self.reasoning_content, Unset):
            reasoning_content = UNSET
        else:
            reasoning_content = self.reasoning_content

        reasoning_details = self.reasoning_details

        timestamp: float | None | Unset
        if isinstance(self.timestamp, Unset):
            timestamp = UNSET
        else:
            timestamp = self.timestamp

        token_count: int | None | Unset
        if isinstance(self.token_count, Unset):
            token_count = UNSET
        else:
            token_count = self.token_count

        tool_call_id: None | str | Unset
        if isinstance(self.tool_call_id, Unset):
            tool_call_id = UNSET
        else:
            tool_call_id = self.tool_call_id

        tool_calls: list[dict[str, Any]] | None | Unset
        if isinstance(self.tool_calls, Unset):
            tool_calls = UNSET
        elif isinstance(self.tool_calls, list):
            tool_calls = []
            for tool_calls_type_0_item_data in self.tool_calls:
                tool_calls_type_0_item = tool_calls_type_0_item_data.to_dict()
                tool_calls.append(tool_calls_type_0_item)

        else:
            tool_calls = self.tool_calls

        tool_name: None | str | Unset
        if isinstance(self.tool_name, Unset):
            tool_name = UNSET
        else:
            tool_name = self.tool_name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "role": role,
            }
        )
        if attachments is not UNSET:
            field_dict["attachments"] = attachments
        if content is not UNSET:
            field_dict["content"] = content
        if finish_reason is not UNSET:
            field_dict["finish_reason"] = finish_reason
        if reasoning is not UNSET:
            field_dict["reasoning"] = reasoning
        if reasoning_content is not UNSET:
            field_dict["reasoning_content"] = reasoning_content
        if reasoning_details is not UNSET:
            field_dict["reasoning_details"] = reasoning_details
        if timestamp is not UNSET:
            field_dict["timestamp"] = timestamp
        if token_count is not UNSET:
            field_dict["token_count"] = token_count
        if tool_call_id is not UNSET:
            field_dict["tool_call_id"] = tool_call_id
        if tool_calls is not UNSET:
            field_dict["tool_calls"] = tool_calls
        if tool_name is not UNSET:
            field_dict["tool_name"] = tool_name

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.message_create_content_type_2 import MessageCreateContentType2
        from ..models.message_create_tool_calls_type_0_item import MessageCreateToolCallsType0Item

        d = dict(src_dict)
        role = MessageCreateRole(d.pop("role"))

        def _parse_attachments(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                attachments_type_0 = cast(list[str], data)

                return attachments_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        attachments = _parse_attachments(d.pop("attachments", UNSET))

        def _parse_content(data: object) -> list[Any] | MessageCreateContentType2 | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                content_type_1 = cast(list[Any], data)

                return content_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                content_type_2 = MessageCreateContentType2.from_dict(data)

                return content_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[Any] | MessageCreateContentType2 | None | str | Unset, data)

        content = _parse_content(d.pop("content", UNSET))

        def _parse_finish_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        finish_reason = _parse_finish_reason(d.pop("finish_reason", UNSET))

        def _parse_reasoning(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reasoning = _parse_reasoning(d.pop("reasoning", UNSET))

        def _parse_reasoning_content(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reasoning_content = _parse_reasoning_content(d.pop("reasoning_content", UNSET))

        reasoning_details = d.pop("reasoning_details", UNSET)

        def _parse_timestamp(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        timestamp = _parse_timestamp(d.pop("timestamp", UNSET))

        def _parse_token_count(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        token_count = _parse_token_count(d.pop("token_count", UNSET))

        def _parse_tool_call_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        tool_call_id = _parse_tool_call_id(d.pop("tool_call_id", UNSET))

        def _parse_tool_calls(data: object) -> list[MessageCreateToolCallsType0Item] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                tool_calls_type_0 = []
                _tool_calls_type_0 = data
                for tool_calls_type_0_item_data in _tool_calls_type_0:
                    tool_calls_type_0_item = MessageCreateToolCallsType0Item.from_dict(
                        tool_calls_type_0_item_data
                    )

                    tool_calls_type_0.append(tool_calls_type_0_item)

                return tool_calls_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[MessageCreateToolCallsType0Item] | None | Unset, data)

        tool_calls = _parse_tool_calls(d.pop("tool_calls", UNSET))

        def _parse_tool_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        tool_name = _parse_tool_name(d.pop("tool_name", UNSET))

        message_create = cls(
            role=role,
            attachments=attachments,
            content=content,
            finish_reason=finish_reason,
            reasoning=reasoning,
            reasoning_content=reasoning_content,
            reasoning_details=reasoning_details,
            timestamp=timestamp,
            token_count=token_count,
            tool_call_id=tool_call_id,
            tool_calls=tool_calls,
            tool_name=tool_name,
        )

        return message_create
