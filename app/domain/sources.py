"""Where a session came from: the platforms the agent knows, and the id format each one uses."""

from __future__ import annotations

import difflib
from enum import StrEnum


class Source(StrEnum):
    """Every session source the API accepts; anything else is 422 ``unknown_source``."""

    cli = "cli"
    tui = "tui"
    telegram = "telegram"
    discord = "discord"
    slack = "slack"
    whatsapp = "whatsapp"
    signal = "signal"
    matrix = "matrix"
    mattermost = "mattermost"
    email = "email"
    sms = "sms"
    dingtalk = "dingtalk"
    feishu = "feishu"
    wecom = "wecom"
    weixin = "weixin"
    bluebubbles = "bluebubbles"
    qqbot = "qqbot"
    homeassistant = "homeassistant"
    webhook = "webhook"
    api_server = "api_server"
    acp = "acp"
    cron = "cron"
    batch = "batch"
    tool = "tool"
    subagent = "subagent"


# Local sessions get 6 hex digits in their id, messaging platforms 8 (the agent's formats).
LOCAL_SOURCES = frozenset({Source.cli, Source.tui})
# Hidden from default listings and from search: machine-made sessions nobody resumes by hand.
HIDDEN_SOURCES = frozenset({Source.tool, Source.subagent})
MESSAGING_PLATFORMS = frozenset(
    {
        Source.telegram,
        Source.discord,
        Source.slack,
        Source.whatsapp,
        Source.signal,
        Source.matrix,
        Source.mattermost,
        Source.email,
        Source.sms,
        Source.dingtalk,
        Source.feishu,
        Source.wecom,
        Source.weixin,
        Source.bluebubbles,
        Source.qqbot,
        Source.homeassistant,
    }
)

# Sessions no person typed into: scheduled jobs, batch runs and webhook deliveries. The web page's
# "Automation" preset shows these and its "Chats" preset hides them (a cron job a minute buries chats).
AUTOMATION_SOURCES = frozenset({Source.cron, Source.batch, Source.webhook})

# Short names people type for a platform; none of them is a source any session carries.
_ABBREVIATIONS = {
    "tg": Source.telegram,
    "wa": Source.whatsapp,
    "dc": Source.discord,
    "mm": Source.mattermost,
    "ha": Source.homeassistant,
    "api": Source.api_server,
    "qq": Source.qqbot,
    "imessage": Source.bluebubbles,
}


def suggest_source(value: str) -> str | None:
    """The source ``value`` probably means when it is not one (``tg`` → ``telegram``), else ``None``."""
    typed = value.strip().lower()
    if typed in Source.__members__:
        return None
    if typed in _ABBREVIATIONS:
        return _ABBREVIATIONS[typed].value
    starting = [s.value for s in Source if s.value.startswith(typed)] if typed else []
    if len(starting) == 1:
        return starting[0]
    close = difflib.get_close_matches(typed, [s.value for s in Source], n=1, cutoff=0.6)
    return close[0] if close else None
