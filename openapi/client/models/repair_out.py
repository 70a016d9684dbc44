from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RepairOut")


@_attrs_define
class RepairOut:
    """The health of the store and what the repair did.

    Attributes:
        backup_path (None | str): the backup written before repairing
        check_only (bool):
        error (None | str): what is still wrong after the repair
        healthy (bool): whether the check found nothing wrong (before any repair)
        path (str): the database file checked
        problems (list[str]): what the check found (integrity, search index, a test write)
        repaired (bool): a repair ran and the store is healthy now
        sessions (int): sessions in the store (after the repair)
        strategy (None | str): already_healthy, or the steps taken (reindex, rebuild_fts:T, drop_orphans:T,
            index_missing:T)
    """

    backup_path: None | str
    check_only: bool
    error: None | str
    healthy: bool
    path: str
    problems: list[str]
    repaired: bool
    sessions: int
    strategy: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        backup_path: None | str
        backup_path = self.backup_path

        check_only = self.check_only

        error: None | str
        error = self.error

        healthy = self.healthy

        path = self.path

        problems = self.problems

        repaired = self.repaired

        sessions = self.sessions

        strategy: None | str
        strategy = self.strategy

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "backup_path": backup_path,
                "check_only": check_only,
                "error": error,
                "healthy": healthy,
                "path": path,
                "problems": problems,
                "repaired": repaired,
                "sessions": sessions,
                "strategy": strategy,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_backup_path(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        backup_path = _parse_backup_path(d.pop("backup_path"))

        check_only = d.pop("check_only")

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        healthy = d.pop("healthy")

        path = d.pop("path")

        problems = cast(list[str], d.pop("problems"))

        repaired = d.pop("repaired")

        sessions = d.pop("sessions")

        def _parse_strategy(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        strategy = _parse_strategy(d.pop("strategy"))

        repair_out = cls(
            backup_path=backup_path,
            check_only=check_only,
            error=error,
            healthy=healthy,
            path=path,
            problems=problems,
            repaired=repaired,
            sessions=sessions,
            strategy=strategy,
        )

        repair_out.additional_properties = d
        return repair_out

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
