from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="HomeChannel")


@_attrs_define
class HomeChannel:
    """The chat a platform's handoffs land in (``/sethome`` sets it).

    Attributes:
        chat_id (str):
        name (None | str | Unset): Display name of the chat
    """

    chat_id: str
    name: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        chat_id = self.chat_id

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "chat_id": chat_id,
            }
        )
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        chat_id = d.pop("chat_id")

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        home_channel = cls(
            chat_id=chat_id,
            name=name,
        )

        return home_channel
