from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.session_public_title_source_type_0 import SessionPublicTitleSourceType0
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.handoff import Handoff
    from ..models.session_public_model_config_type_0 import SessionPublicModelConfigType0


T = TypeVar("T", bound="SessionPublic")


@_attrs_define
class SessionPublic:
    """A session as the API shows it (``system_prompt`` only with ``include=system_prompt``).

    Attributes:
        actual_cost_usd (float | None):
        api_call_count (int):
        archived (bool):
        cache_read_tokens (int):
        cache_write_tokens (int):
        chat_id (None | str):
        chat_type (None | str):
        end_reason (None | str):
        ended_at (float | None):
        estimated_cost_usd (float | None):
        handoff (Handoff | None):
        has_system_prompt (bool):
        id (str):
        input_tokens (int):
        last_active (float): Newest message time, else started_at
        lineage_root_id (str): First session of the compression lineage
        message_count (int):
        model (None | str):
        model_config (None | SessionPublicModelConfigType0): Provider settings snapshot; the unrenderable marker (see
            Message.tool_calls) when the stored value cannot be rendered
        output_tokens (int):
        parent_session_id (None | str):
        preview (str): First user message, newlines folded, 60 chars + '...'
        reasoning_tokens (int):
        session_key (None | str):
        source (str):
        started_at (float):
        thread_id (None | str):
        title (None | str):
        tool_call_count (int):
        user_id (None | str):
        cwd (None | str | Unset): Working directory the agent ran in (workspace)
        git_branch (None | str | Unset): Git branch of the workspace
        git_repo_root (None | str | Unset): Git repository root (the workspace key when set, else cwd)
        home (None | str | Unset): The home `hermes sessions sync` brought the session from (its label); null for a
            session created here
        pinned (bool | Unset): Kept from prune, auto-prune and archive (PUT/DELETE /sessions/{id}/pin) Default: False.
        profile_name (None | str | Unset): The agent profile the session ran under
        system_prompt (None | str | Unset): Only with include=system_prompt
        title_source (None | SessionPublicTitleSourceType0 | Unset): Who set the title: a person, the automatic titler,
            or unknown/none
    """

    actual_cost_usd: float | None
    api_call_count: int
    archived: bool
    cache_read_tokens: int
    cache_write_tokens: int
    chat_id: None | str
    chat_type: None | str
    end_reason: None | str
    ended_at: float | None
    estimated_cost_usd: float | None
    handoff: Handoff | None
    has_system_prompt: bool
    id: str
    input_tokens: int
    last_active: float
    lineage_root_id: str
    message_count: int
    model: None | str
    model_config: None | SessionPublicModelConfigType0
    output_tokens: int
    parent_session_id: None | str
    preview: str
    reasoning_tokens: int
    session_key: None | str
    source: str
    started_at: float
    thread_id: None | str
    title: None | str
    tool_call_count: int
    user_id: None | str
    cwd: None | str | Unset = UNSET
    git_branch: None | str | Unset = UNSET
    git_repo_root: None | str | Unset = UNSET
    home: None | str | Unset = UNSET
    pinned: bool | Unset = False
    profile_name: None | str | Unset = UNSET
    system_prompt: None | str | Unset = UNSET
    title_source: None | SessionPublicTitleSourceType0 | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.handoff import Handoff
        from ..models.session_public_model_config_type_0 import SessionPublicModelConfigType0

        actual_cost_usd: float | None
        actual_cost_usd = self.actual_cost_usd

        api_call_count = self.api_call_count

        archived = self.archived

        cache_read_tokens = self.cache_read_tokens

        cache_write_tokens = self.cache_write_tokens

        chat_id: None | str
        chat_id = self.chat_id

        chat_type: None | str
        chat_type = self.chat_type

        end_reason: None | str
        end_reason = self.end_reason

        ended_at: float | None
        ended_at = self.ended_at

        estimated_cost_usd: float | None
        estimated_cost_usd = self.estimated_cost_usd

        handoff: dict[str, Any] | None
        if isinstance(self.handoff, Handoff):
            handoff = self.handoff.to_dict()
        else:
            handoff = self.handoff

        has_system_prompt = self.has_system_prompt

        id = self.id

        input_tokens = self.input_tokens

        last_active = self.last_active

        lineage_root_id = self.lineage_root_id

        message_count = self.message_count

        model: None | str
        model = self.model

        model_config: dict[str, Any] | None
        if isinstance(self.model_config, SessionPublicModelConfigType0):
            model_config = self.model_config.to_dict()
        else:
            model_config = self.model_config

        output_tokens = self.output_tokens

        parent_session_id: None | str
        parent_session_id = self.parent_session_id

        preview = self.preview

        reasoning_tokens = self.reasoning_tokens

        session_key: None | str
        session_key = self.session_key

        source = self.source

        started_at = self.started_at

        thread_id: None | str
        thread_id = self.thread_id

        title: None | str
        title = self.title

        tool_call_count = self.tool_call_count

        user_id: None | str
        user_id = self.user_id

        cwd: None | str | Unset
        if isinstance(self.cwd, Unset):
            cwd = UNSET
        else:
            cwd = self.cwd

        git_branch: None | str | Unset
        if isinstance(self.git_branch, Unset):
            git_branch = UNSET
        else:
            git_branch = self.git_branch

        git_repo_root: None | str | Unset
        if isinstance(self.git_repo_root, Unset):
            git_repo_root = UNSET
        else:
            git_repo_root = self.git_repo_root

        home: None | str | Unset
        if isinstance(self.home, Unset):
            home = UNSET
        else:
            home = self.home

        pinned = self.pinned

        profile_name: None | str | Unset
        if isinstance(self.profile_name, Unset):
            profile_name = UNSET
        else:
            profile_name = self.profile_name

        system_prompt: None | str | Unset
        if isinstance(self.system_prompt, Unset):
            system_prompt = UNSET
        else:
            system_prompt = self.system_prompt

        title_source: None | str | Unset
        if isinstance(self.title_source, Unset):
            title_source = UNSET
        elif isinstance(self.title_source, SessionPublicTitleSourceType0):
            title_source = self.title_source.value
        else:
            title_source = self.title_source

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "actual_cost_usd": actual_cost_usd,
                "api_call_count": api_call_count,
                "archived": archived,
                "cache_read_tokens": cache_read_tokens,
                "cache_write_tokens": cache_write_tokens,
                "chat_id": chat_id,
                "chat_type": chat_type,
                "end_reason": end_reason,
                "ended_at": ended_at,
                "estimated_cost_usd": estimated_cost_usd,
                "handoff": handoff,
                "has_system_prompt": has_system_prompt,
                "id": id,
                "input_tokens": input_tokens,
                "last_active": last_active,
                "lineage_root_id": lineage_root_id,
                "message_count": message_count,
                "model": model,
                "model_config": model_config,
                "output_tokens": output_tokens,
                "parent_session_id": parent_session_id,
                "preview": preview,
                "reasoning_tokens": reasoning_tokens,
                "session_key": session_key,
                "source": source,
                "started_at": started_at,
                "thread_id": thread_id,
                "title": title,
                "tool_call_count": tool_call_count,
                "user_id": user_id,
            }
        )
        if cwd is not UNSET:
            field_dict["cwd"] = cwd
        if git_branch is not UNSET:
            field_dict["git_branch"] = git_branch
        if git_repo_root is not UNSET:
            field_dict["git_repo_root"] = git_repo_root
        if home is not UNSET:
            field_dict["home"] = home
        if pinned is not UNSET:
            field_dict["pinned"] = pinned
        if profile_name is not UNSET:
            field_dict["profile_name"] = profile_name
        if system_prompt is not UNSET:
            field_dict["system_prompt"] = system_prompt
        if title_source is not UNSET:
            field_dict["title_source"] = title_source

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.handoff import Handoff
        from ..models.session_public_model_config_type_0 import SessionPublicModelConfigType0

        d = dict(src_dict)

        def _parse_actual_cost_usd(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        actual_cost_usd = _parse_actual_cost_usd(d.pop("actual_cost_usd"))

        api_call_count = d.pop("api_call_count")

        archived = d.pop("archived")

        cache_read_tokens = d.pop("cache_read_tokens")

        cache_write_tokens = d.pop("cache_write_tokens")

        def _parse_chat_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        chat_id = _parse_chat_id(d.pop("chat_id"))

        def _parse_chat_type(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        chat_type = _parse_chat_type(d.pop("chat_type"))

        def _parse_end_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        end_reason = _parse_end_reason(d.pop("end_reason"))

        def _parse_ended_at(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        ended_at = _parse_ended_at(d.pop("ended_at"))

        def _parse_estimated_cost_usd(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        estimated_cost_usd = _parse_estimated_cost_usd(d.pop("estimated_cost_usd"))

        def _parse_handoff(data: object) -> Handoff | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                handoff_type_0 = Handoff.from_dict(data)

                return handoff_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Handoff | None, data)

        handoff = _parse_handoff(d.pop("handoff"))

        has_system_prompt = d.pop("has_system_prompt")

        id = d.pop("id")

        input_tokens = d.pop("input_tokens")

        last_active = d.pop("last_active")

        lineage_root_id = d.pop("lineage_root_id")

        message_count = d.pop("message_count")

        def _parse_model(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        model = _parse_model(d.pop("model"))

        def _parse_model_config(data: object) -> None | SessionPublicModelConfigType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                model_config_type_0 = SessionPublicModelConfigType0.from_dict(data)

                return model_config_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SessionPublicModelConfigType0, data)

        model_config = _parse_model_config(d.pop("model_config"))

        output_tokens = d.pop("output_tokens")

        def _parse_parent_session_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        parent_session_id = _parse_parent_session_id(d.pop("parent_session_id"))

        preview = d.pop("preview")

        reasoning_tokens = d.pop("reasoning_tokens")

        def _parse_session_key(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        session_key = _parse_session_key(d.pop("session_key"))

        source = d.pop("source")

        started_at = d.pop("started_at")

        def _parse_thread_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        thread_id = _parse_thread_id(d.pop("thread_id"))

        def _parse_title(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        title = _parse_title(d.pop("title"))

        tool_call_count = d.pop("tool_call_count")

        def _parse_user_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        user_id = _parse_user_id(d.pop("user_id"))

        def _parse_cwd(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        cwd = _parse_cwd(d.pop("cwd", UNSET))

        def _parse_git_branch(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        git_branch = _parse_git_branch(d.pop("git_branch", UNSET))

        def _parse_git_repo_root(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        git_repo_root = _parse_git_repo_root(d.pop("git_repo_root", UNSET))

        def _parse_home(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        home = _parse_home(d.pop("home", UNSET))

        pinned = d.pop("pinned", UNSET)

        def _parse_profile_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        profile_name = _parse_profile_name(d.pop("profile_name", UNSET))

        def _parse_system_prompt(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        system_prompt = _parse_system_prompt(d.pop("system_prompt", UNSET))

        def _parse_title_source(data: object) -> None | SessionPublicTitleSourceType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                title_source_type_0 = SessionPublicTitleSourceType0(data)

                return title_source_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SessionPublicTitleSourceType0 | Unset, data)

        title_source = _parse_title_source(d.pop("title_source", UNSET))

        session_public = cls(
            actual_cost_usd=actual_cost_usd,
            api_call_count=api_call_count,
            archived=archived,
            cache_read_tokens=cache_read_tokens,
            cache_write_tokens=cache_write_tokens,
            chat_id=chat_id,
            chat_type=chat_type,
            end_reason=end_reason,
            ended_at=ended_at,
            estimated_cost_usd=estimated_cost_usd,
            handoff=handoff,
            has_system_prompt=has_system_prompt,
            id=id,
            input_tokens=input_tokens,
            last_active=last_active,
            lineage_root_id=lineage_root_id,
            message_count=message_count,
            model=model,
            model_config=model_config,
            output_tokens=output_tokens,
            parent_session_id=parent_session_id,
            preview=preview,
            reasoning_tokens=reasoning_tokens,
            session_key=session_key,
            source=source,
            started_at=started_at,
            thread_id=thread_id,
            title=title,
            tool_call_count=tool_call_count,
            user_id=user_id,
            cwd=cwd,
            git_branch=git_branch,
            git_repo_root=git_repo_root,
            home=home,
            pinned=pinned,
            profile_name=profile_name,
            system_prompt=system_prompt,
            title_source=title_source,
        )

        session_public.additional_properties = d
        return session_public

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
