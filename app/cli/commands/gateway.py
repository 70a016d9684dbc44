"""``hermes gateway routes [KEY]`` and ``hermes gateway config [--set ...]``: the gateway routing index
and the reset policy the server (and the agent's gateway) applies."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import typer

from app.cli.context import get_env
from app.cli.errors import CliError, ExitCode
from app.cli.output import emit_json, say

app = typer.Typer(
    help="Gateway routing: which session each chat is on, and when chats reset.", no_args_is_help=True
)

_POLICY_FIELDS = {
    "mode": str,
    "at_hour": int,
    "idle_minutes": int,
    "notify": bool,
    "bg_process_max_age_hours": int,
}
_FLAGS = ("group_sessions_per_user", "thread_sessions_per_user", "write_sessions_json")


def _line(entry: dict[str, Any]) -> str:
    flags = [name for name in ("suspended", "resume_pending", "expiry_finalized") if entry.get(name)]
    suffix = f"  [{', '.join(flags)}]" if flags else ""
    key, session, updated = entry.get("session_key"), entry.get("session_id"), entry.get("updated_at")
    return f"{key}  →  {session}  (updated {updated}){suffix}"


@app.command("routes")
def routes(
    ctx: typer.Context,
    session_key: str | None = typer.Argument(None, help="Show one entry in full"),
    platform: str | None = typer.Option(None, "--platform", help="Only this platform's chats"),
    session_id: str | None = typer.Option(None, "--session", help="Only chats routed to this session"),
    limit: int = typer.Option(100, "--limit", min=1, max=500, help="Page size"),
    all_pages: bool = typer.Option(False, "--all", help="Every page, not only the first"),
    as_json: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """List the routing index (chat key → session), or show one entry."""
    api = get_env(ctx).api()
    if session_key is not None:
        entry = api.get(f"/gateway/routes/{quote(session_key, safe='')}", feature="gateway routing")
        if as_json:
            emit_json(entry)
            return
        say(_line(entry))
        for name, value in entry.items():
            if name not in {"session_key", "session_id", "updated_at"}:
                say(f"  {name}: {value}")
        return
    params: dict[str, Any] = {"limit": limit}
    if platform:
        params["platform"] = platform
    if session_id:
        params["session_id"] = session_id
    items: list[dict[str, Any]] = []
    while True:
        page = api.get("/gateway/routes", feature="gateway routing", params=params)
        items.extend(page["items"])
        if not all_pages or not page.get("next_cursor"):
            break
        params["cursor"] = page["next_cursor"]
    if as_json:
        emit_json(items)
        return
    if not items:
        say("No routed chats.")
    for entry in items:
        say(_line(entry))


def _parse(assignment: str) -> tuple[str, str, Any]:
    """``mode=idle`` → (section, field, value); ``dm.mode=idle`` is the dm override, ``telegram.mode=none``
    the platform override; a routing flag such as ``group_sessions_per_user=false`` stands alone."""
    name, sep, raw = assignment.partition("=")
    if not sep:
        raise CliError(f"Expected FIELD=VALUE, got '{assignment}'.", ExitCode.USAGE)
    scope, _, field = name.rpartition(".")
    if not scope and field in _FLAGS:
        return "", field, _value(bool, raw, assignment)
    kind = _POLICY_FIELDS.get(field)
    if kind is None:
        known = ", ".join([*_POLICY_FIELDS, *_FLAGS])
        raise CliError(f"Unknown setting '{field}'. Settable: {known}.", ExitCode.USAGE)
    return scope, field, _value(kind, raw, assignment)


def _value(kind: type, raw: str, assignment: str) -> Any:
    if kind is bool:
        lowered = raw.strip().lower()
        if lowered in {"true", "1", "yes", "on"}:
            return True
        if lowered in {"false", "0", "no", "off"}:
            return False
        raise CliError(f"'{assignment}': expected true or false.", ExitCode.USAGE)
    if kind is int:
        try:
            return int(raw)
        except ValueError as exc:
            raise CliError(f"'{assignment}': expected a whole number.", ExitCode.USAGE) from exc
    return raw


CHAT_TYPES = {"dm", "group", "channel", "thread"}


@app.command("config")
def config(
    ctx: typer.Context,
    assignments: list[str] = typer.Option(
        [],
        "--set",
        help="FIELD=VALUE (mode, at_hour, idle_minutes, notify, bg_process_max_age_hours; "
        "prefix dm./group./... or <platform>. for an override; or a routing flag)",
    ),
    as_json: bool = typer.Option(False, "--json", help="JSON output"),
) -> None:
    """Show the reset policy and routing flags, or change them with --set."""
    api = get_env(ctx).api()
    current: dict[str, Any] = api.get("/gateway/config", feature="gateway routing")
    if assignments:
        update: dict[str, Any] = {}
        for assignment in assignments:
            scope, field, value = _parse(assignment)
            if not scope and field in _FLAGS:
                update[field] = value
                continue
            if not scope:
                section = update.setdefault("session_reset", dict(current["session_reset"]))
            else:
                group = "reset_by_type" if scope in CHAT_TYPES else "reset_by_platform"
                overrides = update.setdefault(group, dict(current[group]))
                section = overrides.setdefault(
                    scope, dict(current[group].get(scope) or current["session_reset"])
                )
            section[field] = value
        current = api.send("PUT", "/gateway/config", feature="gateway routing", json=update)
    if as_json:
        emit_json(current)
        return
    policy = current["session_reset"]
    say(_policy_line("default", policy))
    for name, override in sorted(current["reset_by_type"].items()):
        say(_policy_line(f"chat type {name}", override))
    for name, override in sorted(current["reset_by_platform"].items()):
        say(_policy_line(f"platform {name}", override))
    for flag in _FLAGS:
        say(f"{flag}: {str(current[flag]).lower()}")


def _policy_line(label: str, policy: dict[str, Any]) -> str:
    detail = {
        "idle": f"after {policy['idle_minutes']} min idle",
        "daily": f"daily at {policy['at_hour']}:00",
        "both": f"after {policy['idle_minutes']} min idle or daily at {policy['at_hour']}:00",
    }.get(str(policy["mode"]), "never")
    notify = "notify" if policy["notify"] else "no notice"
    hours = policy["bg_process_max_age_hours"]
    processes = f"processes younger than {hours} h block it" if hours > 0 else "any live process blocks it"
    return f"{label}: {policy['mode']} (reset {detail}; {notify}; {processes})"
