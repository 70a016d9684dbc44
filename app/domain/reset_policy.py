"""Gateway reset policies: when a routed chat starts a fresh session (docs/gateway-routing.md).

Exactly hermes-agent 0.19.0's ``SessionResetPolicy``, ``GatewayConfig.get_reset_policy`` and the reset
checks of its ``SessionStore``: naive server-local times compared with the routing entry's
``updated_at``, background processes blocking resets, ``suspended`` and ``resume_pending`` precedence,
and the notice its gateway sends on the first message after an automatic reset.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

DEFAULT_AT_HOUR = 4
DEFAULT_IDLE_MINUTES = 1440
DEFAULT_EXCLUDED = ("api_server", "webhook")
DEFAULT_BG_MAX_AGE_HOURS = 24
DEFAULT_FRESHNESS_S = 3600.0
DEFAULT_STORE_MAX_AGE_DAYS = 90
RESETTING_MODES = frozenset({"idle", "daily", "both"})
_TRUE = frozenset({"true", "1", "yes", "on"})
_FALSE = frozenset({"false", "0", "no", "off"})


class ResetReason(StrEnum):
    """Why a routed chat got a fresh session; also the ``end_reason`` of the session it left."""

    idle = "idle"
    daily = "daily"
    suspended = "suspended"
    resume_pending_expired = "resume_pending_expired"


ALWAYS_NOTIFIED = frozenset({ResetReason.suspended, ResetReason.resume_pending_expired})


def coerce_bool(value: Any, default: bool) -> bool:
    """The agent's bool-ish config values: true/1/yes/on, false/0/no/off, else ``default``."""
    if value is None:
        return default
    if isinstance(value, str):
        lowered = value.strip().lower()
        if lowered in _TRUE:
            return True
        if lowered in _FALSE:
            return False
        return default
    return bool(value)


def _int_or(value: Any, default: int) -> int:
    # The agent keeps any value here and fails later on a non-number; a number we can use, or the default.
    if isinstance(value, bool) or not isinstance(value, int | float):
        return default
    return int(value)


@dataclass(frozen=True)
class ResetPolicy:
    """One reset policy (``session_reset`` in config.yaml); unknown modes never reset."""

    mode: str = "none"
    at_hour: int = DEFAULT_AT_HOUR
    idle_minutes: int = DEFAULT_IDLE_MINUTES
    notify: bool = True
    notify_exclude_platforms: tuple[str, ...] = DEFAULT_EXCLUDED
    bg_process_max_age_hours: int = DEFAULT_BG_MAX_AGE_HOURS

    @classmethod
    def from_mapping(cls, data: Any) -> ResetPolicy:
        """Parse a policy as the agent does: a missing key or a null keeps the default (a value that is
        not a number also does, where the agent would fail on its first use)."""
        data = data if isinstance(data, dict) else {}
        mode = data.get("mode")
        exclude = data.get("notify_exclude_platforms")
        return cls(
            mode=str(mode) if mode is not None else "none",
            at_hour=_int_or(data.get("at_hour"), DEFAULT_AT_HOUR),
            idle_minutes=_int_or(data.get("idle_minutes"), DEFAULT_IDLE_MINUTES),
            notify=coerce_bool(data.get("notify"), True),
            notify_exclude_platforms=(
                tuple(str(p) for p in exclude)
                if isinstance(exclude, list | tuple | str)
                else DEFAULT_EXCLUDED
            ),
            bg_process_max_age_hours=_int_or(data.get("bg_process_max_age_hours"), DEFAULT_BG_MAX_AGE_HOURS),
        )

    def corrected(self) -> ResetPolicy:
        """``_validate_gateway_config``: an hour outside 0-23 becomes 4, idle minutes ≤ 0 become 1440."""
        at_hour = self.at_hour if 0 <= self.at_hour <= 23 else DEFAULT_AT_HOUR
        idle = self.idle_minutes if self.idle_minutes > 0 else DEFAULT_IDLE_MINUTES
        return replace(self, at_hour=at_hour, idle_minutes=idle)

    def to_dict(self) -> dict[str, Any]:
        """The policy as config.yaml stores it (the excluded platforms as a list)."""
        return {**asdict(self), "notify_exclude_platforms": list(self.notify_exclude_platforms)}


@dataclass(frozen=True)
class GatewayConfig:
    """The routing settings the agent's gateway reads (``load_gateway_config``)."""

    default_policy: ResetPolicy = field(default_factory=ResetPolicy)
    by_type: Mapping[str, ResetPolicy] = field(default_factory=dict)
    by_platform: Mapping[str, ResetPolicy] = field(default_factory=dict)
    group_sessions_per_user: bool = True
    thread_sessions_per_user: bool = False
    write_sessions_json: bool = True
    multiplex_profiles: bool = False
    session_store_max_age_days: int = DEFAULT_STORE_MAX_AGE_DAYS
    auto_continue_freshness_s: float = DEFAULT_FRESHNESS_S

    def policy_for(self, platform: str | None, chat_type: str | None) -> ResetPolicy:
        """Platform override, then chat-type override, then the default."""
        if platform and platform in self.by_platform:
            return self.by_platform[platform]
        if chat_type and chat_type in self.by_type:
            return self.by_type[chat_type]
        return self.default_policy

    @property
    def bg_max_age_s(self) -> float | None:
        """Background processes older than this stop blocking resets (``None``: none ever stop)."""
        hours = self.default_policy.bg_process_max_age_hours
        return hours * 3600.0 if hours and hours > 0 else None


def _top_or_nested(yaml_cfg: Mapping[str, Any], key: str) -> tuple[bool, Any]:
    """A top-level key wins when present; otherwise the ``gateway:`` section's."""
    if key in yaml_cfg:
        return True, yaml_cfg[key]
    section = yaml_cfg.get("gateway")
    if isinstance(section, dict) and key in section:
        return True, section[key]
    return False, None


def parse_config(
    yaml_cfg: Mapping[str, Any], gateway_json: Mapping[str, Any], env: Mapping[str, str]
) -> GatewayConfig:
    """Merge legacy ``gateway.json`` (the only home of per-type and per-platform overrides), config.yaml
    (wins over it) and the environment (wins over both), as ``load_gateway_config`` does."""
    data: dict[str, Any] = dict(gateway_json)
    present, session_reset = _top_or_nested(yaml_cfg, "session_reset")
    if present and session_reset and isinstance(session_reset, dict):
        data["default_reset_policy"] = session_reset
    for key in (
        "group_sessions_per_user",
        "thread_sessions_per_user",
        "multiplex_profiles",
        "write_sessions_json",
    ):
        present, value = _top_or_nested(yaml_cfg, key)
        if present:
            data[key] = value
    default = ResetPolicy.from_mapping(data.get("default_reset_policy"))
    idle_env, hour_env = env.get("SESSION_IDLE_MINUTES"), env.get("SESSION_RESET_HOUR")
    default = replace(
        default,
        idle_minutes=_env_int(idle_env, default.idle_minutes),
        at_hour=_env_int(hour_env, default.at_hour),
    ).corrected()
    multiplex = coerce_bool(data.get("multiplex_profiles"), False)
    multiplex_env = (env.get("GATEWAY_MULTIPLEX_PROFILES") or "").strip().lower()
    if multiplex_env in _TRUE | _FALSE:
        multiplex = multiplex_env in _TRUE
    return GatewayConfig(
        default_policy=default,
        by_type=_policies(data.get("reset_by_type")),
        by_platform=_policies(data.get("reset_by_platform")),
        group_sessions_per_user=coerce_bool(data.get("group_sessions_per_user"), True),
        thread_sessions_per_user=coerce_bool(data.get("thread_sessions_per_user"), False),
        write_sessions_json=coerce_bool(data.get("write_sessions_json"), True),
        multiplex_profiles=multiplex,
        session_store_max_age_days=max(_int_or(data.get("session_store_max_age_days"), 90), 0),
        auto_continue_freshness_s=_freshness(env.get("HERMES_AUTO_CONTINUE_FRESHNESS")),
    )


def _env_int(raw: str | None, default: int) -> int:
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        return default


def _freshness(raw: str | None) -> float:
    if raw is None or raw == "":
        return DEFAULT_FRESHNESS_S
    try:
        return float(raw)
    except ValueError:
        return DEFAULT_FRESHNESS_S


def _policies(raw: Any) -> dict[str, ResetPolicy]:
    if not isinstance(raw, dict):
        return {}
    # Only the default policy is corrected by the agent; an override's out-of-range hour would make its
    # daily check raise, so it gets the same correction here (its idle minutes are kept as written).
    result = {}
    for name, data in raw.items():
        policy = ResetPolicy.from_mapping(data)
        if not 0 <= policy.at_hour <= 23:
            policy = replace(policy, at_hour=DEFAULT_AT_HOUR)
        result[str(name)] = policy
    return result


def background_active(started_at: Iterable[float], now_epoch: float, max_age_s: float | None) -> bool:
    """Whether any of a chat's live background processes still blocks a reset."""
    return any(max_age_s is None or (now_epoch - s) < max_age_s for s in started_at)


def daily_boundary(now: datetime, at_hour: int) -> datetime:
    """The last daily reset instant: today at ``at_hour:00``, or yesterday's before that hour."""
    boundary = now.replace(hour=at_hour, minute=0, second=0, microsecond=0)
    if now.hour < at_hour:
        boundary -= timedelta(days=1)
    return boundary


def policy_reason(policy: ResetPolicy, updated_at: datetime, now: datetime) -> ResetReason | None:
    """The policy's verdict on an entry last active at ``updated_at`` (idle first, both strict)."""
    if policy.mode not in RESETTING_MODES:
        return None
    if policy.mode in {"idle", "both"} and now > updated_at + timedelta(minutes=policy.idle_minutes):
        return ResetReason.idle
    if policy.mode in {"daily", "both"} and updated_at < daily_boundary(now, policy.at_hour):
        return ResetReason.daily
    return None


@dataclass(frozen=True)
class EntryState:
    """What the reset decision reads from a routing entry."""

    updated_at: datetime
    suspended: bool = False
    resume_pending: bool = False
    last_resume_marked_at: datetime | None = None


def route_reason(
    entry: EntryState,
    policy: ResetPolicy,
    now: datetime,
    *,
    background: bool,
    freshness_s: float,
) -> ResetReason | None:
    """The reset a routed message triggers: ``suspended`` always; for ``resume_pending`` the policy's
    reason, else (unless the mode is ``none``) ``resume_pending_expired`` once the mark is older than the
    freshness window; otherwise the policy's reason, which an active background process blocks."""
    if entry.suspended:
        return ResetReason.suspended
    reason = None if background else policy_reason(policy, entry.updated_at, now)
    if entry.resume_pending and reason is None and policy.mode != "none":
        reference = entry.last_resume_marked_at or entry.updated_at
        if freshness_s > 0 and (now - reference).total_seconds() > freshness_s:
            return ResetReason.resume_pending_expired
    return reason


def is_expired(entry_updated_at: datetime, policy: ResetPolicy, now: datetime, *, background: bool) -> bool:
    """The expiry watcher's test: the policy would reset this entry and no background process blocks it."""
    return not background and policy_reason(policy, entry_updated_at, now) is not None


def idle_text(minutes: int) -> str:
    """``24h``, ``1h 30m``, ``30m``: the agent's idle duration wording."""
    hours, mins = divmod(minutes, 60)
    if not mins:
        return f"{hours}h"
    return f"{hours}h {mins}m" if hours else f"{mins}m"


def reason_text(reason: ResetReason, policy: ResetPolicy) -> str:
    """The parenthesised reason of the reset notice."""
    if reason is ResetReason.suspended:
        return "previous session was stopped or interrupted"
    if reason is ResetReason.resume_pending_expired:
        return "gateway restart recovery timed out"
    if reason is ResetReason.daily:
        return f"daily schedule at {policy.at_hour}:00"
    return f"inactive for {idle_text(policy.idle_minutes)}"


def reset_notice(reason: ResetReason, policy: ResetPolicy, platform: str, had_activity: bool) -> str | None:
    """The notice the agent's gateway sends on the first message after an automatic reset, or ``None``
    when it sends none (idle/daily need ``notify``, activity and a platform not excluded)."""
    notify = reason in ALWAYS_NOTIFIED or (
        policy.notify and had_activity and platform not in policy.notify_exclude_platforms
    )
    if not notify:
        return None
    return (
        f"◐ Session automatically reset ({reason_text(reason, policy)}). Conversation history cleared.\n"
        "Use /resume to browse and restore a previous session.\n"
        "Adjust reset timing in config.yaml under session_reset."
    )
