"""Property tests: title sanitising against the real agent, and the session-id rules."""

from __future__ import annotations

import re

import hermes_state
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from app.domain.ids import session_id_problem
from app.domain.titles import MAX_TITLE_LENGTH, TitleTooLong, sanitize_title

# Characters the agent singles out: ASCII controls, zero-width, bidi embeddings/overrides/isolates, BOM.
_NASTY = (
    "\x00\x01\x07\t\n\r\x0b\x0c\x1b\x1f\x7f\u200b\u200d\u200e\u200f\u2028\u202a\u202e\u2066\u2069\ufeff\ufffc"
)
_FORBIDDEN_OUT = re.compile(r"[\x00-\x1f\x7f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")
_SURROGATES = re.compile(r"[\ud800-\udfff]")

titles = st.one_of(
    st.text(max_size=140),
    st.text(
        alphabet=st.sampled_from(list(_NASTY) + list("ab 日本語🙂é \u3000\ud800\udfff\x85")), max_size=140
    ),
    st.text(alphabet=st.characters(codec=None, categories=None), max_size=120),
)
quick = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _ours(title: str | None) -> tuple[str, str | None]:
    try:
        return ("ok", sanitize_title(title))
    except TitleTooLong:
        return ("too_long", None)


def _agents(title: str | None) -> tuple[str, str | None]:
    try:
        return ("ok", hermes_state.SessionDB.sanitize_title(title))
    except ValueError:
        return ("too_long", None)


@quick
@given(titles)
@example("\u202eevil\u202c title\u200b")
@example("🙂 emoji and 中文 標題")
@example("a" * 100 + "\u200b")
def test_sanitize_title_properties(raw: str) -> None:
    try:
        out = sanitize_title(raw)
    except TitleTooLong:
        return
    if out is None:
        return
    assert 0 < len(out) <= MAX_TITLE_LENGTH
    assert not _FORBIDDEN_OUT.search(out)
    assert not _SURROGATES.search(out)
    assert out == out.strip() and "  " not in out
    assert sanitize_title(out) == out


@quick
@given(titles)
@example("\ud800 lone")
@example("日本語\u3000\u3000タイトル")
def test_sanitize_title_matches_agent(raw: str) -> None:
    # The agent turns a lone surrogate into U+FFFD, we drop it (the API refuses such text with 422
    # invalid_text before it gets here). Everywhere else the two must agree exactly.
    assert _ours(raw) == _agents(_SURROGATES.sub("", raw))
    if not _SURROGATES.search(raw):
        assert _ours(raw) == _agents(raw)


ids = st.text(alphabet=st.characters(codec=None), max_size=300)


@quick
@given(ids, st.sampled_from(["/", "..", "\x00", "\n", "\x1f", "\x7f", "\\"]), st.text(max_size=20))
def test_session_id_rules_never_accept_paths_or_controls(prefix: str, bad: str, suffix: str) -> None:
    assert session_id_problem(prefix + bad + suffix) is not None


@quick
@given(ids)
def test_session_id_accepted_only_when_safe(candidate: str) -> None:
    if session_id_problem(candidate) is None:
        assert 0 < len(candidate) <= 256
        assert "/" not in candidate and ".." not in candidate
        assert not any(ord(c) < 0x20 or ord(c) == 0x7F for c in candidate)
