from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SyncRefusedOut")


@_attrs_define
class SyncRefusedOut:
    """A row set aside (not stored) and the field rule it broke; the rest of the batch was stored.

    Attributes:
        code (str): a field rule every write path shares (timestamp_out_of_range, count_out_of_range, flag_not_binary,
            title_not_text, title_too_long, invalid_session_id), invalid_text, invalid_row, session_refused (a message whose
            session row was refused), or what the store itself refused: write_failed (a constraint of its schema),
            title_in_use, session_kind_locked (a newer agent's session with messages changing kind)
        detail (str):
        field (str): the field at fault (empty when the row as a whole is)
        message_id (int | None): its message id in the home's file; null for a session row
        session_id (None | str): its session (null when the id itself is not text)
    """

    code: str
    detail: str
    field: str
    message_id: int | None
    session_id: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        code = self.code

        detail = self.detail

        field = self.field

        message_id: int | None
        message_id = self.message_id

        session_id: None | str
        session_id = self.session_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "code": code,
                "detail": detail,
                "field": field,
                "message_id": message_id,
                "session_id": session_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        code = d.pop("code")

        detail = d.pop("detail")

        field = d.pop("field")

        def _parse_message_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        message_id = _parse_message_id(d.pop("message_id"))

        def _parse_session_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        session_id = _parse_session_id(d.pop("session_id"))

        sync_refused_out = cls(
            code=code,
            detail=detail,
            field=field,
            message_id=message_id,
            session_id=session_id,
        )

        sync_refused_out.additional_properties = d
        return sync_refused_out

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
