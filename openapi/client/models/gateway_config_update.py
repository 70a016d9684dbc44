from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.gateway_config_update_reset_by_platform_type_0 import (
        GatewayConfigUpdateResetByPlatformType0,
    )
    from ..models.gateway_config_update_reset_by_type_type_0 import GatewayConfigUpdateResetByTypeType0
    from ..models.policy import Policy


T = TypeVar("T", bound="GatewayConfigUpdate")


@_attrs_define
class GatewayConfigUpdate:
    """``PUT /gateway/config``: members left out are kept.

    Attributes:
        group_sessions_per_user (bool | None | Unset):
        reset_by_platform (GatewayConfigUpdateResetByPlatformType0 | None | Unset):
        reset_by_type (GatewayConfigUpdateResetByTypeType0 | None | Unset):
        session_reset (None | Policy | Unset):
        thread_sessions_per_user (bool | None | Unset):
        write_sessions_json (bool | None | Unset):
    """

    group_sessions_per_user: bool | None | Unset = UNSET
    reset_by_platform: GatewayConfigUpdateResetByPlatformType0 | None | Unset = UNSET
    reset_by_type: GatewayConfigUpdateResetByTypeType0 | None | Unset = UNSET
    session_reset: None | Policy | Unset = UNSET
    thread_sessions_per_user: bool | None | Unset = UNSET
    write_sessions_json: bool | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.gateway_config_update_reset_by_platform_type_0 import (
            GatewayConfigUpdateResetByPlatformType0,
        )
        from ..models.gateway_config_update_reset_by_type_type_0 import GatewayConfigUpdateResetByTypeType0
        from ..models.policy import Policy

        group_sessions_per_user: bool | None | Unset
        if isinstance(self.group_sessions_per_user, Unset):
            group_sessions_per_user = UNSET
        else:
            group_sessions_per_user = self.group_sessions_per_user

        reset_by_platform: dict[str, Any] | None | Unset
        if isinstance(self.reset_by_platform, Unset):
            reset_by_platform = UNSET
        elif isinstance(self.reset_by_platform, GatewayConfigUpdateResetByPlatformType0):
            reset_by_platform = self.reset_by_platform.to_dict()
        else:
            reset_by_platform = self.reset_by_platform

        reset_by_type: dict[str, Any] | None | Unset
        if isinstance(self.reset_by_type, Unset):
            reset_by_type = UNSET
        elif isinstance(self.reset_by_type, GatewayConfigUpdateResetByTypeType0):
            reset_by_type = self.reset_by_type.to_dict()
        else:
            reset_by_type = self.reset_by_type

        session_reset: dict[str, Any] | None | Unset
        if isinstance(self.session_reset, Unset):
            session_reset = UNSET
        elif isinstance(self.session_reset, Policy):
            session_reset = self.session_reset.to_dict()
        else:
            session_reset = self.session_reset

        thread_sessions_per_user: bool | None | Unset
        if isinstance(self.thread_sessions_per_user, Unset):
            thread_sessions_per_user = UNSET
        else:
            thread_sessions_per_user = self.thread_sessions_per_user

        write_sessions_json: bool | None | Unset
        if isinstance(self.write_sessions_json, Unset):
            write_sessions_json = UNSET
        else:
            write_sessions_json = self.write_sessions_json

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if group_sessions_per_user is not UNSET:
            field_dict["group_sessions_per_user"] = group_sessions_per_user
        if reset_by_platform is not UNSET:
            field_dict["reset_by_platform"] = reset_by_platform
        if reset_by_type is not UNSET:
            field_dict["reset_by_type"] = reset_by_type
        if session_reset is not UNSET:
            field_dict["session_reset"] = session_reset
        if thread_sessions_per_user is not UNSET:
            field_dict["thread_sessions_per_user"] = thread_sessions_per_user
        if write_sessions_json is not UNSET:
            field_dict["write_sessions_json"] = write_sessions_json

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.gateway_config_update_reset_by_platform_type_0 import (
            GatewayConfigUpdateResetByPlatformType0,
        )
        from ..models.gateway_config_update_reset_by_type_type_0 import GatewayConfigUpdateResetByTypeType0
        from ..models.policy import Policy

        d = dict(src_dict)

        def _parse_group_sessions_per_user(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        group_sessions_per_user = _parse_group_sessions_per_user(d.pop("group_sessions_per_user", UNSET))

        def _parse_reset_by_platform(data: object) -> GatewayConfigUpdateResetByPlatformType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                reset_by_platform_type_0 = GatewayConfigUpdateResetByPlatformType0.from_dict(data)

                return reset_by_platform_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(GatewayConfigUpdateResetByPlatformType0 | None | Unset, data)

        reset_by_platform = _parse_reset_by_platform(d.pop("reset_by_platform", UNSET))

        def _parse_reset_by_type(data: object) -> GatewayConfigUpdateResetByTypeType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                reset_by_type_type_0 = GatewayConfigUpdateResetByTypeType0.from_dict(data)

                return reset_by_type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(GatewayConfigUpdateResetByTypeType0 | None | Unset, data)

        reset_by_type = _parse_reset_by_type(d.pop("reset_by_type", UNSET))

        def _parse_session_reset(data: object) -> None | Policy | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                session_reset_type_0 = Policy.from_dict(data)

                return session_reset_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Policy | Unset, data)

        session_reset = _parse_session_reset(d.pop("session_reset", UNSET))

        def _parse_thread_sessions_per_user(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        thread_sessions_per_user = _parse_thread_sessions_per_user(d.pop("thread_sessions_per_user", UNSET))

        def _parse_write_sessions_json(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        write_sessions_json = _parse_write_sessions_json(d.pop("write_sessions_json", UNSET))

        gateway_config_update = cls(
            group_sessions_per_user=group_sessions_per_user,
            reset_by_platform=reset_by_platform,
            reset_by_type=reset_by_type,
            session_reset=session_reset,
            thread_sessions_per_user=thread_sessions_per_user,
            write_sessions_json=write_sessions_json,
        )

        return gateway_config_update
