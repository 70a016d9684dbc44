from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.usage_mode import UsageMode
from ..types import UNSET, Unset

T = TypeVar("T", bound="UsageUpdate")


@_attrs_define
class UsageUpdate:
    """Body of ``POST /sessions/{id}/usage`` (the agent's ``update_token_counts``).

    Attributes:
        actual_cost_usd (float | None | Unset): USD, at most 10^12
        api_call_count (int | Unset):  Default: 0.
        billing_base_url (None | str | Unset):
        billing_mode (None | str | Unset):
        billing_provider (None | str | Unset):
        cache_read_tokens (int | Unset):  Default: 0.
        cache_write_tokens (int | Unset):  Default: 0.
        estimated_cost_usd (float | None | Unset): USD, at most 10^12
        input_tokens (int | Unset):  Default: 0.
        mode (UsageMode | Unset): How usage counters apply.
        model (None | str | Unset): Recorded only when the session has none
        output_tokens (int | Unset):  Default: 0.
        reasoning_tokens (int | Unset):  Default: 0.
    """

    actual_cost_usd: float | None | Unset = UNSET
    api_call_count: int | Unset = 0
    billing_base_url: None | str | Unset = UNSET
    billing_mode: None | str | Unset = UNSET
    billing_provider: None | str | Unset = UNSET
    cache_read_tokens: int | Unset = 0
    cache_write_tokens: int | Unset = 0
    estimated_cost_usd: float | None | Unset = UNSET
    input_tokens: int | Unset = 0
    mode: UsageMode | Unset = UNSET
    model: None | str | Unset = UNSET
    output_tokens: int | Unset = 0
    reasoning_tokens: int | Unset = 0

    def to_dict(self) -> dict[str, Any]:
        actual_cost_usd: float | None | Unset
        if isinstance(self.actual_cost_usd, Unset):
            actual_cost_usd = UNSET
        else:
            actual_cost_usd = self.actual_cost_usd

        api_call_count = self.api_call_count

        billing_base_url: None | str | Unset
        if isinstance(self.billing_base_url, Unset):
            billing_base_url = UNSET
        else:
            billing_base_url = self.billing_base_url

        billing_mode: None | str | Unset
        if isinstance(self.billing_mode, Unset):
            billing_mode = UNSET
        else:
            billing_mode = self.billing_mode

        billing_provider: None | str | Unset
        if isinstance(self.billing_provider, Unset):
            billing_provider = UNSET
        else:
            billing_provider = self.billing_provider

        cache_read_tokens = self.cache_read_tokens

        cache_write_tokens = self.cache_write_tokens

        estimated_cost_usd: float | None | Unset
        if isinstance(self.estimated_cost_usd, Unset):
            estimated_cost_usd = UNSET
        else:
            estimated_cost_usd = self.estimated_cost_usd

        input_tokens = self.input_tokens

        mode: str | Unset = UNSET
        if not isinstance(self.mode, Unset):
            mode = self.mode.value

        model: None | str | Unset
        if isinstance(self.model, Unset):
            model = UNSET
        else:
            model = self.model

        output_tokens = self.output_tokens

        reasoning_tokens = self.reasoning_tokens

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if actual_cost_usd is not UNSET:
            field_dict["actual_cost_usd"] = actual_cost_usd
        if api_call_count is not UNSET:
            field_dict["api_call_count"] = api_call_count
        if billing_base_url is not UNSET:
            field_dict["billing_base_url"] = billing_base_url
        if billing_mode is not UNSET:
            field_dict["billing_mode"] = billing_mode
        if billing_provider is not UNSET:
            field_dict["billing_provider"] = billing_provider
        if cache_read_tokens is not UNSET:
            field_dict["cache_read_tokens"] = cache_read_tokens
        if cache_write_tokens is not UNSET:
            field_dict["cache_write_tokens"] = cache_write_tokens
        if estimated_cost_usd is not UNSET:
            field_dict["estimated_cost_usd"] = estimated_cost_usd
        if input_tokens is not UNSET:
            field_dict["input_tokens"] = input_tokens
        if mode is not UNSET:
            field_dict["mode"] = mode
        if model is not UNSET:
            field_dict["model"] = model
        if output_tokens is not UNSET:
            field_dict["output_tokens"] = output_tokens
        if reasoning_tokens is not UNSET:
            field_dict["reasoning_tokens"] = reasoning_tokens

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_actual_cost_usd(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        actual_cost_usd = _parse_actual_cost_usd(d.pop("actual_cost_usd", UNSET))

        api_call_count = d.pop("api_call_count", UNSET)

        def _parse_billing_base_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        billing_base_url = _parse_billing_base_url(d.pop("billing_base_url", UNSET))

        def _parse_billing_mode(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        billing_mode = _parse_billing_mode(d.pop("billing_mode", UNSET))

        def _parse_billing_provider(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        billing_provider = _parse_billing_provider(d.pop("billing_provider", UNSET))

        cache_read_tokens = d.pop("cache_read_tokens", UNSET)

        cache_write_tokens = d.pop("cache_write_tokens", UNSET)

        def _parse_estimated_cost_usd(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        estimated_cost_usd = _parse_estimated_cost_usd(d.pop("estimated_cost_usd", UNSET))

        input_tokens = d.pop("input_tokens", UNSET)

        _mode = d.pop("mode", UNSET)
        mode: UsageMode | Unset
        if isinstance(_mode, Unset):
            mode = UNSET
        else:
            mode = UsageMode(_mode)

        def _parse_model(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        model = _parse_model(d.pop("model", UNSET))

        output_tokens = d.pop("output_tokens", UNSET)

        reasoning_tokens = d.pop("reasoning_tokens", UNSET)

        usage_update = cls(
            actual_cost_usd=actual_cost_usd,
            api_call_count=api_call_count,
            billing_base_url=billing_base_url,
            billing_mode=billing_mode,
            billing_provider=billing_provider,
            cache_read_tokens=cache_read_tokens,
            cache_write_tokens=cache_write_tokens,
            estimated_cost_usd=estimated_cost_usd,
            input_tokens=input_tokens,
            mode=mode,
            model=model,
            output_tokens=output_tokens,
            reasoning_tokens=reasoning_tokens,
        )

        return usage_update
