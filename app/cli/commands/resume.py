"""``hermes -c`` / ``-r`` (and ``hermes chat``), ``hermes title``, ``hermes new``, ``hermes end``:
the agent's session commands, resolved through the API."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import typer

from app.cli import formatting as fmt
from app.cli.api import Api
from app.cli.commands.common import active_messages, ambiguous
from app.cli.context import CliEnv, get_env
from app.cli.errors import ApiError, CliError, ExitCode
from app.cli.output import err_console, note, say
from app.cli.recap import recap_panel

# The agent refuses to load a conversation this long into a terminal session.
MAX_RESUME_MESSAGES = 20_000
# Sessions read per request while bare -c looks past ghosts.
GHOST_PAGE = 50


def _path(session_id: str) -> str:
    return f"/sessions/{quote(session_id, safe='')}"


def _resolve(
    api: Api, params: dict[str, Any], ref: str, not_found: list[str], missing: ExitCode = ExitCode.NOT_FOUND
) -> dict[str, Any]:
    """Resolve through the server; ``missing`` is the exit code when nothing matches (3 for a named ref,
    1 when there is simply no session to act on)."""
    try:
        resolved: dict[str, Any] = api.get("/sessions/resolve", feature="session lookup", params=params)
    except ApiError as exc:
        if exc.code == "ambiguous_session_ref":
            raise ambiguous(exc, ref) from exc
        if exc.status == 404 and exc.code == "session_not_found":
            raise CliError("\n".join(not_found), missing) from exc
        raise
    return resolved


def _latest_worth_continuing(api: Api) -> str | None:
    """The most recently active CLI session that has messages or a title.

    An untitled session without messages is a ghost (a ``hermes new`` that was never used, or a client that
    created a session and gave up): there is nothing in it to continue, so bare ``-c`` passes over it,
    where the agent would land on it and start afresh.
    """
    params: dict[str, Any] = {
        "source": "cli",
        "order": "last_active",
        "include_archived": "true",
        "limit": GHOST_PAGE,
    }
    while True:
        page = api.get("/sessions", feature="listing sessions", params=params)
        for session in page["items"]:
            if int(session.get("message_count") or 0) > 0 or session.get("title"):
                return str(session["id"])
        if not page.get("next_cursor"):
            return None
        params["cursor"] = page["next_cursor"]


def resolve_continue(api: Api, name: str | None) -> dict[str, Any]:
    """``-c``: the most recently active CLI session worth continuing, or the session ``name`` resolves to."""
    if name is None:
        missing = ["No previous CLI session found to continue."]
        session_id = _latest_worth_continuing(api)
        if session_id is None:
            raise CliError("\n".join(missing), ExitCode.ERROR)
        return _resolve(api, {"ref": session_id}, session_id, missing, ExitCode.ERROR)
    return _resolve(
        api,
        {"ref": name},
        name,
        [f"No session found matching '{name}'.", "Use 'hermes sessions list' to see available sessions."],
    )


def resolve_resume(api: Api, ref: str) -> dict[str, Any]:
    """``-r``: id, unique prefix, title, or ``latest`` (the most recently active session of any source)."""
    params = {"latest": "true"} if ref == "latest" else {"ref": ref}
    return _resolve(
        api,
        params,
        ref,
        [f"Session not found: {ref}", "Use a session ID from a previous CLI run (hermes sessions list)."],
        ExitCode.ERROR if ref == "latest" else ExitCode.NOT_FOUND,
    )


def continue_hint(session_id: str) -> str:
    """What ``-c``/``-r`` print last: this client only shows a session, the agent carries it on."""
    return (
        "This client shows sessions; it does not chat. To continue, run the agent: "
        f"hermes --resume {session_id}"
    )


def resume(env: CliEnv, resolved: dict[str, Any]) -> None:
    """Print the resolved session's banner and recap on stderr and its id on stdout.

    Nothing is written: an ended session stays ended (a cron session keeps ``cron_complete`` and stays
    prunable) until something is appended to it, which reopens it (``hermes chat -r ID -q TEXT``)."""
    api = env.api()
    session_id = str(resolved["id"])
    requested = resolved.get("requested")
    if requested and requested != session_id:
        note(
            f"Session {requested} was compressed into {session_id}; resuming the descendant with your "
            "transcript."
        )
    if int(resolved.get("message_count") or 0) > MAX_RESUME_MESSAGES:
        raise CliError(
            f"Session {session_id} has {resolved['message_count']} messages, more than the "
            f"{MAX_RESUME_MESSAGES} a terminal session can load. Read it with `hermes sessions export`.",
        )
    messages = active_messages(api, session_id)
    if not messages:
        note(f"Session {session_id} found but has no messages.")
    else:
        users, total = fmt.count_roles(messages)
        note(fmt.resume_banner(session_id, resolved.get("title"), users, total))
        if env.config.recap_enabled:
            panel = recap_panel(api.get(f"{_path(session_id)}/recap", feature="recap"))
            if panel is not None:
                err_console().print(panel)
    note(continue_hint(session_id))
    say(session_id)


def run_resume(
    ctx: typer.Context, continue_: bool, continue_name: str | None, resume_ref: str | None
) -> str | None:
    """Handle ``-c [NAME]`` / ``-r REF``: the id of the session shown, ``None`` when neither was given."""
    if not continue_ and continue_name is None and resume_ref is None:
        return None
    if resume_ref is not None and (continue_ or continue_name is not None):
        raise typer.BadParameter("use either --continue or --resume, not both")
    env = get_env(ctx)
    api = env.api()
    if resume_ref is not None:
        resolved = resolve_resume(api, resume_ref)
    else:
        resolved = resolve_continue(api, continue_name)
    resume(env, resolved)
    return str(resolved["id"])


def _user_message(query: str) -> dict[str, Any]:
    if not query.strip():
        raise CliError("Nothing to store: the message given with -q is empty.", ExitCode.USAGE)
    return {"role": "user", "content": query}


def append_query(api: Api, session_id: str, query: str) -> None:
    """Store ``query`` as the next user message; this, and only this, reopens an ended session."""
    api.send(
        "POST",
        f"{_path(session_id)}/messages",
        feature="messages",
        json=_user_message(query),
        params={"reopen": "true"},
    )


def start_chat(ctx: typer.Context, query: str | None) -> None:
    """``hermes chat`` without -c/-r: a new CLI session holding its first message, never an empty one.

    The append API does not create sessions, so the session is created and filled in two requests; if the
    second fails the first is undone, and nothing empty is left for bare ``-c`` to find.
    """
    if query is None:
        raise CliError(
            "Nothing to start yet: a session is stored only once it has something in it. Give the first "
            "message with `hermes chat -q TEXT`, or resume one with -c [NAME] / -r ID.",
            ExitCode.USAGE,
        )
    message = _user_message(query)
    api = get_env(ctx).api()
    created = api.send("POST", "/sessions", feature="sessions", json={"source": "cli"})
    session_id = str(created["id"])
    try:
        api.send("POST", f"{_path(session_id)}/messages", feature="messages", json=message)
    except BaseException:
        api.send("DELETE", _path(session_id), feature="sessions")
        raise
    say(session_id)


def current_session(api: Api, ref: str | None) -> dict[str, Any]:
    """The session ``title``/``new``/``end`` act on: ``--session`` or the most recent CLI session."""
    if ref is not None:
        return resolve_resume(api, ref)
    return _resolve(
        api,
        {"latest": "true", "source": "cli"},
        "",
        ["No current CLI session. Start one with `hermes new`."],
        ExitCode.ERROR,
    )


SessionOpt = typer.Option(
    None, "--session", "-s", help="Session id, prefix or title (default: the most recent CLI session)"
)


def title(
    ctx: typer.Context,
    text: list[str] | None = typer.Argument(None, help="The new title; none: show the current one"),
    session: str | None = SessionOpt,
) -> None:
    """Show or set the title of the current session (the agent's /title)."""
    api = get_env(ctx).api()
    current = current_session(api, session)
    if not text:
        say(f"  Session ID: {current['id']}")
        if current.get("title"):
            say(f"  Title: {current['title']}")
        else:
            say("  No title set. Usage: /title <your session title>")
        return
    wanted = " ".join(text)
    if not wanted.strip():
        raise CliError("  Title is empty after cleanup. Please use printable characters.", ExitCode.USAGE)
    try:
        updated = api.send("PATCH", _path(current["id"]), feature="sessions", json={"title": wanted})
    except ApiError as exc:
        if exc.status in (409, 422):
            raise CliError(f"  {exc.message}", exc.exit_code) from exc
        raise
    if updated.get("title") is None:
        raise CliError("  Title is empty after cleanup. Please use printable characters.", ExitCode.USAGE)
    say(f"  Session title set: {updated['title']}")


def new(
    ctx: typer.Context,
    name: list[str] | None = typer.Argument(None, help="Title of the new session"),
) -> None:
    """End the current CLI session (end_reason new_session) and start a new one (the agent's /new)."""
    api = get_env(ctx).api()
    try:
        latest = api.get(
            "/sessions/resolve", feature="session lookup", params={"latest": "true", "source": "cli"}
        )
    except ApiError as exc:
        if exc.code != "session_not_found":
            raise
        latest = None
    if latest is not None and latest.get("ended_at") is None:
        api.send("POST", f"{_path(latest['id'])}/end", feature="sessions", json={"end_reason": "new_session"})
    created = api.send("POST", "/sessions", feature="sessions", json={"source": "cli"})
    wanted = " ".join(name or [])
    if wanted.strip():
        try:
            created = api.send("PATCH", _path(created["id"]), feature="sessions", json={"title": wanted})
            note(f"  Session title set: {created['title']}")
        except ApiError as exc:
            if exc.status not in (409, 422):
                raise
            note(f"  {exc.message}")
    say(created["id"])


def end(ctx: typer.Context, session: str | None = SessionOpt) -> None:
    """End a session as the agent's CLI does on exit (end_reason cli_close) and print the epilogue."""
    api = get_env(ctx).api()
    current = current_session(api, session)
    session_id = str(current["id"])
    ended = api.send("POST", f"{_path(session_id)}/end", feature="sessions", json={"end_reason": "cli_close"})
    users, total = fmt.count_roles(active_messages(api, session_id))
    seconds = float(ended.get("ended_at") or 0) - float(ended.get("started_at") or 0)
    for line in fmt.exit_epilogue(session_id, seconds, total, users, int(ended.get("tool_call_count") or 0)):
        say(line)
