from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="SyncMessagesIn")


@_attrs_define
class SyncMessagesIn:
    """Message rows as the agent's file holds them, one value per column.

    Attributes:
        columns (list[str] | Unset): the `messages` columns of the home's file, `id` (the id there) and `session_id`
            among them; columns this store lacks are dropped, missing ones take their default
        rows (list[list[Any]] | Unset): at most 5000 rows in `columns` order, values as stored (text keeps the agent's
            `\\u0000json:` content prefix)
    """

    columns: list[str] | Unset = UNSET
    rows: list[list[Any]] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        columns: list[str] | Unset = UNSET
        if not isinstance(self.columns, Unset):
            columns = self.columns

        rows: list[list[Any]] | Unset = UNSET
        if not isinstance(self.rows, Unset):
            rows = []
            for rows_item_data in self.rows:
                rows_item = rows_item_data

                rows.append(rows_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if columns is not UNSET:
            field_dict["columns"] = columns
        if rows is not UNSET:
            field_dict["rows"] = rows

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        columns = cast(list[str], d.pop("columns", UNSET))

        _rows = d.pop("rows", UNSET)
        rows: list[list[Any]] | Unset = UNSET
        if _rows is not UNSET:
            rows = []
            for rows_item_data in _rows:
                rows_item = cast(list[Any], rows_item_data)

                rows.append(rows_item)

        sync_messages_in = cls(
            columns=columns,
            rows=rows,
        )

        sync_messages_in.additional_properties = d
        return sync_messages_in

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
