"""The agent's own export code (hermes-agent 0.19.0), made deterministic, and a driver for our renderers.

The agent's renderers read the clock, random nonces and uuid4; these wrappers pin them so the same sessions
give the same bytes. Our renderers get the same values as arguments.
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

EXPORTED_AT = 1_760_000_000.25
TRACE_TIME = "2025-10-09T08:53:20.250Z"
CWD = "/work/project"


def uuids() -> Iterator[uuid.UUID]:
    """The same sequence of uuids each time."""
    return (uuid.UUID(int=n) for n in itertools.count(1))


def agent_session_markdown(monkeypatch: pytest.MonkeyPatch, session: dict[str, Any], fmt: str) -> str:
    """The agent's per-session file, exported at :data:`EXPORTED_AT`."""
    from hermes_cli import session_export_md

    monkeypatch.setattr(session_export_md, "time", SimpleNamespace(time=lambda: EXPORTED_AT))
    return session_export_md.render_session_markdown(session, fmt=fmt)


def agent_trace(monkeypatch: pytest.MonkeyPatch, messages: list[dict[str, Any]], **kwargs: Any) -> str:
    """The agent's trace with uuids from :func:`uuids`, stamped :data:`TRACE_TIME`, run from :data:`CWD`."""
    from agent import trace_upload

    seq = uuids()
    monkeypatch.setattr(trace_upload, "uuid", SimpleNamespace(uuid4=lambda: next(seq)))
    monkeypatch.setattr(trace_upload, "_now_iso", lambda: TRACE_TIME)
    monkeypatch.setattr(trace_upload, "os", SimpleNamespace(getcwd=lambda: CWD))
    return str(trace_upload.build_trace_jsonl(messages, cwd="", **kwargs))


def page_body(html: str) -> str:
    """The sessions part of a page (sidebar, headers, messages): what our page shares with the agent's."""
    start = html.index('<div class="layout')
    return html[start : html.index("<footer>", start)]


def drive(renderer: Any, sessions: list[dict[str, Any]], page: int) -> str:
    """Our renderer fed session by session, ``page`` messages at a time."""
    out = [renderer.begin()]
    for session in sessions:
        out.append(renderer.session(session))
        messages = session.get("messages") or []
        for start in range(0, len(messages), page):
            out.append(renderer.messages(messages[start : start + page]))
        out.append(renderer.session_end())
    out.append(renderer.end())
    return "".join(out)
