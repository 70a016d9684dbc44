from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.home_channel import HomeChannel


T = TypeVar("T", bound="PlatformPublic")


@_attrs_define
class PlatformPublic:
    """A platform's gateway settings.

    Attributes:
        enabled (bool):
        home_channel (HomeChannel | None):
        platform (str):
        threads (bool):
        updated_at (float | None): Last change; null when never configured
    """

    enabled: bool
    home_channel: HomeChannel | None
    platform: str
    threads: bool
    updated_at: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.home_channel import HomeChannel

        enabled = self.enabled

        home_channel: dict[str, Any] | None
        if isinstance(self.home_channel, HomeChannel):
            home_channel = self.home_channel.to_dict()
        else:
            home_channel = self.home_channel

        platform = self.platform

        threads = self.threads

        updated_at: float | None
        updated_at = self.updated_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "enabled": enabled,
                "home_channel": home_channel,
                "platform": platform,
                "threads": threads,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.home_channel import HomeChannel

        d = dict(src_dict)
        enabled = d.pop("enabled")

        def _parse_home_channel(data: object) -> HomeChannel | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                home_channel_type_0 = HomeChannel.from_dict(data)

                return home_channel_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(HomeChannel | None, data)

        home_channel = _parse_home_channel(d.pop("home_channel"))

        platform = d.pop("platform")

        threads = d.pop("threads")

        def _parse_updated_at(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        updated_at = _parse_updated_at(d.pop("updated_at"))

        platform_public = cls(
            enabled=enabled,
            home_channel=home_channel,
            platform=platform,
            threads=threads,
            updated_at=updated_at,
        )

        platform_public.additional_properties = d
        return platform_public

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
