from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.search_message import SearchMessage


T = TypeVar("T", bound="DiscoverResult")


@_attrs_define
class DiscoverResult:
    """The best hit of one lineage, with its window and the session's bookends.

    Attributes:
        bookend_end (list[SearchMessage]): ≤3 last user/assistant messages after the window
        bookend_start (list[SearchMessage]): ≤3 first user/assistant messages before the window
        match_message_id (int):
        matched_role (str):
        messages (list[SearchMessage]): ±window around the hit; the hit has anchor=true
        messages_after (int):
        messages_before (int):
        model (None | str):
        session_id (str): The session holding the hit
        snippet (str): Matched text marked >>>like this<<<
        source (None | str):
        started_at (float | None):
        title (None | str):
        parent_session_id (None | str | Unset): Lineage root, when not session_id
    """

    bookend_end: list[SearchMessage]
    bookend_start: list[SearchMessage]
    match_message_id: int
    matched_role: str
    messages: list[SearchMessage]
    messages_after: int
    messages_before: int
    model: None | str
    session_id: str
    snippet: str
    source: None | str
    started_at: float | None
    title: None | str
    parent_session_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        bookend_end = []
        for bookend_end_item_data in self.bookend_end:
            bookend_end_item = bookend_end_item_data.to_dict()
            bookend_end.append(bookend_end_item)

        bookend_start = []
        for bookend_start_item_data in self.bookend_start:
            bookend_start_item = bookend_start_item_data.to_dict()
            bookend_start.append(bookend_start_item)

        match_message_id = self.match_message_id

        matched_role = self.matched_role

        messages = []
        for messages_item_data in self.messages:
            messages_item = messages_item_data.to_dict()
            messages.append(messages_item)

        messages_after = self.messages_after

        messages_before = self.messages_before

        model: None | str
        model = self.model

        session_id = self.session_id

        snippet = self.snippet

        source: None | str
        source = self.source

        started_at: float | None
        started_at = self.started_at

        title: None | str
        title = self.title

        parent_session_id: None | str | Unset
        if isinstance(self.parent_session_id, Unset):
            parent_session_id = UNSET
        else:
            parent_session_id = self.parent_session_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "bookend_end": bookend_end,
                "bookend_start": bookend_start,
                "match_message_id": match_message_id,
                "matched_role": matched_role,
                "messages": messages,
                "messages_after": messages_after,
                "messages_before": messages_before,
                "model": model,
                "session_id": session_id,
                "snippet": snippet,
                "source": source,
                "started_at": started_at,
                "title": title,
            }
        )
        if parent_session_id is not UNSET:
            field_dict["parent_session_id"] = parent_session_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.search_message import SearchMessage

        d = dict(src_dict)
        bookend_end = []
        _bookend_end = d.pop("bookend_end")
        for bookend_end_item_data in _bookend_end:
            bookend_end_item = SearchMessage.from_dict(bookend_end_item_data)

            bookend_end.append(bookend_end_item)

        bookend_start = []
        _bookend_start = d.pop("bookend_start")
        for bookend_start_item_data in _bookend_start:
            bookend_start_item = SearchMessage.from_dict(bookend_start_item_data)

            bookend_start.append(bookend_start_item)

        match_message_id = d.pop("match_message_id")

        matched_role = d.pop("matched_role")

        messages = []
        _messages = d.pop("messages")
        for messages_item_data in _messages:
            messages_item = SearchMessage.from_dict(messages_item_data)

            messages.append(messages_item)

        messages_after = d.pop("messages_after")

        messages_before = d.pop("messages_before")

        def _parse_model(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        model = _parse_model(d.pop("model"))

        session_id = d.pop("session_id")

        snippet = d.pop("snippet")

        def _parse_source(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        source = _parse_source(d.pop("source"))

        def _parse_started_at(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        started_at = _parse_started_at(d.pop("started_at"))

        def _parse_title(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        title = _parse_title(d.pop("title"))

        def _parse_parent_session_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        parent_session_id = _parse_parent_session_id(d.pop("parent_session_id", UNSET))

        discover_result = cls(
            bookend_end=bookend_end,
            bookend_start=bookend_start,
            match_message_id=match_message_id,
            matched_role=matched_role,
            messages=messages,
            messages_after=messages_after,
            messages_before=messages_before,
            model=model,
            session_id=session_id,
            snippet=snippet,
            source=source,
            started_at=started_at,
            title=title,
            parent_session_id=parent_session_id,
        )

        discover_result.additional_properties = d
        return discover_result

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
