from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.search_body_detail import SearchBodyDetail
from ..models.search_body_sort import SearchBodySort
from ..types import UNSET, Unset

T = TypeVar("T", bound="SearchBody")


@_attrs_define
class SearchBody:
    """``POST /search``: the same fields as the query parameters of ``GET /search``.

    Attributes:
        around_message_id (int | None | Unset): Anchor message id; selects scroll
        current_session_id (None | str | Unset): Caller's session: its live lineage is excluded
        cwd (None | str | Unset): Only sessions whose working directory is this path or under it: the listing's `cwd`
        detail (SearchBodyDetail | Unset): adaptive: long messages cut to fit (content_truncated); full: whole messages
            Default: SearchBodyDetail.ADAPTIVE.
        exclude_source (list[str] | None | str | Unset): Not these sources
        home (None | str | Unset): Only sessions synced from the home with this label (`hermes sessions sync`)
        limit (int | Unset): Sessions for discover/browse (clamped to 1-50) Default: 3.
        q (None | str | Unset): FTS5 query; selects discover
        role (list[str] | None | str | Unset): Roles searched (comma-separated or repeated)
        session_id (None | str | Unset): Selects read, or scroll with an anchor
        sort (SearchBodySort | Unset): discover: rank matching messages by best match, newest first or oldest first
            Default: SearchBodySort.RELEVANCE.
        source (list[str] | None | str | Unset): Only these sources
        window (int | Unset): Messages each side of the anchor (clamped to 1-20) Default: 5.
        workspace (None | str | Unset): Only sessions whose workspace (git repository root, else working directory)
            contains this, case-insensitively: the listing's `workspace` filter
    """

    around_message_id: int | None | Unset = UNSET
    current_session_id: None | str | Unset = UNSET
    cwd: None | str | Unset = UNSET
    detail: SearchBodyDetail | Unset = SearchBodyDetail.ADAPTIVE
    exclude_source: list[str] | None | str | Unset = UNSET
    home: None | str | Unset = UNSET
    limit: int | Unset = 3
    q: None | str | Unset = UNSET
    role: list[str] | None | str | Unset = UNSET
    session_id: None | str | Unset = UNSET
    sort: SearchBodySort | Unset = SearchBodySort.RELEVANCE
    source: list[str] | None | str | Unset = UNSET
    window: int | Unset = 5
    workspace: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        around_message_id: int | None | Unset
        if isinstance(self.around_message_id, Unset):
            around_message_id = UNSET
        else:
            around_message_id = self.around_message_id

        current_session_id: None | str | Unset
        if isinstance(self.current_session_id, Unset):
            current_session_id = UNSET
        else:
            current_session_id = self.current_session_id

        cwd: None | str | Unset
        if isinstance(self.cwd, Unset):
            cwd = UNSET
        else:
            cwd = self.cwd

        detail: str | Unset = UNSET
        if not isinstance(self.detail, Unset):
            detail = self.detail.value

        exclude_source: list[str] | None | str | Unset
        if isinstance(self.exclude_source, Unset):
            exclude_source = UNSET
        elif isinstance(self.exclude_source, list):
            exclude_source = self.exclude_source

        else:
            exclude_source = self.exclude_source

        home: None | str | Unset
        if isinstance(self.home, Unset):
            home = UNSET
        else:
            home = self.home

        limit = self.limit

        q: None | str | Unset
        if isinstance(self.q, Unset):
            q = UNSET
        else:
            q = self.q

        role: list[str] | None | str | Unset
        if isinstance(self.role, Unset):
            role = UNSET
        elif isinstance(self.role, list):
            role = self.role

        else:
            role = self.role

        session_id: None | str | Unset
        if isinstance(self.session_id, Unset):
            session_id = UNSET
        else:
            session_id = self.session_id

        sort: str | Unset = UNSET
        if not isinstance(self.sort, Unset):
            sort = self.sort.value

        source: list[str] | None | str | Unset
        if isinstance(self.source, Unset):
            source = UNSET
        elif isinstance(self.source, list):
            source = self.source

        else:
            source = self.source

        window = self.window

        workspace: None | str | Unset
        if isinstance(self.workspace, Unset):
            workspace = UNSET
        else:
            workspace = self.workspace

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if around_message_id is not UNSET:
            field_dict["around_message_id"] = around_message_id
        if current_session_id is not UNSET:
            field_dict["current_session_id"] = current_session_id
        if cwd is not UNSET:
            field_dict["cwd"] = cwd
        if detail is not UNSET:
            field_dict["detail"] = detail
        if exclude_source is not UNSET:
            field_dict["exclude_source"] = exclude_source
        if home is not UNSET:
            field_dict["home"] = home
        if limit is not UNSET:
            field_dict["limit"] = limit
        if q is not UNSET:
            field_dict["q"] = q
        if role is not UNSET:
            field_dict["role"] = role
        if session_id is not UNSET:
            field_dict["session_id"] = session_id
        if sort is not UNSET:
            field_dict["sort"] = sort
        if source is not UNSET:
            field_dict["source"] = source
        if window is not UNSET:
            field_dict["window"] = window
        if workspace is not UNSET:
            field_dict["workspace"] = workspace

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_around_message_id(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        around_message_id = _parse_around_message_id(d.pop("around_message_id", UNSET))

        def _parse_current_session_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        current_session_id = _parse_current_session_id(d.pop("current_session_id", UNSET))

        def _parse_cwd(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        cwd = _parse_cwd(d.pop("cwd", UNSET))

        _detail = d.pop("detail", UNSET)
        detail: SearchBodyDetail | Unset
        if isinstance(_detail, Unset):
            detail = UNSET
        else:
            detail = SearchBodyDetail(_detail)

        def _parse_exclude_source(data: object) -> list[str] | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                exclude_source_type_1 = cast(list[str], data)

                return exclude_source_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | str | Unset, data)

        exclude_source = _parse_exclude_source(d.pop("exclude_source", UNSET))

        def _parse_home(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        home = _parse_home(d.pop("home", UNSET))

        limit = d.pop("limit", UNSET)

        def _parse_q(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        q = _parse_q(d.pop("q", UNSET))

        def _parse_role(data: object) -> list[str] | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                role_type_1 = cast(list[str], data)

                return role_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | str | Unset, data)

        role = _parse_role(d.pop("role", UNSET))

        def _parse_session_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        session_id = _parse_session_id(d.pop("session_id", UNSET))

        _sort = d.pop("sort", UNSET)
        sort: SearchBodySort | Unset
        if isinstance(_sort, Unset):
            sort = UNSET
        else:
            sort = SearchBodySort(_sort)

        def _parse_source(data: object) -> list[str] | None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                source_type_1 = cast(list[str], data)

                return source_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | str | Unset, data)

        source = _parse_source(d.pop("source", UNSET))

        window = d.pop("window", UNSET)

        def _parse_workspace(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        workspace = _parse_workspace(d.pop("workspace", UNSET))

        search_body = cls(
            around_message_id=around_message_id,
            current_session_id=current_session_id,
            cwd=cwd,
            detail=detail,
            exclude_source=exclude_source,
            home=home,
            limit=limit,
            q=q,
            role=role,
            session_id=session_id,
            sort=sort,
            source=source,
            window=window,
            workspace=workspace,
        )

        return search_body
