from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.attachment_ref import AttachmentRef
    from ..models.unrenderable import Unrenderable


T = TypeVar("T", bound="MessagePublic")


@_attrs_define
class MessagePublic:
    """A stored message.

    Attributes:
        active (bool): False once rewound or compacted away
        attachments (list[AttachmentRef]):
        compacted (bool): True when archived by in-place compaction (still searchable)
        content (Any): Text, multimodal parts, or null; the unrenderable marker when the stored value cannot be rendered
        finish_reason (None | str):
        id (int):
        reasoning (None | str):
        reasoning_content (None | str):
        role (str):
        session_id (str):
        timestamp (float):
        token_count (int | None):
        tool_call_id (None | str):
        tool_calls (list[Any] | None | Unrenderable): Tool calls; the unrenderable marker when the stored value cannot
            be rendered
        tool_name (None | str):
        reasoning_details (Any | Unset): Any JSON; the unrenderable marker when the stored value cannot be rendered
    """

    active: bool
    attachments: list[AttachmentRef]
    compacted: bool
    content: Any
    finish_reason: None | str
    id: int
    reasoning: None | str
    reasoning_content: None | str
    role: str
    session_id: str
    timestamp: float
    token_count: int | None
    tool_call_id: None | str
    tool_calls: list[Any] | None | Unrenderable
    tool_name: None | str
    reasoning_details: Any | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.unrenderable import Unrenderable

        active = self.active

        attachments = []
        for attachments_item_data in self.attachments:
            attachments_item = attachments_item_data.to_dict()
            attachments.append(attachments_item)

        compacted = self.compacted

        content = self.content

        finish_reason: None | str
        finish_reason = self.finish_reason

        id = self.id

        reasoning: None | str
        reasoning = self.reasoning

        reasoning_content: None | str
        reasoning_content = self.reasoning_content

        role = self.role

        session_id = self.session_id

        timestamp = self.timestamp

        token_count: int | None
        token_count = self.token_count

        tool_call_id: None | str
        tool_call_id = self.tool_call_id

        tool_calls: dict[str, Any] | list[Any] | None
        if isinstance(self.tool_calls, list):
            tool_calls = self.tool_calls

        elif isinstance(self.tool_calls, Unrenderable):
            tool_calls = self.tool_calls.to_dict()
        else:
            tool_calls = self.tool_calls

        tool_name: None | str
        tool_name = self.tool_name

        reasoning_details = self.reasoning_details

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "active": active,
                "attachments": attachments,
                "compacted": compacted,
                "content": content,
                "finish_reason": finish_reason,
                "id": id,
                "reasoning": reasoning,
                "reasoning_content": reasoning_content,
                "role": role,
                "session_id": session_id,
                "timestamp": timestamp,
                "token_count": token_count,
                "tool_call_id": tool_call_id,
                "tool_calls": tool_calls,
                "tool_name": tool_name,
            }
        )
        if reasoning_details is not UNSET:
            field_dict["reasoning_details"] = reasoning_details

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.attachment_ref import AttachmentRef
        from ..models.unrenderable import Unrenderable

        d = dict(src_dict)
        active = d.pop("active")

        attachments = []
        _attachments = d.pop("attachments")
        for attachments_item_data in _attachments:
            attachments_item = AttachmentRef.from_dict(attachments_item_data)

            attachments.append(attachments_item)

        compacted = d.pop("compacted")

        content = d.pop("content")

        def _parse_finish_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        finish_reason = _parse_finish_reason(d.pop("finish_reason"))

        id = d.pop("id")

        def _parse_reasoning(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reasoning = _parse_reasoning(d.pop("reasoning"))

        def _parse_reasoning_content(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reasoning_content = _parse_reasoning_content(d.pop("reasoning_content"))

        role = d.pop("role")

        session_id = d.pop("session_id")

        timestamp = d.pop("timestamp")

        def _parse_token_count(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        token_count = _parse_token_count(d.pop("token_count"))

        def _parse_tool_call_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        tool_call_id = _parse_tool_call_id(d.pop("tool_call_id"))

        def _parse_tool_calls(data: object) -> list[Any] | None | Unrenderable:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                tool_calls_type_0 = cast(list[Any], data)

                return tool_calls_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                tool_calls_type_1 = Unrenderable.from_dict(data)

                return tool_calls_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[Any] | None | Unrenderable, data)

        tool_calls = _parse_tool_calls(d.pop("tool_calls"))

        def _parse_tool_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        tool_name = _parse_tool_name(d.pop("tool_name"))

        reasoning_details = d.pop("reasoning_details", UNSET)

        message_public = cls(
            active=active,
            attachments=attachments,
            compacted=compacted,
            content=content,
            finish_reason=finish_reason,
            id=id,
            reasoning=reasoning,
            reasoning_content=reasoning_content,
            role=role,
            session_id=session_id,
            timestamp=timestamp,
            token_count=token_count,
            tool_call_id=tool_call_id,
            tool_calls=tool_calls,
            tool_name=tool_name,
            reasoning_details=reasoning_details,
        )

        message_public.additional_properties = d
        return message_public

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
