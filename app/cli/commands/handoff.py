"""``hermes handoff PLATFORM [SESSION]``: move a session to a messaging platform through the gateway
(the agent's ``/handoff``), with the two-phase wait of its later versions: up to 60 s to
be claimed, then up to 15 min to complete, ``Still transferring...`` every 30 s. A timeout marks the
handoff failed only if it is still in the phase that timed out (compare-and-set on the server).

It waits on the session's event stream *and* re-reads ``GET /handoff/{id}`` every 0.5 s, because a
gateway that uses the agent's ``SessionDB`` directly changes the state without any event.
"""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import quote

import typer

from app.cli.api import Api
from app.cli.commands.resume import current_session
from app.cli.context import get_env
from app.cli.errors import ApiError, CliError, ExitCode
from app.cli.events import EventListener
from app.cli.output import note, say
from app.domain.handoff import CANCELLED_ERROR, TIMEOUT_ERROR

TIMED_OUT = "Timed out waiting for the gateway. Is `hermes gateway` running?"

_REFUSALS = {
    "platform_not_enabled": "Platform '{p}' is not configured/enabled in the gateway.",
    "no_home_channel": (
        "No home channel configured for {p}.\nSet one with /sethome on the destination chat first."
    ),
    "agent_busy": "Agent is busy. Wait for the current turn to finish, then retry /handoff.",
    "handoff_in_flight": "Session is already in flight for handoff. Wait for it to settle, then retry.",
}


def _path(session_id: str) -> str:
    return f"/handoff/{quote(session_id, safe='')}"


def _queue(api: Api, session_id: str, platform: str) -> dict[str, Any]:
    try:
        queued: dict[str, Any] = api.send(
            "POST", "/handoff", feature="handoff", json={"session_id": session_id, "platform": platform}
        )
    except ApiError as exc:
        if exc.code == "unknown_platform":
            known = exc.body.get("platforms")
            listed = ", ".join(str(p) for p in known) if isinstance(known, list) else ""
            raise CliError(
                f"Unknown platform '{platform}'.\nKnown platforms: {listed}", ExitCode.USAGE
            ) from exc
        if exc.code in _REFUSALS:
            raise CliError(_REFUSALS[exc.code].format(p=platform), ExitCode.CONFLICT) from exc
        raise
    return queued


class _Wait:
    """The two-phase wait: ``pending`` until claimed, then ``running`` until settled."""

    def __init__(self, api: Api, session_id: str, timeouts: tuple[float, float, float, float]) -> None:
        self.api = api
        self.session_id = session_id
        self.claim_s, self.complete_s, self.progress_s, self.poll_s = timeouts
        self.phase = "pending"
        self.deadline = time.monotonic() + self.claim_s
        self.next_progress = float("inf")
        self.queued = False
        """Whether the server's answer to the request has arrived (before it, Ctrl-C may find none)."""

    def state(self) -> dict[str, Any]:
        handoff: dict[str, Any] = self.api.get(_path(self.session_id), feature="handoff")
        return handoff

    def step(self, handoff: dict[str, Any]) -> dict[str, Any] | None:
        """Act on one reading; the settled handoff when done, ``None`` to keep waiting."""
        state = handoff.get("state")
        # A completed handoff ran first, even when no reading caught it running (the gateway was quick).
        if state in ("running", "completed") and self.phase == "pending":
            say("Gateway picked it up; transferring...")
            self.phase = "running"
            now = time.monotonic()
            self.deadline = now + self.complete_s
            self.next_progress = now + self.progress_s
        if state in ("completed", "failed"):
            return handoff
        now = time.monotonic()
        if now >= self.deadline:
            return self._time_out()
        if now >= self.next_progress:
            say("Still transferring...")
            self.next_progress = now + self.progress_s
        return None

    def _time_out(self) -> dict[str, Any] | None:
        body = {"error": TIMEOUT_ERROR, "only_states": [self.phase]}
        try:
            self.api.send("POST", f"{_path(self.session_id)}/fail", feature="handoff", json=body)
        except ApiError as exc:
            if exc.code == "handoff_state_changed":
                return None  # the gateway moved it on just now: read it again
            raise
        raise CliError(TIMED_OUT, ExitCode.HANDOFF_FAILED)

    def withdraw(self) -> None:
        """On Ctrl-C: fail a handoff no gateway has taken yet, so none takes it later and a retry is
        allowed; one already running is the gateway's to finish."""
        if self.phase != "pending":
            note(f"A gateway is already transferring it; check with: hermes sessions show {self.session_id}")
            return
        body = {"error": CANCELLED_ERROR, "only_states": ["pending"]}
        try:
            self.api.send("POST", f"{_path(self.session_id)}/fail", feature="handoff", json=body)
        except CliError:
            if self.queued:  # else most likely nothing was queued to withdraw
                note("The handoff could not be withdrawn; a gateway may still take it.")

    def pause(self) -> float:
        """How long to sleep before the next reading."""
        now = time.monotonic()
        return max(0.0, min(self.poll_s, self.deadline - now, self.next_progress - now))


def handoff(
    ctx: typer.Context,
    platform: str | None = typer.Argument(None, help="Destination platform (telegram, discord, slack, ...)"),
    session: str | None = typer.Argument(
        None, help="Session id, prefix or title (default: the latest CLI session)"
    ),
    claim_timeout: float = typer.Option(60.0, hidden=True, envvar="HERMES_HANDOFF_CLAIM_TIMEOUT"),
    complete_timeout: float = typer.Option(900.0, hidden=True, envvar="HERMES_HANDOFF_COMPLETE_TIMEOUT"),
    progress_every: float = typer.Option(30.0, hidden=True, envvar="HERMES_HANDOFF_PROGRESS_EVERY"),
    poll: float = typer.Option(0.5, hidden=True, envvar="HERMES_HANDOFF_POLL"),
) -> None:
    """Hand the session off to a messaging platform via the gateway and wait until it arrives there."""
    if not platform:
        raise CliError("Usage: /handoff <platform>", ExitCode.USAGE)
    api = get_env(ctx).api()
    session_id = str(current_session(api, session)["id"])
    # Listen before queueing, so no state change falls between the request and the first read.
    listener = EventListener(
        api.http, f"/sessions/{quote(session_id, safe='')}/events", frozenset({"handoff.updated"})
    ).start()
    wait = _Wait(api, session_id, (claim_timeout, complete_timeout, progress_every, poll))
    # Ctrl-C from the moment the request is sent withdraws: the server may queue it before its answer arrives.
    try:
        queued = _queue(api, session_id, platform)
        wait.queued = True
        home = queued.get("home_channel") or {}
        title = queued.get("title") or session_id
        say(f"Queued handoff of '{title}' → {platform} (home: {home.get('name') or home.get('chat_id')}).")
        settled = None
        while settled is None:
            settled = wait.step(wait.state())
            if settled is None:
                listener.wake.wait(wait.pause())
                listener.wake.clear()
    except KeyboardInterrupt:
        wait.withdraw()
        raise
    finally:
        listener.close()
    if settled.get("state") == "failed":
        raise CliError(f"Handoff failed: {settled.get('error')}", ExitCode.HANDOFF_FAILED)
    say(f"↻ Handoff complete. The session is now active on {platform}.")
    say(f"Resume it on this CLI later with: /resume {title}")
