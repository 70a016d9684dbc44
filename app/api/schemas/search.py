"""Request and response bodies of ``/search`` (the four shapes of the agent's ``session_search``)."""

from __future__ import annotations

from typing import Annotated, Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from app.api.schemas import examples as ex
from app.api.schemas.common import FilterText, Int64, RequestModel, SafeText
from app.api.schemas.messages import Unrenderable
from app.api.schemas.row_models import from_row
from app.api.schemas.transfer import IndexingStatus
from app.services import search as search_svc

Names = SafeText | list[SafeText]

NamesT = TypeVar("NamesT", list[SafeText], Names)


class SearchArgs(BaseModel, Generic[NamesT]):
    """The arguments of a search, described once for ``GET /search`` (query parameters, where a list is a
    repeated parameter) and ``POST /search`` (a JSON body, where a list may also be one string)."""

    q: SafeText | None = Field(default=None, description="FTS5 query; selects discover")
    session_id: SafeText | None = Field(default=None, description="Selects read, or scroll with an anchor")
    around_message_id: Int64 | None = Field(default=None, description="Anchor message id; selects scroll")
    window: Int64 = Field(default=5, description="Messages each side of the anchor (clamped to 1-20)")
    limit: Int64 = Field(default=3, description="Sessions for discover/browse (clamped to 1-50)")
    sort: Literal["relevance", "newest", "oldest"] = Field(
        default="relevance",
        description="discover: rank matching messages by best match, newest first or oldest first",
    )
    role: NamesT | None = Field(default=None, description="Roles searched (comma-separated or repeated)")
    source: NamesT | None = Field(default=None, description="Only these sources")
    exclude_source: NamesT | None = Field(default=None, description="Not these sources")
    home: SafeText | None = Field(
        default=None,
        description="Only sessions synced from the home with this label (`hermes sessions sync`)",
    )
    cwd: FilterText | None = Field(
        default=None,
        description="Only sessions whose working directory is this path or under it: the listing's `cwd`",
    )
    workspace: FilterText | None = Field(
        default=None,
        description="Only sessions whose workspace (git repository root, else working directory) contains "
        "this, case-insensitively: the listing's `workspace` filter",
    )
    current_session_id: SafeText | None = Field(
        default=None, description="Caller's session: its live lineage is excluded"
    )
    detail: Literal["adaptive", "full"] = Field(
        default="adaptive",
        description="adaptive: long messages cut to fit (content_truncated); full: whole messages",
    )


class SearchQuery(SearchArgs[list[SafeText]]):
    """``GET /search``: the query parameters (unknown parameters are ignored, as on every GET)."""


class SearchBody(RequestModel, SearchArgs[Names]):
    """``POST /search``: the same fields as the query parameters of ``GET /search``."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.SEARCH_BODY]})


@from_row(search_svc.SearchMessage)
class SearchMessage(BaseModel):
    """A message inside a search result (tool fields only when set)."""

    content: Any = Field(description="Text (or multimodal parts); may be empty, never absent")
    tool_calls: list[Any] | Unrenderable | None = Field(
        default=None,
        description="Tool calls; the unrenderable marker when the stored value cannot be rendered",
    )
    anchor: bool | None = Field(default=None, description="True on the anchor / matching message")
    content_truncated: bool | None = Field(default=None, description="detail=adaptive cut the content")


@from_row(search_svc.SessionMeta)
class SessionMeta(BaseModel):
    """The session a scroll or read shows."""


class DiscoverResult(BaseModel):
    """The best hit of one lineage, with its window and the session's bookends."""

    session_id: str = Field(description="The session holding the hit")
    title: str | None
    source: str | None
    model: str | None
    started_at: float | None
    snippet: str = Field(description="Matched text marked >>>like this<<<")
    match_message_id: int
    matched_role: str
    bookend_start: list[SearchMessage] = Field(
        description="≤3 first user/assistant messages before the window"
    )
    messages: list[SearchMessage] = Field(description="±window around the hit; the hit has anchor=true")
    bookend_end: list[SearchMessage] = Field(description="≤3 last user/assistant messages after the window")
    messages_before: int
    messages_after: int
    parent_session_id: str | None = Field(default=None, description="Lineage root, when not session_id")


class DiscoverResponse(BaseModel):
    """``q`` given: at most ``limit`` sessions, one per lineage."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.DISCOVER]})

    mode: Literal["discover"]
    query: str
    results: list[DiscoverResult]
    count: int
    scan_capped: bool = Field(
        description="A short-term substring scan stopped at its cap (1,000,000 messages) before the oldest"
    )
    message: str | None = None
    indexing: IndexingStatus | None = Field(
        default=None,
        description="Present while imported messages wait for the background indexer: they are not found yet",
    )


class BrowseResult(BaseModel):
    """A recently active root session."""

    session_id: str
    title: str | None
    source: str | None
    started_at: float | None
    last_active: float | None
    message_count: int
    preview: str


class BrowseResponse(BaseModel):
    """No arguments: the most recently active sessions."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.BROWSE]})

    mode: Literal["browse"]
    results: list[BrowseResult]
    count: int
    message: str


class ScrollResponse(BaseModel):
    """``session_id`` + ``around_message_id``: a window, no bookends."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.SCROLL]})

    mode: Literal["scroll"]
    session_id: str
    around_message_id: int
    session_meta: SessionMeta
    window: int
    messages: list[SearchMessage]
    messages_before: int
    messages_after: int
    warning: str | None = Field(default=None, description="Set when the anchor's session was rebound")


class ReadResponse(BaseModel):
    """``session_id`` alone: every message, or the first 20 and last 10 of longer sessions."""

    model_config = ConfigDict(json_schema_extra={"examples": [ex.READ]})

    mode: Literal["read"]
    session_id: str
    session_meta: SessionMeta
    message_count: int
    truncated: bool
    messages: list[SearchMessage]
    message: str | None = None


SearchResponse = Annotated[
    DiscoverResponse | ScrollResponse | ReadResponse | BrowseResponse, Field(discriminator="mode")
]
