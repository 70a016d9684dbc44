from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.indexing_status import IndexingStatus
    from ..models.stats_out_by_source import StatsOutBySource


T = TypeVar("T", bound="StatsOut")


@_attrs_define
class StatsOut:
    """Counts for every source and the file's size accounting.

    Attributes:
        by_source (StatsOutBySource):
        database_bytes (int): size of state.db (without -wal)
        freelist_bytes (int): free pages inside state.db that VACUUM would return
        fts_bytes (int | None): bytes of the FTS indexes when include_fts=true (else null)
        indexing (IndexingStatus): Deferred full-text indexing of bulk imports (in `GET /stats`, and in search while
            non-zero).
        messages (int):
        page_count (int):
        page_size (int):
        sessions (int):
        wal_bytes (int): size of state.db-wal (0 when absent)
    """

    by_source: StatsOutBySource
    database_bytes: int
    freelist_bytes: int
    fts_bytes: int | None
    indexing: IndexingStatus
    messages: int
    page_count: int
    page_size: int
    sessions: int
    wal_bytes: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        by_source = self.by_source.to_dict()

        database_bytes = self.database_bytes

        freelist_bytes = self.freelist_bytes

        fts_bytes: int | None
        fts_bytes = self.fts_bytes

        indexing = self.indexing.to_dict()

        messages = self.messages

        page_count = self.page_count

        page_size = self.page_size

        sessions = self.sessions

        wal_bytes = self.wal_bytes

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "by_source": by_source,
                "database_bytes": database_bytes,
                "freelist_bytes": freelist_bytes,
                "fts_bytes": fts_bytes,
                "indexing": indexing,
                "messages": messages,
                "page_count": page_count,
                "page_size": page_size,
                "sessions": sessions,
                "wal_bytes": wal_bytes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.indexing_status import IndexingStatus
        from ..models.stats_out_by_source import StatsOutBySource

        d = dict(src_dict)
        by_source = StatsOutBySource.from_dict(d.pop("by_source"))

        database_bytes = d.pop("database_bytes")

        freelist_bytes = d.pop("freelist_bytes")

        def _parse_fts_bytes(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        fts_bytes = _parse_fts_bytes(d.pop("fts_bytes"))

        indexing = IndexingStatus.from_dict(d.pop("indexing"))

        messages = d.pop("messages")

        page_count = d.pop("page_count")

        page_size = d.pop("page_size")

        sessions = d.pop("sessions")

        wal_bytes = d.pop("wal_bytes")

        stats_out = cls(
            by_source=by_source,
            database_bytes=database_bytes,
            freelist_bytes=freelist_bytes,
            fts_bytes=fts_bytes,
            indexing=indexing,
            messages=messages,
            page_count=page_count,
            page_size=page_size,
            sessions=sessions,
            wal_bytes=wal_bytes,
        )

        stats_out.additional_properties = d
        return stats_out

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
