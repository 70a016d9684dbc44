from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SelectedSession")


@_attrs_define
class SelectedSession:
    """A session a prune or an archive selects (the agent's ``list_prune_candidates`` row).

    Attributes:
        archived (bool):
        ended_at (float | None):
        id (str):
        message_count (int):
        model (None | str):
        source (str):
        started_at (float):
        title (None | str):
    """

    archived: bool
    ended_at: float | None
    id: str
    message_count: int
    model: None | str
    source: str
    started_at: float
    title: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        archived = self.archived

        ended_at: float | None
        ended_at = self.ended_at

        id = self.id

        message_count = self.message_count

        model: None | str
        model = self.model

        source = self.source

        started_at = self.started_at

        title: None | str
        title = self.title

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "archived": archived,
                "ended_at": ended_at,
                "id": id,
                "message_count": message_count,
                "model": model,
                "source": source,
                "started_at": started_at,
                "title": title,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        archived = d.pop("archived")

        def _parse_ended_at(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        ended_at = _parse_ended_at(d.pop("ended_at"))

        id = d.pop("id")

        message_count = d.pop("message_count")

        def _parse_model(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        model = _parse_model(d.pop("model"))

        source = d.pop("source")

        started_at = d.pop("started_at")

        def _parse_title(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        title = _parse_title(d.pop("title"))

        selected_session = cls(
            archived=archived,
            ended_at=ended_at,
            id=id,
            message_count=message_count,
            model=model,
            source=source,
            started_at=started_at,
            title=title,
        )

        selected_session.additional_properties = d
        return selected_session

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
