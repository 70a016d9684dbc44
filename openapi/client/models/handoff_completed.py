from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.handoff_completed_state_type_0 import HandoffCompletedStateType0

if TYPE_CHECKING:
    from ..models.handoff_completed_thread_type_0 import HandoffCompletedThreadType0


T = TypeVar("T", bound="HandoffCompleted")


@_attrs_define
class HandoffCompleted:
    """``POST /handoff/{id}/complete``: the settled handoff and where the gateway now routes it.

    Attributes:
        error (None | str): Why it failed (≤ 500 characters)
        platform (None | str):
        previous_session_id (str): The session that chat held (ended session_switch)
        requested_at (float | None):
        session_id (str):
        session_key (str): The destination chat's routing key, now pointing at the session
        state (HandoffCompletedStateType0 | None): null: no handoff was ever requested
        synthetic_turn (str): The internal message the gateway dispatches to the agent
        thread (HandoffCompletedThreadType0 | None): Where a completed session now lives
        title (None | str):
        updated_at (float | None):
        worker (None | str): The gateway worker that claimed it
    """

    error: None | str
    platform: None | str
    previous_session_id: str
    requested_at: float | None
    session_id: str
    session_key: str
    state: HandoffCompletedStateType0 | None
    synthetic_turn: str
    thread: HandoffCompletedThreadType0 | None
    title: None | str
    updated_at: float | None
    worker: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.handoff_completed_thread_type_0 import HandoffCompletedThreadType0

        error: None | str
        error = self.error

        platform: None | str
        platform = self.platform

        previous_session_id = self.previous_session_id

        requested_at: float | None
        requested_at = self.requested_at

        session_id = self.session_id

        session_key = self.session_key

        state: None | str
        if isinstance(self.state, HandoffCompletedStateType0):
            state = self.state.value
        else:
            state = self.state

        synthetic_turn = self.synthetic_turn

        thread: dict[str, Any] | None
        if isinstance(self.thread, HandoffCompletedThreadType0):
            thread = self.thread.to_dict()
        else:
            thread = self.thread

        title: None | str
        title = self.title

        updated_at: float | None
        updated_at = self.updated_at

        worker: None | str
        worker = self.worker

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "error": error,
                "platform": platform,
                "previous_session_id": previous_session_id,
                "requested_at": requested_at,
                "session_id": session_id,
                "session_key": session_key,
                "state": state,
                "synthetic_turn": synthetic_turn,
                "thread": thread,
                "title": title,
                "updated_at": updated_at,
                "worker": worker,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.handoff_completed_thread_type_0 import HandoffCompletedThreadType0

        d = dict(src_dict)

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        def _parse_platform(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        platform = _parse_platform(d.pop("platform"))

        previous_session_id = d.pop("previous_session_id")

        def _parse_requested_at(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        requested_at = _parse_requested_at(d.pop("requested_at"))

        session_id = d.pop("session_id")

        session_key = d.pop("session_key")

        def _parse_state(data: object) -> HandoffCompletedStateType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                state_type_0 = HandoffCompletedStateType0(data)

                return state_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(HandoffCompletedStateType0 | None, data)

        state = _parse_state(d.pop("state"))

        synthetic_turn = d.pop("synthetic_turn")

        def _parse_thread(data: object) -> HandoffCompletedThreadType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                thread_type_0 = HandoffCompletedThreadType0.from_dict(data)

                return thread_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(HandoffCompletedThreadType0 | None, data)

        thread = _parse_thread(d.pop("thread"))

        def _parse_title(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        title = _parse_title(d.pop("title"))

        def _parse_updated_at(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        updated_at = _parse_updated_at(d.pop("updated_at"))

        def _parse_worker(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        worker = _parse_worker(d.pop("worker"))

        handoff_completed = cls(
            error=error,
            platform=platform,
            previous_session_id=previous_session_id,
            requested_at=requested_at,
            session_id=session_id,
            session_key=session_key,
            state=state,
            synthetic_turn=synthetic_turn,
            thread=thread,
            title=title,
            updated_at=updated_at,
            worker=worker,
        )

        handoff_completed.additional_properties = d
        return handoff_completed

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
