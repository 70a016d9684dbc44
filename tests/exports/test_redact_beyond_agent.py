"""Redaction that beats the agent's: a corpus of secrets in every field a session and its messages export
(title, model, system prompt, ``model_config``, cwd, branch, content, tool names, tool-call arguments,
``reasoning_details``), in the shapes the agent leaves (any URL's password, secret query parameters,
``key = value`` of any case, JSON members by name, numbers too), through every export format; and
everything the agent's ``agent.redact`` hides in a field is hidden by ours too."""

from __future__ import annotations

import json
from typing import Any

import pytest
from agent.redact import redact_sensitive_text
from fastapi.testclient import TestClient

from app.domain.redact import redact_session, redact_text, redact_value

SESSION: dict[str, Any] = {
    "id": "leaky",
    "source": "cli",
    "started_at": 1_767_600_000.0,
    "title": "deploy with sk-proj-TITLESECRETmiddle0123x",
    "model": "gpt https://user:MODELPASSWORD@proxy.example.com",
    "system_prompt": "Use aws_secret_access_key = PROMPTSECRETAWS1234567 and redis://:PROMPTREDISPW@cache:6379",
    "model_config": json.dumps(
        {
            "api_key": "CONFIGSECRETKEY12345",
            "base_url": "https://api.example.com/v1?api_key=CONFIGQUERYSECRET99",
        }
    ),
    "cwd": "/srv/app password=CWDPASSWORD123",
    "git_branch": "GITHUB_TOKEN=ghp_BRANCHSECRET0123456789abcd",
}
ARGUMENTS = {
    "api_key": "ARGSECRETVALUE123",
    "openai_api_key": "ARGSECRETOPENAI12",
    "client_secret": 987654321987,
}
MESSAGES: list[dict[str, Any]] = [
    {
        "role": "user",
        "content": "connect https://admin:CONTENTPASSWORD@db.example.com/x?api_key=CONTENTQUERYKEY now",
    },
    {
        "role": "assistant",
        "content": "calling",
        "tool_calls": json.dumps(
            [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "http", "arguments": json.dumps(ARGUMENTS)},
                }
            ]
        ),
        "reasoning_details": json.dumps([{"type": "reasoning.text", "api_key": "REASONINGSECRET123"}]),
    },
    {"role": "tool", "content": "ok", "tool_call_id": "c1", "tool_name": "api_key=TOOLNAMESECRET1234"},
]
MARKERS = [
    "TITLESECRET",
    "MODELPASSWORD",
    "PROMPTSECRETAWS",
    "PROMPTREDISPW",
    "CONFIGSECRETKEY",
    "CONFIGQUERYSECRET",
    "CWDPASSWORD",
    "BRANCHSECRET",
    "CONTENTPASSWORD",
    "CONTENTQUERYKEY",
    "TOOLNAMESECRET",
    "ARGSECRETVALUE",
    "ARGSECRETOPENAI",
    "987654321987",
    "REASONINGSECRET",
]


def _store(client: TestClient) -> None:
    columns = ["id", "session_id", "role", "content", "timestamp", "tool_calls", "tool_call_id", "tool_name"]
    columns.append("reasoning_details")
    rows = [
        [
            i + 1,
            "leaky",
            *(m.get(c) for c in columns[2:4]),
            1_767_600_001.0 + i,
            *(m.get(c) for c in columns[5:]),
        ]
        for i, m in enumerate(MESSAGES)
    ]
    body = {"home": "laptop", "sessions": [SESSION], "messages": {"columns": columns, "rows": rows}}
    answer = client.post("/sync/batches", json=body)
    assert answer.status_code == 200 and answer.json()["messages_inserted"] == 3, answer.text


EXPORTS = [
    {"format": "jsonl"},
    {"format": "jsonl", "only": "user-prompts"},
    {"format": "md"},
    {"format": "md", "only": "user-prompts"},
    {"format": "html"},
    {"format": "trace"},
    {"format": "md", "layout": "files", "session_id": "leaky"},
    {"format": "qmd", "layout": "files", "session_id": "leaky"},
    {"format": "md", "layout": "files"},
]


@pytest.mark.parametrize("params", EXPORTS, ids=lambda p: "-".join(p.values()))
def test_no_secret_of_the_corpus_in_any_format(client: TestClient, params: dict[str, str]) -> None:
    _store(client)
    plain = client.get("/export", params={**params, "redact": "false"})
    assert plain.status_code == 200, plain.text
    shown = [m for m in MARKERS if m in plain.text]
    assert shown  # the format shows some of the corpus
    redacted = client.get("/export", params={**params, "redact": "true"})
    assert redacted.status_code == 200, redacted.text
    text = redacted.text + redacted.headers.get("content-disposition", "")
    assert [m for m in MARKERS if m in text] == []


FIELDS = [*(v for k, v in SESSION.items() if isinstance(v, str) and k not in ("id", "source"))]
FIELDS += [json.dumps(ARGUMENTS), *(str(m.get(k)) for m in MESSAGES for k in m if k != "role")]


@pytest.mark.parametrize("text", FIELDS)
def test_what_the_agent_hides_we_hide(text: str) -> None:
    theirs, ours = redact_sensitive_text(text, force=True), redact_text(text)
    for word in text.replace('"', " ").split():
        if word not in theirs:
            assert word not in ours
    assert [m for m in MARKERS if m in ours] == []


def test_parsed_json_is_masked_by_member_name() -> None:
    value = {"function": {"arguments": ARGUMENTS, "name": "http"}, "max_tokens": 512, "token_count": 3}
    masked = redact_value(value)
    assert masked["function"]["arguments"] == {
        "api_key": "***",
        "openai_api_key": "***",
        "client_secret": "***",
    }
    assert (masked["max_tokens"], masked["token_count"], masked["function"]["name"]) == (512, 3, "http")
    session = redact_session({**SESSION, "model_config": json.loads(SESSION["model_config"])})
    assert session["id"] == "leaky" and session["model_config"]["api_key"] == "CONFIG...2345"
