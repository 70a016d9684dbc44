from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="AutoPruneRunOut")


@_attrs_define
class AutoPruneRunOut:
    """One run, as the agent's ``maybe_auto_prune_and_vacuum`` reports it.

    Attributes:
        pruned (int):
        skipped (bool):
        vacuumed (bool):
        error (None | str | Unset):
        messages (int | None | Unset):
        optimized (bool | None | Unset):
        reason (None | str | Unset): why it was skipped: interval, lease_held, running
    """

    pruned: int
    skipped: bool
    vacuumed: bool
    error: None | str | Unset = UNSET
    messages: int | None | Unset = UNSET
    optimized: bool | None | Unset = UNSET
    reason: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        pruned = self.pruned

        skipped = self.skipped

        vacuumed = self.vacuumed

        error: None | str | Unset
        if isinstance(self.error, Unset):
            error = UNSET
        else:
            error = self.error

        messages: int | None | Unset
        if isinstance(self.messages, Unset):
            messages = UNSET
        else:
            messages = self.messages

        optimized: bool | None | Unset
        if isinstance(self.optimized, Unset):
            optimized = UNSET
        else:
            optimized = self.optimized

        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "pruned": pruned,
                "skipped": skipped,
                "vacuumed": vacuumed,
            }
        )
        if error is not UNSET:
            field_dict["error"] = error
        if messages is not UNSET:
            field_dict["messages"] = messages
        if optimized is not UNSET:
            field_dict["optimized"] = optimized
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        pruned = d.pop("pruned")

        skipped = d.pop("skipped")

        vacuumed = d.pop("vacuumed")

        def _parse_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error = _parse_error(d.pop("error", UNSET))

        def _parse_messages(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        messages = _parse_messages(d.pop("messages", UNSET))

        def _parse_optimized(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        optimized = _parse_optimized(d.pop("optimized", UNSET))

        def _parse_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))

        auto_prune_run_out = cls(
            pruned=pruned,
            skipped=skipped,
            vacuumed=vacuumed,
            error=error,
            messages=messages,
            optimized=optimized,
            reason=reason,
        )

        auto_prune_run_out.additional_properties = d
        return auto_prune_run_out

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
