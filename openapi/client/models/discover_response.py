from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.discover_result import DiscoverResult
    from ..models.indexing_status import IndexingStatus


T = TypeVar("T", bound="DiscoverResponse")


@_attrs_define
class DiscoverResponse:
    """``q`` given: at most ``limit`` sessions, one per lineage.

    Attributes:
        count (int):
        mode (Literal['discover']):
        query (str):
        results (list[DiscoverResult]):
        scan_capped (bool): A short-term substring scan stopped at its cap (1,000,000 messages) before the oldest
        indexing (IndexingStatus | None | Unset): Present while imported messages wait for the background indexer: they
            are not found yet
        message (None | str | Unset):
    """

    count: int
    mode: Literal["discover"]
    query: str
    results: list[DiscoverResult]
    scan_capped: bool
    indexing: IndexingStatus | None | Unset = UNSET
    message: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.indexing_status import IndexingStatus

        count = self.count

        mode = self.mode

        query = self.query

        results = []
        for results_item_data in self.results:
            results_item = results_item_data.to_dict()
            results.append(results_item)

        scan_capped = self.scan_capped

        indexing: dict[str, Any] | None | Unset
        if isinstance(self.indexing, Unset):
            indexing = UNSET
        elif isinstance(self.indexing, IndexingStatus):
            indexing = self.indexing.to_dict()
        else:
            indexing = self.indexing

        message: None | str | Unset
        if isinstance(self.message, Unset):
            message = UNSET
        else:
            message = self.message

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "count": count,
                "mode": mode,
                "query": query,
                "results": results,
                "scan_capped": scan_capped,
            }
        )
        if indexing is not UNSET:
            field_dict["indexing"] = indexing
        if message is not UNSET:
            field_dict["message"] = message

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.discover_result import DiscoverResult
        from ..models.indexing_status import IndexingStatus

        d = dict(src_dict)
        count = d.pop("count")

        mode = cast(Literal["discover"], d.pop("mode"))
        if mode != "discover":
            raise ValueError(f"mode must match const 'discover', got '{mode}'")

        query = d.pop("query")

        results = []
        _results = d.pop("results")
        for results_item_data in _results:
            results_item = DiscoverResult.from_dict(results_item_data)

            results.append(results_item)

        scan_capped = d.pop("scan_capped")

        def _parse_indexing(data: object) -> IndexingStatus | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                indexing_type_0 = IndexingStatus.from_dict(data)

                return indexing_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(IndexingStatus | None | Unset, data)

        indexing = _parse_indexing(d.pop("indexing", UNSET))

        def _parse_message(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        message = _parse_message(d.pop("message", UNSET))

        discover_response = cls(
            count=count,
            mode=mode,
            query=query,
            results=results,
            scan_capped=scan_capped,
            indexing=indexing,
            message=message,
        )

        discover_response.additional_properties = d
        return discover_response

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
