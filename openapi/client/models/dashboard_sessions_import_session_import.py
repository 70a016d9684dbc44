from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.dashboard_sessions_import_session_import_sessions_item import (
        DashboardSessionsImportSessionImportSessionsItem,
    )


T = TypeVar("T", bound="DashboardSessionsImportSessionImport")


@_attrs_define
class DashboardSessionsImportSessionImport:
    """``POST /api/sessions/import``: sessions as ``GET /api/sessions/{id}/export`` gives them.

    Attributes:
        sessions (list[DashboardSessionsImportSessionImportSessionsItem]):
        profile (None | str | Unset):
    """

    sessions: list[DashboardSessionsImportSessionImportSessionsItem]
    profile: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        sessions = []
        for sessions_item_data in self.sessions:
            sessions_item = sessions_item_data.to_dict()
            sessions.append(sessions_item)

        profile: None | str | Unset
        if isinstance(self.profile, Unset):
            profile = UNSET
        else:
            profile = self.profile

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "sessions": sessions,
            }
        )
        if profile is not UNSET:
            field_dict["profile"] = profile

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.dashboard_sessions_import_session_import_sessions_item import (
            DashboardSessionsImportSessionImportSessionsItem,
        )

        d = dict(src_dict)
        sessions = []
        _sessions = d.pop("sessions")
        for sessions_item_data in _sessions:
            sessions_item = DashboardSessionsImportSessionImportSessionsItem.from_dict(sessions_item_data)

            sessions.append(sessions_item)

        def _parse_profile(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        profile = _parse_profile(d.pop("profile", UNSET))

        dashboard_sessions_import_session_import = cls(
            sessions=sessions,
            profile=profile,
        )

        dashboard_sessions_import_session_import.additional_properties = d
        return dashboard_sessions_import_session_import

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
