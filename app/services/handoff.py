"""Handoff use cases: request, claim, complete, fail, read. Each runs in one writer or
reader job; every state change records a ``handoff.updated`` event in the same transaction.

The state lives in the agent's ``sessions.handoff_*`` columns and moves only through the agent's own
compare-and-set statements, so a gateway using ``SessionDB`` directly on the same file interoperates
(its changes record no event: watchers must also re-read the state, as ``hermes handoff`` does).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from app.domain.handoff import (
    IN_FLIGHT_STATES,
    HandoffState,
    stub_title,
    truncate_error,
)
from app.errors import (
    AgentBusy,
    HandoffInFlight,
    HandoffStateChanged,
    InvalidOnlyStates,
    NoHomeChannel,
    PlatformNotEnabled,
    SessionNotFound,
)
from app.services.events import EventType, emit
from app.services.platforms import check_platform, get_platform
from app.storage.protocols import Tx


def _emit(tx: Tx, handoff: dict[str, Any]) -> None:
    data = {k: handoff[k] for k in ("session_id", "state", "platform", "error", "thread")}
    emit(tx, EventType.handoff_updated, handoff["session_id"], data)


def get_handoff(tx: Tx, session_id: str) -> dict[str, Any]:
    """The session's handoff (``state`` null when none was ever requested); 404 for an unknown session."""
    handoff = tx.handoff.fetch(session_id)
    if handoff is None:
        raise SessionNotFound(session_id)
    return handoff


def request_handoff(tx: Tx, session_id: str, platform: str, *, busy: bool) -> dict[str, Any]:
    """Queue a handoff (→ ``pending``) after the checks of the agent's ``/handoff``, in this order:
    422 ``unknown_platform``, 404 ``session_not_found``, 409 ``platform_not_enabled``,
    ``no_home_channel``, ``agent_busy`` (the caller says its agent is mid-turn), ``handoff_in_flight``.

    An untitled session first gets the stub title ``handoff-<8 chars of id>`` (numbered if taken) so it
    can be resumed by name later. Returns the handoff plus the platform's ``home_channel``.
    """
    check_platform(platform)
    current = get_handoff(tx, session_id)
    settings = get_platform(tx, platform)
    if not settings["enabled"]:
        raise PlatformNotEnabled(platform)
    if settings["home_channel"] is None:
        raise NoHomeChannel(platform)
    if busy:
        raise AgentBusy()
    if current["state"] in IN_FLIGHT_STATES:
        raise _in_flight(current)
    if current["title"] is None:
        tx.titles.set_title(session_id, tx.titles.next_title_in_lineage(stub_title(session_id)))
    if not tx.handoff.request(session_id, platform):
        # Another writer (the agent) moved it between our read and this statement.
        raise _in_flight(get_handoff(tx, session_id))
    tx.handoff.record_request(session_id, time.time())
    handoff = get_handoff(tx, session_id)
    _emit(tx, handoff)
    return {**handoff, "home_channel": settings["home_channel"]}


def _in_flight(current: dict[str, Any]) -> HandoffInFlight:
    return HandoffInFlight(current["state"], current["platform"])


def has_pending(tx: Tx, platform: str | None) -> bool:
    """Whether any handoff (of ``platform``, or any) waits to be claimed: a cheap read before a claim."""
    return bool(tx.handoff.pending_ids(platform, limit=1))


def claim_next(tx: Tx, platform: str | None, worker: str | None) -> dict[str, Any] | None:
    """Claim the oldest pending handoff (pending → running, compare-and-set), or ``None``.

    The claimed handoff carries the session's ``title`` and the platform's ``home_channel`` and
    ``threads`` settings, which is what a gateway needs to move the session.
    """
    if platform is not None:
        check_platform(platform)
    for session_id in tx.handoff.pending_ids(platform):
        if tx.handoff.claim(session_id):
            tx.handoff.record_claim(session_id, worker, time.time())
            handoff = get_handoff(tx, session_id)
            _emit(tx, handoff)
            settings = get_platform(tx, handoff["platform"]) if handoff["platform"] else None
            return {
                **handoff,
                "home_channel": settings["home_channel"] if settings else None,
                "threads": bool(settings and settings["threads"]),
            }
    return None


def _state_changed(current: dict[str, Any], wanted: str) -> HandoffStateChanged:
    return HandoffStateChanged(current["session_id"], current["state"], wanted)


def complete_handoff(tx: Tx, session_id: str, thread: Any) -> dict[str, Any]:
    """running → completed, recording where the session now lives (``thread``; ``None`` = the home
    channel itself). 409 ``handoff_state_changed`` unless running."""
    current = get_handoff(tx, session_id)
    if not tx.handoff.complete(session_id):
        raise _state_changed(current, HandoffState.completed)
    tx.handoff.record_settled(session_id, thread, time.time())
    handoff = get_handoff(tx, session_id)
    _emit(tx, handoff)
    return handoff


def fail_handoff(tx: Tx, session_id: str, error: str, only_states: Iterable[str] | None) -> dict[str, Any]:
    """→ failed with the first 500 characters of ``error``, only from ``only_states`` (default: pending
    or running); 409 ``handoff_state_changed`` when the handoff has moved on (e.g. the gateway claimed it
    just as the CLI gave up)."""
    states = set(only_states) if only_states else {s.value for s in IN_FLIGHT_STATES}
    if not states <= {s.value for s in IN_FLIGHT_STATES}:
        raise InvalidOnlyStates()
    current = get_handoff(tx, session_id)
    if not tx.handoff.fail(session_id, truncate_error(error), states):
        raise _state_changed(current, HandoffState.failed)
    tx.handoff.record_settled(session_id, None, time.time())
    handoff = get_handoff(tx, session_id)
    _emit(tx, handoff)
    return handoff
