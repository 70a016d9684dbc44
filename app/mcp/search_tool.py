"""``session_search``: the agent's own recall tool (its arguments, its four shapes, its result shape) over
every session this server holds, answered by the search service behind ``GET /search``."""

from __future__ import annotations

from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult, ToolAnnotations
from pydantic import Field

from app.api.routes.search import names, searched_roles
from app.api.schemas.common import Int64, SafeText
from app.mcp.results import answer
from app.services import search as svc
from app.storage.protocols import Store

DESCRIPTION = """\
Search past Hermes agent sessions (conversations from the CLI, TUI, messaging gateways, cron jobs, ...) or \
read inside one. Full-text retrieval over the stored messages; no model is called: every shape returns the \
actual messages.

This tool searches conversation history only. It is not evidence about the current state of a file, \
repository, website or system: inspect such a source directly when you can, and use session_search for \
what was said about it before.

FOUR CALLING SHAPES (chosen by the arguments given)

1) DISCOVER: pass `query`, e.g. session_search(query="auth refactor", limit=3).
   Returns up to `limit` sessions, one per conversation lineage, best match first. Each result has \
session_id, title, source, started_at, a `snippet` (match marked >>>like this<<<), `bookend_start` (the \
first user/assistant messages: the goal), `messages` (a window around the match, the matching message \
flagged "anchor": true), `bookend_end` (the last messages: the outcome), match_message_id, \
messages_before and messages_after.
2) SCROLL: pass `session_id` + `around_message_id`, e.g. session_search(session_id="...", \
around_message_id=12345, window=10).
   Returns ±`window` messages around that message. To scroll forward pass the last message's id, to scroll \
back the first one's; fewer than `window` messages on a side means you reached the start or the end.
3) READ: pass `session_id` alone. Returns the whole session (the first 20 and last 10 messages when it is \
longer; scroll for the middle). Resolves an `@session:<profile>/<id>` link: pass it as session_id.
4) BROWSE: pass nothing. Returns the most recently active sessions with a preview each; use it for "what \
was I working on".

QUERY SYNTAX: words are ANDed; use OR for broader recall (`alpha OR beta`), "quoted phrases" for exact \
text, NOT to exclude (`python NOT java`), and `deploy*` for prefixes. Two-character Chinese, Japanese and \
Korean words work.

The answer is JSON: `success`, `mode` (discover, scroll, read or browse) and that shape's fields. An unknown \
session or a message outside the session is a tool error with a `code` (session_not_found, \
message_not_in_session, ...)."""

Query = Annotated[
    SafeText | None,
    Field(
        description='Discover shape: keywords, "phrases", OR / NOT / prefix* to find in past messages. Omit '
        "to browse recent sessions; ignored when session_id is given."
    ),
]
Limit = Annotated[
    Int64,
    Field(
        description="Discover and browse: how many sessions (default 3, at most 50). Raise it to 5-10 when "
        "the topic likely spans several sessions and you want to pick the right one to scroll into."
    ),
]
Sort = Annotated[
    Literal["relevance", "newest", "oldest"] | None,
    Field(
        description="Discover only. Omit for best match first (\"what do we know about X\"); 'newest' for "
        '"where did we leave X"; \'oldest\' for "how did X start".'
    ),
]
SessionArg = Annotated[
    SafeText | None,
    Field(
        description="Read or scroll shape: the session, as a session_id from an earlier result (or an "
        "`@session:<profile>/<id>` link's value)."
    ),
]
Anchor = Annotated[
    Int64 | None,
    Field(
        description="Scroll shape (with session_id): the message id to center on, e.g. a discover result's "
        "match_message_id or any id seen in an earlier window."
    ),
]
Window = Annotated[
    Int64, Field(description="Scroll and discover: messages on each side of the anchor (default 5, 1-20).")
]
RoleFilter = Annotated[
    SafeText | None,
    Field(
        description="Comma-separated roles searched (default 'user,assistant'; tool output is usually "
        "noise). 'user,assistant,tool' includes tool output, 'tool' searches it alone."
    ),
]
Sources = Annotated[
    list[SafeText] | None,
    Field(description="Only sessions from these platforms (e.g. cli, telegram, discord, cron)."),
]
ExcludeSources = Annotated[list[SafeText] | None, Field(description="Not sessions from these platforms.")]
Home = Annotated[
    SafeText | None,
    Field(description="Only sessions synced from the home with this label (`host:/path`)."),
]
Current = Annotated[
    SafeText | None,
    Field(
        description="Your own session id, if you are a Hermes agent: its lineage is left out (it is already "
        "in your context)."
    ),
]
Detail = Annotated[
    Literal["adaptive", "full"],
    Field(description="adaptive (default): long messages are cut (content_truncated); full: whole messages."),
]


def _session_id(value: str | None) -> str | None:
    # An `@session:<profile>/<id>` link names the agent profile before the id; ids never contain "/", and
    # this server holds every profile's synced sessions in one store, so the id alone finds it.
    return value.rpartition("/")[2] if value else value


def register(server: MCPServer, db: Store) -> None:
    """Add ``session_search`` to ``server``, reading ``db``."""

    async def session_search(
        query: Query = None,
        limit: Limit = svc.DEFAULT_LIMIT,
        sort: Sort = None,
        session_id: SessionArg = None,
        around_message_id: Anchor = None,
        window: Window = svc.DEFAULT_WINDOW,
        role_filter: RoleFilter = None,
        source: Sources = None,
        exclude_source: ExcludeSources = None,
        home: Home = None,
        current_session_id: Current = None,
        detail: Detail = "adaptive",
    ) -> CallToolResult:
        async def body() -> dict[str, object]:
            request = svc.SearchRequest(
                q=query,
                session_id=_session_id(session_id),
                around_message_id=around_message_id,
                window=window,
                limit=limit,
                sort=svc.Sort(sort or "relevance"),
                roles=searched_roles(role_filter),
                sources=names(source),
                exclude_sources=names(exclude_source) or (),
                home=home,
                current_session_id=current_session_id,
                detail=svc.Detail(detail),
            )
            found = await db.read(lambda tx: svc.search(tx, request))
            # The agent's tool answers `success` first; the rest is GET /search's body.
            return {"success": True, **found}

        return await answer(body())

    server.add_tool(
        session_search,
        title="Search past sessions",
        description=DESCRIPTION,
        annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False),
    )
