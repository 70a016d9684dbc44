from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.readiness_checks import ReadinessChecks


T = TypeVar("T", bound="Readiness")


@_attrs_define
class Readiness:
    """Readiness answer with the individual checks.

    Attributes:
        agent_schema_version (int | None): The agent schema version of state.db
        backend (str): The storage engine: `sqlite` (state.db) or `postgresql`
        checks (ReadinessChecks):
        schema_revision (None | str):
        sqlite_version (str): The storage engine's version (the PostgreSQL server's on `postgresql`)
        status (str): `ready`; `read_only` (200: reads are served, every write is refused with 503
            `agent_file_read_only`, because state.db holds objects this build does not know; `reason` names them); or
            `not_ready` (503)
        tested_schema_version (int): The newest agent schema version whose files this build knows how to write
        agent_file (None | str | Unset): What state.db is, as a sentence (its agent schema and FTS layout)
        reason (None | str | Unset): Why the server is not fully ready, as a sentence
    """

    agent_schema_version: int | None
    backend: str
    checks: ReadinessChecks
    schema_revision: None | str
    sqlite_version: str
    status: str
    tested_schema_version: int
    agent_file: None | str | Unset = UNSET
    reason: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        agent_schema_version: int | None
        agent_schema_version = self.agent_schema_version

        backend = self.backend

        checks = self.checks.to_dict()

        schema_revision: None | str
        schema_revision = self.schema_revision

        sqlite_version = self.sqlite_version

        status = self.status

        tested_schema_version = self.tested_schema_version

        agent_file: None | str | Unset
        if isinstance(self.agent_file, Unset):
            agent_file = UNSET
        else:
            agent_file = self.agent_file

        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "agent_schema_version": agent_schema_version,
                "backend": backend,
                "checks": checks,
                "schema_revision": schema_revision,
                "sqlite_version": sqlite_version,
                "status": status,
                "tested_schema_version": tested_schema_version,
            }
        )
        if agent_file is not UNSET:
            field_dict["agent_file"] = agent_file
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.readiness_checks import ReadinessChecks

        d = dict(src_dict)

        def _parse_agent_schema_version(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        agent_schema_version = _parse_agent_schema_version(d.pop("agent_schema_version"))

        backend = d.pop("backend")

        checks = ReadinessChecks.from_dict(d.pop("checks"))

        def _parse_schema_revision(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        schema_revision = _parse_schema_revision(d.pop("schema_revision"))

        sqlite_version = d.pop("sqlite_version")

        status = d.pop("status")

        tested_schema_version = d.pop("tested_schema_version")

        def _parse_agent_file(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        agent_file = _parse_agent_file(d.pop("agent_file", UNSET))

        def _parse_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))

        readiness = cls(
            agent_schema_version=agent_schema_version,
            backend=backend,
            checks=checks,
            schema_revision=schema_revision,
            sqlite_version=sqlite_version,
            status=status,
            tested_schema_version=tested_schema_version,
            agent_file=agent_file,
            reason=reason,
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
