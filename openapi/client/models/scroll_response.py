from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.search_message import SearchMessage
    from ..models.session_meta import SessionMeta


T = TypeVar("T", bound="ScrollResponse")


@_attrs_define
class ScrollResponse:
    """``session_id`` + ``around_message_id``: a window, no bookends.

    Attributes:
        around_message_id (int):
        messages (list[SearchMessage]):
        messages_after (int):
        messages_before (int):
        mode (Literal['scroll']):
        session_id (str):
        session_meta (SessionMeta): The session a scroll or read shows.
        window (int):
        warning (None | str | Unset): Set when the anchor's session was rebound
    """

    around_message_id: int
    messages: list[SearchMessage]
    messages_after: int
    messages_before: int
    mode: Literal["scroll"]
    session_id: str
    session_meta: SessionMeta
    window: int
    warning: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        around_message_id = self.around_message_id

        messages = []
        for messages_item_data in self.messages:
            messages_item = messages_item_data.to_dict()
            messages.append(messages_item)

        messages_after = self.messages_after

        messages_before = self.messages_before

        mode = self.mode

        session_id = self.session_id

        session_meta = self.session_meta.to_dict()

        window = self.window

        warning: None | str | Unset
        if isinstance(self.warning, Unset):
            warning = UNSET
        else:
            warning = self.warning

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "around_message_id": around_message_id,
                "messages": messages,
                "messages_after": messages_after,
                "messages_before": messages_before,
                "mode": mode,
                "session_id": session_id,
                "session_meta": session_meta,
                "window": window,
            }
        )
        if warning is not UNSET:
            field_dict["warning"] = warning

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.search_message import SearchMessage
        from ..models.session_meta import SessionMeta

        d = dict(src_dict)
        around_message_id = d.pop("around_message_id")

        messages = []
        _messages = d.pop("messages")
        for messages_item_data in _messages:
            messages_item = SearchMessage.from_dict(messages_item_data)

            messages.append(messages_item)

        messages_after = d.pop("messages_after")

        messages_before = d.pop("messages_before")

        mode = cast(Literal["scroll"], d.pop("mode"))
        if mode != "scroll":
            raise ValueError(f"mode must match const 'scroll', got '{mode}'")

        session_id = d.pop("session_id")

        session_meta = SessionMeta.from_dict(d.pop("session_meta"))

        window = d.pop("window")

        def _parse_warning(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        warning = _parse_warning(d.pop("warning", UNSET))

        scroll_response = cls(
            around_message_id=around_message_id,
            messages=messages,
            messages_after=messages_after,
            messages_before=messages_before,
            mode=mode,
            session_id=session_id,
            session_meta=session_meta,
            window=window,
            warning=warning,
        )

        scroll_response.additional_properties = d
        return scroll_response

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
