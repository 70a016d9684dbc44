from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.unrenderable import Unrenderable


T = TypeVar("T", bound="SearchMessage")


@_attrs_define
class SearchMessage:
    """A message inside a search result (tool fields only when set).

    Attributes:
        content (Any): Text (or multimodal parts); may be empty, never absent
        id (int):
        role (str):
        timestamp (float):
        anchor (bool | None | Unset): True on the anchor / matching message
        content_truncated (bool | None | Unset): detail=adaptive cut the content
        original_content_chars (int | None | Unset):
        tool_call_id (None | str | Unset):
        tool_calls (list[Any] | None | Unrenderable | Unset): Tool calls; the unrenderable marker when the stored value
            cannot be rendered
        tool_name (None | str | Unset):
    """

    content: Any
    id: int
    role: str
    timestamp: float
    anchor: bool | None | Unset = UNSET
    content_truncated: bool | None | Unset = UNSET
    original_content_chars: int | None | Unset = UNSET
    tool_call_id: None | str | Unset = UNSET
    tool_calls: list[Any] | None | Unrenderable | Unset = UNSET
    tool_name: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.unrenderable import Unrenderable

        content = self.content

        id = self.id

        role = self.role

        timestamp = self.timestamp

        anchor: bool | None | Unset
        if isinstance(self.anchor, Unset):
            anchor = UNSET
        else:
            anchor = self.anchor

        content_truncated: bool | None | Unset
        if isinstance(self.content_truncated, Unset):
            content_truncated = UNSET
        else:
            content_truncated = self.content_truncated

        original_content_chars: int | None | Unset
        if isinstance(self.original_content_chars, Unset):
            original_content_chars = UNSET
        else:
            original_content_chars = self.original_content_chars

        tool_call_id: None | str | Unset
        if isinstance(self.tool_call_id, Unset):
            tool_call_id = UNSET
        else:
            tool_call_id = self.tool_call_id

        tool_calls: dict[str, Any] | list[Any] | None | Unset
        if isinstance(self.tool_calls, Unset):
            tool_calls = UNSET
        elif isinstance(self.tool_calls, list):
            tool_calls = self.tool_calls

        elif isinstance(self.tool_calls, Unrenderable):
            tool_calls = self.tool_calls.to_dict()
        else:
            tool_calls = self.tool_calls

        tool_name: None | str | Unset
        if isinstance(self.tool_name, Unset):
            tool_name = UNSET
        else:
            tool_name = self.tool_name

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "content": content,
                "id": id,
                "role": role,
                "timestamp": timestamp,
            }
        )
        if anchor is not UNSET:
            field_dict["anchor"] = anchor
        if content_truncated is not UNSET:
            field_dict["content_truncated"] = content_truncated
        if original_content_chars is not UNSET:
            field_dict["original_content_chars"] = original_content_chars
        if tool_call_id is not UNSET:
            field_dict["tool_call_id"] = tool_call_id
        if tool_calls is not UNSET:
            field_dict["tool_calls"] = tool_calls
        if tool_name is not UNSET:
            field_dict["tool_name"] = tool_name

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.unrenderable import Unrenderable

        d = dict(src_dict)
        content = d.pop("content")

        id = d.pop("id")

        role = d.pop("role")

        timestamp = d.pop("timestamp")

        def _parse_anchor(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        anchor = _parse_anchor(d.pop("anchor", UNSET))

        def _parse_content_truncated(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        content_truncated = _parse_content_truncated(d.pop("content_truncated", UNSET))

        def _parse_original_content_chars(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        original_content_chars = _parse_original_content_chars(d.pop("original_content_chars", UNSET))

        def _parse_tool_call_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        tool_call_id = _parse_tool_call_id(d.pop("tool_call_id", UNSET))

        def _parse_tool_calls(data: object) -> list[Any] | None | Unrenderable | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
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
            return cast(list[Any] | None | Unrenderable | Unset, data)

        tool_calls = _parse_tool_calls(d.pop("tool_calls", UNSET))

        def _parse_tool_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        tool_name = _parse_tool_name(d.pop("tool_name", UNSET))

        search_message = cls(
            content=content,
            id=id,
            role=role,
            timestamp=timestamp,
            anchor=anchor,
            content_truncated=content_truncated,
            original_content_chars=original_content_chars,
            tool_call_id=tool_call_id,
            tool_calls=tool_calls,
            tool_name=tool_name,
        )

        search_message.additional_properties = d
        return search_message

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
