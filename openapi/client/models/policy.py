from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="Policy")


@_attrs_define
class Policy:
    """A reset policy (the agent's ``SessionResetPolicy``).

    Attributes:
        at_hour (int | Unset):  Default: 4.
        bg_process_max_age_hours (int | Unset):  Default: 24.
        idle_minutes (int | Unset):  Default: 1440.
        mode (str | Unset): idle, daily, both or none (others never reset) Default: 'none'.
        notify (bool | Unset):  Default: True.
        notify_exclude_platforms (list[str] | Unset):
    """

    at_hour: int | Unset = 4
    bg_process_max_age_hours: int | Unset = 24
    idle_minutes: int | Unset = 1440
    mode: str | Unset = "none"
    notify: bool | Unset = True
    notify_exclude_platforms: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        at_hour = self.at_hour

        bg_process_max_age_hours = self.bg_process_max_age_hours

        idle_minutes = self.idle_minutes

        mode = self.mode

        notify = self.notify

        notify_exclude_platforms: list[str] | Unset = UNSET
        if not isinstance(self.notify_exclude_platforms, Unset):
            notify_exclude_platforms = self.notify_exclude_platforms

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if at_hour is not UNSET:
            field_dict["at_hour"] = at_hour
        if bg_process_max_age_hours is not UNSET:
            field_dict["bg_process_max_age_hours"] = bg_process_max_age_hours
        if idle_minutes is not UNSET:
            field_dict["idle_minutes"] = idle_minutes
        if mode is not UNSET:
            field_dict["mode"] = mode
        if notify is not UNSET:
            field_dict["notify"] = notify
        if notify_exclude_platforms is not UNSET:
            field_dict["notify_exclude_platforms"] = notify_exclude_platforms

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        at_hour = d.pop("at_hour", UNSET)

        bg_process_max_age_hours = d.pop("bg_process_max_age_hours", UNSET)

        idle_minutes = d.pop("idle_minutes", UNSET)

        mode = d.pop("mode", UNSET)

        notify = d.pop("notify", UNSET)

        notify_exclude_platforms = cast(list[str], d.pop("notify_exclude_platforms", UNSET))

        policy = cls(
            at_hour=at_hour,
            bg_process_max_age_hours=bg_process_max_age_hours,
            idle_minutes=idle_minutes,
            mode=mode,
            notify=notify,
            notify_exclude_platforms=notify_exclude_platforms,
        )

        return policy
