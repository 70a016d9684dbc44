"""Reset decisions against the real hermes-agent 0.19.0 ``SessionStore`` (differential, on generated
timelines around every boundary), the config parsing against ``load_gateway_config``, and the notice."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import gateway.session as agent_session
import hermes_state
import pytest
import yaml
from gateway.config import GatewayConfig as AgentConfig
from gateway.config import Platform, load_gateway_config
from gateway.config import SessionResetPolicy as AgentPolicy
from gateway.session import SessionEntry, SessionSource, SessionStore
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.domain.reset_policy import (
    EntryState,
    ResetPolicy,
    ResetReason,
    background_active,
    is_expired,
    parse_config,
    reset_notice,
    route_reason,
)
from tests.sizes import sized

KEY = "agent:main:telegram:dm:99"
SOURCE = SessionSource(platform=Platform.TELEGRAM, chat_id="99", chat_type="dm")


@pytest.fixture
def agent_home(home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HERMES_HOME", str(home))
    # SessionStore opens SessionDB() at the default path, fixed when hermes_state was imported.
    monkeypatch.setattr(hermes_state, "DEFAULT_DB_PATH", home / "state.db")
    for name in ("SESSION_IDLE_MINUTES", "SESSION_RESET_HOUR", "HERMES_AUTO_CONTINUE_FRESHNESS"):
        monkeypatch.delenv(name, raising=False)
    return home


def agent_decision(
    home: Path,
    monkeypatch: pytest.MonkeyPatch,
    policy: dict[str, Any],
    state: EntryState,
    now: datetime,
    background: bool | None,
) -> str | None:
    """The reason the agent's store resets this entry with (``None``: same session). ``background``
    ``None`` makes the agent's process check raise (which counts as active)."""
    monkeypatch.setattr(agent_session, "_now", lambda: now)

    def active(_key: str) -> bool:
        if background is None:
            raise RuntimeError("registry unavailable")
        return background

    config = AgentConfig(default_reset_policy=AgentPolicy.from_dict(policy))
    store = SessionStore(home / "sessions", config, has_active_processes_fn=active)
    store._db = None  # the decision only; rows are covered by the API tests
    store._loaded = True
    store._entries[KEY] = SessionEntry(
        session_key=KEY,
        session_id="old",
        created_at=state.updated_at,
        updated_at=state.updated_at,
        origin=SOURCE,
        platform=Platform.TELEGRAM,
        chat_type="dm",
        suspended=state.suspended,
        resume_pending=state.resume_pending,
        last_resume_marked_at=state.last_resume_marked_at,
    )
    entry = store.get_or_create_session(SOURCE)
    return None if entry.session_id == "old" else entry.auto_reset_reason


def our_decision(
    policy: dict[str, Any], state: EntryState, now: datetime, background: bool | None
) -> str | None:
    reason = route_reason(
        state, ResetPolicy.from_mapping(policy), now, background=background is not False, freshness_s=3600.0
    )
    return None if reason is None else reason.value


NOWS = [
    datetime(2026, 12, 1, h, m, s)
    for h, m, s in [(3, 0, 0), (4, 0, 0), (3, 59, 59), (0, 0, 0), (23, 59, 59), (12, 30, 0), (4, 0, 1)]
]
OFFSETS = [timedelta(0), timedelta(microseconds=1), -timedelta(microseconds=1), timedelta(seconds=1)]


@st.composite
def timelines(draw: st.DrawFn) -> tuple[dict[str, Any], EntryState, datetime, bool | None]:
    mode = draw(st.sampled_from(["idle", "daily", "both", "none", "weekly", None]))
    at_hour = draw(st.sampled_from([0, 3, 4, 12, 23]))
    idle = draw(st.sampled_from([1, 30, 90, 1440]))
    policy = {"mode": mode, "at_hour": at_hour, "idle_minutes": idle}
    now = draw(st.sampled_from(NOWS))
    boundary = now.replace(hour=at_hour, minute=0, second=0, microsecond=0)
    if now.hour < at_hour:
        boundary -= timedelta(days=1)
    anchor = draw(
        st.sampled_from([now - timedelta(minutes=idle), boundary, boundary - timedelta(days=1), now])
    )
    updated = (
        anchor + draw(st.sampled_from(OFFSETS)) - draw(st.sampled_from([timedelta(0), timedelta(days=2)]))
    )
    pending = draw(st.booleans())
    marked = None
    if pending and draw(st.booleans()):
        marked = now - timedelta(seconds=3600) + draw(st.sampled_from(OFFSETS))
    state = EntryState(
        updated_at=min(updated, now),
        suspended=draw(st.booleans()) and not pending,
        resume_pending=pending,
        last_resume_marked_at=marked,
    )
    background = draw(st.sampled_from([False, False, True, None]))
    return policy, state, now, background


@settings(
    max_examples=sized(150, 500), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(case=timelines())
def test_same_reset_decision_as_the_agent(
    agent_home: Path,
    monkeypatch: pytest.MonkeyPatch,
    case: tuple[dict[str, Any], EntryState, datetime, bool | None],
) -> None:
    policy, state, now, background = case
    assert our_decision(policy, state, now, background) == agent_decision(
        agent_home, monkeypatch, policy, state, now, background
    )


@settings(
    max_examples=sized(100, 300), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(case=timelines())
def test_same_expiry_as_the_agent_watcher(
    agent_home: Path,
    monkeypatch: pytest.MonkeyPatch,
    case: tuple[dict[str, Any], EntryState, datetime, bool | None],
) -> None:
    policy, state, now, background = case
    monkeypatch.setattr(agent_session, "_now", lambda: now)
    config = AgentConfig(default_reset_policy=AgentPolicy.from_dict(policy))
    store = SessionStore(agent_home / "sessions", config, has_active_processes_fn=lambda _k: bool(background))
    entry = SessionEntry(
        session_key=KEY,
        session_id="old",
        created_at=state.updated_at,
        updated_at=state.updated_at,
        platform=Platform.TELEGRAM,
        chat_type="dm",
    )
    ours = is_expired(state.updated_at, ResetPolicy.from_mapping(policy), now, background=bool(background))
    assert ours == store._is_session_expired(entry)


def test_boundaries_from_the_reference() -> None:
    idle30 = ResetPolicy(mode="idle", idle_minutes=30)
    now = datetime(2026, 12, 1, 12, 0)
    assert (
        route_reason(EntryState(now - timedelta(minutes=30)), idle30, now, background=False, freshness_s=3600)
        is None
    )
    assert (
        route_reason(
            EntryState(now - timedelta(minutes=30, microseconds=1)),
            idle30,
            now,
            background=False,
            freshness_s=3600,
        )
        is ResetReason.idle
    )
    daily = ResetPolicy(mode="daily", at_hour=4)
    three = datetime(2026, 12, 1, 3, 0)
    assert (
        route_reason(
            EntryState(datetime(2026, 11, 30, 3, 59)), daily, three, background=False, freshness_s=3600
        )
        is ResetReason.daily
    )
    assert (
        route_reason(
            EntryState(datetime(2026, 11, 30, 4, 0)), daily, three, background=False, freshness_s=3600
        )
        is None
    )
    four = datetime(2026, 12, 1, 4, 0)
    assert (
        route_reason(
            EntryState(datetime(2026, 12, 1, 3, 59, 59)), daily, four, background=False, freshness_s=3600
        )
        is ResetReason.daily
    )
    both = ResetPolicy(mode="both", idle_minutes=30, at_hour=4)
    assert (
        route_reason(EntryState(datetime(2026, 11, 29)), both, four, background=False, freshness_s=3600)
        is ResetReason.idle
    )


@pytest.mark.parametrize(
    ("started_ago_h", "max_age_h", "blocks"),
    [(1, 24, True), (23.99, 24, True), (24, 24, False), (100, 24, False), (100, 0, True), (5, 4, False)],
)
def test_background_process_age(started_ago_h: float, max_age_h: int, blocks: bool) -> None:
    now = 1_800_000_000.0
    max_age_s = max_age_h * 3600.0 if max_age_h > 0 else None
    assert background_active([now - started_ago_h * 3600], now, max_age_s) is blocks


@pytest.mark.parametrize("reason", list(ResetReason))
@pytest.mark.parametrize("platform", ["telegram", "api_server", "webhook"])
@pytest.mark.parametrize("had_activity", [True, False])
@pytest.mark.parametrize("idle", [1440, 90, 30, 61])
def test_notice_text_and_when(reason: ResetReason, platform: str, had_activity: bool, idle: int) -> None:
    policy = ResetPolicy(mode="both", idle_minutes=idle, at_hour=4)
    notice = reset_notice(reason, policy, platform, had_activity)
    always = reason in {ResetReason.suspended, ResetReason.resume_pending_expired}
    if not always and (not had_activity or platform in {"api_server", "webhook"}):
        assert notice is None
        return
    texts = {
        ResetReason.suspended: "previous session was stopped or interrupted",
        ResetReason.resume_pending_expired: "gateway restart recovery timed out",
        ResetReason.daily: "daily schedule at 4:00",
        ResetReason.idle: {
            1440: "inactive for 24h",
            90: "inactive for 1h 30m",
            30: "inactive for 30m",
            61: "inactive for 1h 1m",
        }[idle],
    }
    assert notice == (
        f"◐ Session automatically reset ({texts[reason]}). Conversation history cleared.\n"
        "Use /resume to browse and restore a previous session.\n"
        "Adjust reset timing in config.yaml under session_reset."
    )


CONFIGS: list[tuple[dict[str, Any], dict[str, Any], dict[str, str]]] = [
    ({}, {}, {}),
    ({"session_reset": {"mode": "idle", "idle_minutes": 30}}, {}, {}),
    ({"session_reset": {"mode": "daily", "at_hour": 30, "idle_minutes": 0}}, {}, {}),
    (
        {"session_reset": {"mode": "both", "at_hour": None, "notify": "off"}},
        {},
        {"SESSION_IDLE_MINUTES": "45"},
    ),
    ({"gateway": {"session_reset": {"mode": "idle"}, "group_sessions_per_user": False}}, {}, {}),
    (
        {"session_reset": {"mode": "idle"}},
        {"default_reset_policy": {"mode": "daily"}},
        {"SESSION_RESET_HOUR": "25"},
    ),
    ({"thread_sessions_per_user": "yes", "write_sessions_json": False}, {}, {"SESSION_RESET_HOUR": "x"}),
    (
        {},
        {"reset_by_type": {"dm": {"mode": "idle"}}, "reset_by_platform": {"telegram": {"mode": "none"}}},
        {},
    ),
    (
        {"session_reset": {"mode": "weekly", "bg_process_max_age_hours": 0}},
        {},
        {"SESSION_IDLE_MINUTES": "-5"},
    ),
]


@pytest.mark.parametrize(("yaml_cfg", "legacy", "env"), CONFIGS)
def test_config_read_as_the_agent_reads_it(
    agent_home: Path,
    monkeypatch: pytest.MonkeyPatch,
    yaml_cfg: dict[str, Any],
    legacy: dict[str, Any],
    env: dict[str, str],
) -> None:
    (agent_home / "config.yaml").write_text(yaml.safe_dump(yaml_cfg))
    if legacy:
        import json

        (agent_home / "gateway.json").write_text(json.dumps(legacy))
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    theirs = load_gateway_config()
    import os

    ours = parse_config(yaml_cfg, legacy, dict(os.environ))
    assert ours.default_policy.to_dict() == theirs.default_reset_policy.to_dict()
    assert {k: v.to_dict() for k, v in ours.by_type.items()} == {
        k: v.to_dict() for k, v in theirs.reset_by_type.items()
    }
    assert {k: v.to_dict() for k, v in ours.by_platform.items()} == {
        p.value: v.to_dict() for p, v in theirs.reset_by_platform.items()
    }
    assert ours.group_sessions_per_user == theirs.group_sessions_per_user
    assert ours.thread_sessions_per_user == theirs.thread_sessions_per_user
    assert ours.write_sessions_json == theirs.write_sessions_json
    for platform, chat_type in [("telegram", "dm"), ("discord", "dm"), ("slack", "group")]:
        mine = ours.policy_for(platform, chat_type).to_dict()
        assert mine == theirs.get_reset_policy(Platform(platform), chat_type).to_dict()
