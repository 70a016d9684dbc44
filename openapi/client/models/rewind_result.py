from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.message_public import MessagePublic


T = TypeVar("T", bound="RewindResult")


@_attrs_define
class RewindResult:
    """The outcome of a rewind.

    Attributes:
        message_count (int): Unchanged by a rewind, as in the agent
        new_head_id (int | None): Last message still active, or null
        rewind_count (int): The session's rewind counter after this rewind
        rewound_count (int): Messages newly made inactive (0 when already rewound)
        session_id (str):
        target_message (MessagePublic): A stored message.
    """

    message_count: int
    new_head_id: int | None
    rewind_count: int
    rewound_count: int
    session_id: str
    target_message: MessagePublic
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        message_count = self.message_count

        new_head_id: int | None
        new_head_id = self.new_head_id

        rewind_count = self.rewind_count

        rewound_count = self.rewound_count

        session_id = self.session_id

        target_message = self.target_message.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "message_count": message_count,
                "new_head_id": new_head_id,
                "rewind_count": rewind_count,
                "rewound_count": rewound_count,
                "session_id": session_id,
                "target_message": target_message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.message_public import MessagePublic

        d = dict(src_dict)
        message_count = d.pop("message_count")

        def _parse_new_head_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        new_head_id = _parse_new_head_id(d.pop("new_head_id"))

        rewind_count = d.pop("rewind_count")

        rewound_count = d.pop("rewound_count")

        session_id = d.pop("session_id")

        target_message = MessagePublic.from_dict(d.pop("target_message"))

        rewind_result = cls(
            message_count=message_count,
            new_head_id=new_head_id,
            rewind_count=rewind_count,
            rewound_count=rewound_count,
            session_id=session_id,
            target_message=target_message,
        )

        rewind_result.additional_properties = d
        return rewind_result

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
