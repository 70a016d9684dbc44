from enum import StrEnum


class SessionCreateSource(StrEnum):
    ACP = "acp"
    API_SERVER = "api_server"
    BATCH = "batch"
    BLUEBUBBLES = "bluebubbles"
    CLI = "cli"
    CRON = "cron"
    DINGTALK = "dingtalk"
    DISCORD = "discord"
    EMAIL = "email"
    FEISHU = "feishu"
    HOMEASSISTANT = "homeassistant"
    MATRIX = "matrix"
    MATTERMOST = "mattermost"
    QQBOT = "qqbot"
    SIGNAL = "signal"
    SLACK = "slack"
    SMS = "sms"
    SUBAGENT = "subagent"
    TELEGRAM = "telegram"
    TOOL = "tool"
    TUI = "tui"
    WEBHOOK = "webhook"
    WECOM = "wecom"
    WEIXIN = "weixin"
    WHATSAPP = "whatsapp"

    def __str__(self) -> str:
        return str(self.value)
