from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.handoff_claimed_state_type_0 import HandoffClaimedStateType0

if TYPE_CHECKING:
    from ..models.handoff_claimed_thread_type_0 import HandoffClaimedThreadType0
    from ..models.home_channel import HomeChannel


T = TypeVar("T", bound="HandoffClaimed")


@_attrs_define
class HandoffClaimed:
    """A claimed handoff (now running) with what the gateway needs to deliver it.

    Attributes:
        error (None | str): Why it failed (≤ 500 characters)
        home_channel (HomeChannel | None):
        platform (None | str):
        requested_at (float | None):
        session_id (str):
        state (HandoffClaimedStateType0 | None): null: no handoff was ever requested
        thread (HandoffClaimedThreadType0 | None): Where a completed session now lives
        threads (bool):
        title (None | str):
        updated_at (float | None):
        worker (None | str): The gateway worker that claimed it
    """

    error: None | str
    home_channel: HomeChannel | None
    platform: None | str
    requested_at: float | None
    session_id: str
    state: HandoffClaimedStateType0 | None
    thread: HandoffClaimedThreadType0 | None
    threads: bool
    title: None | str
    updated_at: float | None
    worker: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.handoff_claimed_thread_type_0 import HandoffClaimedThreadType0
        from ..models.home_channel import HomeChannel

        error: None | str
        error = self.error

        home_channel: dict[str, Any] | None
        if isinstance(self.home_channel, HomeChannel):
            home_channel = self.home_channel.to_dict()
        else:
            home_channel = self.home_channel

        platform: None | str
        platform = self.platform

        requested_at: float | None
        requested_at = self.requested_at

        session_id = self.session_id

        state: None | str
        if isinstance(self.state, HandoffClaimedStateType0):
            state = self.state.value
        else:
            state = self.state

        thread: dict[str, Any] | None
        if isinstance(self.thread, HandoffClaimedThreadType0):
            thread = self.thread.to_dict()
        else:
            thread = self.thread

        threads = self.threads

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
                "home_channel": home_channel,
                "platform": platform,
                "requested_at": requested_at,
                "session_id": session_id,
                "state": state,
                "thread": thread,
                "threads": threads,
                "title": title,
                "updated_at": updated_at,
                "worker": worker,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.handoff_claimed_thread_type_0 import HandoffClaimedThreadType0
        from ..models.home_channel import HomeChannel

        d = dict(src_dict)

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        def _parse_home_channel(data: object) -> HomeChannel | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                home_channel_type_0 = HomeChannel.from_dict(data)

                return home_channel_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(HomeChannel | None, data)

        home_channel = _parse_home_channel(d.pop("home_channel"))

        def _parse_platform(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        platform = _parse_platform(d.pop("platform"))

        def _parse_requested_at(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        requested_at = _parse_requested_at(d.pop("requested_at"))

        session_id = d.pop("session_id")

        def _parse_state(data: object) -> HandoffClaimedStateType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                state_type_0 = HandoffClaimedStateType0(data)

                return state_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(HandoffClaimedStateType0 | None, data)

        state = _parse_state(d.pop("state"))

        def _parse_thread(data: object) -> HandoffClaimedThreadType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                thread_type_0 = HandoffClaimedThreadType0.from_dict(data)

                return thread_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(HandoffClaimedThreadType0 | None, data)

        thread = _parse_thread(d.pop("thread"))

        threads = d.pop("threads")

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

        handoff_claimed = cls(
            error=error,
            home_channel=home_channel,
            platform=platform,
            requested_at=requested_at,
            session_id=session_id,
            state=state,
            thread=thread,
            threads=threads,
            title=title,
            updated_at=updated_at,
            worker=worker,
        )

        handoff_claimed.additional_properties = d
        return handoff_claimed

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
