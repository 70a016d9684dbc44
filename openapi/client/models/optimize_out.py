from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.checkpoint_out import CheckpointOut


T = TypeVar("T", bound="OptimizeOut")


@_attrs_define
class OptimizeOut:
    """FTS segments merged and the WAL checkpointed.

    Attributes:
        checkpoint (CheckpointOut):
        database_bytes (int):
        database_bytes_before (int):
        fts_optimized (list[str]):
        wal_bytes (int):
        wal_bytes_before (int):
    """

    checkpoint: CheckpointOut
    database_bytes: int
    database_bytes_before: int
    fts_optimized: list[str]
    wal_bytes: int
    wal_bytes_before: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        checkpoint = self.checkpoint.to_dict()

        database_bytes = self.database_bytes

        database_bytes_before = self.database_bytes_before

        fts_optimized = self.fts_optimized

        wal_bytes = self.wal_bytes

        wal_bytes_before = self.wal_bytes_before

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "checkpoint": checkpoint,
                "database_bytes": database_bytes,
                "database_bytes_before": database_bytes_before,
                "fts_optimized": fts_optimized,
                "wal_bytes": wal_bytes,
                "wal_bytes_before": wal_bytes_before,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.checkpoint_out import CheckpointOut

        d = dict(src_dict)
        checkpoint = CheckpointOut.from_dict(d.pop("checkpoint"))

        database_bytes = d.pop("database_bytes")

        database_bytes_before = d.pop("database_bytes_before")

        fts_optimized = cast(list[str], d.pop("fts_optimized"))

        wal_bytes = d.pop("wal_bytes")

        wal_bytes_before = d.pop("wal_bytes_before")

        optimize_out = cls(
            checkpoint=checkpoint,
            database_bytes=database_bytes,
            database_bytes_before=database_bytes_before,
            fts_optimized=fts_optimized,
            wal_bytes=wal_bytes,
            wal_bytes_before=wal_bytes_before,
        )

        optimize_out.additional_properties = d
        return optimize_out

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
