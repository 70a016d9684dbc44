"""Reported background processes survive a restart: the expiry finalisation and the next message still
honour them."""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import cast

from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from app.storage.sqlite.driver import sqlite3
from tests.conftest import TOKEN, RawDatabase
from tests.gateway.conftest import edit_entry, gateway_of, put_config, route, scope, session_row

KEY = "agent:main:telegram:dm:99"


def _restarted(settings: Settings) -> TestClient:
    return TestClient(create_app(settings), headers={"Authorization": f"Bearer {TOKEN}"})


def test_processes_block_expiry_after_a_restart(settings: Settings, home: Path) -> None:
    with _restarted(settings) as client:
        put_config(client, session_reset={"mode": "idle", "idle_minutes": 30})
        first = route(client, chat_id="99", background_processes=[{"started_at": time.time() - 60}])
        route(client, chat_id="5", background_processes=[{"started_at": time.time() - 60}])
        # Chat 5 reports its processes finished: nothing of it is kept.
        route(client, chat_id="5", background_processes=[])
    with RawDatabase(settings, named_rows=False) as db:
        raw = cast(sqlite3.Connection, db)
        stored = raw.execute(
            "SELECT session_key FROM hs_gateway_processes WHERE scope = ?", (scope(settings),)
        )
        assert [r[0] for r in stored] == [KEY]
        edit_entry(raw, KEY, updated_at=datetime.now() - timedelta(hours=1))
        with _restarted(settings) as client:
            assert client.portal is not None
            assert client.portal.call(gateway_of(client).expire_once, 0) == 0
            assert session_row(raw, first["session_id"])["end_reason"] is None
            # A message that reports nothing keeps the stored list, which still blocks the idle reset.
            assert route(client, chat_id="99")["session_id"] == first["session_id"]
            # Once the processes are reported finished, the idle policy applies again.
            route(client, chat_id="99", background_processes=[])
            edit_entry(raw, KEY, updated_at=datetime.now() - timedelta(hours=1))
            assert client.portal.call(gateway_of(client).expire_once, 0) == 1
            assert session_row(raw, first["session_id"])["end_reason"] == "session_reset"
