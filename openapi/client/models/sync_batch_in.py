from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.sync_batch_in_sessions_item import SyncBatchInSessionsItem
    from ..models.sync_messages_in import SyncMessagesIn


T = TypeVar("T", bound="SyncBatchIn")


@_attrs_define
class SyncBatchIn:
    """One batch of a home's agent file.

    Attributes:
        home (str): the home's label (default of the CLI: host and file path); listings and search filter by it
        file (None | str | Unset): the token of the file's generation, kept by the client beside its cursor: a file that
            replaced the home's earlier one (or a restored or copied one) starts its message ids over under a token of its
            own; absent: generation 0
        messages (SyncMessagesIn | Unset): Message rows as the agent's file holds them, one value per column.
        sessions (list[SyncBatchInSessionsItem] | Unset): at most 1000 session rows (the agent's columns, unknown ones
            carried when this store has them); each is inserted, or overwrites the stored row it synced before
    """

    home: str
    file: None | str | Unset = UNSET
    messages: SyncMessagesIn | Unset = UNSET
    sessions: list[SyncBatchInSessionsItem] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        home = self.home

        file: None | str | Unset
        if isinstance(self.file, Unset):
            file = UNSET
        else:
            file = self.file

        messages: dict[str, Any] | Unset = UNSET
        if not isinstance(self.messages, Unset):
            messages = self.messages.to_dict()

        sessions: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.sessions, Unset):
            sessions = []
            for sessions_item_data in self.sessions:
                sessions_item = sessions_item_data.to_dict()
                sessions.append(sessions_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "home": home,
            }
        )
        if file is not UNSET:
            field_dict["file"] = file
        if messages is not UNSET:
            field_dict["messages"] = messages
        if sessions is not UNSET:
            field_dict["sessions"] = sessions

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.sync_batch_in_sessions_item import SyncBatchInSessionsItem
        from ..models.sync_messages_in import SyncMessagesIn

        d = dict(src_dict)
        home = d.pop("home")

        def _parse_file(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        file = _parse_file(d.pop("file", UNSET))

        _messages = d.pop("messages", UNSET)
        messages: SyncMessagesIn | Unset
        if isinstance(_messages, Unset):
            messages = UNSET
        else:
            messages = SyncMessagesIn.from_dict(_messages)

        _sessions = d.pop("sessions", UNSET)
        sessions: list[SyncBatchInSessionsItem] | Unset = UNSET
        if _sessions is not UNSET:
            sessions = []
            for sessions_item_data in _sessions:
                sessions_item = SyncBatchInSessionsItem.from_dict(sessions_item_data)

                sessions.append(sessions_item)

        sync_batch_in = cls(
            home=home,
            file=file,
            messages=messages,
            sessions=sessions,
        )

        return sync_batch_in
