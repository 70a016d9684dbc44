from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PruneIn")


@_attrs_define
class PruneIn:
    """Which ended sessions to delete: every criterion given must match (the agent's prune filters).

    Attributes:
        branch (None | str | Unset): git branch contains this (case-insensitive)
        dry_run (bool | Unset):  Default: False.
        end_reason (None | str | Unset): ended with this reason (exact)
        include_archived (bool | Unset): also prune archived sessions (the CLI sends false unless `--include-archived`)
            Default: True.
        max_messages (int | None | Unset): at most this many messages
        min_messages (int | None | Unset): at least this many messages
        model (None | str | Unset): model contains this (case-insensitive)
        older_than (None | str | Unset): the agent's `--older-than`: `30m`, `5h`, `2d`, `1w`, a bare number of days, or
            an ISO date / date-time (a date is its midnight UTC; no zone means UTC). Not with older_than_days.
        older_than_days (float | None | Unset): sessions started more than this many days ago. Default: 90, unless one
            of the filters title, model, provider, branch, end_reason, min_messages, max_messages is given: then any age (as
            the agent since PR #59415). `source` alone keeps the 90-day default.
        provider (None | str | Unset): billing provider is this (case-insensitive, exact)
        source (None | str | Unset): only this source (exact)
        title (None | str | Unset): title contains this (case-insensitive)
    """

    branch: None | str | Unset = UNSET
    dry_run: bool | Unset = False
    end_reason: None | str | Unset = UNSET
    include_archived: bool | Unset = True
    max_messages: int | None | Unset = UNSET
    min_messages: int | None | Unset = UNSET
    model: None | str | Unset = UNSET
    older_than: None | str | Unset = UNSET
    older_than_days: float | None | Unset = UNSET
    provider: None | str | Unset = UNSET
    source: None | str | Unset = UNSET
    title: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        branch: None | str | Unset
        if isinstance(self.branch, Unset):
            branch = UNSET
        else:
            branch = self.branch

        dry_run = self.dry_run

        end_reason: None | str | Unset
        if isinstance(self.end_reason, Unset):
            end_reason = UNSET
        else:
            end_reason = self.end_reason

        include_archived = self.include_archived

        max_messages: int | None | Unset
        if isinstance(self.max_messages, Unset):
            max_messages = UNSET
        else:
            max_messages = self.max_messages

        min_messages: int | None | Unset
        if isinstance(self.min_messages, Unset):
            min_messages = UNSET
        else:
            min_messages = self.min_messages

        model: None | str | Unset
        if isinstance(self.model, Unset):
            model = UNSET
        else:
            model = self.model

        older_than: None | str | Unset
        if isinstance(self.older_than, Unset):
            older_than = UNSET
        else:
            older_than = self.older_than

        older_than_days: float | None | Unset
        if isinstance(self.older_than_days, Unset):
            older_than_days = UNSET
        else:
            older_than_days = self.older_than_days

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

        title: None | str | Unset
        if isinstance(self.title, Unset):
            title = UNSET
        else:
            title = self.title

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if branch is not UNSET:
            field_dict["branch"] = branch
        if dry_run is not UNSET:
            field_dict["dry_run"] = dry_run
        if end_reason is not UNSET:
            field_dict["end_reason"] = end_reason
        if include_archived is not UNSET:
            field_dict["include_archived"] = include_archived
        if max_messages is not UNSET:
            field_dict["max_messages"] = max_messages
        if min_messages is not UNSET:
            field_dict["min_messages"] = min_messages
        if model is not UNSET:
            field_dict["model"] = model
        if older_than is not UNSET:
            field_dict["older_than"] = older_than
        if older_than_days is not UNSET:
            field_dict["older_than_days"] = older_than_days
        if provider is not UNSET:
            field_dict["provider"] = provider
        if source is not UNSET:
            field_dict["source"] = source
        if title is not UNSET:
            field_dict["title"] = title

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_branch(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        branch = _parse_branch(d.pop("branch", UNSET))

        dry_run = d.pop("dry_run", UNSET)

        def _parse_end_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        end_reason = _parse_end_reason(d.pop("end_reason", UNSET))

        include_archived = d.pop("include_archived", UNSET)

        def _parse_max_messages(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_messages = _parse_max_messages(d.pop("max_messages", UNSET))

        def _parse_min_messages(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        min_messages = _parse_min_messages(d.pop("min_messages", UNSET))

        def _parse_model(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        model = _parse_model(d.pop("model", UNSET))

        def _parse_older_than(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        older_than = _parse_older_than(d.pop("older_than", UNSET))

        def _parse_older_than_days(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        older_than_days = _parse_older_than_days(d.pop("older_than_days", UNSET))

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

        def _parse_title(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))

        prune_in = cls(
            branch=branch,
            dry_run=dry_run,
            end_reason=end_reason,
            include_archived=include_archived,
            max_messages=max_messages,
            min_messages=min_messages,
            model=model,
            older_than=older_than,
            older_than_days=older_than_days,
            provider=provider,
            source=source,
            title=title,
        )

        return prune_in
