from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="RewindRequest")


@_attrs_define
class RewindRequest:
    """Which user message to rewind to.

    Attributes:
        message_id (int):
    """

    message_id: int

    def to_dict(self) -> dict[str, Any]:
        message_id = self.message_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "message_id": message_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        message_id = d.pop("message_id")

        rewind_request = cls(
            message_id=message_id,
        )

        return rewind_request
