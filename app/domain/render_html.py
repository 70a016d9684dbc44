"""Sessions as one self-contained HTML page: a sidebar to switch sessions (when there are several), each
session's header, system prompt and messages as collapsible cards.

The session and message markup is the agent's (``hermes_cli.session_export_html``), byte for byte, so
pages look the same and its page script would work on ours. The page around it (styles, script) is our
own and needs nothing from the network: the agent's page loads its fonts from a remote font service,
which leaks that a file was opened and breaks offline. Times are the server's local time, as the agent
shows the exporting machine's.
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from app.domain.render_text import MINUTES_SECONDS

_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 24 24" fill="none" '
    'stroke="{stroke}" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"{cls}>{body}</svg>'
)


def _icon(name: str, body: str, size: int = 16) -> str:
    return _SVG.format(size=size, stroke="currentColor", cls=f' class="lucide lucide-{name}"', body=body)


# Lucide icons (ISC licence).
ICON_USER = _icon(
    "user", '<path d="M19 21v-2a4 4 0 0 0-4-4H9a4 4 0 0 0-4 4v2"/><circle cx="12" cy="7" r="4"/>'
)
ICON_BOT = _icon(
    "bot",
    '<path d="M12 8V4H8"/><rect width="16" height="12" x="4" y="8" rx="2"/><path d="M2 14h2"/>'
    '<path d="M20 14h2"/><path d="M15 13v2"/><path d="M9 13v2"/>',
)
ICON_TERMINAL = _icon(
    "terminal", '<polyline points="4 17 10 11 4 5"/><line x1="12" x2="20" y1="19" y2="19"/>'
)
ICON_WRENCH = _icon(
    "wrench",
    '<path d="M14.7 6.3a1 1 0 0 0 0 1.4l1.6 1.6a1 1 0 0 0 1.4 0l3.77-3.77a6 6 0 0 1-7.94 7.94l-6.91 '
    "6.91a2.12 "
    '2.12 0 0 1-3-3l6.91-6.91a6 6 0 0 1 7.94-7.94l-3.76 3.76z"/>',
)
ICON_SPARKLES = _icon(
    "sparkles",
    '<path d="m12 3-1.912 5.813a2 2 0 0 1-1.275 1.275L3 12l5.813 1.912a2 2 0 0 1 1.275 1.275L12 21l1.912'
    '-5.813a2 2 0 0 1 1.275-1.275L21 12l-5.813-1.912a2 2 0 0 1-1.275-1.275L12 3Z"/><path d="M5 3v4"/>'
    '<path d="M19 17v4"/>'
    '<path d="M3 5h4"/><path d="M17 19h4"/>',
)
ICON_CHEVRON = _icon("chevron-right", '<path d="m9 18 6-6-6-6"/>', size=14).replace(
    'class="', 'class="chevron '
)
ICON_SEARCH = _icon("search", '<circle cx="11" cy="11" r="8"/><path d="m21 21-4.3-4.3"/>')
ICON_SHIELD = _icon(
    "shield",
    '<path d="M20 13c0 5-3.5 7.5-7.66 8.95a1 1 0 0 1-.67-.01C7.5 20.5 4 18 4 13V6a1 1 0 0 1 1-1c2 0 4.5-1.2 '
    '6.24-2.72a1.17 1.17 0 0 1 1.52 0C14.5 3.8 17 5 19 5a1 1 0 0 1 1 1z"/>',
)
ICON_HERMES = _SVG.format(
    size=24,
    stroke="#FFD700",
    cls="",
    body='<path d="M12 22s8-4 8-10V5l-8-3-8 3v7c0 6 8 10 8 10z"/><path d="m9 12 2 2 4-4"/>',
)
_ROLE_ICONS = {"user": ICON_USER, "assistant": ICON_BOT, "system": ICON_SHIELD}
NO_SESSIONS = "<html><body><h1>No sessions to export.</h1></body></html>"


def escape(value: Any) -> str:
    """Text safe in HTML content and quoted attributes."""
    # str.replace hands back the same string when there is nothing to replace: five plain scans cost less
    # than a regular expression search first.
    text = value if isinstance(value, str) else str(value)
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&#39;")
    )


_BLOCK = 900  # every time zone changes its offset on a quarter hour (checked per block below)


@functools.lru_cache(maxsize=1 << 16)  # a couple of years of quarter hours, a few MB at most
def _block_offset(block: int) -> int | None:
    """The local UTC offset in seconds throughout a quarter hour, ``None`` if it changes inside it."""
    first = datetime.datetime.fromtimestamp(block * _BLOCK).astimezone().utcoffset()
    last = datetime.datetime.fromtimestamp(block * _BLOCK + _BLOCK - 1).astimezone().utcoffset()
    if first is None or first != last:
        return None
    return int(first.total_seconds())


def local_time(ts: Any) -> str:
    """An epoch time in the server's local time, ``N/A`` for none."""
    if not ts:
        return "N/A"
    if type(ts) in (int, float) and _BLOCK <= ts < 253_402_214_400:
        whole = int(ts)
        # datetime rounds to the microsecond (half to even) first: x.9999995 and up is the next second.
        if (ts - whole) * 1_000_000 >= 999_999.5:
            whole += 1
        offset = _block_offset(whole // _BLOCK)
        if offset is not None:
            local = whole + offset
            return _local_hour(local // 3600) + MINUTES_SECONDS[local % 3600]
    try:
        return datetime.datetime.fromtimestamp(ts).strftime("%Y-%m-%d %H:%M:%S")
    except (TypeError, ValueError, OverflowError, OSError):
        return str(ts)


@functools.lru_cache(maxsize=1 << 14)
def _local_hour(hour: int) -> str:
    # The hour as a wall clock reads it: the offset was added to the epoch seconds before.
    return datetime.datetime.fromtimestamp(hour * 3600, tz=datetime.UTC).strftime("%Y-%m-%d %H:")


def _block(indent: int, lines: list[str]) -> str:
    # A card as the agent writes it: a line break, then each line indented, then the closing indent.
    pad = " " * indent
    return "\n" + "".join(pad + " " * (4 * depth) + text + "\n" for depth, text in _levels(lines)) + pad


def _levels(lines: list[str]) -> list[tuple[int, str]]:
    return [(len(line) - len(line.lstrip(">")), line.lstrip(">")) for line in lines]


def _text_of(content: Any) -> Any:
    if not isinstance(content, list):
        return content
    parts = []
    for part in content:
        if isinstance(part, dict):
            if part.get("type") == "text":
                parts.append(part.get("text", ""))
            elif part.get("type") == "image_url":
                parts.append("[Image Attachment]")
        else:
            parts.append(str(part))
    return "\n".join(str(p) for p in parts)


_SLOT = "\x00"


def _template(indent: int, lines: list[str]) -> tuple[str, ...]:
    """A card's fixed text split at its slots (``_SLOT``), built once."""
    return tuple(_block(indent, lines).split(_SLOT))


_TOOL_CALL = _template(
    16,
    [
        '<div class="tool-call">',
        '><div class="tool-call-header">',
        f">>{ICON_CHEVRON}",
        f">>{ICON_WRENCH} Tool Call: {_SLOT}",
        "></div>",
        '><div class="tool-call-content">',
        f">><pre><code>{_SLOT}</code></pre>",
        "></div>",
        "</div>",
    ],
)
_REASONING = _template(
    12,
    [
        '<div class="reasoning">',
        '><div class="reasoning-header">',
        f">>{ICON_CHEVRON}",
        f">>{ICON_SPARKLES} Reasoning",
        "></div>",
        '><div class="reasoning-content">',
        f'>><div class="content">{_SLOT}</div>',
        "></div>",
        "</div>",
    ],
)


def _tool_call(call: Any) -> str:
    function = call.get("function") if isinstance(call, dict) else None
    if not isinstance(function, dict):
        function = {}
    head, middle, tail = _TOOL_CALL
    return (
        head
        + escape(function.get("name", "unknown"))
        + middle
        + escape(function.get("arguments", "{}"))
        + tail
    )


# The entrance delay of a session's first ten cards (the agent's ``min(index * 0.05, 1.0)`` seconds).
_DELAYS = tuple(f' style="animation-delay: {min(index * 0.05, 1.0)}s"' for index in range(10))


@functools.lru_cache(maxsize=256)
def _card_head(role: Any) -> tuple[str, str]:
    """The fixed text of a card of this role before its delay style, and after it up to the timestamp."""
    role_class = "".join(c if c.isalnum() or c in "-_" else "-" for c in str(role).lower())
    return (
        f'<div class="message message-{role_class} active"',
        '>  <div class="message-header">'
        f'    <div class="role-badge">{ICON_CHEVRON} {_ROLE_ICONS.get(role, ICON_TERMINAL)} '
        f"{escape(role)}</div>"
        '    <div class="timestamp">',
    )


def message_card(index: int, message: dict[str, Any]) -> str | None:
    """One message as a card (``None`` for the agent's ``session_meta`` rows, never shown)."""
    out: list[str] = []
    return "".join(out) if _card(index, message, out) else None


def _card(index: int, message: dict[str, Any], out: list[str]) -> bool:
    """Append one message's card to ``out`` in pieces (joined once per page, not per card); ``False`` for
    the agent's ``session_meta`` rows, never shown."""
    role = message.get("role", "unknown")
    if role == "session_meta":
        return False
    opening, badge = _card_head(role)
    out += (
        opening,
        _DELAYS[index] if index < 10 else "",
        badge,
        local_time(message.get("timestamp", 0)),
        '</div>  </div>  <div class="message-body">',
    )
    calls = message.get("tool_calls")
    if calls:
        out += [_tool_call(call) for call in (calls if isinstance(calls, list | tuple) else [calls])]
    content = message.get("content")
    if type(content) is not str:
        content = _text_of(content or "")
    if content:
        if role == "tool":
            out += ('  <div class="content"><pre><code>', escape(content), "</code></pre></div>")
        else:
            out += ('  <div class="content">', escape(content), "</div>")
    reasoning = message.get("reasoning") or message.get("reasoning_content")
    if reasoning:
        out += (_REASONING[0], escape(reasoning), _REASONING[1])
    out.append("  </div></div>")
    return True


def _fill(template: tuple[str, ...], values: tuple[str, ...]) -> str:
    """A template's fixed text with ``values`` in its slots, in order."""
    out = [template[0]]
    for value, text in zip(values, template[1:], strict=True):
        out += (value, text)
    return "".join(out)


_SIDEBAR_ITEM = _template(
    12,
    [
        f'<a class="session-item" data-id="{_SLOT}" href="#{_SLOT}">',
        f'><div class="session-item-title">{_SLOT}</div>',
        '><div class="session-item-meta">',
        f">><span>{_SLOT}</span>",
        f">><span>{_SLOT}</span>",
        "></div>",
        "</a>",
    ],
)


def sidebar_item(head: dict[str, Any]) -> str:
    """A session's entry in the sidebar."""
    sid = str(head.get("id", "N/A"))
    title = head.get("title") or head.get("preview") or "Untitled Session"
    if len(title) > 50:
        title = title[:47] + "..."
    day = local_time(head.get("started_at", 0)).split(" ")[0]
    return _fill(_SIDEBAR_ITEM, (escape(sid), quote(sid, safe=""), escape(title), escape(sid[:8]), day))


_SIDEBAR_HEAD = (
    _block(
        8,
        [
            '<aside class="sidebar">',
            '><div class="sidebar-header">',
            '>><div class="sidebar-brand">',
            f">>>{ICON_HERMES} Hermes History",
            ">></div>",
            '>><div class="search-container">',
            f">>>{ICON_SEARCH}",
            '>>><input type="text" id="session-search" placeholder="Search sessions...">',
            ">></div>",
            "></div>",
            '><div class="session-list">',
        ],
    ).removesuffix(" " * 8)
    + " " * 16
)
_SIDEBAR_TAIL = "\n            </div>\n        </aside>\n        "


_SYSTEM_PROMPT = _template(
    12,
    [
        '<div class="system-prompt-section active">',
        '><div class="system-prompt-header">',
        f">>{ICON_CHEVRON}",
        f">>{ICON_SHIELD} System Prompt (Persona)",
        "></div>",
        '><div class="system-prompt-content">',
        f'>><div class="content">{_SLOT}</div>',
        "></div>",
        "</div>",
    ],
)
_OPEN = _template(
    8,
    [
        f'<div class="{_SLOT}" id="view-{_SLOT}">',
        '><header class="fade-in">',
        f">><h1>{_SLOT}</h1>",
        '>><div class="meta">',
        f'>>><div class="meta-item"><strong>ID:</strong> {_SLOT}</div>',
        f'>>><div class="meta-item"><strong>Model:</strong> {_SLOT}</div>',
        f'>>><div class="meta-item"><strong>Started:</strong> {_SLOT}</div>',
        ">></div>",
        f">>{_SLOT}",
        "></header>",
        "><main>",
    ],
)
_SESSION_OPEN = (*_OPEN[:-1], _OPEN[-1].removesuffix(" " * 8) + " " * 16)


def _session_open(head: dict[str, Any], single: bool) -> str:
    # Escaped values never start with ">", so filling the slots after _block's level marks is the same text
    # as building each line with its value.
    sid = escape(str(head.get("id", "N/A")))
    system = ""
    if head.get("system_prompt"):
        system = _fill(_SYSTEM_PROMPT, (escape(head["system_prompt"]),))
    view = "session-view active" if single else "session-view"
    # A session without a model says so; the agent prints "None" (its default covers only a missing key).
    model, started = head.get("model"), local_time(head.get("started_at", 0))
    if model is None:
        model = "Unknown"
    title = escape(head.get("title") or "Hermes Session")
    return _fill(_SESSION_OPEN, (view, sid, title, sid, escape(model), started, system))


_SESSION_CLOSE = "\n            </main>\n        </div>\n        "

_STYLE = """
:root{--bg:#f8fafc;--fg:#0f172a;--muted:#475569;--card:#fff;--line:#e2e8f0;--accent:#cd7f32;--code:#1e293b}
@media (prefers-color-scheme:dark){:root{--bg:#000101;--fg:#fff8dc;--muted:#94a3b8;--card:#041c1c;
--line:#cd7f32;--accent:#ffd700;--code:#000}}
*{box-sizing:border-box;margin:0;padding:0}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.6;color:var(--fg);
background:var(--bg)}
.layout{display:flex;min-height:100vh}
.sidebar{width:320px;background:var(--card);border-right:1px solid var(--line);position:fixed;height:100vh;
display:flex;flex-direction:column}
.sidebar-header{padding:1.5rem;border-bottom:1px solid var(--line)}
.sidebar-brand{display:flex;gap:.75rem;align-items:center;font-weight:700;color:var(--accent);margin-bottom:1rem}
.search-container{position:relative}
.search-container svg{position:absolute;left:.75rem;top:50%;transform:translateY(-50%);color:var(--muted)}
.search-container input{width:100%;padding:.5rem 1rem .5rem 2.25rem;border-radius:.5rem;
border:1px solid var(--line);background:var(--bg);color:var(--fg)}
.session-list{flex:1;overflow-y:auto;padding:1rem}
.session-item{display:block;padding:.75rem 1rem;border-radius:.5rem;margin-bottom:.5rem;color:inherit;
text-decoration:none;border:1px solid transparent}
.session-item.active{border-color:var(--accent);background:var(--bg)}
.session-item-title{font-weight:600;font-size:.875rem;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.session-item-meta{font-size:.75rem;color:var(--muted);display:flex;justify-content:space-between}
.main-content{flex:1;padding:3rem 2rem;min-width:0}
.layout-multi .main-content{margin-left:320px}
.session-view{display:none;max-width:60rem;margin:0 auto}
.session-view.active{display:block}
header{margin-bottom:3rem;text-align:center}
.meta{display:flex;justify-content:center;flex-wrap:wrap;gap:1.5rem;margin-top:1rem;font-size:.875rem;
color:var(--muted)}
.message,.system-prompt-section{margin-bottom:1.5rem;border-radius:.75rem;background:var(--card);
border:1px solid var(--line);overflow:hidden;text-align:left}
.message-assistant{border-left:4px solid var(--accent)}
.message-tool{border-style:dotted}
.message-header,.tool-call-header,.reasoning-header,.system-prompt-header{display:flex;align-items:center;
gap:.5rem;justify-content:space-between;padding:.75rem 1.25rem;cursor:pointer;user-select:none}
.role-badge{display:flex;align-items:center;gap:.5rem;font-size:.75rem;font-weight:700;text-transform:uppercase;
color:var(--muted)}
.timestamp{font-size:.75rem;color:var(--muted)}
.message-body,.tool-call-content,.reasoning-content,.system-prompt-content{display:none;padding:1rem 1.25rem;
border-top:1px solid var(--line)}
.active>.message-body,.active>.tool-call-content,.active>.reasoning-content,.active>.system-prompt-content{
display:block}
svg.chevron{transition:transform .2s}
.active>div>svg.chevron,.active>div>div>svg.chevron{transform:rotate(90deg)}
.content{white-space:pre-wrap;word-break:break-word}
.tool-call,.reasoning{margin:1rem 0;border-radius:.5rem;border:1px solid var(--line);overflow:hidden}
pre{background:var(--code);color:#f8fafc;padding:1rem;border-radius:.5rem;overflow-x:auto;font-size:.9rem}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace}
footer{margin-top:4rem;padding-top:2rem;border-top:1px solid var(--line);text-align:center;color:var(--muted)}
.hidden{display:none!important}
"""

_SCRIPT = """
function showSession(id){
  document.querySelectorAll('.session-item').forEach(el=>el.classList.toggle('active',el.dataset.id===id));
  document.querySelectorAll('.session-view').forEach(el=>el.classList.toggle('active',el.id==='view-'+id));
  history.replaceState(null,'','#'+encodeURIComponent(id));
}
document.querySelectorAll('.session-item').forEach(item=>item.addEventListener('click',e=>{
  e.preventDefault();showSession(item.dataset.id||'');}));
const search=document.getElementById('session-search');
if(search){search.addEventListener('input',e=>{const term=e.target.value.toLowerCase();
  document.querySelectorAll('.session-item').forEach(item=>
    item.classList.toggle('hidden',!item.innerText.toLowerCase().includes(term)));});}
document.addEventListener('click',e=>{const header=e.target.closest(
  '.message-header, .tool-call-header, .reasoning-header, .system-prompt-header');
  if(header){header.parentElement.classList.toggle('active');}});
window.addEventListener('load',()=>{const hash=decodeURIComponent(location.hash.slice(1));
  const first=document.querySelector('.session-item');
  if(hash){showSession(hash);}else if(first){showSession(first.dataset.id);}});
"""


class HtmlPage:
    """The page, written as it goes: :meth:`begin`, :meth:`sidebar` for each session when there are several,
    then per session :meth:`session`, :meth:`messages` (pages), :meth:`session_end`, and :meth:`end`."""

    def __init__(self, *, single: bool, title: str, generated_at: str, nonce: str) -> None:
        self._single = single
        self._title = "Hermes Session Export" if not single else title or "Hermes Session"
        self._generated = generated_at
        self._nonce = nonce
        self._sessions = 0
        self._index = 0
        self._cards = 0

    def begin(self) -> str:
        """The page head and the opening of the layout (and of the sidebar when there is one)."""
        csp = (
            f"default-src 'none'; script-src 'nonce-{self._nonce}'; style-src 'unsafe-inline'; "
            "img-src data:; "
            "base-uri 'none'; form-action 'none'; frame-ancestors 'none'; object-src 'none'"
        )
        layout = "layout-single" if self._single else "layout-multi"
        return (
            '<!DOCTYPE html>\n<html lang="en">\n<head>\n    <meta charset="UTF-8">\n'
            '    <meta name="viewport" content="width=device-width, initial-scale=1.0">\n'
            f'    <meta http-equiv="Content-Security-Policy" content="{csp}">\n'
            f"    <title>{escape(self._title)}</title>\n"
            f"    <style>{_STYLE}</style>\n</head>\n<body>\n"
            f'    <div class="layout {layout}">\n        ' + ("" if self._single else _SIDEBAR_HEAD)
        )

    def sidebar(self, head: dict[str, Any]) -> str:
        """A session's sidebar entry (several sessions only)."""
        return sidebar_item(head)

    def sidebar_end(self) -> str:
        """The end of the sidebar and the start of the main column."""
        return (
            "" if self._single else _SIDEBAR_TAIL
        ) + '\n        \n        <div class="main-content">\n            '

    def session(self, head: dict[str, Any]) -> str:
        """A session's header and the start of its message list."""
        self._index = 0
        self._cards = 0
        opening = _session_open(head, self._single)
        self._sessions += 1
        return ("\n" if self._sessions > 1 else "") + opening

    def messages(self, messages: list[dict[str, Any]]) -> str:
        """A page of message cards."""
        out: list[str] = []
        for message in messages:
            if self._cards:
                out.append("\n")
            if _card(self._index, message, out):
                self._cards += 1
            elif self._cards:
                out.pop()
            self._index += 1
        return "".join(out)

    def session_end(self) -> str:
        """The end of a session's view."""
        return _SESSION_CLOSE

    def end(self) -> str:
        """The footer, the script and the end of the page."""
        return (
            "\n            \n            <footer>\n"
            f"                Built with ☤ Hermes Agent • Generated on {self._generated}\n"
            "            </footer>\n        </div>\n    </div>\n\n"
            f'    <script nonce="{self._nonce}">{_SCRIPT}</script>\n</body>\n</html>\n'
        )


def page_clock(now: Callable[[], datetime.datetime] = datetime.datetime.now) -> str:
    """When a page is generated, in the server's local time."""
    return now().strftime("%Y-%m-%d %H:%M:%S")
