from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.session_create_source import SessionCreateSource
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.session_create_model_config_type_0 import SessionCreateModelConfigType0


T = TypeVar("T", bound="SessionCreate")


@_attrs_define
class SessionCreate:
    """Body of ``POST /sessions``.

    Attributes:
        chat_id (None | str | Unset):
        chat_type (None | str | Unset):
        cwd (None | str | Unset): The working directory the session runs in
        git_branch (None | str | Unset): The git branch checked out there
        git_repo_root (None | str | Unset): The git repository's root directory
        id (None | str | Unset): Client-chosen id (≤ 256 chars, no '/', '..')
        model (None | str | Unset):
        model_config (None | SessionCreateModelConfigType0 | Unset):
        parent_session_id (None | str | Unset):
        profile_name (None | str | Unset): The agent profile the session uses
        session_key (None | str | Unset):
        source (SessionCreateSource | Unset): Platform; unknown values are 422 unknown_source Default:
            SessionCreateSource.API_SERVER.
        system_prompt (None | str | Unset):
        thread_id (None | str | Unset):
        title (None | str | Unset):
        user_id (None | str | Unset):
    """

    chat_id: None | str | Unset = UNSET
    chat_type: None | str | Unset = UNSET
    cwd: None | str | Unset = UNSET
    git_branch: None | str | Unset = UNSET
    git_repo_root: None | str | Unset = UNSET
    id: None | str | Unset = UNSET
    model: None | str | Unset = UNSET
    model_config: None | SessionCreateModelConfigType0 | Unset = UNSET
    parent_session_id: None | str | Unset = UNSET
    profile_name: None | str | Unset = UNSET
    session_key: None | str | Unset = UNSET
    source: SessionCreateSource | Unset = SessionCreateSource.API_SERVER
    system_prompt: None | str | Unset = UNSET
    thread_id: None | str | Unset = UNSET
    title: None | str | Unset = UNSET
    user_id: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.session_create_model_config_type_0 import SessionCreateModelConfigType0

        chat_id: None | str | Unset
        if isinstance(self.chat_id, Unset):
            chat_id = UNSET
        else:
            chat_id = self.chat_id

        chat_type: None | str | Unset
        if isinstance(self.chat_type, Unset):
            chat_type = UNSET
        else:
            chat_type = self.chat_type

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

        id: None | str | Unset
        if isinstance(self.id, Unset):
            id = UNSET
        else:
            id = self.id

        model: None | str | Unset
        if isinstance(self.model, Unset):
            model = UNSET
        else:
            model = self.model

        model_config: dict[str, Any] | None | Unset
        if isinstance(self.model_config, Unset):
            model_config = UNSET
        elif isinstance(self.model_config, SessionCreateModelConfigType0):
            model_config = self.model_config.to_dict()
        else:
            model_config = self.model_config

        parent_session_id: None | str | Unset
        if isinstance(self.parent_session_id, Unset):
            parent_session_id = UNSET
        else:
            parent_session_id = self.parent_session_id

        profile_name: None | str | Unset
        if isinstance(self.profile_name, Unset):
            profile_name = UNSET
        else:
            profile_name = self.profile_name

        session_key: None | str | Unset
        if isinstance(self.session_key, Unset):
            session_key = UNSET
        else:
            session_key = self.session_key

        source: str | Unset = UNSET
        if not isinstance(self.source, Unset):
            source = self.source.value

        system_prompt: None | str | Unset
        if isinstance(self.system_prompt, Unset):
            system_prompt = UNSET
        else:
            system_prompt = self.system_prompt

        thread_id: None | str | Unset
        if isinstance(self.thread_id, Unset):
            thread_id = UNSET
        else:
            thread_id = self.thread_id

        title: None | str | Unset
        if isinstance(self.title, Unset):
            title = UNSET
        else:
            title = self.title

        user_id: None | str | Unset
        if isinstance(self.user_id, Unset):
            user_id = UNSET
        else:
            user_id = self.user_id

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if chat_id is not UNSET:
            field_dict["chat_id"] = chat_id
        if chat_type is not UNSET:
            field_dict["chat_type"] = chat_type
        if cwd is not UNSET:
            field_dict["cwd"] = cwd
        if git_branch is not UNSET:
            field_dict["git_branch"] = git_branch
        if git_repo_root is not UNSET:
            field_dict["git_repo_root"] = git_repo_root
        if id is not UNSET:
            field_dict["id"] = id
        if model is not UNSET:
            field_dict["model"] = model
        if model_config is not UNSET:
            field_dict["model_config"] = model_config
        if parent_session_id is not UNSET:
            field_dict["parent_session_id"] = parent_session_id
        if profile_name is not UNSET:
            field_dict["profile_name"] = profile_name
        if session_key is not UNSET:
            field_dict["session_key"] = session_key
        if source is not UNSET:
            field_dict["source"] = source
        if system_prompt is not UNSET:
            field_dict["system_prompt"] = system_prompt
        if thread_id is not UNSET:
            field_dict["thread_id"] = thread_id
        if title is not UNSET:
            field_dict["title"] = title
        if user_id is not UNSET:
            field_dict["user_id"] = user_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.session_create_model_config_type_0 import SessionCreateModelConfigType0

        d = dict(src_dict)

        def _parse_chat_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        chat_id = _parse_chat_id(d.pop("chat_id", UNSET))

        def _parse_chat_type(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        chat_type = _parse_chat_type(d.pop("chat_type", UNSET))

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

        def _parse_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        id = _parse_id(d.pop("id", UNSET))

        def _parse_model(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        model = _parse_model(d.pop("model", UNSET))

        def _parse_model_config(data: object) -> None | SessionCreateModelConfigType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                model_config_type_0 = SessionCreateModelConfigType0.from_dict(data)

                return model_config_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SessionCreateModelConfigType0 | Unset, data)

        model_config = _parse_model_config(d.pop("model_config", UNSET))

        def _parse_parent_session_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        parent_session_id = _parse_parent_session_id(d.pop("parent_session_id", UNSET))

        def _parse_profile_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        profile_name = _parse_profile_name(d.pop("profile_name", UNSET))

        def _parse_session_key(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        session_key = _parse_session_key(d.pop("session_key", UNSET))

        _source = d.pop("source", UNSET)
        source: SessionCreateSource | Unset
        if isinstance(_source, Unset):
            source = UNSET
        else:
            source = SessionCreateSource(_source)

        def _parse_system_prompt(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        system_prompt = _parse_system_prompt(d.pop("system_prompt", UNSET))

        def _parse_thread_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        thread_id = _parse_thread_id(d.pop("thread_id", UNSET))

        def _parse_title(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))

        def _parse_user_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        user_id = _parse_user_id(d.pop("user_id", UNSET))

        session_create = cls(
            chat_id=chat_id,
            chat_type=chat_type,
            cwd=cwd,
            git_branch=git_branch,
            git_repo_root=git_repo_root,
            id=id,
            model=model,
            model_config=model_config,
            parent_session_id=parent_session_id,
            profile_name=profile_name,
            session_key=session_key,
            source=source,
            system_prompt=system_prompt,
            thread_id=thread_id,
            title=title,
            user_id=user_id,
        )

        return session_create
