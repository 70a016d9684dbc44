from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

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

        return sync_messages_in
