from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.sync_refused_out import SyncRefusedOut


T = TypeVar("T", bound="SyncResultOut")


@_attrs_define
class SyncResultOut:
    """What one batch did.

    Attributes:
        first_message_id (int | None): the id here of the first message stored (the lowest)
        home (str):
        messages_inserted (int): messages stored, with new ids here in the batch's order (consecutive on SQLite)
        messages_orphaned (int): messages whose session is not a stored session of this home
        messages_skipped (int): messages of this home already stored (a repeat or a resume)
        parents_linked (int): parent links made (a parent may arrive after its child)
        refused (list[SyncRefusedOut]): rows set aside, each with the rule it broke
        sessions_conflicting (list[str]): ids held here by a session created locally or synced from another home: left
            alone, and their messages are counted as orphaned
        sessions_inserted (int): sessions new here
        sessions_new (list[str]): ids of the sessions new here (one the home synced before was deleted or pruned here)
        sessions_updated (int): sessions synced before whose row was overwritten
        titles_changed (list[str]): sessions whose title another session here holds: stored as `title [home]` (or
            untitled when that is taken too)
    """

    first_message_id: int | None
    home: str
    messages_inserted: int
    messages_orphaned: int
    messages_skipped: int
    parents_linked: int
    refused: list[SyncRefusedOut]
    sessions_conflicting: list[str]
    sessions_inserted: int
    sessions_new: list[str]
    sessions_updated: int
    titles_changed: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        first_message_id: int | None
        first_message_id = self.first_message_id

        home = self.home

        messages_inserted = self.messages_inserted

        messages_orphaned = self.messages_orphaned

        messages_skipped = self.messages_skipped

        parents_linked = self.parents_linked

        refused = []
        for refused_item_data in self.refused:
            refused_item = refused_item_data.to_dict()
            refused.append(refused_item)

        sessions_conflicting = self.sessions_conflicting

        sessions_inserted = self.sessions_inserted

        sessions_new = self.sessions_new

        sessions_updated = self.sessions_updated

        titles_changed = self.titles_changed

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "first_message_id": first_message_id,
                "home": home,
                "messages_inserted": messages_inserted,
                "messages_orphaned": messages_orphaned,
                "messages_skipped": messages_skipped,
                "parents_linked": parents_linked,
                "refused": refused,
                "sessions_conflicting": sessions_conflicting,
                "sessions_inserted": sessions_inserted,
                "sessions_new": sessions_new,
                "sessions_updated": sessions_updated,
                "titles_changed": titles_changed,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.sync_refused_out import SyncRefusedOut

        d = dict(src_dict)

        def _parse_first_message_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        first_message_id = _parse_first_message_id(d.pop("first_message_id"))

        home = d.pop("home")

        messages_inserted = d.pop("messages_inserted")

        messages_orphaned = d.pop("messages_orphaned")

        messages_skipped = d.pop("messages_skipped")

        parents_linked = d.pop("parents_linked")

        refused = []
        _refused = d.pop("refused")
        for refused_item_data in _refused:
            refused_item = SyncRefusedOut.from_dict(refused_item_data)

            refused.append(refused_item)

        sessions_conflicting = cast(list[str], d.pop("sessions_conflicting"))

        sessions_inserted = d.pop("sessions_inserted")

        sessions_new = cast(list[str], d.pop("sessions_new"))

        sessions_updated = d.pop("sessions_updated")

        titles_changed = cast(list[str], d.pop("titles_changed"))

        sync_result_out = cls(
            first_message_id=first_message_id,
            home=home,
            messages_inserted=messages_inserted,
            messages_orphaned=messages_orphaned,
            messages_skipped=messages_skipped,
            parents_linked=parents_linked,
            refused=refused,
            sessions_conflicting=sessions_conflicting,
            sessions_inserted=sessions_inserted,
            sessions_new=sessions_new,
            sessions_updated=sessions_updated,
            titles_changed=titles_changed,
        )

        sync_result_out.additional_properties = d
        return sync_result_out

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
