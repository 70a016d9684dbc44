"""Redaction against the agent's: our copy of its passes is ``agent.redact.redact_sensitive_text(force=True)``
on a corpus of secrets and on generated text, and our redaction (its passes, then ours) hides everything it
hides, in text and in ``redact_session_data``'s whole export dicts."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from agent.redact import redact_sensitive_text
from hermes_cli.session_export_md import redact_session_data
from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain.redact import agent_redact_text, redact_message, redact_text

CORPUS = [
    # API keys
    "OPENAI key sk-proj-abcdefghijklmnopqrstuvwxyz0123 in the log",
    "anthropic sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAA-BBBB and github ghp_0123456789abcdefghijABCDEFGHIJ",
    "short sk-abcdefghij0 and aws AKIAIOSFODNN7EXAMPLE and google AIzaSyA1234567890abcdefghijklmnopqrstu",
    "stripe sk_live_abcdefghijklmnop, hf_abcdefghijklmnopqrstu, xoxb-1234567890-abcdefghij",
    "sendgrid SG.abcdefghijkl.mnop",
    "OPENAI_API_KEY=sk-live-1234567890abcdefgh\nexport GITHUB_TOKEN=ghp_abc\nMY_SECRET = 'hunter2hunter2'",
    "spring.datasource.password=s3cr3tpass\npassword=topsecret\napi_key: abc123def456\n  token: zzz",
    'config {"apiKey": "abcd1234efgh5678", "password": "p@ss", "token": "os.getenv(\'X\')"}',
    "KEY=os.getenv('API_KEY') stays, and so does password: ${PASSWORD}",
    # bearer and other tokens
    "curl -H 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N'",
    'curl -H "Authorization: Basic dXNlcjpwYXNzd29yZA==" -H "x-api-key: my-local-key-123"',
    "Proxy-Authorization: token ghp_abcdefghijklmnopqrstuvwxyz",
    "bot123456789:AAEhBP0av28ZLbxTbDeInHHaCMjjaaaaaaa telegram",
    "jwt eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxIn0.sig_nature-xyz end",
    # private keys
    "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\nabc\n-----END RSA PRIVATE KEY-----\nafter",
    "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE=\n-----END OPENSSH PRIVATE KEY-----",
    "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----",
    # connection strings
    "DATABASE_URL=postgres://admin:hunter2@db.example.com:5432/app",
    "mongodb+srv://user:p%40ss@cluster0.mongodb.net/test and redis://:secretpw@localhost:6379",
    "git remote set-url origin https://ghp_tokentokentoken@github.com/me/repo.git",
    "https://user:pass@example.com/path?code=abc&state=xyz (web URLs pass through)",
    # e-mail and phone numbers: the agent masks phone numbers, never e-mail addresses
    "write to jane.doe@example.com or call +14155552671",
    "grant_type=password&password=hunter2&client_secret=abc&user=me",
    "nothing secret here, just prose about tokens and passwords",
    "",
]


def _hides_what_the_agent_hides(text: str, theirs: str, ours: str) -> None:
    for word in text.split():
        if word not in theirs:
            assert word not in ours, (text, theirs, ours)


@pytest.mark.parametrize("text", CORPUS)
def test_corpus_is_redacted_as_the_agent_does(text: str) -> None:
    theirs = redact_sensitive_text(text, force=True)
    assert agent_redact_text(text) == theirs
    _hides_what_the_agent_hides(text, theirs, redact_text(text))


def test_the_corpus_really_hides_secrets() -> None:
    joined = "\n".join(redact_text(t) for t in CORPUS)
    for secret in ("hunter2", "abcdefghijklmnopqrstuvwxyz0123", "MIIEowIBAAKCAQEA", "dXNlcjpwYXNzd29yZA=="):
        assert secret not in joined
    # Deliberately the agent's behaviour: an e-mail address is personal data, not a credential; it is kept.
    assert "jane.doe@example.com" in joined


_fragments = st.sampled_from(
    [
        "sk-",
        "ghp_",
        "AKIA",
        "eyJ",
        "Bearer ",
        "Authorization: ",
        "x-api-key: ",
        "password",
        "=",
        ": ",
        '"',
        "'",
        "://",
        "postgres://",
        "https://",
        "@",
        ":",
        "&",
        "+1415555",
        "2671",
        "-----BEGIN ",
        "PRIVATE KEY-----",
        "-----END ",
        "TOKEN",
        "api_key",
        "\n",
        " ",
        ".",
        "abcdefghij",
        "0123456789",
        "ABCDEFGHIJKLMNOP",
        "_",
        "-",
        "export ",
        "bot",
        "os.getenv(",
    ]
)
secretish = st.lists(_fragments, max_size=14).map("".join)


@settings(max_examples=600, deadline=None)
@given(st.one_of(secretish, st.text(max_size=40)))
def test_generated_text_is_redacted_as_the_agent_does(text: str) -> None:
    theirs = redact_sensitive_text(text, force=True)
    assert agent_redact_text(text) == theirs
    _hides_what_the_agent_hides(text, theirs, redact_text(text))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.fixed_dictionaries(
            {
                "role": st.sampled_from(["user", "tool"]),
                "content": st.one_of(
                    secretish, st.lists(st.fixed_dictionaries({"type": st.just("text"), "text": secretish}))
                ),
                "tool_calls": st.one_of(
                    st.none(),
                    st.lists(
                        st.fixed_dictionaries({"function": st.fixed_dictionaries({"arguments": secretish})})
                    ),
                ),
                "timestamp": st.floats(0, 2e9),
            }
        ),
        max_size=4,
    )
)
def test_session_data_is_redacted_as_the_agent_does(msgs: list[dict[str, Any]]) -> None:
    session = {"id": "s", "title": "sk-abcdefghijklmnop stays in the agent's title", "messages": msgs}
    theirs = redact_session_data(session)
    assert theirs["title"] == session["title"]  # the agent never touches a session's columns
    for message, their_message in zip(msgs, theirs["messages"], strict=True):
        text, their_text = orjson.dumps(message).decode(), orjson.dumps(their_message).decode()
        _hides_what_the_agent_hides(text, their_text, orjson.dumps(redact_message(message)).decode())
