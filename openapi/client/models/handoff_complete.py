from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.handoff_complete_thread_type_0 import HandoffCompleteThreadType0


T = TypeVar("T", bound="HandoffComplete")


@_attrs_define
class HandoffComplete:
    """``POST /handoff/{id}/complete``: where the session now lives.

    Attributes:
        thread (HandoffCompleteThreadType0 | None | Unset): The destination, e.g. {chat_id, thread_id, name, url}; null:
            the home channel itself
    """

    thread: HandoffCompleteThreadType0 | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.handoff_complete_thread_type_0 import HandoffCompleteThreadType0

        thread: dict[str, Any] | None | Unset
        if isinstance(self.thread, Unset):
            thread = UNSET
        elif isinstance(self.thread, HandoffCompleteThreadType0):
            thread = self.thread.to_dict()
        else:
            thread = self.thread

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if thread is not UNSET:
            field_dict["thread"] = thread

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.handoff_complete_thread_type_0 import HandoffCompleteThreadType0

        d = dict(src_dict)

        def _parse_thread(data: object) -> HandoffCompleteThreadType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                thread_type_0 = HandoffCompleteThreadType0.from_dict(data)

                return thread_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(HandoffCompleteThreadType0 | None | Unset, data)

        thread = _parse_thread(d.pop("thread", UNSET))

        handoff_complete = cls(
            thread=thread,
        )

        return handoff_complete
