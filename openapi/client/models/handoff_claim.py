from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="HandoffClaim")


@_attrs_define
class HandoffClaim:
    """``POST /handoff/claim``: a gateway asks for the next pending handoff.

    Attributes:
        platform (None | str | Unset): Only handoffs to this platform; null: any platform
        worker (None | str | Unset): Who claims (recorded)
    """

    platform: None | str | Unset = UNSET
    worker: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        platform: None | str | Unset
        if isinstance(self.platform, Unset):
            platform = UNSET
        else:
            platform = self.platform

        worker: None | str | Unset
        if isinstance(self.worker, Unset):
            worker = UNSET
        else:
            worker = self.worker

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if platform is not UNSET:
            field_dict["platform"] = platform
        if worker is not UNSET:
            field_dict["worker"] = worker

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_platform(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        platform = _parse_platform(d.pop("platform", UNSET))

        def _parse_worker(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        worker = _parse_worker(d.pop("worker", UNSET))

        handoff_claim = cls(
            platform=platform,
            worker=worker,
        )

        return handoff_claim
