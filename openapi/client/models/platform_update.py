from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.home_channel import HomeChannel


T = TypeVar("T", bound="PlatformUpdate")


@_attrs_define
class PlatformUpdate:
    """``PUT /platforms/{platform}``: the platform's complete settings.

    Attributes:
        enabled (bool):
        home_channel (HomeChannel | None | Unset):
        threads (bool | Unset): Create a dedicated thread per handed-off session Default: False.
    """

    enabled: bool
    home_channel: HomeChannel | None | Unset = UNSET
    threads: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        from ..models.home_channel import HomeChannel

        enabled = self.enabled

        home_channel: dict[str, Any] | None | Unset
        if isinstance(self.home_channel, Unset):
            home_channel = UNSET
        elif isinstance(self.home_channel, HomeChannel):
            home_channel = self.home_channel.to_dict()
        else:
            home_channel = self.home_channel

        threads = self.threads

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "enabled": enabled,
            }
        )
        if home_channel is not UNSET:
            field_dict["home_channel"] = home_channel
        if threads is not UNSET:
            field_dict["threads"] = threads

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.home_channel import HomeChannel

        d = dict(src_dict)
        enabled = d.pop("enabled")

        def _parse_home_channel(data: object) -> HomeChannel | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                home_channel_type_0 = HomeChannel.from_dict(data)

                return home_channel_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(HomeChannel | None | Unset, data)

        home_channel = _parse_home_channel(d.pop("home_channel", UNSET))

        threads = d.pop("threads", UNSET)

        platform_update = cls(
            enabled=enabled,
            home_channel=home_channel,
            threads=threads,
        )

        return platform_update
