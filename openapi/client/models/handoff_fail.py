from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.handoff_fail_only_states_type_0_item import HandoffFailOnlyStatesType0Item
from ..types import UNSET, Unset

T = TypeVar("T", bound="HandoffFail")


@_attrs_define
class HandoffFail:
    """``POST /handoff/{id}/fail``.

    Attributes:
        error (str): Kept to its first 500 characters
        only_states (list[HandoffFailOnlyStatesType0Item] | None | Unset): Fail only from these states (default both);
            else 409 handoff_state_changed
    """

    error: str
    only_states: list[HandoffFailOnlyStatesType0Item] | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        error = self.error

        only_states: list[str] | None | Unset
        if isinstance(self.only_states, Unset):
            only_states = UNSET
        elif isinstance(self.only_states, list):
            only_states = []
            for only_states_type_0_item_data in self.only_states:
                only_states_type_0_item = only_states_type_0_item_data.value
                only_states.append(only_states_type_0_item)

        else:
            only_states = self.only_states

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "error": error,
            }
        )
        if only_states is not UNSET:
            field_dict["only_states"] = only_states

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        error = d.pop("error")

        def _parse_only_states(data: object) -> list[HandoffFailOnlyStatesType0Item] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                only_states_type_0 = []
                _only_states_type_0 = data
                for only_states_type_0_item_data in _only_states_type_0:
                    only_states_type_0_item = HandoffFailOnlyStatesType0Item(only_states_type_0_item_data)

                    only_states_type_0.append(only_states_type_0_item)

                return only_states_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[HandoffFailOnlyStatesType0Item] | None | Unset, data)

        only_states = _parse_only_states(d.pop("only_states", UNSET))

        handoff_fail = cls(
            error=error,
            only_states=only_states,
        )

        return handoff_fail
