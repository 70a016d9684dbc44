from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="RepairIn")


@_attrs_define
class RepairIn:
    """``hermes sessions repair``: check only, or repair after a backup.

    Attributes:
        backup (bool | Unset): write a VACUUM INTO backup before repairing Default: True.
        check_only (bool | Unset): only report whether the store is healthy Default: False.
    """

    backup: bool | Unset = True
    check_only: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        backup = self.backup

        check_only = self.check_only

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if backup is not UNSET:
            field_dict["backup"] = backup
        if check_only is not UNSET:
            field_dict["check_only"] = check_only

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        backup = d.pop("backup", UNSET)

        check_only = d.pop("check_only", UNSET)

        repair_in = cls(
            backup=backup,
            check_only=check_only,
        )

        return repair_in
