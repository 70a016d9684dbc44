from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AutoPruneStatus")


@_attrs_define
class AutoPruneStatus:
    """Auto-prune configuration and its last run (shared with the agent through state_meta).

    Attributes:
        check_interval_s (float):
        enabled (bool):
        error (None | str):
        last_run_at (float | None): from state_meta 'last_auto_prune' (null: never, or unreadable)
        last_run_marker (None | str): the raw marker as stored
        min_interval_hours (float):
        next_run_at (float | None):
        pruned (int | None):
        retention_days (float):
        running (bool):
        vacuum_after_prune (bool):
        vacuum_min_free_ratio (float):
        vacuumed (bool | None):
    """

    check_interval_s: float
    enabled: bool
    error: None | str
    last_run_at: float | None
    last_run_marker: None | str
    min_interval_hours: float
    next_run_at: float | None
    pruned: int | None
    retention_days: float
    running: bool
    vacuum_after_prune: bool
    vacuum_min_free_ratio: float
    vacuumed: bool | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        check_interval_s = self.check_interval_s

        enabled = self.enabled

        error: None | str
        error = self.error

        last_run_at: float | None
        last_run_at = self.last_run_at

        last_run_marker: None | str
        last_run_marker = self.last_run_marker

        min_interval_hours = self.min_interval_hours

        next_run_at: float | None
        next_run_at = self.next_run_at

        pruned: int | None
        pruned = self.pruned

        retention_days = self.retention_days

        running = self.running

        vacuum_after_prune = self.vacuum_after_prune

        vacuum_min_free_ratio = self.vacuum_min_free_ratio

        vacuumed: bool | None
        vacuumed = self.vacuumed

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "check_interval_s": check_interval_s,
                "enabled": enabled,
                "error": error,
                "last_run_at": last_run_at,
                "last_run_marker": last_run_marker,
                "min_interval_hours": min_interval_hours,
                "next_run_at": next_run_at,
                "pruned": pruned,
                "retention_days": retention_days,
                "running": running,
                "vacuum_after_prune": vacuum_after_prune,
                "vacuum_min_free_ratio": vacuum_min_free_ratio,
                "vacuumed": vacuumed,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        check_interval_s = d.pop("check_interval_s")

        enabled = d.pop("enabled")

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        def _parse_last_run_at(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        last_run_at = _parse_last_run_at(d.pop("last_run_at"))

        def _parse_last_run_marker(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_run_marker = _parse_last_run_marker(d.pop("last_run_marker"))

        min_interval_hours = d.pop("min_interval_hours")

        def _parse_next_run_at(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        next_run_at = _parse_next_run_at(d.pop("next_run_at"))

        def _parse_pruned(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        pruned = _parse_pruned(d.pop("pruned"))

        retention_days = d.pop("retention_days")

        running = d.pop("running")

        vacuum_after_prune = d.pop("vacuum_after_prune")

        vacuum_min_free_ratio = d.pop("vacuum_min_free_ratio")

        def _parse_vacuumed(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        vacuumed = _parse_vacuumed(d.pop("vacuumed"))

        auto_prune_status = cls(
            check_interval_s=check_interval_s,
            enabled=enabled,
            error=error,
            last_run_at=last_run_at,
            last_run_marker=last_run_marker,
            min_interval_hours=min_interval_hours,
            next_run_at=next_run_at,
            pruned=pruned,
            retention_days=retention_days,
            running=running,
            vacuum_after_prune=vacuum_after_prune,
            vacuum_min_free_ratio=vacuum_min_free_ratio,
            vacuumed=vacuumed,
        )

        auto_prune_status.additional_properties = d
        return auto_prune_status

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
