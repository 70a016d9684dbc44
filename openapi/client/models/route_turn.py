from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="RouteTurn")


@_attrs_define
class RouteTurn:
    """``POST /gateway/route/turn``: a turn finished on the chat.

    Attributes:
        session_key (str):
        last_prompt_tokens (int | None | Unset): Prompt tokens the turn's last API call reported
    """

    session_key: str
    last_prompt_tokens: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        session_key = self.session_key

        last_prompt_tokens: int | None | Unset
        if isinstance(self.last_prompt_tokens, Unset):
            last_prompt_tokens = UNSET
        else:
            last_prompt_tokens = self.last_prompt_tokens

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "session_key": session_key,
            }
        )
        if last_prompt_tokens is not UNSET:
            field_dict["last_prompt_tokens"] = last_prompt_tokens

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        session_key = d.pop("session_key")

        def _parse_last_prompt_tokens(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        last_prompt_tokens = _parse_last_prompt_tokens(d.pop("last_prompt_tokens", UNSET))

        route_turn = cls(
            session_key=session_key,
            last_prompt_tokens=last_prompt_tokens,
        )

        return route_turn
