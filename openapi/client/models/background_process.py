from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="BackgroundProcess")


@_attrs_define
class BackgroundProcess:
    """One live background process of the chat.

    Attributes:
        started_at (float | int): Epoch seconds it started
    """

    started_at: float | int

    def to_dict(self) -> dict[str, Any]:
        started_at: float | int
        started_at = self.started_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "started_at": started_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_started_at(data: object) -> float | int:
            return cast(float | int, data)

        started_at = _parse_started_at(d.pop("started_at"))

        background_process = cls(
            started_at=started_at,
        )

        return background_process
