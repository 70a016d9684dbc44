"""The "Previous Conversation" panel shown on resume, built from ``GET .../recap``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.panel import Panel

_PREFIX = {"user": ("  ● You: ", "dim bold #DAA520"), "assistant": ("  ◆ Hermes: ", "dim bold #8FBC8F")}


def recap_panel(recap: Mapping[str, Any]) -> Panel | None:
    """The panel, or ``None`` when there is nothing to show. Entries are already cut by the server."""
    from rich.console import Group
    from rich.panel import Panel
    from rich.text import Text

    entries = [e for e in recap.get("entries") or [] if e.get("role") in _PREFIX]
    if not entries:
        return None
    lines: list[Text] = []
    omitted = int(recap.get("omitted") or 0)
    if omitted:
        lines.append(Text(f"  ... {omitted} earlier messages ...", style="dim italic"))
    for entry in entries:
        prefix, style = _PREFIX[entry["role"]]
        line = Text(prefix, style=style)
        line.append(str(entry.get("text") or ""))
        lines.append(line)
    return Panel(Group(*lines), title="Previous Conversation", border_style="dim #8B8682")
