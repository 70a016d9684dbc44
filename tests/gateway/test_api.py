"""The gateway reference's black-box checks and bad input, over the API."""

from __future__ import annotations

import asyncio
import json
import re
import time
from contextlib import closing
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.domain.reset_policy import daily_boundary
from app.errors import DatabaseBusy
from app.services.gateway import Gateway
from app.settings import Settings
from app.storage import gateway_files as files
from app.storage.backends import open_store
from app.storage.sqlite.driver import sqlite3
from tests.gateway.conftest import edit_entry, gateway_of, put_config, route, session_row

KEY = "agent:main:telegram:dm:99"
NOTICE = (
    "◐ Session automatically reset ({}). Conversation history cleared.\n"
    "Use /resume to browse and restore a previous session.\n"
    "Adjust reset timing in config.yaml under session_reset."
)


def add_message(client: TestClient, session_id: str, reopen: bool = False) -> None:
    response = client.post(
        f"/sessions/{session_id}/messages", params={"reopen": reopen}, json={"role": "user", "content": "hi"}
    )
    assert response.status_code == 201, response.text


@pytest.mark.parametrize(
    ("source", "key"),
    [
        ({"chat_id": "99"}, "agent:main:telegram:dm:99"),
        ({"chat_id": "99", "thread_id": "topic-1", "user_id": "42"}, "agent:main:telegram:dm:99:topic-1"),
        ({"chat_id": "", "user_id": "jordan"}, "agent:main:telegram:dm:jordan"),
        ({"chat_id": "", "user_id": "dima"}, "agent:main:telegram:dm:dima"),
        ({}, "agent:main:telegram:dm"),
    ],
)
def test_rows_1_to_4_dm_keys(client: TestClient, source: dict[str, Any], key: str) -> None:
    assert route(client, **source)["session_key"] == key


def test_rows_5_to_8_groups_and_threads(client: TestClient) -> None:
    alice = route(client, platform="discord", chat_type="group", chat_id="guild-123", user_id="alice")
    bob = route(client, platform="discord", chat_type="group", chat_id="guild-123", user_id="bob")
    assert alice["session_key"] != bob["session_key"] and alice["session_id"] != bob["session_id"]
    shared = [
        route(
            client,
            platform="discord",
            chat_type="group",
            chat_id="g2",
            user_id=u,
            group_sessions_per_user=False,
        )
        for u in ("alice", "bob")
    ]
    assert shared[0]["session_key"] == shared[1]["session_key"] == "agent:main:discord:group:g2"
    assert shared[0]["session_id"] == shared[1]["session_id"]
    thread = [
        route(client, chat_type="group", chat_id="-1002285219667", thread_id="17585", user_id=u)
        for u in ("a", "b")
    ]
    assert (
        thread[0]["session_key"]
        == thread[1]["session_key"]
        == "agent:main:telegram:group:-1002285219667:17585"
    )
    per_user = route(
        client,
        chat_type="group",
        chat_id="-1002285219667",
        thread_id="17585",
        user_id="42",
        thread_sessions_per_user=True,
    )
    assert per_user["session_key"] == "agent:main:telegram:group:-1002285219667:17585:42"


def test_row_9_whatsapp_lid_mapping(client: TestClient, home: Path) -> None:
    session_dir = home / "platforms" / "whatsapp" / "session"
    session_dir.mkdir(parents=True)
    (session_dir / "lid-mapping-999999999999999.json").write_text(json.dumps("15551234567@s.whatsapp.net"))
    phone = route(client, platform="whatsapp", chat_id="15551234567@s.whatsapp.net")
    lid = route(client, platform="whatsapp", chat_id="999999999999999@lid")
    assert phone["session_key"] == lid["session_key"] == "agent:main:whatsapp:dm:15551234567"
    assert phone["session_id"] == lid["session_id"]


def test_row_10_new_route(client: TestClient, raw: sqlite3.Connection) -> None:
    result = route(client, chat_id="99", user_id="42", chat_name="Bob", user_name="bob")
    assert result["created"] is True
    assert re.fullmatch(r"\d{8}_\d{6}_[0-9a-f]{8}", result["session_id"])
    assert result["entry"]["created_at"] == result["entry"]["updated_at"]
    row = session_row(raw, result["session_id"])
    assert (row["source"], row["user_id"], row["session_key"], row["chat_id"], row["chat_type"]) == (
        "telegram",
        "42",
        KEY,
        "99",
        "dm",
    )
    assert row["display_name"] == "Bob"
    assert json.loads(row["origin_json"])["user_name"] == "bob"


def test_row_11_no_policy_never_resets(client: TestClient, home: Path, raw: sqlite3.Connection) -> None:
    first = route(client, chat_id="99")
    edit_entry(raw, KEY, updated_at=datetime.now() - timedelta(days=30))
    again = route(client, chat_id="99")
    assert again["session_id"] == first["session_id"] and again["reset_reason"] is None


def aged_route(
    client: TestClient, home: Path, raw: sqlite3.Connection, age: timedelta, **entry: Any
) -> dict[str, Any]:
    """Route chat 99 once, age its entry by ``age`` (plus other member changes), route again."""
    route(client, chat_id="99")
    edit_entry(raw, KEY, updated_at=datetime.now() - age, **entry)
    return route(client, chat_id="99")


def test_row_12_idle_strict(client: TestClient, home: Path, raw: sqlite3.Connection) -> None:
    put_config(client, session_reset={"mode": "idle", "idle_minutes": 30})
    kept = aged_route(client, home, raw, timedelta(minutes=29))
    assert kept["reset_reason"] is None
    reset = aged_route(client, home, raw, timedelta(minutes=31))
    assert reset["reset_reason"] == "idle" and reset["created"] is True
    assert reset["session_id"] != kept["session_id"]
    assert session_row(raw, kept["session_id"])["end_reason"] == "idle"


def test_row_13_daily_boundary(client: TestClient, home: Path, raw: sqlite3.Connection) -> None:
    put_config(client, session_reset={"mode": "daily", "at_hour": 4})
    boundary = daily_boundary(datetime.now(), 4)
    route(client, chat_id="99")
    edit_entry(raw, KEY, updated_at=boundary - timedelta(microseconds=1))
    assert route(client, chat_id="99")["reset_reason"] == "daily"
    edit_entry(raw, KEY, updated_at=boundary)
    assert route(client, chat_id="99")["reset_reason"] is None


def test_rows_14_15_both_and_unknown_modes(client: TestClient, home: Path, raw: sqlite3.Connection) -> None:
    put_config(client, session_reset={"mode": "both", "idle_minutes": 30, "at_hour": 4})
    assert aged_route(client, home, raw, timedelta(days=3))["reset_reason"] == "idle"
    put_config(client, session_reset={"mode": "weekly", "idle_minutes": 1})
    assert aged_route(client, home, raw, timedelta(days=3))["reset_reason"] is None


def test_row_16_background_processes(client: TestClient, home: Path, raw: sqlite3.Connection) -> None:
    put_config(client, session_reset={"mode": "idle", "idle_minutes": 30, "bg_process_max_age_hours": 24})
    route(client, chat_id="99", background_processes=[{"started_at": time.time() - 60}])
    edit_entry(raw, KEY, updated_at=datetime.now() - timedelta(hours=2))
    # The list reported last is remembered: this message says nothing about processes.
    assert route(client, chat_id="99")["reset_reason"] is None
    edit_entry(raw, KEY, updated_at=datetime.now() - timedelta(hours=2))
    old = route(client, chat_id="99", background_processes=[{"started_at": time.time() - 25 * 3600}])
    assert old["reset_reason"] == "idle"


def test_row_17_platform_then_type_overrides(client: TestClient, home: Path, raw: sqlite3.Connection) -> None:
    put_config(
        client,
        reset_by_type={"dm": {"mode": "idle", "idle_minutes": 30}},
        reset_by_platform={"telegram": {"mode": "none"}},
    )
    assert aged_route(client, home, raw, timedelta(hours=2))["reset_reason"] is None
    route(client, platform="discord", chat_id="7")
    edit_entry(raw, "agent:main:discord:dm:7", updated_at=datetime.now() - timedelta(hours=2))
    assert route(client, platform="discord", chat_id="7")["reset_reason"] == "idle"


@pytest.mark.parametrize("tokens", [0, 1200])
def test_rows_18_19_activity_and_notice(
    client: TestClient, home: Path, raw: sqlite3.Connection, tokens: int
) -> None:
    put_config(client, session_reset={"mode": "idle", "idle_minutes": 1440})
    first = route(client, chat_id="99")
    reset = aged_route(client, home, raw, timedelta(days=2), last_prompt_tokens=tokens)
    assert reset["entry"]["reset_had_activity"] is (tokens > 0)
    assert reset["entry"]["was_auto_reset"] is True and reset["entry"]["auto_reset_reason"] == "idle"
    assert session_row(raw, first["session_id"])["end_reason"] == "idle"
    assert reset["notice"] == (NOTICE.format("inactive for 24h") if tokens else None)
    # The notice belongs to the first message after the reset only.
    after = route(client, chat_id="99")
    assert after["notice"] is None and after["entry"]["was_auto_reset"] is False


def test_row_20_reason_texts(client: TestClient, home: Path, raw: sqlite3.Connection) -> None:
    put_config(client, session_reset={"mode": "idle", "idle_minutes": 90})
    idle = aged_route(client, home, raw, timedelta(hours=2), last_prompt_tokens=5)
    assert idle["notice"] == NOTICE.format("inactive for 1h 30m")
    put_config(client, session_reset={"mode": "daily", "at_hour": 4})
    daily = aged_route(client, home, raw, timedelta(days=2), last_prompt_tokens=5)
    assert daily["notice"] == NOTICE.format("daily schedule at 4:00")


def test_rows_21_22_excluded_platforms_and_suspend(
    client: TestClient, home: Path, raw: sqlite3.Connection
) -> None:
    put_config(client, session_reset={"mode": "idle", "idle_minutes": 30})
    key = "agent:main:api_server:dm:c1"
    route(client, platform="api_server", chat_id="c1")
    edit_entry(raw, key, updated_at=datetime.now() - timedelta(hours=1), last_prompt_tokens=9)
    quiet = route(client, platform="api_server", chat_id="c1")
    assert quiet["reset_reason"] == "idle" and quiet["notice"] is None
    put_config(client, session_reset={"mode": "none"})
    suspended = client.post("/gateway/route/suspend", json={"session_key": key})
    assert suspended.status_code == 200 and suspended.json()["suspended"] is True
    after = route(client, platform="api_server", chat_id="c1")
    assert after["reset_reason"] == "suspended"
    assert after["notice"] == NOTICE.format("previous session was stopped or interrupted")
    assert session_row(raw, quiet["session_id"])["end_reason"] == "suspended"


def test_rows_23_24_resume_pending(client: TestClient, home: Path, raw: sqlite3.Connection) -> None:
    five_hours = datetime.now() - timedelta(hours=5)
    kept = aged_route(
        client, home, raw, timedelta(minutes=1), resume_pending=True, last_resume_marked_at=five_hours
    )
    assert kept["reset_reason"] is None
    put_config(client, session_reset={"mode": "idle", "idle_minutes": 1440})
    edit_entry(raw, KEY, resume_pending=True, last_resume_marked_at=datetime.now() - timedelta(seconds=3700))
    expired = route(client, chat_id="99")
    assert expired["reset_reason"] == "resume_pending_expired"
    assert expired["notice"] == NOTICE.format("gateway restart recovery timed out")
    assert session_row(raw, kept["session_id"])["end_reason"] == "resume_pending_expired"


def test_row_25_expiry_finalisation(client: TestClient, home: Path, raw: sqlite3.Connection) -> None:
    put_config(client, session_reset={"mode": "idle", "idle_minutes": 30})
    first = route(client, chat_id="99")
    route(client, chat_id="5")
    edit_entry(raw, KEY, updated_at=datetime.now() - timedelta(hours=1), model_override={"model": "m"})
    assert client.portal is not None
    assert client.portal.call(gateway_of(client).expire_once, 0) == 1
    row = session_row(raw, first["session_id"])
    assert (row["end_reason"], row["expiry_finalized"]) == ("session_reset", 1)
    entry = client.get(f"/gateway/routes/{KEY}").json()
    assert entry["expiry_finalized"] is True and "model_override" not in entry
    events = raw.execute(
        "SELECT data FROM hs_events WHERE type = 'session.expiring' AND session_id = ?",
        (first["session_id"],),
    ).fetchall()
    assert len(events) == 1 and json.loads(events[0][0])["session_key"] == KEY
    after = route(client, chat_id="99")
    assert after["session_id"] != first["session_id"] and after["entry"]["was_auto_reset"] is True
    assert session_row(raw, first["session_id"])["end_reason"] == "session_reset"


def test_row_26_row_ended_while_entry_live(client: TestClient, raw: sqlite3.Connection) -> None:
    first = route(client, chat_id="99")
    raw.execute(
        "UPDATE sessions SET ended_at = ?, end_reason = 'user_exit' WHERE id = ?",
        (time.time(), first["session_id"]),
    )
    after = route(client, chat_id="99")
    assert after["session_id"] != first["session_id"]
    assert after["entry"]["was_auto_reset"] is False and after["reset_reason"] is None


@pytest.mark.parametrize(("end_reason", "recovered"), [("agent_close", True), ("session_reset", False)])
def test_row_27_lost_entry_recovery(
    client: TestClient, home: Path, raw: sqlite3.Connection, end_reason: str, recovered: bool
) -> None:
    first = route(client, chat_id="99", user_id="42")
    add_message(client, first["session_id"])
    raw.execute(
        "UPDATE sessions SET ended_at = ?, end_reason = ? WHERE id = ?",
        (time.time(), end_reason, first["session_id"]),
    )
    raw.execute("DELETE FROM gateway_routing WHERE scope = ?", (gateway_of(client).scope,))
    after = route(client, chat_id="99", user_id="42")
    assert (after["session_id"] == first["session_id"]) is recovered
    assert after["created"] is not recovered
    if recovered:
        assert session_row(raw, first["session_id"])["end_reason"] is None


def test_rows_28_29_new_and_resume(client: TestClient, raw: sqlite3.Connection) -> None:
    # The chat has a user: /resume refuses an identity-less caller a session no entry routes to.
    first = route(client, chat_id="99", user_id="42")
    add_message(client, first["session_id"])
    add_message(client, first["session_id"])
    fresh = client.post("/gateway/route/reset", json={"session_key": KEY})
    assert fresh.status_code == 200
    body = fresh.json()
    assert body["reply"] == "✨ Session reset! Starting fresh."
    assert body["entry"]["is_fresh_reset"] is True and body["session_id"] != first["session_id"]
    assert session_row(raw, first["session_id"])["end_reason"] == "session_reset"
    titled = client.post("/gateway/route/reset", json={"session_key": KEY, "title": "  Deploy plan "}).json()
    assert titled["reply"] == "✨ New session started: Deploy plan"
    assert session_row(raw, titled["session_id"])["title"] == "Deploy plan"
    back = client.post("/gateway/route/switch", json={"session_key": KEY, "ref": first["session_id"]}).json()
    assert (
        back["reply"] == f"↻ Resumed session **{first['session_id']}** (2 messages). Conversation restored."
    )
    assert session_row(raw, titled["session_id"])["end_reason"] == "session_switch"
    assert session_row(raw, first["session_id"])["end_reason"] is None
    same = client.post("/gateway/route/switch", json={"session_key": KEY, "ref": first["session_id"]}).json()
    assert same["reply"] == f"📌 Already on session **{first['session_id']}**."
    by_title = client.post("/gateway/route/switch", json={"session_key": KEY, "ref": "Deploy plan"}).json()
    assert by_title["session_id"] == titled["session_id"]
    assert by_title["reply"] == "↻ Resumed session **Deploy plan**. Conversation restored."
    assert route(client, chat_id="99", user_id="42")["session_id"] == titled["session_id"]


def test_rows_30_31_index_formats(client: TestClient, home: Path, raw: sqlite3.Connection) -> None:
    results = [route(client, chat_id=str(n), chat_name="Ω café") for n in range(3)]
    assert client.portal is not None
    client.portal.call(gateway_of(client).mirror.flush)
    text = (home / "sessions" / "sessions.json").read_text(encoding="utf-8")
    mirror = json.loads(text)
    assert next(iter(mirror)) == "_README" and mirror["_README"].startswith(
        "LEGACY MIRROR of the gateway routing"
    )
    assert text.startswith('{\n  "_README": ')
    rows = dict(
        raw.execute(
            "SELECT session_key, entry_json FROM gateway_routing WHERE scope = ?", (gateway_of(client).scope,)
        )
    )
    for result in results:
        key = result["session_key"]
        assert mirror[key] == result["entry"] == json.loads(rows[key])
        assert rows[key] == json.dumps(result["entry"])
        assert datetime.fromisoformat(mirror[key]["updated_at"]).tzinfo is None
    assert not list((home / "sessions").glob(".sessions_*.tmp"))


def test_row_32_no_mirror_when_disabled(client: TestClient, home: Path, raw: sqlite3.Connection) -> None:
    put_config(client, write_sessions_json=False)
    route(client, chat_id="99")
    assert client.portal is not None
    client.portal.call(gateway_of(client).mirror.flush)
    assert not (home / "sessions" / "sessions.json").exists()
    assert raw.execute("SELECT COUNT(*) FROM gateway_routing").fetchone()[0] == 1


def test_routes_listing_pages_and_filters(client: TestClient) -> None:
    for n in range(5):
        route(client, chat_id=f"t{n}")
    discord = route(client, platform="discord", chat_id="d1")
    keys: list[str] = []
    cursor = None
    while True:
        params: dict[str, Any] = {"limit": 2}
        if cursor:
            params["cursor"] = cursor
        page = client.get("/gateway/routes", params=params).json()
        keys += [e["session_key"] for e in page["items"]]
        cursor = page["next_cursor"]
        if not cursor:
            break
    assert keys == sorted(keys) and len(keys) == 6
    only = client.get("/gateway/routes", params={"platform": "discord"}).json()["items"]
    assert [e["session_key"] for e in only] == [discord["session_key"]]
    by_id = client.get("/gateway/routes", params={"session_id": discord["session_id"]}).json()["items"]
    assert len(by_id) == 1
    assert client.get("/gateway/routes", params={"cursor": "junk"}).json()["code"] == "invalid_cursor"
    assert client.get(f"/gateway/routes/{discord['session_key']}").json() == discord["entry"]
    missing = client.get("/gateway/routes/agent:main:telegram:dm:nobody")
    assert (missing.status_code, missing.json()["code"]) == (404, "route_not_found")


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"platform": "myspace"}, "unknown_platform"),
        ({"platform": "telegram", "chat_type": "forum"}, "invalid_chat_type"),
        ({"platform": "telegram", "chat_id": "x" * 513}, "validation_error"),
        ({"platform": "telegram", "chat_id": "a\x00b"}, "invalid_text"),
        ({"platform": "telegram", "user_id": 42}, "validation_error"),
        ({"platform": "telegram", "extra": 1}, "validation_error"),
        ({"platform": "telegram", "background_processes": [{"started_at": "now"}]}, "validation_error"),
        ({"platform": "telegram", "profile": "../x"}, "validation_error"),
    ],
)
def test_bad_route_input(client: TestClient, body: dict[str, Any], code: str) -> None:
    response = client.post("/gateway/route", json=body)
    assert response.status_code == 422
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["code"] == code


@pytest.mark.parametrize(
    ("path", "extra"),
    [("/gateway/route/reset", {}), ("/gateway/route/switch", {"ref": "x"}), ("/gateway/route/suspend", {})],
)
def test_unknown_key_is_route_not_found(client: TestClient, path: str, extra: dict[str, Any]) -> None:
    response = client.post(path, json={"session_key": "agent:main:telegram:dm:none", **extra})
    assert (response.status_code, response.json()["code"]) == (404, "route_not_found")


def test_ambiguous_and_unknown_refs(client: TestClient) -> None:
    route(client, chat_id="99")
    for sid in ("20990101_000000_aaaa0001", "20990101_000000_aaaa0002"):
        assert client.post("/sessions", json={"source": "cli", "id": sid}).status_code == 201
    ambiguous = client.post("/gateway/route/switch", json={"session_key": KEY, "ref": "20990101_000000_aaaa"})
    assert (ambiguous.status_code, ambiguous.json()["code"]) == (409, "ambiguous_session_ref")
    assert {c["id"] for c in ambiguous.json()["candidates"]} == {
        "20990101_000000_aaaa0001",
        "20990101_000000_aaaa0002",
    }
    unknown = client.post("/gateway/route/switch", json={"session_key": KEY, "ref": "nothing-like-it"})
    assert (unknown.status_code, unknown.json()["code"]) == (404, "session_not_found")


def test_config_round_trip_and_bad_overrides(client: TestClient, home: Path) -> None:
    put_config(client, session_reset={"mode": "idle", "idle_minutes": 45}, group_sessions_per_user=False)
    got = client.get("/gateway/config").json()
    assert got["session_reset"]["idle_minutes"] == 45 and got["group_sessions_per_user"] is False
    import yaml

    stored = yaml.safe_load((home / "config.yaml").read_text())
    assert stored["session_reset"]["mode"] == "idle" and stored["group_sessions_per_user"] is False
    bad_type = client.put("/gateway/config", json={"reset_by_type": {"forum": {"mode": "idle"}}})
    assert bad_type.json()["code"] == "invalid_chat_type"
    bad_platform = client.put("/gateway/config", json={"reset_by_platform": {"myspace": {"mode": "idle"}}})
    assert bad_platform.json()["code"] == "unknown_platform"
    assert client.put("/gateway/config", json={"session_reset": {"at_hour": 24}}).status_code == 422


def test_compression_continuation_is_followed(client: TestClient, raw: sqlite3.Connection) -> None:
    """An entry left on a session that compression ended is healed to its continuation, as the agent's
    store heals it (without a reset check on that message)."""
    first = route(client, chat_id="99")
    child = "20990101_000000_c0ffee00"
    raw.execute(
        "INSERT INTO sessions (id, source, parent_session_id, started_at) VALUES (?, 'telegram', ?, ?)",
        (child, first["session_id"], time.time()),
    )
    raw.execute(
        "UPDATE sessions SET ended_at = ?, end_reason = 'compression' WHERE id = ?",
        (time.time(), first["session_id"]),
    )
    healed = route(client, chat_id="99")
    assert healed["session_id"] == child and healed["created"] is False
    assert route(client, chat_id="99")["session_id"] == child


def test_mirror_follows_every_change(client: TestClient, home: Path, raw: sqlite3.Connection) -> None:
    """The mirror is rebuilt incrementally: changed rows re-encoded, vanished keys dropped, rows another
    writer replaced picked up; its layout is json.dump(indent=2)'s."""
    assert client.portal is not None
    flush = gateway_of(client).mirror.flush
    path = home / "sessions" / "sessions.json"
    for n in range(4):
        route(client, chat_id=str(n))
    client.portal.call(flush)
    raw.execute("DELETE FROM gateway_routing WHERE session_key = 'agent:main:telegram:dm:1'")
    edited = edit_entry(raw, "agent:main:telegram:dm:2", display_name="renamed")
    raw.execute(
        "UPDATE gateway_routing SET updated_at = ? WHERE session_key = 'agent:main:telegram:dm:2'",
        (time.time(),),
    )
    route(client, chat_id="0")
    route(client, chat_id="9")
    client.portal.call(flush)
    text = path.read_text(encoding="utf-8")
    mirror = json.loads(text)
    table = {k: json.loads(v) for k, v in raw.execute("SELECT session_key, entry_json FROM gateway_routing")}
    assert {k: v for k, v in mirror.items() if k != "_README"} == table
    assert mirror["agent:main:telegram:dm:2"] == edited
    assert text == json.dumps(mirror, indent=2)


def test_prune_old_entries(client: TestClient, home: Path, raw: sqlite3.Connection) -> None:
    """``prune_old_entries(session_store_max_age_days)`` in the watcher pass: entries idle longer go,
    suspended ones and those with a live background process stay."""
    (home / "gateway.json").write_text(json.dumps({"session_store_max_age_days": 90}))
    old = datetime.now() - timedelta(days=100)
    for chat in ("1", "2", "3", "4"):
        route(client, chat_id=chat, background_processes=[{"started_at": time.time()}] if chat == "3" else [])
    for chat in ("1", "2", "3"):
        edit_entry(raw, f"agent:main:telegram:dm:{chat}", updated_at=old, suspended=chat == "2")
    assert client.portal is not None
    client.portal.call(gateway_of(client).expire_once, 0)
    keys = [e["session_key"] for e in client.get("/gateway/routes").json()["items"]]
    assert keys == ["agent:main:telegram:dm:2", "agent:main:telegram:dm:3", "agent:main:telegram:dm:4"]
    (home / "gateway.json").write_text(json.dumps({"session_store_max_age_days": 0}))
    edit_entry(raw, "agent:main:telegram:dm:4", updated_at=old)
    client.portal.call(gateway_of(client).expire_once, 0)
    assert len(client.get("/gateway/routes").json()["items"]) == 3


def test_stale_entries_pruned_or_repointed_at_start(
    client: TestClient, home: Path, raw: sqlite3.Connection
) -> None:
    """As the agent's store does when it loads: an entry whose row was ended is dropped, unless a
    recoverable row of the same chat exists (then the entry points there); live entries stay."""
    gone = route(client, chat_id="1")
    kept = route(client, chat_id="2")
    moved = route(client, chat_id="3", user_id="3")
    ended = time.time()
    raw.execute(
        "UPDATE sessions SET ended_at = ?, end_reason = 'user_exit' WHERE id IN (?, ?)",
        (ended, gone["session_id"], moved["session_id"]),
    )
    live = "20990101_000000_0000beef"
    raw.execute(
        "INSERT INTO sessions (id, source, user_id, session_key, chat_id, chat_type, started_at, "
        "message_count) VALUES (?, 'telegram', '3', 'agent:main:telegram:dm:3', '3', 'dm', ?, 1)",
        (live, ended),
    )
    assert client.portal is not None
    assert client.portal.call(gateway_of(client).prune_stale) == 2
    items = {e["session_key"]: e["session_id"] for e in client.get("/gateway/routes").json()["items"]}
    assert items == {kept["session_key"]: kept["session_id"], moved["session_key"]: live}


def test_config_put_keeps_what_it_cannot_read(client: TestClient, home: Path) -> None:
    """A config.yaml that does not parse is not overwritten (409); an existing one keeps its other keys
    and its permissions."""
    path = home / "config.yaml"
    path.write_text("model: [unclosed\n")
    refused = client.put("/gateway/config", json={"session_reset": {"mode": "idle"}})
    assert (refused.status_code, refused.json()["code"]) == (409, "config_unreadable")
    assert path.read_text() == "model: [unclosed\n"
    path.write_text("model: gpt\nsessions:\n  auto_prune: false\n")
    path.chmod(0o644)
    put_config(client, session_reset={"mode": "daily"})
    import yaml

    stored = yaml.safe_load(path.read_text())
    assert stored["model"] == "gpt" and stored["sessions"] == {"auto_prune": False}
    assert stored["session_reset"]["mode"] == "daily"
    assert path.stat().st_mode & 0o777 == 0o644


text = st.one_of(
    st.none(),
    st.text(max_size=40),
    st.integers(),
    st.booleans(),
    st.sampled_from(["", "..", "\x00", "a" * 600]),
)
bodies = st.dictionaries(
    st.sampled_from(
        [
            "platform",
            "chat_type",
            "chat_id",
            "chat_name",
            "user_id",
            "user_name",
            "user_id_alt",
            "thread_id",
            "chat_topic",
            "group_sessions_per_user",
            "thread_sessions_per_user",
            "profile",
            "background_processes",
            "other",
        ]
    ),
    st.one_of(
        text,
        st.sampled_from(["telegram", "whatsapp", "dm", "group", "thread"]),
        st.lists(
            st.fixed_dictionaries(
                {
                    "started_at": st.one_of(
                        st.floats(allow_nan=False, allow_infinity=False), st.integers(), st.text()
                    )
                }
            )
        ),
    ),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=bodies)
def test_no_input_gives_a_server_error(client: TestClient, body: dict[str, Any]) -> None:
    response = client.post("/gateway/route", json=body)
    assert response.status_code in (200, 422), response.text
    if response.status_code == 422:
        assert response.json()["code"]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=text, ref=text, path=st.sampled_from(["reset", "switch", "suspend"]))
def test_no_command_input_gives_a_server_error(client: TestClient, key: Any, ref: Any, path: str) -> None:
    response = client.post(f"/gateway/route/{path}", json={"session_key": key, "ref": ref, "title": ref})
    assert response.status_code in (404, 422), response.text
    # A key that is slashes and dot segments only has no path of its own: the server sees "%2F" as "/"
    # (ASGI decodes the path), so "/" asks for the routes' listing.
    addressable = isinstance(key, str) and key.strip("/") not in ("", ".", "..")
    lookup = client.get(f"/gateway/routes/{quote(key, safe='')}") if addressable else None
    assert lookup is None or lookup.status_code in (404, 422)


def test_turn_reports_activity_for_the_notice(
    client: TestClient, home: Path, raw: sqlite3.Connection
) -> None:
    """``update_session`` over the API: a turn's prompt tokens make the next automatic reset notified."""
    put_config(client, session_reset={"mode": "idle", "idle_minutes": 30})
    first = route(client, chat_id="99", user_id="42")
    turned = client.post("/gateway/route/turn", json={"session_key": KEY, "last_prompt_tokens": 1500})
    assert turned.status_code == 200 and turned.json()["last_prompt_tokens"] == 1500
    assert turned.json()["updated_at"] >= first["entry"]["updated_at"]
    edit_entry(raw, KEY, updated_at=datetime.now() - timedelta(hours=1))
    reset = route(client, chat_id="99", user_id="42")
    assert reset["reset_reason"] == "idle" and reset["entry"]["reset_had_activity"] is True
    assert reset["notice"] == NOTICE.format("inactive for 30m")
    missing = client.post("/gateway/route/turn", json={"session_key": "agent:main:telegram:dm:x"})
    assert (missing.status_code, missing.json()["code"]) == (404, "route_not_found")
    assert (
        client.post("/gateway/route/turn", json={"session_key": KEY, "last_prompt_tokens": -1}).status_code
        == 422
    )


def test_mirror_without_a_database_file(fileless: TestClient, home: Path) -> None:
    """A store with no file for a worker process to read (PostgreSQL) feeds the mirror through its own
    reads: the same document, kept incrementally (a vanished key is dropped)."""
    assert fileless.portal is not None
    flush = gateway_of(fileless).mirror.flush
    for n in range(3):
        route(fileless, chat_id=str(n))
    fileless.portal.call(flush)
    conn = sqlite3.connect(home / "state.db", isolation_level=None, timeout=10)
    try:
        conn.execute("DELETE FROM gateway_routing WHERE session_key = 'agent:main:telegram:dm:1'")
        route(fileless, chat_id="7")
        fileless.portal.call(flush)
        rows = conn.execute("SELECT session_key, entry_json FROM gateway_routing").fetchall()
    finally:
        conn.close()
    text = (home / "sessions" / "sessions.json").read_text(encoding="utf-8")
    mirror = json.loads(text)
    table = {k: json.loads(v) for k, v in rows}
    assert sorted(table) == [f"agent:main:telegram:dm:{n}" for n in (0, 2, 7)]
    assert {k: v for k, v in mirror.items() if k != "_README"} == table
    assert text == json.dumps(mirror, indent=2)


def test_the_mirror_outlives_an_unexpected_failure(
    fileless: TestClient, monkeypatch: pytest.MonkeyPatch, home: Path
) -> None:
    """A rewrite that fails is retried, whatever the failure: the task goes on and the file catches up.
    PostgreSQL out of reach reaches the mirror's reads as ``DatabaseBusy`` (it used to end the task)."""
    real = files.write_mirror
    failures: list[str] = []

    def fails_once(*args: Any) -> None:
        if not failures:
            failures.append("raised")
            raise DatabaseBusy()
        real(*args)

    # The rewrite looks the function up when it runs, after the first change.
    monkeypatch.setattr(files, "write_mirror", fails_once)
    route(fileless, chat_id="5")
    path = home / "sessions" / "sessions.json"
    deadline = time.monotonic() + 20
    while not (path.exists() and "agent:main:telegram:dm:5" in path.read_text(encoding="utf-8")):
        assert time.monotonic() < deadline, "the mirror never caught up"
        time.sleep(0.1)
    assert failures == ["raised"]


def test_the_expiry_watcher_outlives_a_failed_pass(settings: Settings) -> None:
    """An expiry pass that fails with anything (a bug, a serialization failure left after the retries) is
    logged; the next pass still comes."""

    async def passes_seen() -> int:
        passes: list[int] = []

        async def expire_once(grace_s: float | None = None) -> int:
            passes.append(len(passes))
            if len(passes) == 1:
                raise RuntimeError("a bug in one pass")
            return 0

        with closing(open_store(settings)) as db:
            gateway = Gateway(db, settings.home, expiry_first_s=0, expiry_interval_s=0.01)
            gateway.expire_once = expire_once  # type: ignore[method-assign]
            await gateway.start()
            deadline = time.monotonic() + 20
            while len(passes) < 3 and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
            await gateway.stop()
        return len(passes)

    assert asyncio.run(passes_seen()) >= 3
