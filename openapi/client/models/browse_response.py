from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.browse_result import BrowseResult


T = TypeVar("T", bound="BrowseResponse")


@_attrs_define
class BrowseResponse:
    """No arguments: the most recently active sessions.

    Attributes:
        count (int):
        message (str):
        mode (Literal['browse']):
        results (list[BrowseResult]):
    """

    count: int
    message: str
    mode: Literal["browse"]
    results: list[BrowseResult]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        count = self.count

        message = self.message

        mode = self.mode

        results = []
        for results_item_data in self.results:
            results_item = results_item_data.to_dict()
            results.append(results_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "count": count,
                "message": message,
                "mode": mode,
                "results": results,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.browse_result import BrowseResult

        d = dict(src_dict)
        count = d.pop("count")

        message = d.pop("message")

        mode = cast(Literal["browse"], d.pop("mode"))
        if mode != "browse":
            raise ValueError(f"mode must match const 'browse', got '{mode}'")

        results = []
        _results = d.pop("results")
        for results_item_data in _results:
            results_item = BrowseResult.from_dict(results_item_data)

            results.append(results_item)

        browse_response = cls(
            count=count,
            message=message,
            mode=mode,
            results=results,
        )

        browse_response.additional_properties = d
        return browse_response

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
