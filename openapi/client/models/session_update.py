from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.session_update_model_config_type_0 import SessionUpdateModelConfigType0


T = TypeVar("T", bound="SessionUpdate")


@_attrs_define
class SessionUpdate:
    """Body of ``PATCH /sessions/{id}``; only the members present are changed.

    Attributes:
        archived (bool | None | Unset):
        cwd (None | str | Unset): The working directory; null clears it
        end_reason (None | str | Unset): Ends the session; the first end wins
        git_branch (None | str | Unset): The git branch; null clears it
        git_repo_root (None | str | Unset): The repository root; null clears it
        model (None | str | Unset):
        model_config (None | SessionUpdateModelConfigType0 | Unset):
        profile_name (None | str | Unset): The agent profile; null clears it
        title (None | str | Unset): null clears the title
    """

    archived: bool | None | Unset = UNSET
    cwd: None | str | Unset = UNSET
    end_reason: None | str | Unset = UNSET
    git_branch: None | str | Unset = UNSET
    git_repo_root: None | str | Unset = UNSET
    model: None | str | Unset = UNSET
    model_config: None | SessionUpdateModelConfigType0 | Unset = UNSET
    profile_name: None | str | Unset = UNSET
    title: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.session_update_model_config_type_0 import SessionUpdateModelConfigType0

        archived: bool | None | Unset
        if isinstance(self.archived, Unset):
            archived = UNSET
        else:
            archived = self.archived

        cwd: None | str | Unset
        if isinstance(self.cwd, Unset):
            cwd = UNSET
        else:
            cwd = self.cwd

        end_reason: None | str | Unset
        if isinstance(self.end_reason, Unset):
            end_reason = UNSET
        else:
            end_reason = self.end_reason

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

        model: None | str | Unset
        if isinstance(self.model, Unset):
            model = UNSET
        else:
            model = self.model

        model_config: dict[str, Any] | None | Unset
        if isinstance(self.model_config, Unset):
            model_config = UNSET
        elif isinstance(self.model_config, SessionUpdateModelConfigType0):
            model_config = self.model_config.to_dict()
        else:
            model_config = self.model_config

        profile_name: None | str | Unset
        if isinstance(self.profile_name, Unset):
            profile_name = UNSET
        else:
            profile_name = self.profile_name

        title: None | str | Unset
        if isinstance(self.title, Unset):
            title = UNSET
        else:
            title = self.title

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if archived is not UNSET:
            field_dict["archived"] = archived
        if cwd is not UNSET:
            field_dict["cwd"] = cwd
        if end_reason is not UNSET:
            field_dict["end_reason"] = end_reason
        if git_branch is not UNSET:
            field_dict["git_branch"] = git_branch
        if git_repo_root is not UNSET:
            field_dict["git_repo_root"] = git_repo_root
        if model is not UNSET:
            field_dict["model"] = model
        if model_config is not UNSET:
            field_dict["model_config"] = model_config
        if profile_name is not UNSET:
            field_dict["profile_name"] = profile_name
        if title is not UNSET:
            field_dict["title"] = title

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.session_update_model_config_type_0 import SessionUpdateModelConfigType0

        d = dict(src_dict)

        def _parse_archived(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        archived = _parse_archived(d.pop("archived", UNSET))

        def _parse_cwd(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        cwd = _parse_cwd(d.pop("cwd", UNSET))

        def _parse_end_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        end_reason = _parse_end_reason(d.pop("end_reason", UNSET))

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

        def _parse_model(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        model = _parse_model(d.pop("model", UNSET))

        def _parse_model_config(data: object) -> None | SessionUpdateModelConfigType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                model_config_type_0 = SessionUpdateModelConfigType0.from_dict(data)

                return model_config_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SessionUpdateModelConfigType0 | Unset, data)

        model_config = _parse_model_config(d.pop("model_config", UNSET))

        def _parse_profile_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        profile_name = _parse_profile_name(d.pop("profile_name", UNSET))

        def _parse_title(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))

        session_update = cls(
            archived=archived,
            cwd=cwd,
            end_reason=end_reason,
            git_branch=git_branch,
            git_repo_root=git_repo_root,
            model=model,
            model_config=model_config,
            profile_name=profile_name,
            title=title,
        )

        return session_update
