"""Handoff rules: the state machine the agent's ``sessions.handoff_*`` columns hold, the
platforms a session can be handed to, and the texts both the API and the CLI use."""

from __future__ import annotations

from enum import StrEnum

from app.domain.sources import MESSAGING_PLATFORMS


class HandoffState(StrEnum):
    """``sessions.handoff_state``; ``NULL`` means no handoff was ever requested."""

    pending = "pending"
    running = "running"
    completed = "completed"
    failed = "failed"


# fail_handoff may only move a handoff that is still in flight.
IN_FLIGHT_STATES = frozenset({HandoffState.pending, HandoffState.running})

MAX_ERROR_CHARS = 500
"""The agent keeps the first 500 characters of a failure reason (``fail_handoff``)."""

TIMEOUT_ERROR = "timed out waiting for gateway"
"""The reason the CLI records when no gateway settles the handoff in time."""

CANCELLED_ERROR = "cancelled by the user before a gateway took it"
"""The reason the CLI records when the user interrupts the wait while the handoff is still pending."""

KNOWN_PLATFORMS: tuple[str, ...] = tuple(sorted(p.value for p in MESSAGING_PLATFORMS))
"""Platforms a gateway can receive a session on: the messaging sources."""


def is_known_platform(platform: str) -> bool:
    """Whether ``platform`` is one of :data:`KNOWN_PLATFORMS`."""
    return platform in KNOWN_PLATFORMS


def truncate_error(error: str) -> str:
    """The stored failure reason: the first :data:`MAX_ERROR_CHARS` characters."""
    return error[:MAX_ERROR_CHARS]


def stub_title(session_id: str) -> str:
    """The title an untitled session gets on handoff, so it can be resumed by name later."""
    return f"handoff-{session_id[:8]}"
