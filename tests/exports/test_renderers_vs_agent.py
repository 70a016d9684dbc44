"""Our renderers against the agent's own (hermes-agent 0.19.0) on the same session dicts: same bytes.

Sessions vary by hypothesis; ours are fed a page of messages at a time (the page size varies too), as the
export streams them, while the agent's get whole sessions.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hermes_cli import session_export, session_export_html, session_export_md
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.domain.render_html import HtmlPage
from app.domain.render_markdown import MarkdownDocument, PromptDocument, PromptRecords
from app.domain.render_session_file import SessionFile, file_name, manifest_entry, verify
from app.domain.render_trace import TraceSession
from tests.exports.agent_oracle import (
    CWD,
    EXPORTED_AT,
    TRACE_TIME,
    agent_session_markdown,
    agent_trace,
    drive,
    page_body,
    uuids,
)
from tests.exports.strategies import messages, session_lists, sessions
from tests.sizes import sized

pages = st.integers(1, 4)
_settings = settings(
    max_examples=sized(50, 150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@_settings
@given(session_lists, pages)
def test_markdown_document_matches_render_sessions_export(batch: list[dict[str, Any]], page: int) -> None:
    ours = drive(MarkdownDocument(single=len(batch) == 1), batch, page)
    assert ours == session_export.render_sessions_export(batch, fmt="markdown")


@_settings
@given(session_lists, pages)
def test_user_prompts_markdown_matches(batch: list[dict[str, Any]], page: int) -> None:
    ours = drive(PromptDocument(single=len(batch) == 1), batch, page)
    assert ours == session_export.render_sessions_export(batch, fmt="markdown", only="user-prompts")


@_settings
@given(session_lists, pages)
def test_user_prompt_records_match(batch: list[dict[str, Any]], page: int) -> None:
    ours = drive(PromptRecords(), batch, page)
    assert ours == session_export.render_sessions_export(batch, fmt="jsonl", only="user-prompts")


def _session_file(session: dict[str, Any], fmt: str, page: int) -> str:
    segments = session.get("segments") or [session]
    total = sum(len(s["messages"]) for s in segments)
    doc = SessionFile(
        fmt, session, total=total, exported_at=EXPORTED_AT, lineage=session.get("lineage_session_ids")
    )
    out = [doc.begin()]
    for segment in segments:
        out.append(doc.segment(segment["id"]))
        msgs = segment["messages"]
        out += [doc.messages(msgs[i : i + page]) for i in range(0, len(msgs), page)]
    out.append(doc.end())
    return "".join(out)


@_settings
@given(sessions(), st.sampled_from(["md", "qmd"]), pages)
def test_session_file_matches_render_session_markdown(
    monkeypatch: pytest.MonkeyPatch, session: dict[str, Any], fmt: str, page: int
) -> None:
    ours = _session_file(session, fmt, page)
    assert ours == agent_session_markdown(monkeypatch, session, fmt)
    assert file_name(session, fmt) == session_export_md.safe_session_filename(session, fmt=fmt)


@_settings
@given(st.lists(sessions(), min_size=1, max_size=3), st.sampled_from(["md", "qmd"]), pages)
def test_lineage_file_matches(
    monkeypatch: pytest.MonkeyPatch, segments: list[dict[str, Any]], fmt: str, page: int
) -> None:
    for i, segment in enumerate(segments):
        segment["id"] = f"seg{i}"
    logical = dict(segments[-1])
    logical |= {
        "segments": segments,
        "lineage_session_ids": [s["id"] for s in segments],
        "message_count": sum(len(s["messages"]) for s in segments),
        "messages": [m for s in segments for m in s["messages"]],
    }
    assert _session_file(logical, fmt, page) == agent_session_markdown(monkeypatch, logical, fmt)


@_settings
@given(sessions())
def test_files_verify_both_ways(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: Any, session: dict[str, Any]
) -> None:
    ours = _session_file(session, "md", 2)
    path = tmp_path_factory.mktemp("v") / "f.md"
    path.write_bytes(ours.encode())
    total = len(session["messages"])
    if "\r" not in ours:  # the agent reads files back with newline translation: a CR never verifies there
        assert session_export_md.verify_export_file(path, session) == (True, "ok")
    assert verify(ours, str(session["id"]), total) == (True, "ok")
    tampered = ours.replace("## Messages", "## Messagez", 1)
    assert verify(tampered, str(session["id"]), total) == (False, "sha256 mismatch")
    assert verify(ours, str(session["id"]), total + 1) == (False, "message count mismatch")


def test_manifest_entry_has_the_agents_keys(tmp_path: Any) -> None:
    session = {"id": "s1", "title": "T", "messages": [{"role": "user", "content": "hi"}]}
    path = session_export_md.write_session_markdown(session, tmp_path)
    session_export_md.append_manifest_entry(tmp_path, session, path, fmt="md")
    theirs = json.loads((tmp_path / "manifest.jsonl").read_text())
    ours = manifest_entry(session, str(path), "md", 1, theirs["sha256"], theirs["exported_at"], [])
    assert ours == theirs


@_settings
@given(session_lists.filter(bool), pages)
def test_html_matches_generate_multi_session_html_export(batch: list[dict[str, Any]], page: int) -> None:
    single = len(batch) == 1
    html = HtmlPage(single=single, title="", generated_at="now", nonce="n")
    out = [html.begin()]
    if not single:
        out += [html.sidebar(s) for s in batch]
    out.append(html.sidebar_end())
    body = drive(html, batch, page).removeprefix(html.begin())
    ours = "".join(out) + body
    # On purpose, a session without a model reads "Model: Unknown" where the agent prints "None".
    named = [{**s, "model": "Unknown"} if s.get("model") is None and "model" in s else s for s in batch]
    theirs = (
        session_export_html.generate_html_export(named[0])
        if single
        else session_export_html.generate_multi_session_html_export(named)
    )
    assert page_body(ours) == page_body(theirs)


def test_html_of_no_session_is_the_agents() -> None:
    from app.domain.render_html import NO_SESSIONS

    assert session_export_html.generate_multi_session_html_export([]) == NO_SESSIONS


@st.composite
def conversations(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Replayed messages (``get_messages_as_conversation`` shape)."""
    out = []
    for raw in draw(st.lists(messages(), max_size=6)):
        msg = {"role": raw["role"], "content": raw["content"]}
        for key in ("tool_call_id", "tool_name", "tool_calls"):
            if raw[key]:
                msg[key] = raw[key]
        out.append(msg)
    return out


@_settings
@given(conversations(), st.booleans(), st.one_of(st.just(""), st.text(max_size=5)), pages)
def test_trace_matches_build_trace_jsonl(
    monkeypatch: pytest.MonkeyPatch, convo: list[dict[str, Any]], redact: bool, model: str, page: int
) -> None:
    seq = uuids()
    trace = TraceSession(
        "sid",
        model=model,
        cwd=CWD,
        git_branch="",
        timestamp=TRACE_TIME,
        redact=redact,
        new_uuid=lambda: next(seq),
    )
    ours = "".join(trace.messages(convo[i : i + page]) for i in range(0, len(convo), page))
    assert ours == agent_trace(monkeypatch, convo, session_id="sid", model=model, redact=redact)
