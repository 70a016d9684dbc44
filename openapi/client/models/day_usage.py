from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DayUsage")


@_attrs_define
class DayUsage:
    """
    Attributes:
        cache_read_tokens (int):
        cache_write_tokens (int):
        cost_usd (float): actual cost where known, else estimated
        day (str): UTC date, YYYY-MM-DD
        input_tokens (int):
        messages (int):
        output_tokens (int):
        reasoning_tokens (int):
        sessions (int):
    """

    cache_read_tokens: int
    cache_write_tokens: int
    cost_usd: float
    day: str
    input_tokens: int
    messages: int
    output_tokens: int
    reasoning_tokens: int
    sessions: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cache_read_tokens = self.cache_read_tokens

        cache_write_tokens = self.cache_write_tokens

        cost_usd = self.cost_usd

        day = self.day

        input_tokens = self.input_tokens

        messages = self.messages

        output_tokens = self.output_tokens

        reasoning_tokens = self.reasoning_tokens

        sessions = self.sessions

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "cache_read_tokens": cache_read_tokens,
                "cache_write_tokens": cache_write_tokens,
                "cost_usd": cost_usd,
                "day": day,
                "input_tokens": input_tokens,
                "messages": messages,
                "output_tokens": output_tokens,
                "reasoning_tokens": reasoning_tokens,
                "sessions": sessions,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        cache_read_tokens = d.pop("cache_read_tokens")

        cache_write_tokens = d.pop("cache_write_tokens")

        cost_usd = d.pop("cost_usd")

        day = d.pop("day")

        input_tokens = d.pop("input_tokens")

        messages = d.pop("messages")

        output_tokens = d.pop("output_tokens")

        reasoning_tokens = d.pop("reasoning_tokens")

        sessions = d.pop("sessions")

        day_usage = cls(
            cache_read_tokens=cache_read_tokens,
            cache_write_tokens=cache_write_tokens,
            cost_usd=cost_usd,
            day=day,
            input_tokens=input_tokens,
            messages=messages,
            output_tokens=output_tokens,
            reasoning_tokens=reasoning_tokens,
            sessions=sessions,
        )

        day_usage.additional_properties = d
        return day_usage

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
