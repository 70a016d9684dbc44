"""A session as a Claude Code JSONL trace, the shape the Hugging Face agent trace viewer reads.

The same lines as the agent's ``agent.trace_upload.build_trace_jsonl`` for the replayed transcript
(:mod:`app.domain.conversation`): every non-system message one line, tool results as user turns with a
``tool_result`` block, assistant tool calls as ``tool_use`` blocks, turns linked by ``uuid`` /
``parentUuid``, every line stamped with the export's time. With redaction every text body and every tool
argument is passed through :func:`app.domain.redact.redact_text`.

One deliberate difference: when redacting a tool call's arguments leaves text that is no longer JSON, the
agent refuses the whole export; here the redacted text is kept as ``{"_raw": text}`` (nothing secret
leaks, and a stream that has started cannot be refused).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from app.domain.redact import redact_text

VERSION = "hermes-agent"


def trace_time(now: datetime | None = None) -> str:
    """The trace's timestamp: UTC with milliseconds, ``Z``."""
    moment = now or datetime.now(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


class TraceSession:
    """The trace lines of one session, a page of replayed messages at a time."""

    def __init__(
        self,
        session_id: str,
        *,
        model: str,
        cwd: str,
        git_branch: str,
        timestamp: str,
        redact: bool,
        new_uuid: Callable[[], uuid.UUID] = uuid.uuid4,
    ) -> None:
        self._common = {
            "isSidechain": False,
            "userType": "external",
            "cwd": cwd,
            "sessionId": session_id,
            "version": VERSION,
            "gitBranch": git_branch,
        }
        self._model = model or "unknown"
        self._timestamp = timestamp
        self._redact = redact
        self._new_uuid = new_uuid
        self._parent: str | None = None

    def _text(self, value: Any) -> Any:
        if not self._redact or not isinstance(value, str) or not value:
            return value
        return redact_text(value)

    def _blocks(self, content: Any) -> list[dict[str, Any]]:
        if content is None:
            return []
        if isinstance(content, str):
            return [{"type": "text", "text": self._text(content)}]
        if not isinstance(content, list):
            return [{"type": "text", "text": self._text(json.dumps(content))}]
        blocks = []
        for part in content:
            if not isinstance(part, dict):
                text = self._text(str(part))
            elif part.get("type") == "text":
                text = self._text(part.get("text", ""))
            elif part.get("type") in ("image_url", "image"):
                text = "[image omitted]"
            else:
                text = self._text(json.dumps(part))
            blocks.append({"type": "text", "text": text})
        return blocks

    def _arguments(self, raw: Any) -> Any:
        if isinstance(raw, str):
            try:
                parsed = json.loads(raw) if raw.strip() else {}
            except ValueError:
                parsed = {"_raw": raw}
        else:
            parsed = raw if isinstance(raw, dict) else {}
        if not self._redact:
            return parsed
        redacted = self._text(json.dumps(parsed))
        try:
            return json.loads(redacted)
        except ValueError:
            return {"_raw": redacted}

    def _tool_uses(self, calls: Any) -> list[dict[str, Any]]:
        if not isinstance(calls, list):
            return []
        blocks = []
        for call in calls:
            if not isinstance(call, dict):
                continue
            function = call.get("function") or {}
            if not isinstance(function, dict):
                function = {}
            name = function.get("name") or call.get("name") or "tool"
            arguments = self._arguments(function.get("arguments"))
            blocks.append(
                {
                    "type": "tool_use",
                    "id": call.get("id") or f"toolu_{self._new_uuid().hex[:16]}",
                    "name": name,
                    "input": arguments,
                }
            )
        return blocks

    def _line(self, kind: str, turn: str, message: dict[str, Any]) -> str:
        entry = {"parentUuid": self._parent, **self._common, "uuid": turn, "timestamp": self._timestamp}
        entry |= {"type": kind, "message": message}
        self._parent = turn
        return json.dumps(entry, ensure_ascii=False) + "\n"

    def messages(self, messages: list[dict[str, Any]]) -> str:
        """The lines of a page of replayed messages."""
        out = []
        for msg in messages:
            role = msg.get("role")
            if role == "system":
                continue
            turn = str(self._new_uuid())
            content = msg.get("content")
            if role == "assistant":
                blocks = self._blocks(content) + self._tool_uses(msg.get("tool_calls"))
                body = {
                    "role": "assistant",
                    "model": self._model,
                    "content": blocks or [{"type": "text", "text": ""}],
                }
                out.append(self._line("assistant", turn, body))
            elif role == "tool":
                result = self._text(content if isinstance(content, str) else json.dumps(content))
                block = {
                    "type": "tool_result",
                    "tool_use_id": msg.get("tool_call_id") or msg.get("tool_name") or "tool",
                    "content": result,
                }
                out.append(self._line("user", turn, {"role": "user", "content": [block]}))
            else:
                text = self._text(content) if isinstance(content, str) else self._blocks(content)
                out.append(self._line("user", turn, {"role": "user", "content": text}))
        return "".join(out)
