"""The session listing and one session's metadata, recap and messages as tools, answered as ``GET
/sessions``, ``GET /sessions/{id}`` with ``/recap``, and ``GET /sessions/{id}/messages`` answer."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult, ToolAnnotations
from pydantic import BaseModel, Field

from app.api.message_listing import message_page, message_query
from app.api.schemas.common import SafeText
from app.api.schemas.messages import MAX_MESSAGE_ID, Role
from app.api.schemas.sessions import SessionListQuery
from app.api.session_listing import list_body, listing_query
from app.domain.recap import DEFAULT_EXCHANGES
from app.mcp.results import answer
from app.mcp.signature import with_parameters
from app.services import lineage as lineage_svc
from app.services import sessions as sessions_svc
from app.storage.protocols import Store, Tx

READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)

LIST_DESCRIPTION = """\
List Hermes agent sessions, newest first, one row per conversation (a conversation the agent compressed \
into a chain of sessions is shown once, as its latest session). Use it to find sessions by when they \
started, where they ran or what they cost, rather than by what was said (session_search finds that).

Every filter given must hold: time bounds (older_than / newer_than / before / after take `30m`, `5h`, \
`2d`, `1w` or an ISO date), title, workspace (repository or directory), cwd, branch, model, provider, \
source (cli, telegram, ...), status (active or ended), message, token, cost and tool-call ranges, and `q` \
(id, title or first message contains). Pages hold `limit` sessions (default 20); for the next page, while \
`has_more` is true, send the same filters again with `next_cursor` as `cursor`.

Each item has the session's id, title, source, model, started_at / ended_at / last_active (Unix seconds), \
message_count, tokens, cost, preview (the first user message), pinned, archived and its workspace."""

GET_DESCRIPTION = """\
One session's metadata (title, source, model, times, counts, tokens, cost, workspace, lineage) and its \
recap: the last `exchanges` user/assistant exchanges, shortened (user text up to 300 characters, assistant \
up to 3 lines), tool calls collapsed, with `omitted` counting the entries before them. Use it to see what a \
session was about and where it ended before reading it in full (session_messages, or session_search's \
read and scroll shapes)."""

MESSAGES_DESCRIPTION = """\
A session's messages in order, a page at a time: every role (system, user, assistant, tool) with its full \
content, tool calls and timestamps. The first page starts at the beginning; pass `next_cursor` back as \
`cursor` while `has_more` is true. `before` gives the newest messages before an id (the end of a session: \
a very large id), `around` a window of `window` messages on each side of one. For a quick look at a long \
session prefer session_search's read or scroll shapes, which return fewer, shorter messages."""

SessionRef = Annotated[SafeText, Field(description="The session id (from sessions_list or session_search)")]
MessageId = Annotated[int | None, Field(ge=1, le=MAX_MESSAGE_ID)]


class MessagesToolQuery(BaseModel):
    """``session_messages``'s parameters, as ``message_query`` takes them."""

    session_id: SessionRef
    limit: Annotated[int, Field(ge=1, le=1000, description="Page size (default 100)")] = 100
    cursor: Annotated[SafeText | None, Field(description="next_cursor of the previous page")] = None
    after: Annotated[MessageId, Field(description="Messages after this id")] = None
    before: Annotated[MessageId, Field(description="The newest messages before this id")] = None
    around: Annotated[MessageId, Field(description="A window of messages around this id")] = None
    window: Annotated[int, Field(ge=1, le=100, description="With around: messages on each side")] = 5
    role: Annotated[list[Role] | None, Field(description="Only these roles")] = None
    include_inactive: Annotated[bool, Field(description="Also rewound and compressed-away messages")] = False


def register(server: MCPServer, db: Store) -> None:
    """Add ``sessions_list``, ``session_get`` and ``session_messages`` to ``server``, reading ``db``."""

    async def sessions_list(**params: Any) -> CallToolResult:
        async def body() -> dict[str, Any]:
            query, bounds = listing_query(SessionListQuery.model_construct(**params))
            return await list_body(db, query, bounds)

        return await answer(body())

    async def session_get(
        session_id: SessionRef,
        exchanges: Annotated[
            int, Field(ge=1, le=100, description="How many user/assistant exchanges the recap shows")
        ] = DEFAULT_EXCHANGES,
    ) -> CallToolResult:
        def read(tx: Tx) -> dict[str, Any]:
            session = sessions_svc.get_session(tx, session_id)
            recap = lineage_svc.recap(tx, session_id, exchanges)
            entries = [{"role": e.role, "text": e.text} for e in recap.entries]
            return {"session": session, "recap": {"entries": entries, "omitted": recap.omitted}}

        return await answer(db.read(read))

    async def session_messages(**params: Any) -> CallToolResult:
        async def body() -> dict[str, Any]:
            return await message_page(db, await message_query(**params))

        return await answer(body())

    server.add_tool(
        with_parameters(sessions_list, SessionListQuery),
        title="List sessions",
        description=LIST_DESCRIPTION,
        annotations=READ_ONLY,
    )
    server.add_tool(session_get, title="Get a session", description=GET_DESCRIPTION, annotations=READ_ONLY)
    server.add_tool(
        with_parameters(session_messages, MessagesToolQuery),
        title="Read a session's messages",
        description=MESSAGES_DESCRIPTION,
        annotations=READ_ONLY,
    )
