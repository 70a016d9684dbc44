from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="SessionPrune")


@_attrs_define
class SessionPrune:
    """``POST /api/sessions/prune``: every criterion given must hold; ``older_than_days`` (90 by default)
    applies to a bare prune or when sent.

        Attributes:
            branch_like (None | str | Unset):
            chat_id (None | str | Unset):
            chat_type (None | str | Unset):
            cwd_prefix (None | str | Unset):
            dry_run (bool | Unset):  Default: False.
            end_reason (None | str | Unset):
            include_archived (bool | Unset):  Default: False.
            max_cost (float | None | Unset):
            max_messages (int | None | Unset):
            max_tokens (int | None | Unset):
            max_tool_calls (int | None | Unset):
            min_cost (float | None | Unset):
            min_messages (int | None | Unset):
            min_tokens (int | None | Unset):
            min_tool_calls (int | None | Unset):
            model_like (None | str | Unset):
            older_than_days (float | None | Unset):  Default: 90.0.
            profile (None | str | Unset):
            provider (None | str | Unset):
            source (None | str | Unset):
            started_after (float | None | Unset):
            started_before (float | None | Unset):
            title_like (None | str | Unset):
            user_id (None | str | Unset):
    """

    branch_like: None | str | Unset = UNSET
    chat_id: None | str | Unset = UNSET
    chat_type: None | str | Unset = UNSET
    cwd_prefix: None | str | Unset = UNSET
    dry_run: bool | Unset = False
    end_reason: None | str | Unset = UNSET
    include_archived: bool | Unset = False
    max_cost: float | None | Unset = UNSET
    max_messages: int | None | Unset = UNSET
    max_tokens: int | None | Unset = UNSET
    max_tool_calls: int | None | Unset = UNSET
    min_cost: float | None | Unset = UNSET
    min_messages: int | None | Unset = UNSET
    min_tokens: int | None | Unset = UNSET
    min_tool_calls: int | None | Unset = UNSET
    model_like: None | str | Unset = UNSET
    older_than_days: float | None | Unset = 90.0
    profile: None | str | Unset = UNSET
    provider: None | str | Unset = UNSET
    source: None | str | Unset = UNSET
    started_after: float | None | Unset = UNSET
    started_before: float | None | Unset = UNSET
    title_like: None | str | Unset = UNSET
    user_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        branch_like: None | str | Unset
        if isinstance(self.branch_like, Unset):
            branch_like = UNSET
        else:
            branch_like = self.branch_like

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

        cwd_prefix: None | str | Unset
        if isinstance(self.cwd_prefix, Unset):
            cwd_prefix = UNSET
        else:
            cwd_prefix = self.cwd_prefix

        dry_run = self.dry_run

        end_reason: None | str | Unset
        if isinstance(self.end_reason, Unset):
            end_reason = UNSET
        else:
            end_reason = self.end_reason

        include_archived = self.include_archived

        max_cost: float | None | Unset
        if isinstance(self.max_cost, Unset):
            max_cost = UNSET
        else:
            max_cost = self.max_cost

        max_messages: int | None | Unset
        if isinstance(self.max_messages, Unset):
            max_messages = UNSET
        else:
            max_messages = self.max_messages

        max_tokens: int | None | Unset
        if isinstance(self.max_tokens, Unset):
            max_tokens = UNSET
        else:
            max_tokens = self.max_tokens

        max_tool_calls: int | None | Unset
        if isinstance(self.max_tool_calls, Unset):
            max_tool_calls = UNSET
        else:
            max_tool_calls = self.max_tool_calls

        min_cost: float | None | Unset
        if isinstance(self.min_cost, Unset):
            min_cost = UNSET
        else:
            min_cost = self.min_cost

        min_messages: int | None | Unset
        if isinstance(self.min_messages, Unset):
            min_messages = UNSET
        else:
            min_messages = self.min_messages

        min_tokens: int | None | Unset
        if isinstance(self.min_tokens, Unset):
            min_tokens = UNSET
        else:
            min_tokens = self.min_tokens

        min_tool_calls: int | None | Unset
        if isinstance(self.min_tool_calls, Unset):
            min_tool_calls = UNSET
        else:
            min_tool_calls = self.min_tool_calls

        model_like: None | str | Unset
        if isinstance(self.model_like, Unset):
            model_like = UNSET
        else:
            model_like = self.model_like

        older_than_days: float | None | Unset
        if isinstance(self.older_than_days, Unset):
            older_than_days = UNSET
        else:
            older_than_days = self.older_than_days

        profile: None | str | Unset
        if isinstance(self.profile, Unset):
            profile = UNSET
        else:
            profile = self.profile

        provider: None | str | Unset
        if isinstance(self.provider, Unset):
            provider = UNSET
        else:
            provider = self.provider

        source: None | str | Unset
        if isinstance(self.source, Unset):
            source = UNSET
        else:
            source = self.source

        started_after: float | None | Unset
        if isinstance(self.started_after, Unset):
            started_after = UNSET
        else:
            started_after = self.started_after

        started_before: float | None | Unset
        if isinstance(self.started_before, Unset):
            started_before = UNSET
        else:
            started_before = self.started_before

        title_like: None | str | Unset
        if isinstance(self.title_like, Unset):
            title_like = UNSET
        else:
            title_like = self.title_like

        user_id: None | str | Unset
        if isinstance(self.user_id, Unset):
            user_id = UNSET
        else:
            user_id = self.user_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if branch_like is not UNSET:
            field_dict["branch_like"] = branch_like
        if chat_id is not UNSET:
            field_dict["chat_id"] = chat_id
        if chat_type is not UNSET:
            field_dict["chat_type"] = chat_type
        if cwd_prefix is not UNSET:
            field_dict["cwd_prefix"] = cwd_prefix
        if dry_run is not UNSET:
            field_dict["dry_run"] = dry_run
        if end_reason is not UNSET:
            field_dict["end_reason"] = end_reason
        if include_archived is not UNSET:
            field_dict["include_archived"] = include_archived
        if max_cost is not UNSET:
            field_dict["max_cost"] = max_cost
        if max_messages is not UNSET:
            field_dict["max_messages"] = max_messages
        if max_tokens is not UNSET:
            field_dict["max_tokens"] = max_tokens
        if max_tool_calls is not UNSET:
            field_dict["max_tool_calls"] = max_tool_calls
        if min_cost is not UNSET:
            field_dict["min_cost"] = min_cost
        if min_messages is not UNSET:
            field_dict["min_messages"] = min_messages
        if min_tokens is not UNSET:
            field_dict["min_tokens"] = min_tokens
        if min_tool_calls is not UNSET:
            field_dict["min_tool_calls"] = min_tool_calls
        if model_like is not UNSET:
            field_dict["model_like"] = model_like
        if older_than_days is not UNSET:
            field_dict["older_than_days"] = older_than_days
        if profile is not UNSET:
            field_dict["profile"] = profile
        if provider is not UNSET:
            field_dict["provider"] = provider
        if source is not UNSET:
            field_dict["source"] = source
        if started_after is not UNSET:
            field_dict["started_after"] = started_after
        if started_before is not UNSET:
            field_dict["started_before"] = started_before
        if title_like is not UNSET:
            field_dict["title_like"] = title_like
        if user_id is not UNSET:
            field_dict["user_id"] = user_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_branch_like(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        branch_like = _parse_branch_like(d.pop("branch_like", UNSET))

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

        def _parse_cwd_prefix(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        cwd_prefix = _parse_cwd_prefix(d.pop("cwd_prefix", UNSET))

        dry_run = d.pop("dry_run", UNSET)

        def _parse_end_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        end_reason = _parse_end_reason(d.pop("end_reason", UNSET))

        include_archived = d.pop("include_archived", UNSET)

        def _parse_max_cost(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        max_cost = _parse_max_cost(d.pop("max_cost", UNSET))

        def _parse_max_messages(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_messages = _parse_max_messages(d.pop("max_messages", UNSET))

        def _parse_max_tokens(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_tokens = _parse_max_tokens(d.pop("max_tokens", UNSET))

        def _parse_max_tool_calls(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_tool_calls = _parse_max_tool_calls(d.pop("max_tool_calls", UNSET))

        def _parse_min_cost(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        min_cost = _parse_min_cost(d.pop("min_cost", UNSET))

        def _parse_min_messages(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        min_messages = _parse_min_messages(d.pop("min_messages", UNSET))

        def _parse_min_tokens(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        min_tokens = _parse_min_tokens(d.pop("min_tokens", UNSET))

        def _parse_min_tool_calls(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        min_tool_calls = _parse_min_tool_calls(d.pop("min_tool_calls", UNSET))

        def _parse_model_like(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        model_like = _parse_model_like(d.pop("model_like", UNSET))

        def _parse_older_than_days(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        older_than_days = _parse_older_than_days(d.pop("older_than_days", UNSET))

        def _parse_profile(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        profile = _parse_profile(d.pop("profile", UNSET))

        def _parse_provider(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        provider = _parse_provider(d.pop("provider", UNSET))

        def _parse_source(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        source = _parse_source(d.pop("source", UNSET))

        def _parse_started_after(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        started_after = _parse_started_after(d.pop("started_after", UNSET))

        def _parse_started_before(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        started_before = _parse_started_before(d.pop("started_before", UNSET))

        def _parse_title_like(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        title_like = _parse_title_like(d.pop("title_like", UNSET))

        def _parse_user_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        user_id = _parse_user_id(d.pop("user_id", UNSET))

        session_prune = cls(
            branch_like=branch_like,
            chat_id=chat_id,
            chat_type=chat_type,
            cwd_prefix=cwd_prefix,
            dry_run=dry_run,
            end_reason=end_reason,
            include_archived=include_archived,
            max_cost=max_cost,
            max_messages=max_messages,
            max_tokens=max_tokens,
            max_tool_calls=max_tool_calls,
            min_cost=min_cost,
            min_messages=min_messages,
            min_tokens=min_tokens,
            min_tool_calls=min_tool_calls,
            model_like=model_like,
            older_than_days=older_than_days,
            profile=profile,
            provider=provider,
            source=source,
            started_after=started_after,
            started_before=started_before,
            title_like=title_like,
            user_id=user_id,
        )

        session_prune.additional_properties = d
        return session_prune

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
