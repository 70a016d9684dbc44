from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ModelUsage")


@_attrs_define
class ModelUsage:
    """
    Attributes:
        cache_read_tokens (int):
        cache_write_tokens (int):
        cost_usd (float): actual cost where known, else estimated
        input_tokens (int):
        messages (int):
        model (None | str):
        output_tokens (int):
        reasoning_tokens (int):
        sessions (int):
    """

    cache_read_tokens: int
    cache_write_tokens: int
    cost_usd: float
    input_tokens: int
    messages: int
    model: None | str
    output_tokens: int
    reasoning_tokens: int
    sessions: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cache_read_tokens = self.cache_read_tokens

        cache_write_tokens = self.cache_write_tokens

        cost_usd = self.cost_usd

        input_tokens = self.input_tokens

        messages = self.messages

        model: None | str
        model = self.model

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
                "input_tokens": input_tokens,
                "messages": messages,
                "model": model,
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

        input_tokens = d.pop("input_tokens")

        messages = d.pop("messages")

        def _parse_model(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        model = _parse_model(d.pop("model"))

        output_tokens = d.pop("output_tokens")

        reasoning_tokens = d.pop("reasoning_tokens")

        sessions = d.pop("sessions")

        model_usage = cls(
            cache_read_tokens=cache_read_tokens,
            cache_write_tokens=cache_write_tokens,
            cost_usd=cost_usd,
            input_tokens=input_tokens,
            messages=messages,
            model=model,
            output_tokens=output_tokens,
            reasoning_tokens=reasoning_tokens,
            sessions=sessions,
        )

        model_usage.additional_properties = d
        return model_usage

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
