from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.readiness_checks import ReadinessChecks


T = TypeVar("T", bound="Readiness")


@_attrs_define
class Readiness:
    """Readiness answer with the individual checks.

    Attributes:
        checks (ReadinessChecks):
        schema_revision (None | str):
        sqlite_version (str):
        status (str):
    """

    checks: ReadinessChecks
    schema_revision: None | str
    sqlite_version: str
    status: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        checks = self.checks.to_dict()

        schema_revision: None | str
        schema_revision = self.schema_revision

        sqlite_version = self.sqlite_version

        status = self.status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "checks": checks,
                "schema_revision": schema_revision,
                "sqlite_version": sqlite_version,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.readiness_checks import ReadinessChecks

        d = dict(src_dict)
        checks = ReadinessChecks.from_dict(d.pop("checks"))

        def _parse_schema_revision(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        schema_revision = _parse_schema_revision(d.pop("schema_revision"))

        sqlite_version = d.pop("sqlite_version")

        status = d.pop("status")

        readiness = cls(
            checks=checks,
            schema_revision=schema_revision,
            sqlite_version=sqlite_version,
            status=status,
        )

        readiness.additional_properties = d
        return readiness

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
