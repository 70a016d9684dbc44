from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.background_process import BackgroundProcess


T = TypeVar("T", bound="RouteMessage")


@_attrs_define
class RouteMessage:
    """``POST /gateway/route``: the message source (the agent's ``SessionSource``) and routing flags.

    Attributes:
        platform (str): 422 unknown_platform if not a gateway platform
        background_processes (list[BackgroundProcess] | None | Unset): The chat's live background processes (remembered
            until the next list)
        chat_id (str | Unset):  Default: ''.
        chat_name (None | str | Unset):
        chat_topic (None | str | Unset):
        chat_type (str | Unset): dm, group, channel or thread Default: 'dm'.
        group_sessions_per_user (bool | None | Unset): Default: config.yaml
        profile (None | str | Unset): Key namespace agent:<profile> (default / none: agent:main)
        thread_id (None | str | Unset):
        thread_sessions_per_user (bool | None | Unset): Default: config.yaml
        user_id (None | str | Unset):
        user_id_alt (None | str | Unset):
        user_name (None | str | Unset):
    """

    platform: str
    background_processes: list[BackgroundProcess] | None | Unset = UNSET
    chat_id: str | Unset = ""
    chat_name: None | str | Unset = UNSET
    chat_topic: None | str | Unset = UNSET
    chat_type: str | Unset = "dm"
    group_sessions_per_user: bool | None | Unset = UNSET
    profile: None | str | Unset = UNSET
    thread_id: None | str | Unset = UNSET
    thread_sessions_per_user: bool | None | Unset = UNSET
    user_id: None | str | Unset = UNSET
    user_id_alt: None | str | Unset = UNSET
    user_name: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        platform = self.platform

        background_processes: list[dict[str, Any]] | None | Unset
        if isinstance(self.background_processes, Unset):
            background_processes = UNSET
        elif isinstance(self.background_processes, list):
            background_processes = []
            for background_processes_type_0_item_data in self.background_processes:
                background_processes_type_0_item = background_processes_type_0_item_data.to_dict()
                background_processes.append(background_processes_type_0_item)

        else:
            background_processes = self.background_processes

        chat_id = self.chat_id

        chat_name: None | str | Unset
        if isinstance(self.chat_name, Unset):
            chat_name = UNSET
        else:
            chat_name = self.chat_name

        chat_topic: None | str | Unset
        if isinstance(self.chat_topic, Unset):
            chat_topic = UNSET
        else:
            chat_topic = self.chat_topic

        chat_type = self.chat_type

        group_sessions_per_user: bool | None | Unset
        if isinstance(self.group_sessions_per_user, Unset):
            group_sessions_per_user = UNSET
        else:
            group_sessions_per_user = self.group_sessions_per_user

        profile: None | str | Unset
        if isinstance(self.profile, Unset):
            profile = UNSET
        else:
            profile = self.profile

        thread_id: None | str | Unset
        if isinstance(self.thread_id, Unset):
            thread_id = UNSET
        else:
            thread_id = self.thread_id

        thread_sessions_per_user: bool | None | Unset
        if isinstance(self.thread_sessions_per_user, Unset):
            thread_sessions_per_user = UNSET
        else:
            thread_sessions_per_user = self.thread_sessions_per_user

        user_id: None | str | Unset
        if isinstance(self.user_id, Unset):
            user_id = UNSET
        else:
            user_id = self.user_id

        user_id_alt: None | str | Unset
        if isinstance(self.user_id_alt, Unset):
            user_id_alt = UNSET
        else:
            user_id_alt = self.user_id_alt

        user_name: None | str | Unset
        if isinstance(self.user_name, Unset):
            user_name = UNSET
        else:
            user_name = self.user_name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "platform": platform,
            }
        )
        if background_processes is not UNSET:
            field_dict["background_processes"] = background_processes
        if chat_id is not UNSET:
            field_dict["chat_id"] = chat_id
        if chat_name is not UNSET:
            field_dict["chat_name"] = chat_name
        if chat_topic is not UNSET:
            field_dict["chat_topic"] = chat_topic
        if chat_type is not UNSET:
            field_dict["chat_type"] = chat_type
        if group_sessions_per_user is not UNSET:
            field_dict["group_sessions_per_user"] = group_sessions_per_user
        if profile is not UNSET:
            field_dict["profile"] = profile
        if thread_id is not UNSET:
            field_dict["thread_id"] = thread_id
        if thread_sessions_per_user is not UNSET:
            field_dict["thread_sessions_per_user"] = thread_sessions_per_user
        if user_id is not UNSET:
            field_dict["user_id"] = user_id
        if user_id_alt is not UNSET:
            field_dict["user_id_alt"] = user_id_alt
        if user_name is not UNSET:
            field_dict["user_name"] = user_name

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.background_process import BackgroundProcess

        d = dict(src_dict)
        platform = d.pop("platform")

        def _parse_background_processes(data: object) -> list[BackgroundProcess] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                background_processes_type_0 = []
                _background_processes_type_0 = data
                for background_processes_type_0_item_data in _background_processes_type_0:
                    background_processes_type_0_item = BackgroundProcess.from_dict(
                        background_processes_type_0_item_data
                    )

                    background_processes_type_0.append(background_processes_type_0_item)

                return background_processes_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[BackgroundProcess] | None | Unset, data)

        background_processes = _parse_background_processes(d.pop("background_processes", UNSET))

        chat_id = d.pop("chat_id", UNSET)

        def _parse_chat_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        chat_name = _parse_chat_name(d.pop("chat_name", UNSET))

        def _parse_chat_topic(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        chat_topic = _parse_chat_topic(d.pop("chat_topic", UNSET))

        chat_type = d.pop("chat_type", UNSET)

        def _parse_group_sessions_per_user(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        group_sessions_per_user = _parse_group_sessions_per_user(d.pop("group_sessions_per_user", UNSET))

        def _parse_profile(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        profile = _parse_profile(d.pop("profile", UNSET))

        def _parse_thread_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        thread_id = _parse_thread_id(d.pop("thread_id", UNSET))

        def _parse_thread_sessions_per_user(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        thread_sessions_per_user = _parse_thread_sessions_per_user(d.pop("thread_sessions_per_user", UNSET))

        def _parse_user_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        user_id = _parse_user_id(d.pop("user_id", UNSET))

        def _parse_user_id_alt(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        user_id_alt = _parse_user_id_alt(d.pop("user_id_alt", UNSET))

        def _parse_user_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        user_name = _parse_user_name(d.pop("user_name", UNSET))

        route_message = cls(
            platform=platform,
            background_processes=background_processes,
            chat_id=chat_id,
            chat_name=chat_name,
            chat_topic=chat_topic,
            chat_type=chat_type,
            group_sessions_per_user=group_sessions_per_user,
            profile=profile,
            thread_id=thread_id,
            thread_sessions_per_user=thread_sessions_per_user,
            user_id=user_id,
            user_id_alt=user_id_alt,
            user_name=user_name,
        )

        return route_message
