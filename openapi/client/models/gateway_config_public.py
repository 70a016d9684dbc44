from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.gateway_config_public_reset_by_platform import GatewayConfigPublicResetByPlatform
    from ..models.gateway_config_public_reset_by_type import GatewayConfigPublicResetByType
    from ..models.gateway_config_public_session_reset import GatewayConfigPublicSessionReset


T = TypeVar("T", bound="GatewayConfigPublic")


@_attrs_define
class GatewayConfigPublic:
    """The effective routing configuration.

    Attributes:
        group_sessions_per_user (bool):
        multiplex_profiles (bool):
        reset_by_platform (GatewayConfigPublicResetByPlatform):
        reset_by_type (GatewayConfigPublicResetByType):
        session_reset (GatewayConfigPublicSessionReset):
        thread_sessions_per_user (bool):
        write_sessions_json (bool):
    """

    group_sessions_per_user: bool
    multiplex_profiles: bool
    reset_by_platform: GatewayConfigPublicResetByPlatform
    reset_by_type: GatewayConfigPublicResetByType
    session_reset: GatewayConfigPublicSessionReset
    thread_sessions_per_user: bool
    write_sessions_json: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        group_sessions_per_user = self.group_sessions_per_user

        multiplex_profiles = self.multiplex_profiles

        reset_by_platform = self.reset_by_platform.to_dict()

        reset_by_type = self.reset_by_type.to_dict()

        session_reset = self.session_reset.to_dict()

        thread_sessions_per_user = self.thread_sessions_per_user

        write_sessions_json = self.write_sessions_json

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "group_sessions_per_user": group_sessions_per_user,
                "multiplex_profiles": multiplex_profiles,
                "reset_by_platform": reset_by_platform,
                "reset_by_type": reset_by_type,
                "session_reset": session_reset,
                "thread_sessions_per_user": thread_sessions_per_user,
                "write_sessions_json": write_sessions_json,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.gateway_config_public_reset_by_platform import GatewayConfigPublicResetByPlatform
        from ..models.gateway_config_public_reset_by_type import GatewayConfigPublicResetByType
        from ..models.gateway_config_public_session_reset import GatewayConfigPublicSessionReset

        d = dict(src_dict)
        group_sessions_per_user = d.pop("group_sessions_per_user")

        multiplex_profiles = d.pop("multiplex_profiles")

        reset_by_platform = GatewayConfigPublicResetByPlatform.from_dict(d.pop("reset_by_platform"))

        reset_by_type = GatewayConfigPublicResetByType.from_dict(d.pop("reset_by_type"))

        session_reset = GatewayConfigPublicSessionReset.from_dict(d.pop("session_reset"))

        thread_sessions_per_user = d.pop("thread_sessions_per_user")

        write_sessions_json = d.pop("write_sessions_json")

        gateway_config_public = cls(
            group_sessions_per_user=group_sessions_per_user,
            multiplex_profiles=multiplex_profiles,
            reset_by_platform=reset_by_platform,
            reset_by_type=reset_by_type,
            session_reset=session_reset,
            thread_sessions_per_user=thread_sessions_per_user,
            write_sessions_json=write_sessions_json,
        )

        gateway_config_public.additional_properties = d
        return gateway_config_public

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
