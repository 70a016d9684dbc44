from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CheckpointOut")


@_attrs_define
class CheckpointOut:
    """
    Attributes:
        busy (int):
        checkpointed_frames (int):
        log_frames (int):
    """

    busy: int
    checkpointed_frames: int
    log_frames: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        busy = self.busy

        checkpointed_frames = self.checkpointed_frames

        log_frames = self.log_frames

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "busy": busy,
                "checkpointed_frames": checkpointed_frames,
                "log_frames": log_frames,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        busy = d.pop("busy")

        checkpointed_frames = d.pop("checkpointed_frames")

        log_frames = d.pop("log_frames")

        checkpoint_out = cls(
            busy=busy,
            checkpointed_frames=checkpointed_frames,
            log_frames=log_frames,
        )

        checkpoint_out.additional_properties = d
        return checkpoint_out

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
