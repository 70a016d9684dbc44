"""One session as a Markdown or Quarto file that verifies itself, and the manifest line written beside it.

The same file as the agent's ``hermes_cli.session_export_md.render_session_markdown`` (front matter, the
messages, each compression segment under its own heading for a logical lineage, and an "Export
verification" block whose last line is the SHA-256 of the file as written with ``pending`` in place of the
digest), produced a page of messages at a time: the digest is computed while the file is written and
added at the end. :func:`verify` checks a file as the agent's ``verify_export_file`` does.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from app.domain.render_text import RStrip, iso_full

EXPORTER = "hermes sessions export (md/qmd) v1"
FILE_FORMATS = ("md", "qmd")
_DIGEST_LINE = "- SHA256 of exported body: `{}`"
_DIGEST_LINE_RE = re.compile(r"- SHA256 of exported body: `([0-9a-f]{64})`")


def _front_value(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float | list):
        return json.dumps(value, ensure_ascii=False)
    return json.dumps(str(value), ensure_ascii=False)


def file_name(head: dict[str, Any], fmt: str) -> str:
    """The agent's file name for a session: ``<id>-<title slug>.<fmt>``."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", str(head.get("title") or "session")).strip(".-_").lower()
    return f"{_sid(head)}-{(slug or 'session')[:60]}.{fmt}"


def _sid(head: dict[str, Any]) -> str:
    return str(head.get("id") or head.get("session_id") or "unknown-session")


def _heading(message: dict[str, Any]) -> str:
    role = str(message.get("role") or "message")
    label = role.capitalize()
    name = message.get("name") or message.get("tool_name")
    if role == "tool" and name:
        label = f"Tool — {name}"
    stamp = iso_full(message.get("created_at") or message.get("timestamp"))
    return f"### {label}{' — ' + stamp if stamp else ''}"


def _content(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content.rstrip()
    return "```json\n" + json.dumps(content, ensure_ascii=False, indent=2) + "\n```"


class SessionFile:
    """The file of one (logical) session: ``head`` is the session's columns (the tip's for a lineage),
    ``lineage`` the segment ids root → tip when it is a logical lineage, ``total`` the messages it holds."""

    def __init__(
        self,
        fmt: str,
        head: dict[str, Any],
        *,
        total: int,
        exported_at: float,
        lineage: list[str] | None = None,
    ) -> None:
        if fmt not in FILE_FORMATS:
            raise ValueError("fmt must be 'md' or 'qmd'")
        self.fmt = fmt
        self._head = head
        self._total = total
        self._exported = iso_full(exported_at)
        self._lineage = lineage
        self._digest = hashlib.sha256()
        self._body = RStrip()

    def _out(self, text: str) -> str:
        self._digest.update(text.encode())
        return text

    def begin(self) -> str:
        """Front matter, title, and the start of the message list."""
        head = self._head
        sid = _sid(head)
        front = {
            "session_id": sid,
            "title": head.get("title"),
            "source": head.get("source"),
            "created_at": iso_full(head.get("started_at") or head.get("created_at")),
            "updated_at": iso_full(head.get("last_active") or head.get("updated_at")),
            "ended_at": iso_full(head.get("ended_at")),
            "model": head.get("model"),
            "provider": head.get("billing_provider") or head.get("provider"),
            "cwd": head.get("cwd"),
            "archived": bool(head.get("archived")),
            "message_count": self._total,
            "tool_call_count": head.get("tool_call_count") or 0,
        }
        if self._lineage:
            front["lineage_session_ids"] = self._lineage
        front |= {"format": self.fmt, "exported_at": self._exported, "exporter": EXPORTER}
        lines = ["---", *(f"{k}: {_front_value(v)}" for k, v in front.items()), "---", ""]
        parts = [f"# {head.get('title') or sid}\n", f"Session ID: `{sid}`\n"]
        if head.get("source"):
            parts.append(f"Source: `{head['source']}`\n")
        if head.get("cwd"):
            parts.append(f"Working directory: `{head['cwd']}`\n")
        intro = "\n".join([*lines, ""]) + "\n".join(parts) + "\n## Messages\n"
        if not self._total:
            intro += "\n_No messages in this session._\n"
        return self._out(intro)

    def segment(self, segment_id: str) -> str:
        """The heading of a compression segment (only in a lineage of more than one, with messages)."""
        if self._lineage is None or len(self._lineage) < 2 or not self._total:
            return ""
        return self._out(self._body.add(f"\n## Compression segment: {segment_id}\n"))

    def messages(self, messages: list[dict[str, Any]]) -> str:
        """A page of messages."""
        parts: list[str] = []
        for message in messages:
            parts.append(_heading(message) + "\n")
            content = _content(message.get("content"))
            if content:
                parts.append(content + "\n")
            if message.get("tool_calls"):
                calls = json.dumps(message["tool_calls"], ensure_ascii=False, indent=2)
                parts.append(f"\n\n## Tool calls\n\n```json\n{calls}\n```\n")
            parts.append("")
        return self._out(self._body.add("".join("\n" + p for p in parts))) if parts else ""

    def end(self) -> str:
        """The verification block, its digest last."""
        self._body.end()
        sid = _sid(self._head)
        lines = [
            "",
            "## Export verification",
            "",
            f"- Session id: `{sid}`",
            f"- Exported messages: `{self._total}`",
            f"- Source DB message count at export: `{self._head.get('message_count', self._total)}`",
            f"- Exported at: `{self._exported}`",
        ]
        text = ("\n" if self._total else "") + "\n".join(lines) + "\n"
        self._out(text)
        self._digest.update(_DIGEST_LINE.format("pending").encode() + b"\n")
        return text + _DIGEST_LINE.format(self._digest.hexdigest()) + "\n"


def manifest_entry(
    head: dict[str, Any], path: str, fmt: str, total: int, sha256: str, exported_at: float, lineage: list[str]
) -> dict[str, Any]:
    """The agent's ``manifest.jsonl`` record of one written file."""
    return {
        "session_id": _sid(head),
        "lineage_session_ids": lineage or [_sid(head)],
        "path": path,
        "format": fmt,
        "message_count": total,
        "sha256": sha256,
        "exported_at": exported_at,
    }


def verify(text: str, session_id: str, total: int) -> tuple[bool, str]:
    """Whether a file's digest line matches its text and it holds ``total`` messages of ``session_id``."""
    match = _DIGEST_LINE_RE.search(text)
    if not match:
        return False, "sha256 marker missing"
    body = _DIGEST_LINE_RE.sub(_DIGEST_LINE.format("pending"), text)
    if hashlib.sha256(body.encode()).hexdigest() != match.group(1):
        return False, "sha256 mismatch"
    if f"- Exported messages: `{total}`" not in text:
        return False, "message count mismatch"
    if f"- Session id: `{session_id}`" not in text:
        return False, "session id mismatch"
    return True, "ok"
