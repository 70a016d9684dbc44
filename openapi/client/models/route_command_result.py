from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.route_command_result_entry import RouteCommandResultEntry


T = TypeVar("T", bound="RouteCommandResult")


@_attrs_define
class RouteCommandResult:
    """The chat's new entry and the agent's reply text.

    Attributes:
        entry (RouteCommandResultEntry):
        previous_session_id (str):
        reply (str):
        session_id (str):
        session_key (str):
        switched (bool | None | Unset): /resume only: false when the chat already was on that session, or when the
            agent's ownership rule refused it (the reply says which)
    """

    entry: RouteCommandResultEntry
    previous_session_id: str
    reply: str
    session_id: str
    session_key: str
    switched: bool | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        entry = self.entry.to_dict()

        previous_session_id = self.previous_session_id

        reply = self.reply

        session_id = self.session_id

        session_key = self.session_key

        switched: bool | None | Unset
        if isinstance(self.switched, Unset):
            switched = UNSET
        else:
            switched = self.switched

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "entry": entry,
                "previous_session_id": previous_session_id,
                "reply": reply,
                "session_id": session_id,
                "session_key": session_key,
            }
        )
        if switched is not UNSET:
            field_dict["switched"] = switched

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.route_command_result_entry import RouteCommandResultEntry

        d = dict(src_dict)
        entry = RouteCommandResultEntry.from_dict(d.pop("entry"))

        previous_session_id = d.pop("previous_session_id")

        reply = d.pop("reply")

        session_id = d.pop("session_id")

        session_key = d.pop("session_key")

        def _parse_switched(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        switched = _parse_switched(d.pop("switched", UNSET))

        route_command_result = cls(
            entry=entry,
            previous_session_id=previous_session_id,
            reply=reply,
            session_id=session_id,
            session_key=session_key,
            switched=switched,
        )

        route_command_result.additional_properties = d
        return route_command_result

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
