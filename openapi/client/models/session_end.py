from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="SessionEnd")


@_attrs_define
class SessionEnd:
    """Body of ``POST /sessions/{id}/end``.

    Attributes:
        end_reason (str):
    """

    end_reason: str

    def to_dict(self) -> dict[str, Any]:
        end_reason = self.end_reason

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "end_reason": end_reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        end_reason = d.pop("end_reason")

        session_end = cls(
            end_reason=end_reason,
        )

        return session_end
