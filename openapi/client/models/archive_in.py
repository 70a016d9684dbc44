from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ArchiveIn")


@_attrs_define
class ArchiveIn:
    """Which ended sessions to archive (hide from listings; nothing is deleted). At least one filter is
    required. Already archived and pinned sessions are left alone.

        Attributes:
            after (None | str | Unset): started at or after a duration ago (`30m`, `5h`, `2d`, `1w`, long unit names too; a
                bare number is days) or an ISO date / date-time (no zone: UTC); with newer_than the tighter bound wins
            before (None | str | Unset): started before a duration ago (`30m`, `5h`, `2d`, `1w`, long unit names too; a bare
                number is days) or an ISO date / date-time (no zone: UTC); with older_than the tighter bound wins
            branch (None | str | Unset): git branch contains this (case-insensitive)
            chat_id (None | str | Unset): chat/channel id is this (exact)
            chat_type (None | str | Unset): chat type is this (exact, e.g. dm, group)
            cwd (None | str | Unset): working directory is this path or under it
            dry_run (bool | Unset): only report what would change Default: False.
            end_reason (None | str | Unset): ended with this reason (exact)
            home (None | str | Unset): synced from the home with this label (exact; `hermes sessions sync`)
            max_cost (float | None | Unset): costs at most this many USD (actual, else estimated)
            max_messages (int | None | Unset): at most this many messages
            max_tokens (int | None | Unset): at most this many input+output tokens
            max_tool_calls (int | None | Unset): at most this many tool calls
            min_cost (float | None | Unset): costs at least this many USD (actual, else estimated)
            min_messages (int | None | Unset): at least this many messages
            min_tokens (int | None | Unset): at least this many input+output tokens
            min_tool_calls (int | None | Unset): at least this many tool calls
            model (None | str | Unset): model contains this (case-insensitive)
            newer_than (None | str | Unset): started at or after a duration ago (`30m`, `5h`, `2d`, `1w`, long unit names
                too; a bare number is days) or an ISO date / date-time (no zone: UTC)
            older_than (None | str | Unset): started before a duration ago (`30m`, `5h`, `2d`, `1w`, long unit names too; a
                bare number is days) or an ISO date / date-time (no zone: UTC)
            profile (None | str | Unset): agent profile_name is this (exact)
            provider (None | str | Unset): billing provider is this (case-insensitive, exact)
            session_ids (list[str] | None | Unset): act only on these of the matching sessions (at most 1000): the CLI sends
                the ones it showed, so nothing that started to match after the preview is touched
            source (None | str | Unset): only this source (exact)
            title (None | str | Unset): title contains this (case-insensitive)
            user (None | str | Unset): user_id is this (exact)
            workspace (None | str | Unset): git repository root (else working directory) contains this (case-insensitive);
                the agent's `sessions list --workspace`
    """

    after: None | str | Unset = UNSET
    before: None | str | Unset = UNSET
    branch: None | str | Unset = UNSET
    chat_id: None | str | Unset = UNSET
    chat_type: None | str | Unset = UNSET
    cwd: None | str | Unset = UNSET
    dry_run: bool | Unset = False
    end_reason: None | str | Unset = UNSET
    home: None | str | Unset = UNSET
    max_cost: float | None | Unset = UNSET
    max_messages: int | None | Unset = UNSET
    max_tokens: int | None | Unset = UNSET
    max_tool_calls: int | None | Unset = UNSET
    min_cost: float | None | Unset = UNSET
    min_messages: int | None | Unset = UNSET
    min_tokens: int | None | Unset = UNSET
    min_tool_calls: int | None | Unset = UNSET
    model: None | str | Unset = UNSET
    newer_than: None | str | Unset = UNSET
    older_than: None | str | Unset = UNSET
    profile: None | str | Unset = UNSET
    provider: None | str | Unset = UNSET
    session_ids: list[str] | None | Unset = UNSET
    source: None | str | Unset = UNSET
    title: None | str | Unset = UNSET
    user: None | str | Unset = UNSET
    workspace: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        after: None | str | Unset
        if isinstance(self.after, Unset):
            after = UNSET
        else:
            after = self.after

        before: None | str | Unset
        if isinstance(self.before, Unset):
            before = UNSET
        else:
            before = self.before

        branch: None | str | Unset
        if isinstance(self.branch, Unset):
            branch = UNSET
        else:
            branch = self.branch

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

        dry_run = self.dry_run

        end_reason: None | str | Unset
        if isinstance(self.end_reason, Unset):
            end_reason = UNSET
        else:
            end_reason = self.end_reason

        home: None | str | Unset
        if isinstance(self.home, Unset):
            home = UNSET
        else:
            home = self.home

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

        model: None | str | Unset
        if isinstance(self.model, Unset):
            model = UNSET
        else:
            model = self.model

        newer_than: None | str | Unset
        if isinstance(self.newer_than, Unset):
            newer_than = UNSET
        else:
            newer_than = self.newer_than

        older_than: None | str | Unset
        if isinstance(self.older_than, Unset):
            older_than = UNSET
        else:
            older_than = self.older_than

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

        session_ids: list[str] | None | Unset
        if isinstance(self.session_ids, Unset):
            session_ids = UNSET
        elif isinstance(self.session_ids, list):
            session_ids = self.session_ids

        else:
            session_ids = self.session_ids

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

        user: None | str | Unset
        if isinstance(self.user, Unset):
            user = UNSET
        else:
            user = self.user

        workspace: None | str | Unset
        if isinstance(self.workspace, Unset):
            workspace = UNSET
        else:
            workspace = self.workspace

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if after is not UNSET:
            field_dict["after"] = after
        if before is not UNSET:
            field_dict["before"] = before
        if branch is not UNSET:
            field_dict["branch"] = branch
        if chat_id is not UNSET:
            field_dict["chat_id"] = chat_id
        if chat_type is not UNSET:
            field_dict["chat_type"] = chat_type
        if cwd is not UNSET:
            field_dict["cwd"] = cwd
        if dry_run is not UNSET:
            field_dict["dry_run"] = dry_run
        if end_reason is not UNSET:
            field_dict["end_reason"] = end_reason
        if home is not UNSET:
            field_dict["home"] = home
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
        if model is not UNSET:
            field_dict["model"] = model
        if newer_than is not UNSET:
            field_dict["newer_than"] = newer_than
        if older_than is not UNSET:
            field_dict["older_than"] = older_than
        if profile is not UNSET:
            field_dict["profile"] = profile
        if provider is not UNSET:
            field_dict["provider"] = provider
        if session_ids is not UNSET:
            field_dict["session_ids"] = session_ids
        if source is not UNSET:
            field_dict["source"] = source
        if title is not UNSET:
            field_dict["title"] = title
        if user is not UNSET:
            field_dict["user"] = user
        if workspace is not UNSET:
            field_dict["workspace"] = workspace

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_after(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        after = _parse_after(d.pop("after", UNSET))

        def _parse_before(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        before = _parse_before(d.pop("before", UNSET))

        def _parse_branch(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        branch = _parse_branch(d.pop("branch", UNSET))

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

        dry_run = d.pop("dry_run", UNSET)

        def _parse_end_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        end_reason = _parse_end_reason(d.pop("end_reason", UNSET))

        def _parse_home(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        home = _parse_home(d.pop("home", UNSET))

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

        def _parse_model(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        model = _parse_model(d.pop("model", UNSET))

        def _parse_newer_than(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        newer_than = _parse_newer_than(d.pop("newer_than", UNSET))

        def _parse_older_than(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        older_than = _parse_older_than(d.pop("older_than", UNSET))

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

        def _parse_session_ids(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                session_ids_type_0 = cast(list[str], data)

                return session_ids_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        session_ids = _parse_session_ids(d.pop("session_ids", UNSET))

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

        def _parse_user(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        user = _parse_user(d.pop("user", UNSET))

        def _parse_workspace(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        workspace = _parse_workspace(d.pop("workspace", UNSET))

        archive_in = cls(
            after=after,
            before=before,
            branch=branch,
            chat_id=chat_id,
            chat_type=chat_type,
            cwd=cwd,
            dry_run=dry_run,
            end_reason=end_reason,
            home=home,
            max_cost=max_cost,
            max_messages=max_messages,
            max_tokens=max_tokens,
            max_tool_calls=max_tool_calls,
            min_cost=min_cost,
            min_messages=min_messages,
            min_tokens=min_tokens,
            min_tool_calls=min_tool_calls,
            model=model,
            newer_than=newer_than,
            older_than=older_than,
            profile=profile,
            provider=provider,
            session_ids=session_ids,
            source=source,
            title=title,
            user=user,
            workspace=workspace,
        )

        return archive_in
