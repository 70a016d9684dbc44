from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="VacuumOut")


@_attrs_define
class VacuumOut:
    """The file rewritten without its free pages.

    Attributes:
        database_bytes (int):
        database_bytes_before (int):
        duration_s (float):
        fts_optimized (list[str]):
        reclaimed_bytes (int):
        wal_bytes (int):
        wal_bytes_before (int):
    """

    database_bytes: int
    database_bytes_before: int
    duration_s: float
    fts_optimized: list[str]
    reclaimed_bytes: int
    wal_bytes: int
    wal_bytes_before: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        database_bytes = self.database_bytes

        database_bytes_before = self.database_bytes_before

        duration_s = self.duration_s

        fts_optimized = self.fts_optimized

        reclaimed_bytes = self.reclaimed_bytes

        wal_bytes = self.wal_bytes

        wal_bytes_before = self.wal_bytes_before

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "database_bytes": database_bytes,
                "database_bytes_before": database_bytes_before,
                "duration_s": duration_s,
                "fts_optimized": fts_optimized,
                "reclaimed_bytes": reclaimed_bytes,
                "wal_bytes": wal_bytes,
                "wal_bytes_before": wal_bytes_before,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        database_bytes = d.pop("database_bytes")

        database_bytes_before = d.pop("database_bytes_before")

        duration_s = d.pop("duration_s")

        fts_optimized = cast(list[str], d.pop("fts_optimized"))

        reclaimed_bytes = d.pop("reclaimed_bytes")

        wal_bytes = d.pop("wal_bytes")

        wal_bytes_before = d.pop("wal_bytes_before")

        vacuum_out = cls(
            database_bytes=database_bytes,
            database_bytes_before=database_bytes_before,
            duration_s=duration_s,
            fts_optimized=fts_optimized,
            reclaimed_bytes=reclaimed_bytes,
            wal_bytes=wal_bytes,
            wal_bytes_before=wal_bytes_before,
        )

        vacuum_out.additional_properties = d
        return vacuum_out

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
