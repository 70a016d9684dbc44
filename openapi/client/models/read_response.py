from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.search_message import SearchMessage
    from ..models.session_meta import SessionMeta


T = TypeVar("T", bound="ReadResponse")


@_attrs_define
class ReadResponse:
    """``session_id`` alone: every message, or the first 20 and last 10 of longer sessions.

    Attributes:
        message_count (int):
        messages (list[SearchMessage]):
        mode (Literal['read']):
        session_id (str):
        session_meta (SessionMeta): The session a scroll or read shows.
        truncated (bool):
        message (None | str | Unset):
    """

    message_count: int
    messages: list[SearchMessage]
    mode: Literal["read"]
    session_id: str
    session_meta: SessionMeta
    truncated: bool
    message: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        message_count = self.message_count

        messages = []
        for messages_item_data in self.messages:
            messages_item = messages_item_data.to_dict()
            messages.append(messages_item)

        mode = self.mode

        session_id = self.session_id

        session_meta = self.session_meta.to_dict()

        truncated = self.truncated

        message: None | str | Unset
        if isinstance(self.message, Unset):
            message = UNSET
        else:
            message = self.message

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "message_count": message_count,
                "messages": messages,
                "mode": mode,
                "session_id": session_id,
                "session_meta": session_meta,
                "truncated": truncated,
            }
        )
        if message is not UNSET:
            field_dict["message"] = message

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.search_message import SearchMessage
        from ..models.session_meta import SessionMeta

        d = dict(src_dict)
        message_count = d.pop("message_count")

        messages = []
        _messages = d.pop("messages")
        for messages_item_data in _messages:
            messages_item = SearchMessage.from_dict(messages_item_data)

            messages.append(messages_item)

        mode = cast(Literal["read"], d.pop("mode"))
        if mode != "read":
            raise ValueError(f"mode must match const 'read', got '{mode}'")

        session_id = d.pop("session_id")

        session_meta = SessionMeta.from_dict(d.pop("session_meta"))

        truncated = d.pop("truncated")

        def _parse_message(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        message = _parse_message(d.pop("message", UNSET))

        read_response = cls(
            message_count=message_count,
            messages=messages,
            mode=mode,
            session_id=session_id,
            session_meta=session_meta,
            truncated=truncated,
            message=message,
        )

        read_response.additional_properties = d
        return read_response

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
